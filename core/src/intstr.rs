//! Int-or-percent values (Kubernetes `IntOrString`) and the three scaling flavours OpenKruise uses.
//!
//! Mirrors `k8s.io/apimachinery/pkg/util/intstr` (`GetScaledValueFromIntOrPercent`,
//! `GetValueFromIntOrPercent`, v0.32) and OpenKruise's float-based `GetScaledValueFromIntOrPercent`
//! in `pkg/util/tools.go`; `docs/rounding.md` shows which field uses which.
//!
//! Scaling never allocates: `scale` works on the borrowed string.

use crate::error::{Error, Result};
use crate::registry::Entry;
use serde::{Deserialize, Serialize};

/// Error kind: the value is null where one is required.
pub const NIL_VALUE: &str = "nil_value";
/// Error kind: a string lacks the trailing `%` in a flavour that requires it.
pub const NOT_A_PERCENTAGE: &str = "not_a_percentage";
/// Error kind: the numeric part of a string does not parse.
pub const INVALID_NUMBER: &str = "invalid_number";

/// An int-or-percent as Kubernetes serialises it: a JSON integer or a JSON string (`"50%"`).
/// An integer outside the int32 range, or any other JSON type, is `invalid_input`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum IntOrPercent {
    /// The integer form (int32 in Kubernetes).
    Int(i32),
    /// The string form, normally `"<n>%"`; kept verbatim.
    String(String),
}

// Written by hand (the derive for an untagged enum buffers the value and builds an error per
// variant tried); refusals keep the derive's message.
impl<'de> Deserialize<'de> for IntOrPercent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        const NO_VARIANT: &str = "data did not match any variant of untagged enum IntOrPercent";
        impl<'v> serde::de::Visitor<'v> for V {
            type Value = IntOrPercent;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an int32 or a string")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> std::result::Result<Self::Value, E> {
                i32::try_from(n)
                    .map(IntOrPercent::Int)
                    .map_err(|_| E::custom(NO_VARIANT))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> std::result::Result<Self::Value, E> {
                i32::try_from(n)
                    .map(IntOrPercent::Int)
                    .map_err(|_| E::custom(NO_VARIANT))
            }
            fn visit_str<E: serde::de::Error>(
                self,
                s: &str,
            ) -> std::result::Result<Self::Value, E> {
                Ok(IntOrPercent::String(s.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(
                self,
                s: String,
            ) -> std::result::Result<Self::Value, E> {
                Ok(IntOrPercent::String(s))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<Self::Value, E> {
                Err(E::custom(NO_VARIANT))
            }
            fn visit_bool<E: serde::de::Error>(
                self,
                _: bool,
            ) -> std::result::Result<Self::Value, E> {
                Err(E::custom(NO_VARIANT))
            }
            fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
                Err(E::custom(NO_VARIANT))
            }
            fn visit_seq<A: serde::de::SeqAccess<'v>>(
                self,
                _: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                Err(serde::de::Error::custom(NO_VARIANT))
            }
            fn visit_map<A: serde::de::MapAccess<'v>>(
                self,
                _: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                Err(serde::de::Error::custom(NO_VARIANT))
            }
        }
        d.deserialize_any(V)
    }
}

/// Which parser reads the string form. `docs/rounding.md` lists the parser of every field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Flavour {
    /// apimachinery `GetScaledValueFromIntOrPercent`: must end in `%`; `Atoi` of the text before
    /// the last single `%`.
    Scaled,
    /// apimachinery `GetValueFromIntOrPercent` (deprecated): every `%` is deleted, then `Atoi`;
    /// any string is a percentage.
    Legacy,
    /// OpenKruise `pkg/util/tools.go`: must end in `%`; `ParseFloat` of the text before it.
    Kruise,
}

impl IntOrPercent {
    /// Scales against `total`: integers come back unchanged (no clamping); percentages give
    /// `ceil` (round_up) or `floor` of `float64(p) * float64(total) / 100`.
    ///
    /// Errors: `not_a_percentage`, `invalid_number` (see [`scale_str`]).
    ///
    /// ```
    /// use kruise_core::intstr::{IntOrPercent, Flavour};
    /// let v = IntOrPercent::String("25%".into());
    /// assert_eq!(v.scale(10, true, Flavour::Scaled)?, 3);
    /// assert_eq!(v.scale(10, false, Flavour::Scaled)?, 2);
    /// # Ok::<(), kruise_core::Error>(())
    /// ```
    pub fn scale(&self, total: i64, round_up: bool, flavour: Flavour) -> Result<i64> {
        match self {
            IntOrPercent::Int(i) => Ok(i64::from(*i)),
            IntOrPercent::String(s) => scale_str(s, total, round_up, flavour),
        }
    }

    /// Whether this is the string form.
    pub fn is_string(&self) -> bool {
        matches!(self, IntOrPercent::String(_))
    }
}

/// Scales an optional int-or-percent; `None` is `nil_value`.
pub fn scale_opt(
    v: Option<&IntOrPercent>,
    total: i64,
    round_up: bool,
    flavour: Flavour,
) -> Result<i64> {
    match v {
        Some(v) => v.scale(total, round_up, flavour),
        None => Err(Error::new(NIL_VALUE, "nil value for IntOrString")),
    }
}

/// Scales the string form `s` of an int-or-percent against `total`. Allocation-free on success.
pub fn scale_str(s: &str, total: i64, round_up: bool, flavour: Flavour) -> Result<i64> {
    Ok(scale_percent(percent_of(s, flavour)?, total, round_up))
}

/// Go's `int(f)` for a float64 on amd64 (the platform the reference runs on): values inside the
/// int64 range truncate toward zero; NaN, infinities and out-of-range values all become
/// `math.MinInt64` (the CPU's "integer indefinite"). Rust's saturating `as` would differ, so every
/// percentage result goes through here.
pub fn go_float_to_int(f: f64) -> i64 {
    // 2^63 is exactly representable; everything in [-2^63, 2^63) converts exactly after truncation.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() || !(-TWO_63..TWO_63).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// Scales a percentage held as a number (the already-parsed body of a string) the way every
/// flavour does: `float64(p) * float64(total) / 100`, then ceil or floor, then Go's `int(...)`.
/// Allocation-free; useful for callers that parse once and scale against many totals.
pub fn scale_percent(p: f64, total: i64, round_up: bool) -> i64 {
    let x = p * total as f64 / 100.0;
    go_float_to_int(if round_up { x.ceil() } else { x.floor() })
}

/// The percentage a string holds under `flavour` (without scaling), as float64.
pub fn percent_of(s: &str, flavour: Flavour) -> Result<f64> {
    match flavour {
        Flavour::Scaled => {
            let body = s.strip_suffix('%').ok_or_else(|| not_pct(s))?;
            atoi(body.bytes())
                .map(|v| v as f64)
                .ok_or_else(|| bad_num(s))
        }
        Flavour::Legacy => atoi(s.bytes().filter(|&b| b != b'%'))
            .map(|v| v as f64)
            .ok_or_else(|| bad_num(s)),
        Flavour::Kruise => {
            let body = s.strip_suffix('%').ok_or_else(|| not_pct(s))?;
            parse_float(body).ok_or_else(|| bad_num(s))
        }
    }
}

/// The UnitedDeployment flavour (`ParseSubsetReplicas` in OpenKruise
/// `pkg/controller/uniteddeployment/uniteddeployment_controller_utils.go`): `s` must end in `%` and
/// the text before that final `%` must be a base-10 int32 (Go `strconv.ParseInt(body, 10, 32)`:
/// optional sign, ASCII digits only). Returns the percentage itself, not range-checked or scaled.
///
/// Errors: `not_a_percentage` (no trailing `%`), `invalid_number` (body not an int32, including
/// overflow such as `"3000000000%"`).
///
/// ```
/// assert_eq!(kruise_core::intstr::percent_i32("-0%").unwrap(), 0);
/// assert_eq!(kruise_core::intstr::percent_i32("5.5%").unwrap_err().kind, "invalid_number");
/// ```
pub fn percent_i32(s: &str) -> Result<i32> {
    let body = s.strip_suffix('%').ok_or_else(|| not_pct(s))?;
    atoi(body.bytes())
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| bad_num(s))
}

fn not_pct(s: &str) -> Error {
    Error::new(
        NOT_A_PERCENTAGE,
        format!("invalid type: string {s:?} is not a percentage"),
    )
}

fn bad_num(s: &str) -> Error {
    Error::new(
        INVALID_NUMBER,
        format!("invalid value for IntOrString: {s:?}"),
    )
}

/// Go `strconv.Atoi` on 64-bit platforms over a byte stream: optional sign, then one or more ASCII
/// digits, within int64. `None` on any failure.
pub fn atoi(mut bytes: impl Iterator<Item = u8>) -> Option<i64> {
    let mut first = bytes.next()?;
    let neg = match first {
        b'+' | b'-' => {
            let n = first == b'-';
            first = bytes.next()?;
            n
        }
        _ => false,
    };
    // accumulate as a negative number so that i64::MIN parses
    let mut acc: i64 = 0;
    let mut b = first;
    loop {
        if !b.is_ascii_digit() {
            return None;
        }
        acc = acc.checked_mul(10)?.checked_sub(i64::from(b - b'0'))?;
        match bytes.next() {
            Some(n) => b = n,
            None => break,
        }
    }
    if neg { Some(acc) } else { acc.checked_neg() }
}

/// Go `strconv.ParseFloat(s, 64)`: optional sign, then decimal digits with an optional `.` and
/// `e` exponent, or `0x` hex digits with an optional `.` and a mandatory `p` exponent; `_` may
/// separate digits as in Go literals; `inf`/`infinity` (signed) and `nan` (unsigned), any case.
/// Out-of-range values (Go's range error) are `None`; underflow goes to zero like Go.
/// Allocation-free unless a long string (over 64 bytes) carries underscores.
pub fn parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let body = match b.first() {
        Some(b'+' | b'-') => &s[1..],
        _ => s,
    };
    let lower_special = matches!(body.len(), 3 | 8)
        && (body.eq_ignore_ascii_case("inf")
            || body.eq_ignore_ascii_case("infinity")
            || body.eq_ignore_ascii_case("nan"));
    if lower_special {
        // Go accepts a sign on "inf"/"infinity" but not on "nan".
        if body.len() == 3 && body.eq_ignore_ascii_case("nan") && body.len() != s.len() {
            return None;
        }
        return s.parse::<f64>().ok();
    }
    if body.contains('_') && !underscore_ok(body) {
        return None;
    }
    if body.len() > 2 && (body.starts_with("0x") || body.starts_with("0X")) {
        let v = parse_hex_float(&body[2..])?;
        return Some(if b.first() == Some(&b'-') { -v } else { v });
    }
    // Rust's parser accepts Go's decimal syntax once underscores are gone (no hex, no specials here).
    if body
        .bytes()
        .any(|c| !(c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-' | b'_')))
    {
        return None;
    }
    let v = if s.contains('_') {
        let mut buf = [0u8; 64];
        let mut n = 0;
        let mut spill = String::new();
        for c in s.bytes().filter(|&c| c != b'_') {
            match buf.get_mut(n) {
                Some(slot) if spill.is_empty() => {
                    *slot = c;
                    n += 1;
                }
                _ => {
                    if spill.is_empty() {
                        spill.push_str(std::str::from_utf8(buf.get(..n)?).ok()?);
                    }
                    spill.push(char::from(c));
                }
            }
        }
        let text = if spill.is_empty() {
            std::str::from_utf8(buf.get(..n)?).ok()?
        } else {
            spill.as_str()
        };
        text.parse::<f64>().ok()?
    } else {
        s.parse::<f64>().ok()?
    };
    if v.is_infinite() { None } else { Some(v) }
}

/// Go's rule for `_` in a number literal (sign already removed): every `_` follows a digit or the
/// `0x` prefix and is followed by a digit (hex digits count after `0x`).
fn underscore_ok(body: &str) -> bool {
    let b = body.as_bytes();
    let hex = b.len() >= 2 && b.first() == Some(&b'0') && matches!(b.get(1), Some(b'x' | b'X'));
    // last class seen: b'^' start, b'0' digit or prefix, b'_' underscore, b'!' anything else
    let (mut saw, start) = if hex { (b'0', 2) } else { (b'^', 0) };
    for &c in b.iter().skip(start) {
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
    }
    saw != b'_'
}

/// Go's hexadecimal float syntax after the `0x` prefix: hex digits with an optional `.`, then a
/// mandatory `p` exponent (decimal, optional sign); `_` is skipped (placement is checked by the
/// caller with [`underscore_ok`]). Correctly rounded; overflow (Go's range error) is `None`, underflow goes to zero like Go.
fn parse_hex_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let (mut mant, mut exp2, mut digits, mut sticky, mut seen_dot) =
        (0u64, 0i64, 0u32, false, false);
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'_' => {}
            b'.' if !seen_dot => seen_dot = true,
            _ if c.is_ascii_hexdigit() => {
                let d = u64::from((c as char).to_digit(16)?);
                digits += 1;
                if mant >> 60 == 0 {
                    mant = (mant << 4) | d;
                    if seen_dot {
                        exp2 -= 4;
                    }
                } else {
                    sticky |= d != 0;
                    if !seen_dot {
                        exp2 += 4;
                    }
                }
            }
            b'p' | b'P' => break,
            _ => return None,
        }
        i += 1;
    }
    if digits == 0 || !matches!(b.get(i), Some(b'p' | b'P')) {
        return None;
    }
    let rest = b.get(i + 1..)?;
    let (neg, rest) = match rest.first() {
        Some(b'+') => (false, &rest[1..]),
        Some(b'-') => (true, &rest[1..]),
        _ => (false, rest),
    };
    if rest.is_empty() || rest.first() == Some(&b'_') {
        return None;
    }
    let mut e: i64 = 0;
    for &c in rest {
        match c {
            b'_' => {}
            b'0'..=b'9' => e = (e * 10 + i64::from(c - b'0')).min(1_000_000),
            _ => return None,
        }
    }
    let exp = exp2 + if neg { -e } else { e };
    if mant == 0 {
        return Some(0.0);
    }
    // Normalise so the top bit is set; the sticky bit sits far below f64's 53 bits.
    let shift = mant.leading_zeros();
    let mant = (mant << shift) | u64::from(sticky);
    let exp = exp - i64::from(shift);
    // mant * 2^exp, with a single rounding even for subnormal results
    let top = exp + 64; // value = 0.1xxx (binary) * 2^top
    if top > 1024 {
        return None;
    }
    let keep = if top >= -1021 { 53 } else { 53 - (-1021 - top) };
    if keep <= 0 {
        // below half the smallest subnormal (or exactly at it with nothing else): Go rounds to 0,
        // except values strictly above half of 2^-1074 round up to it
        let half = keep == 0 && (mant > 1 << 63);
        return Some(if half { f64::from_bits(1) } else { 0.0 });
    }
    let keep = u32::try_from(keep).ok()?;
    let drop = 64 - keep;
    let mut m = mant >> drop;
    let rem = mant & ((1u64 << drop) - 1);
    let halfway = 1u64 << (drop - 1);
    if rem > halfway || (rem == halfway && m & 1 == 1) {
        m += 1;
    }
    // m < 2^keep (or == 2^keep after carry); value = m * 2^(top - keep)
    let e2 = i32::try_from(top - i64::from(keep)).ok()?;
    let v = (m as f64) * 2f64.powi(e2.max(-1022)) * 2f64.powi((e2 - e2.max(-1022)).max(-1100));
    if v.is_infinite() { None } else { Some(v) }
}

/// The typed decisions of this module (`rollout.scale_int_or_percent`).
pub mod fns {
    use super::{Flavour, IntOrPercent, scale_opt};
    use crate::error::{Error, Result};
    use crate::registry::Decision;
    use serde::Deserialize;

    /// Input of `rollout.scale_int_or_percent`.
    #[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct ScaleIntOrPercentInput {
        /// The int-or-percent (`null`: the reference's nil pointer, error `nil_value`).
        pub value: Option<IntOrPercent>,
        /// The total a percentage is taken of.
        pub total: i64,
        /// Round a percentage up (ceil) instead of down (floor).
        pub round_up: bool,
        /// Which parser reads the string form.
        pub mode: Flavour,
    }

    /// `rollout.scale_int_or_percent`: the scaled value (an integer).
    pub struct ScaleIntOrPercent;

    impl Decision for ScaleIntOrPercent {
        const ID: &'static str = "rollout.scale_int_or_percent";
        const DOC: &'static str = "Scale an int-or-percent in the scaled, legacy or kruise flavour";
        const SOURCE: &'static str = "k8s.io/apimachinery pkg/util/intstr/intstr.go GetScaledValueFromIntOrPercent, \
            GetValueFromIntOrPercent; openkruise pkg/util/tools.go (ParseFloat of the percentage)";
        const ERRORS: &'static [&'static str] = &[
            super::NIL_VALUE,
            super::NOT_A_PERCENTAGE,
            super::INVALID_NUMBER,
        ];
        type Input = ScaleIntOrPercentInput;
        type Output = i64;

        fn decide(i: ScaleIntOrPercentInput) -> Result<i64> {
            scale_opt(i.value.as_ref(), i.total, i.round_up, i.mode).map_err(|e| Error {
                field: Some("value".into()),
                ..e
            })
        }
    }
}

/// Registry entries: `rollout.scale_int_or_percent` (the three flavours share this one parser).
pub const ENTRIES: &[Entry] = &[Entry::of::<fns::ScaleIntOrPercent>()];

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str, t: i64, up: bool, f: Flavour) -> Result<i64> {
        scale_str(v, t, up, f)
    }

    #[test]
    fn flavours_differ_on_odd_strings() {
        assert_eq!(s("50", 10, true, Flavour::Legacy).unwrap(), 5);
        assert_eq!(
            s("50", 10, true, Flavour::Scaled).unwrap_err().kind,
            NOT_A_PERCENTAGE
        );
        assert_eq!(
            s("50%%", 10, true, Flavour::Scaled).unwrap_err().kind,
            INVALID_NUMBER
        );
        assert_eq!(s("50%%", 10, true, Flavour::Legacy).unwrap(), 5);
        assert_eq!(s("5%0", 10, true, Flavour::Legacy).unwrap(), 5);
        assert_eq!(
            s(" 50%", 10, true, Flavour::Kruise).unwrap_err().kind,
            INVALID_NUMBER
        );
        assert_eq!(s("007%", 100, true, Flavour::Scaled).unwrap(), 7);
    }

    #[test]
    fn float_rounding_matches_go() {
        assert_eq!(s("0.07%", 10000, true, Flavour::Kruise).unwrap(), 8);
        assert_eq!(s("16.1%", 1000, true, Flavour::Kruise).unwrap(), 162);
        assert_eq!(s("32.3%", 1000, false, Flavour::Kruise).unwrap(), 322);
        assert_eq!(s("-50%", 5, true, Flavour::Scaled).unwrap(), -2);
        assert_eq!(s("-50%", 5, false, Flavour::Scaled).unwrap(), -3);
        assert_eq!(s("1e2%", 10, true, Flavour::Kruise).unwrap(), 10);
        assert_eq!(
            s("1e2%", 10, true, Flavour::Scaled).unwrap_err().kind,
            INVALID_NUMBER
        );
    }

    #[test]
    fn out_of_range_results_follow_go_amd64() {
        // 9223372036854775807% of 100 overflows int64: Go's int(float64) gives MinInt64.
        assert_eq!(
            s("9223372036854775807%", 100, true, Flavour::Scaled).unwrap(),
            i64::MIN
        );
        assert_eq!(
            s("-9223372036854775808%", 1000, false, Flavour::Legacy).unwrap(),
            i64::MIN
        );
        assert_eq!(s("1e300%", 10, true, Flavour::Kruise).unwrap(), i64::MIN);
        assert_eq!(s("inf%", 10, true, Flavour::Kruise).unwrap(), i64::MIN);
        assert_eq!(s("nan%", 10, false, Flavour::Kruise).unwrap(), i64::MIN);
        assert_eq!(
            s("1e400%", 10, true, Flavour::Kruise).unwrap_err().kind,
            INVALID_NUMBER
        );
        assert_eq!(go_float_to_int(-9_223_372_036_854_775_808.0), i64::MIN);
        assert_eq!(go_float_to_int(-2.5), -2);
        assert_eq!(scale_percent(-0.5, 10, true), 0);
    }

    #[test]
    fn parse_float_accepts_go_hex_and_signed_inf_only() {
        assert_eq!(parse_float("0x1p4"), Some(16.0));
        assert_eq!(parse_float("-0X1.8P1"), Some(-3.0));
        assert_eq!(parse_float("0x.8p0"), Some(0.5));
        assert_eq!(parse_float("0x1_0p0"), Some(16.0));
        assert_eq!(parse_float("0x_1p-2"), Some(0.25));
        assert_eq!(parse_float("0x1p1_0"), Some(1024.0));
        assert_eq!(parse_float("0x1"), None);
        assert_eq!(parse_float("0x1p"), None);
        assert_eq!(parse_float("0x1__0p0"), None);
        assert_eq!(parse_float("0x1p1024"), None);
        assert_eq!(parse_float("0x1p-1074"), Some(f64::from_bits(1)));
        assert_eq!(parse_float("0x1p-1076"), Some(0.0));
        assert_eq!(parse_float("0x1.fffffffffffff8p0"), Some(2.0));
        assert_eq!(
            parse_float("0x1.fffffffffffff7p0"),
            Some(f64::from_bits(0x3FFF_FFFF_FFFF_FFFF))
        );
        assert_eq!(parse_float("1_23.50_0_0e+1_2"), Some(1.235e14));
        assert_eq!(parse_float("-1_0"), Some(-10.0));
        for bad in [
            "_1",
            "1_",
            "1__0",
            "123_.5",
            "123._5",
            "123.5e_+12",
            "123.5e+_12",
            "-_1",
            "0x1e2",
            "in_f",
        ] {
            assert_eq!(parse_float(bad), None, "{bad}");
        }
        let long = format!("{}_1", "1".repeat(80));
        assert_eq!(
            parse_float(&long),
            format!("{}1", "1".repeat(80)).parse().ok()
        );
        assert_eq!(parse_float("-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_float("+nan"), None);
        assert!(parse_float("NaN").is_some_and(f64::is_nan));
        assert_eq!(s("0x1p4%", 100, true, Flavour::Kruise).unwrap(), 16);
    }

    #[test]
    fn atoi_is_go_atoi() {
        assert_eq!(atoi("-9223372036854775808".bytes()), Some(i64::MIN));
        assert_eq!(atoi("9223372036854775808".bytes()), None);
        assert_eq!(atoi("+".bytes()), None);
        assert_eq!(atoi("".bytes()), None);
        assert_eq!(atoi("1_0".bytes()), None);
        assert_eq!(atoi("+12".bytes()), Some(12));
    }

    #[test]
    fn json_int_passes_through() {
        let out = crate::call(
            "rollout.scale_int_or_percent",
            &serde_json::json!({"value": -7, "total": 3, "roundUp": true, "mode": "legacy"}),
        )
        .unwrap();
        assert_eq!(out, serde_json::json!(-7));
        let err = crate::call(
            "rollout.scale_int_or_percent",
            &serde_json::json!({"value": null, "total": 3, "roundUp": true, "mode": "legacy"}),
        )
        .unwrap_err();
        assert_eq!(err.kind, NIL_VALUE);
    }
}
