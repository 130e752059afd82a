//! Go's `strconv.Atoi` (64-bit `int`) with the error dropped, as in apimachinery's
//! `IntOrString.IntValue` (`pkg/util/intstr/intstr.go`) and Kubernetes' `getPercentValue`
//! (`pkg/apis/apps/validation/validation.go`): `v, _ := strconv.Atoi(s)`.
//!
//! Go returns 0 only on a syntax error. On overflow it returns the saturated value
//! (`math.MaxInt64` / `math.MinInt64`) together with its range error, and callers that drop the
//! error keep that value. `ParseUint` also stops at the first digit that overflows `uint64`, so a
//! syntax error after that point (`"99999999999999999999x"`) still reads as saturated.

/// What Go's `strconv.Atoi(s)` returns as its value (the error dropped): optional `+`/`-`, then
/// ASCII digits; 0 on a syntax error; `i64::MAX`/`i64::MIN` on overflow.
///
/// ```
/// use kruise_core::k8s::strconv::atoi_value;
/// assert_eq!(atoi_value("-12"), -12);
/// assert_eq!(atoi_value("12a"), 0);
/// assert_eq!(atoi_value("99999999999999999999"), i64::MAX);
/// assert_eq!(atoi_value("-99999999999999999999"), i64::MIN);
/// ```
pub fn atoi_value(s: &str) -> i64 {
    atoi(s).unwrap_or_else(|e| match e {
        AtoiError::Syntax => 0,
        AtoiError::Range(v) => v,
    })
}

/// Why Go's `strconv.Atoi` failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtoiError {
    /// `ErrSyntax`; Go's value is 0.
    Syntax,
    /// `ErrRange`; Go's value is the saturated bound carried here.
    Range(i64),
}

/// Go's `strconv.Atoi(s)` on a 64-bit platform, value and error.
pub fn atoi(s: &str) -> Result<i64, AtoiError> {
    let b = s.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() {
        return Err(AtoiError::Syntax);
    }
    // ParseUint(s, 10, 64): each byte is checked before the overflow test, and the first overflow
    // returns at once (the rest of the string is never looked at).
    let mut n: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return Err(AtoiError::Syntax);
        }
        match n
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(c - b'0')))
        {
            Some(m) => n = m,
            None => return Err(AtoiError::Range(if neg { i64::MIN } else { i64::MAX })),
        }
    }
    // ParseInt: the magnitude must fit int64.
    const CUTOFF: u64 = 1 << 63;
    match (neg, n) {
        (false, n) if n >= CUTOFF => Err(AtoiError::Range(i64::MAX)),
        (true, n) if n > CUTOFF => Err(AtoiError::Range(i64::MIN)),
        (true, CUTOFF) => Ok(i64::MIN),
        (true, n) => Ok(-(n as i64)),
        (false, n) => Ok(n as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_go() {
        // values printed by Go 1.26's strconv.Atoi on amd64
        let cases: &[(&str, i64)] = &[
            ("99999999999999999999", i64::MAX),
            ("99999999999999999999x", i64::MAX),
            ("x99999999999999999999", 0),
            ("-99999999999999999999", i64::MIN),
            ("9223372036854775808", i64::MAX),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
            ("-9223372036854775809", i64::MIN),
            ("+99999999999999999999", i64::MAX),
            ("999999999999999999_9", 0),
            ("18446744073709551615", i64::MAX),
            ("18446744073709551616", i64::MAX),
            ("1844674407370955161x5", 0),
            ("-", 0),
            ("+", 0),
            ("", 0),
            ("+5", 5),
            ("-0", 0),
            ("0x10", 0),
            (" 1", 0),
            ("\u{0661}", 0),
        ];
        for (s, v) in cases {
            assert_eq!(atoi_value(s), *v, "{s:?}");
        }
        assert_eq!(atoi("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(atoi("9223372036854775808"), Err(AtoiError::Range(i64::MAX)));
        assert_eq!(atoi("1a"), Err(AtoiError::Syntax));
    }
}
