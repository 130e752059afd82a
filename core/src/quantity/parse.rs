//! `ParseQuantity` (apimachinery `pkg/api/resource/quantity.go`, `suffix.go`): the int64 fast path,
//! the exact slow path and the retained-text rule.

use super::amount::{Amount, Dec, MAX_DIGITS, digits, pow10};
use super::{Format, Quantity, QuantityError};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::borrow::Cow;

/// The pieces `parseQuantityString` splits a quantity into (byte ranges of the input).
struct Parts<'a> {
    positive: bool,
    /// Sign, digits and fraction as written (what the slow path hands to inf.Dec).
    value: &'a str,
    /// Integer digits without leading zeros (`"0"` when none remain).
    num: &'a str,
    /// Fraction digits.
    denom: &'a str,
    suffix: &'a str,
}

fn split(s: &str) -> Result<Parts<'_>, QuantityError> {
    let b = s.as_bytes();
    let end = b.len();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    // Leading zeros.
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        return Ok(Parts {
            positive,
            value: "0",
            num: "0",
            denom: "",
            suffix: "",
        });
    }
    let start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        return Ok(Parts {
            positive,
            value: s,
            num: &s[start..],
            denom: "",
            suffix: "",
        });
    }
    let num = if pos == start { "0" } else { &s[start..pos] };
    let mut denom = "";
    if b[pos] == b'.' {
        pos += 1;
        let ds = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        if pos >= end {
            return Ok(Parts {
                positive,
                value: s,
                num,
                denom: &s[ds..],
                suffix: "",
            });
        }
        denom = &s[ds..pos];
    }
    let value = &s[..pos];
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos >= end {
        return Ok(Parts {
            positive,
            value,
            num,
            denom,
            suffix: &s[suffix_start..],
        });
    }
    if b[pos] == b'-' || b[pos] == b'+' {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        return Ok(Parts {
            positive,
            value,
            num,
            denom,
            suffix: &s[suffix_start..],
        });
    }
    Err(QuantityError::Format)
}

/// `(base, exponent, format)` of a suffix (apimachinery `suffixer.interpret`).
fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    let dec = |e| Some((10, e, Format::DecimalSI));
    let bin = |e| Some((2, e, Format::BinarySI));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        _ => {
            let b = suffix.as_bytes();
            if b.len() > 1 && (b[0] == b'e' || b[0] == b'E') {
                // strconv.ParseInt(.., 10, 64) then int32() truncation.
                let e = go_parse_i64(&suffix[1..])?;
                Some((10, e as i32, Format::DecimalExponent))
            } else {
                None
            }
        }
    }
}

/// Go `strconv.ParseInt(s, 10, 64)`: optional sign, ASCII digits, no overflow.
fn go_parse_i64(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let (neg, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: i128 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (d - b'0') as i128;
        if v > i64::MAX as i128 + 1 {
            return None;
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

/// Parses `s` exactly as apimachinery `ParseQuantity` does (see [`Quantity::parse`]).
#[inline]
pub fn parse(s: &str) -> Result<Quantity<'_>, QuantityError> {
    match fast(s) {
        Some(q) => Ok(q),
        None => general(s),
    }
}

/// The common shape in one pass: `[1-9][0-9]{0,14}` followed by nothing, a decimal SI suffix or
/// `Ki`/`Mi`/`Gi`/`Ti`, when the value is on apimachinery's int64 fast path. Gives exactly what
/// [`general`] gives for such text; `None` for anything else.
#[inline]
fn fast(s: &str) -> Option<Quantity<'_>> {
    let (value, scale, format, retained) = fast_parts(s)?;
    Some(Quantity {
        amount: Amount::Int { value, scale },
        format,
        text: if retained {
            Some(Cow::Borrowed(s))
        } else {
            None
        },
    })
}

/// [`fast`] as raw parts: `(value, scale, format, text retained)` for `value * 10^scale`.
#[inline]
pub(crate) fn fast_parts(s: &str) -> Option<(i64, i32, Format, bool)> {
    let b = s.as_bytes();
    let first = *b.first()?;
    if !(b'1'..=b'9').contains(&first) {
        return None;
    }
    let mut value = (first - b'0') as i64;
    let mut n = 1;
    while let Some(&d) = b.get(n) {
        if !d.is_ascii_digit() {
            break;
        }
        if n == 15 {
            return None;
        }
        value = value * 10 + (d - b'0') as i64;
        n += 1;
    }
    let (format, exponent) = match b.get(n..)? {
        b"" => (Format::DecimalSI, 0),
        b"n" => (Format::DecimalSI, -9),
        b"u" => (Format::DecimalSI, -6),
        b"m" => (Format::DecimalSI, -3),
        b"k" => (Format::DecimalSI, 3),
        b"M" => (Format::DecimalSI, 6),
        b"G" => (Format::DecimalSI, 9),
        b"T" => (Format::DecimalSI, 12),
        b"P" => (Format::DecimalSI, 15),
        b"E" => (Format::DecimalSI, 18),
        b"Ki" => (Format::BinarySI, 10),
        b"Mi" => (Format::BinarySI, 20),
        b"Gi" => (Format::BinarySI, 30),
        b"Ti" => (Format::BinarySI, 40),
        _ => return None,
    };
    if format == Format::BinarySI {
        if 15 - n as i32 - (exponent * 3 / 10) - 1 < 0 {
            return None;
        }
        let v = value.checked_mul(1i64 << exponent)?;
        Some((v, 0, format, value & 0x07 != 0))
    } else {
        // Every suffix exponent is a multiple of 3; the text is kept unless it ends in "000".
        let zeros = n >= 3 && b.get(n - 3..n).is_some_and(|t| t == b"000");
        Some((value, exponent, format, !zeros))
    }
}

/// Every form (see [`parse`]).
fn general(s: &str) -> Result<Quantity<'_>, QuantityError> {
    if s.is_empty() {
        return Err(QuantityError::Empty);
    }
    if s == "0" {
        return Ok(Quantity {
            amount: Amount::ZERO,
            format: Format::DecimalSI,
            text: Some(Cow::Borrowed(s)),
        });
    }
    let p = split(s)?;
    let (base, exponent, format) = interpret(p.suffix).ok_or(QuantityError::Suffix)?;

    let mut scale: i32 = 0;
    let mut mantissa: i64 = 1;
    let precision: i32 = match format {
        Format::DecimalSI | Format::DecimalExponent => {
            scale = exponent;
            18 - (p.num.len() + p.denom.len()) as i32
        }
        _ => {
            if exponent >= 0 && p.denom.is_empty() {
                mantissa = 1i64 << exponent;
                15 - p.num.len() as i32 - (exponent * 3 / 10) - 1
            } else {
                -1
            }
        }
    };

    if precision >= 0 {
        scale = scale.wrapping_sub(p.denom.len() as i32);
        if scale >= -9 {
            // num + denom: at most 18 ASCII digits.
            let mut value: i64 = 0;
            for d in p.num.bytes().chain(p.denom.bytes()) {
                value = value * 10 + (d - b'0') as i64;
            }
            if let Some(mut result) = value.checked_mul(mantissa) {
                if !p.positive {
                    result = -result;
                }
                let amount = Amount::Int {
                    value: result,
                    scale,
                };
                let retained = match format {
                    Format::BinarySI => exponent % 10 == 0 && value & 0x07 != 0,
                    _ => {
                        let first = p.num.as_bytes().first().copied().unwrap_or(b'0');
                        let mut tail = p.denom.bytes().rev().chain(p.num.bytes().rev()).take(3);
                        let zeros = tail.by_ref().filter(|&c| c == b'0').count() == 3;
                        scale % 3 == 0 && !zeros && first != b'0'
                    }
                };
                let text = if retained {
                    Some(Cow::Borrowed(s))
                } else {
                    None
                };
                return Ok(Quantity {
                    amount,
                    format,
                    text,
                });
            }
        }
    }

    // Slow path: exact decimal.
    let (mut unscaled, mut dscale) = dec_from_str(p.value)?;
    if base == 10 {
        dscale = dscale.wrapping_sub(exponent);
    } else {
        unscaled <<= exponent as usize;
    }
    let negative = unscaled.is_negative();
    if negative {
        unscaled = -unscaled;
    }
    if !unscaled.is_zero() {
        // Round up (away from zero) to nano: scale 9.
        if dscale > 9 {
            let diff = (dscale as i64 - 9) as u64;
            if diff > digits(&unscaled) {
                unscaled = BigInt::from(1);
            } else {
                let d = pow10(diff).map_err(|_| QuantityError::TooLarge)?;
                let (q, r) = (&unscaled / &d, &unscaled % &d);
                unscaled = if r.is_zero() { q } else { q + 1 };
            }
        } else if dscale < 9 {
            let diff = (9 - dscale as i64) as u64;
            if diff + digits(&unscaled) > MAX_DIGITS {
                return Err(QuantityError::TooLarge);
            }
            unscaled *= pow10(diff).map_err(|_| QuantityError::TooLarge)?;
        }
        dscale = 9;
    }
    let mut format = format;
    if format == Format::BinarySI {
        // Cap at 2^63-1 (as a scale-0 decimal), switch values below 1 to DecimalSI.
        let max = BigInt::from(i64::MAX);
        if super::amount::cmp_big(&unscaled, -(dscale as i64), &max, 0)
            == std::cmp::Ordering::Greater
        {
            unscaled = max;
            dscale = 0;
        }
        if super::amount::cmp_big(&unscaled, -(dscale as i64), &BigInt::from(1), 0)
            == std::cmp::Ordering::Less
        {
            format = Format::DecimalSI;
        }
    }
    if negative {
        unscaled = -unscaled;
    }
    Ok(Quantity {
        amount: Amount::Dec(Box::new(Dec {
            unscaled,
            scale: dscale,
        })),
        format,
        text: None,
    })
}

/// inf.Dec `SetString`: optional leading sign, digits with at most one `.`, at least one digit
/// (else [`QuantityError::Numeric`]).
///
/// One pass over the text finds the significant digits (leading zeros, also those after the point,
/// do not count) before any big-integer work: a number with more than [`MAX_DIGITS`] of them is
/// [`QuantityError::TooLarge`] (kind `quantity_out_of_range`, the kind of every other number too
/// long to hold exactly), so a megabyte of digits costs one linear scan instead of a quadratic
/// decimal-to-binary conversion.
fn dec_from_str(v: &str) -> Result<(BigInt, i32), QuantityError> {
    let b = v.as_bytes();
    let (neg, rest) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let mut n_digits: usize = 0;
    let mut dp: Option<usize> = None;
    // Byte offset in `rest` of the first non-zero digit, and how many digits come before it.
    let mut first_sig: Option<(usize, usize)> = None;
    for (i, &c) in rest.iter().enumerate() {
        match c {
            b'.' if dp.is_none() => dp = Some(n_digits),
            b'0'..=b'9' => {
                if c != b'0' && first_sig.is_none() {
                    first_sig = Some((i, n_digits));
                }
                n_digits += 1;
            }
            _ => return Err(QuantityError::Numeric),
        }
    }
    if n_digits == 0 {
        return Err(QuantityError::Numeric);
    }
    let scale = dp.map(|d| (n_digits - d) as i32).unwrap_or(0);
    let Some((start, lead)) = first_sig else {
        return Ok((BigInt::zero(), scale));
    };
    if (n_digits - lead) as u64 > MAX_DIGITS {
        return Err(QuantityError::TooLarge);
    }
    let sig: Vec<u8> = rest[start..]
        .iter()
        .filter(|c| c.is_ascii_digit())
        .map(|c| c - b'0')
        .collect();
    let mut u =
        BigInt::from_radix_be(num_bigint::Sign::Plus, &sig, 10).ok_or(QuantityError::Numeric)?;
    if neg {
        u = -u;
    }
    Ok((u, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass fast path agrees with the general parser on every text it accepts.
    #[test]
    fn fast_path_matches_general() {
        let suffixes = [
            "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
            "K", "mi", "e3",
        ];
        let numbers = [
            "1",
            "7",
            "8",
            "9",
            "10",
            "12",
            "100",
            "1000",
            "1001",
            "2000",
            "123456",
            "999999999",
            "1000000000",
            "123456789012",
            "999999999999999",
            "100000000000000",
            "1234567890123456",
            "05",
            "0",
        ];
        let mut hits = 0;
        for n in numbers {
            for suf in suffixes {
                let s = format!("{n}{suf}");
                if let Some(q) = fast(&s) {
                    hits += 1;
                    let g = general(&s).expect("the general parser accepts it too");
                    assert_eq!(q.amount, g.amount, "{s}");
                    assert_eq!(q.format, g.format, "{s}");
                    assert_eq!(q.text, g.text, "{s}");
                }
            }
        }
        assert!(hits > 150, "fast path taken {hits} times");
        assert!(fast("1234567890123456").is_none());
        assert!(fast("99999Ti").is_none());
        assert_eq!(fast("3Gi").map(|q| q.text.is_some()), Some(true));
        assert_eq!(fast("8Gi").map(|q| q.text.is_some()), Some(false));
    }
    /// Ten megabytes of digits are refused after one linear scan, with the kind every number too
    /// long to hold exactly gets (the old parser built a big integer from all of them first, which
    /// is quadratic: about 3 s for 1 MB, minutes for this input).
    #[test]
    fn ten_megabytes_of_digits_are_rejected_without_big_integer_work() {
        let n = 10 << 20;
        let digits = "7".repeat(n);
        let err = Quantity::parse(&digits).unwrap_err();
        assert_eq!(err, QuantityError::TooLarge);
        assert_eq!(err.kind(), "quantity_out_of_range");
        // Signs, points, suffixes and exponents do not change that (1 MB each, for test time).
        let digits = &digits[..1 << 20];
        for text in [
            format!("-{digits}"),
            format!("1.{digits}"),
            format!("{digits}.5Ki"),
            format!("0.000{digits}e5"),
        ] {
            let err = Quantity::parse(&text).unwrap_err();
            assert_eq!(err, QuantityError::TooLarge, "{}...", &text[..12]);
            assert_eq!(err.kind(), "quantity_out_of_range");
        }
        // Leading zeros are not significant: ten megabytes of them before one digit still parse.
        let tiny = format!("0.{}1", "0".repeat(n));
        assert_eq!(Quantity::parse(&tiny).unwrap().to_string(), "1n");
        let zeros = format!("{}5", "0".repeat(n));
        let five = Quantity::parse(&zeros).unwrap();
        assert_eq!(five.amount, Amount::Int { value: 5, scale: 0 });
    }

    /// The cap is on significant digits: exactly [`MAX_DIGITS`] of them still parse exactly.
    #[test]
    fn the_digit_cap_is_exact() {
        let max = MAX_DIGITS as usize;
        // scale 9 (nano): no rescaling, so the value keeps all its digits.
        let at = format!("{}.{}", "1".repeat(max - 9), "1".repeat(9));
        let q = Quantity::parse(&at).expect("20,000 significant digits parse");
        assert!(q.to_string().starts_with("111111"));
        let over = format!("{}.{}", "1".repeat(max - 8), "1".repeat(9));
        assert_eq!(Quantity::parse(&over).unwrap_err(), QuantityError::TooLarge);
        // Leading zeros before the limit do not count.
        let padded = format!("000{at}");
        assert!(Quantity::parse(&padded).is_ok());
    }
}
