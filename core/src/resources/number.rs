//! Go float behaviour the calculator relies on: `strconv.ParseFloat` on NUMBER tokens (through
//! `parseNumber` in `calculator.y`) and `fmt.Sprintf("%g", x)` for printing number results.

use std::fmt::{self, Write};

/// How a NUMBER token was read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumberRead {
    /// Parsed normally.
    Ok(f64),
    /// Not a float: the reference silently reads it as 0 (`1K`, `2cpu`, `1e`, `.`).
    Unparsable,
    /// Out of float64 range: `+Inf` without `%`, 0 with `%` (the reference ignores the error).
    Overflow(f64),
}

impl NumberRead {
    /// The value the reference uses.
    pub fn value(self) -> f64 {
        match self {
            NumberRead::Ok(v) | NumberRead::Overflow(v) => v,
            NumberRead::Unparsable => 0.0,
        }
    }
}

/// Go `strconv.ParseFloat(s, 64)` restricted to what a NUMBER token can hold: decimal
/// `digits[.digits]` / `.digits` with an optional exponent. `Err(true)` = out of range.
fn go_parse_float(s: &str) -> Result<f64, bool> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mant = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        mant += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            mant += 1;
        }
    }
    if mant == 0 {
        return Err(false);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let ds = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == ds {
            return Err(false);
        }
    }
    if i != b.len() {
        return Err(false);
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_infinite() => Err(true),
        Ok(v) => Ok(v),
        Err(_) => Err(false),
    }
}

/// `parseNumber`: a trailing `%` divides by 100 (any failure, overflow included, gives 0);
/// otherwise a syntax failure gives 0 and an overflow gives +Inf.
pub fn read_number(token: &str) -> NumberRead {
    // Fast path: up to 15 ASCII digits are exact in a float64, exactly as ParseFloat reads them.
    let (digits, pct) = match token.strip_suffix('%') {
        Some(rest) => (rest, true),
        None => (token, false),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit()) {
        let v = digits
            .bytes()
            .fold(0u64, |acc, b| acc * 10 + (b - b'0') as u64) as f64;
        return NumberRead::Ok(if pct { v / 100.0 } else { v });
    }
    if let Some(rest) = token.strip_suffix('%') {
        return match go_parse_float(rest) {
            Ok(v) => NumberRead::Ok(v / 100.0),
            Err(true) => NumberRead::Overflow(0.0),
            Err(false) => NumberRead::Unparsable,
        };
    }
    match go_parse_float(token) {
        Ok(v) => NumberRead::Ok(v),
        Err(true) => NumberRead::Overflow(f64::INFINITY),
        Err(false) => NumberRead::Unparsable,
    }
}

/// Writes `x` like Go `fmt.Sprintf("%g", x)`: shortest round-trip digits; exponent form when the
/// decimal exponent is < -4 or >= 6 (`1e+06`, `1.5e-05`); `+Inf`, `-Inf`, `NaN`, `-0`.
pub fn write_go_g<W: Write>(x: f64, out: &mut W) -> fmt::Result {
    if x.is_nan() {
        return out.write_str("NaN");
    }
    if x.is_infinite() {
        return out.write_str(if x > 0.0 { "+Inf" } else { "-Inf" });
    }
    if x == 0.0 {
        return out.write_str(if x.is_sign_negative() { "-0" } else { "0" });
    }
    // Integers below 10^6 print as plain digits (decimal exponent < 6).
    if x.fract() == 0.0 && x.abs() < 1e6 {
        return crate::quantity::print::write_int(x as i64, out);
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde-5".
    let mut buf = StackBuf::new();
    write!(buf, "{:e}", x.abs())?;
    let s = buf.as_str();
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut digits = StackBuf::new();
    for c in mant.bytes().filter(u8::is_ascii_digit) {
        digits.push(c);
    }
    let d = digits.as_str();
    if x < 0.0 {
        out.write_char('-')?;
    }
    if !(-4..6).contains(&exp) {
        out.write_str(&d[..1])?;
        if d.len() > 1 {
            out.write_char('.')?;
            out.write_str(&d[1..])?;
        }
        let sign = if exp < 0 { '-' } else { '+' };
        return write!(out, "e{sign}{:02}", exp.unsigned_abs());
    }
    if exp < 0 {
        out.write_str("0.")?;
        for _ in 0..(-exp - 1) {
            out.write_char('0')?;
        }
        return out.write_str(d);
    }
    let int_len = exp as usize + 1;
    if d.len() <= int_len {
        out.write_str(d)?;
        for _ in d.len()..int_len {
            out.write_char('0')?;
        }
        Ok(())
    } else {
        out.write_str(&d[..int_len])?;
        out.write_char('.')?;
        out.write_str(&d[int_len..])
    }
}

/// A small fixed buffer so `%g` formatting does not allocate.
struct StackBuf {
    buf: [u8; 40],
    len: usize,
}

impl StackBuf {
    fn new() -> Self {
        StackBuf {
            buf: [0; 40],
            len: 0,
        }
    }
    fn push(&mut self, c: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = c;
            self.len += 1;
        }
    }
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl Write for StackBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.len + s.len() > self.buf.len() {
            return Err(fmt::Error);
        }
        for b in s.bytes() {
            self.push(b);
        }
        Ok(())
    }
}

/// `%g` of `x` as a `String`.
pub fn go_g(x: f64) -> String {
    let mut s = String::new();
    let _ = write_go_g(x, &mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_format_matches_go() {
        for (x, s) in [
            (1e6, "1e+06"),
            (1.5e-5, "1.5e-05"),
            (1e18, "1e+18"),
            (123456.0, "123456"),
            (0.0001, "0.0001"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.0 / 3.0, "0.3333333333333333"),
            (-0.0, "-0"),
            (0.5, "0.5"),
            (100.0, "100"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (f64::NAN, "NaN"),
            (-2.5, "-2.5"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (123456789.0, "1.23456789e+08"),
            (999999.0, "999999"),
        ] {
            assert_eq!(go_g(x), s, "{x:?}");
        }
    }

    #[test]
    fn number_tokens_read_like_parse_float() {
        assert_eq!(read_number("50%"), NumberRead::Ok(0.5));
        assert_eq!(read_number("1K"), NumberRead::Unparsable);
        assert_eq!(read_number("1e"), NumberRead::Unparsable);
        assert_eq!(read_number("."), NumberRead::Unparsable);
        assert_eq!(read_number("1."), NumberRead::Ok(1.0));
        assert_eq!(read_number("1e400"), NumberRead::Overflow(f64::INFINITY));
        assert_eq!(read_number("1e400%"), NumberRead::Overflow(0.0));
        assert_eq!(read_number("50%5"), NumberRead::Unparsable);
    }
}
