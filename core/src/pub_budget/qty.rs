//! Exact quantity values for the resize check and the QoS class: a Kubernetes quantity string
//! (`1500m`, `2Gi`, `1e3`) as `mantissa × 10^exp`, enough to compare and add exactly.
//!
//! A local stand-in until the shared `crate::quantity` module (owned by the foundation issue)
//! lands; only equality, sign and addition are needed here. Values that do not fit an `i128`
//! mantissa are reported as errors rather than approximated.

use crate::error::{Error, Result};

/// An exact decimal `m × 10^e`, normalized (no trailing zeros in `m`; zero is `0 × 10^0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dec {
    m: i128,
    e: i32,
}

impl Dec {
    /// Zero.
    pub const ZERO: Dec = Dec { m: 0, e: 0 };

    fn norm(mut m: i128, mut e: i32) -> Dec {
        if m == 0 {
            return Dec::ZERO;
        }
        while m % 10 == 0 {
            m /= 10;
            e += 1;
        }
        Dec { m, e }
    }

    /// Parses a quantity string (apimachinery grammar: sign, digits with optional `.`, suffix
    /// `Ki..Ei`, `n u m k M G T P E` or `e<int>`). `field` names the input for errors.
    pub fn parse(s: &str, field: &str) -> Result<Dec> {
        let bad = || Error::invalid_input(field, format_args!("{s:?} is not a quantity"));
        let big = || {
            Error::invalid_input(
                field,
                format_args!("{s:?} is outside the supported quantity range"),
            )
        };
        let b = s.as_bytes();
        let mut i = 0;
        let neg = match b.first() {
            Some(b'-') => {
                i = 1;
                true
            }
            Some(b'+') => {
                i = 1;
                false
            }
            _ => false,
        };
        let mut m: i128 = 0;
        let mut e: i32 = 0;
        let mut digits = 0;
        let mut seen_dot = false;
        while i < b.len() {
            match b[i] {
                c @ b'0'..=b'9' => {
                    digits += 1;
                    if m == 0 && c == b'0' && !seen_dot {
                        // leading zero
                    } else {
                        m = m
                            .checked_mul(10)
                            .and_then(|v| v.checked_add(i128::from(c - b'0')))
                            .ok_or_else(big)?;
                        if seen_dot {
                            e -= 1;
                        }
                    }
                }
                b'.' if !seen_dot => seen_dot = true,
                _ => break,
            }
            i += 1;
        }
        if digits == 0 {
            return Err(bad());
        }
        let suffix = &s[i..];
        let (pow10, pow1024): (i32, u32) = match suffix {
            "" => (0, 0),
            "n" => (-9, 0),
            "u" => (-6, 0),
            "m" => (-3, 0),
            "k" => (3, 0),
            "M" => (6, 0),
            "G" => (9, 0),
            "T" => (12, 0),
            "P" => (15, 0),
            "E" => (18, 0),
            "Ki" => (0, 1),
            "Mi" => (0, 2),
            "Gi" => (0, 3),
            "Ti" => (0, 4),
            "Pi" => (0, 5),
            "Ei" => (0, 6),
            x if x.starts_with(['e', 'E']) => {
                let v = crate::intstr::atoi(x[1..].bytes()).ok_or_else(bad)?;
                (i32::try_from(v).map_err(|_| big())?, 0)
            }
            _ => return Err(bad()),
        };
        for _ in 0..pow1024 {
            m = m.checked_mul(1024).ok_or_else(big)?;
        }
        e = e.checked_add(pow10).ok_or_else(big)?;
        Ok(Dec::norm(if neg { -m } else { m }, e))
    }

    /// Whether the value is above zero.
    pub fn is_positive(self) -> bool {
        self.m > 0
    }

    /// Exact sum; `None` when it leaves the supported range.
    pub fn checked_add(self, o: Dec) -> Option<Dec> {
        let (hi, lo) = if self.e >= o.e { (self, o) } else { (o, self) };
        let shift = u32::try_from(hi.e - lo.e).ok()?;
        let scaled = hi.m.checked_mul(10i128.checked_pow(shift)?)?;
        Some(Dec::norm(scaled.checked_add(lo.m)?, lo.e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dec {
        Dec::parse(s, "q").unwrap()
    }

    #[test]
    fn equal_values_in_different_spellings() {
        assert_eq!(d("1"), d("1000m"));
        assert_eq!(d("1Gi"), d("1024Mi"));
        assert_eq!(d("1.5"), d("1500m"));
        assert_eq!(d("1e3"), d("1k"));
        assert_eq!(d("0.0"), Dec::ZERO);
        assert_ne!(d("1"), d("1001m"));
        assert_eq!(d("500m").checked_add(d("0.5")), Some(d("1")));
        assert!(!d("-1").is_positive());
        assert!(Dec::parse("1x", "q").is_err());
        assert!(Dec::parse("", "q").is_err());
        assert!(Dec::parse(".", "q").is_err());
        assert_eq!(
            Dec::parse("abc", "f.cpu").unwrap_err().field.as_deref(),
            Some("f.cpu")
        );
    }
}
