//! Subset int-or-percent resolution (`ParseSubsetReplicas`, OpenKruise v1.9
//! `pkg/controller/uniteddeployment/uniteddeployment_controller_utils.go`).

use crate::error::{Error, Result};
use crate::intstr::{self, IntOrPercent};

/// Error kind: a JSON integer below 0.
pub const NEGATIVE_VALUE: &str = "negative_value";
/// Error kind: a string value while the total is unset (negative).
pub const PERCENT_REQUIRES_TOTAL: &str = "percent_requires_total";
/// Error kind: a string without a trailing `%`.
pub const NOT_PERCENT: &str = "not_percent";
/// Error kind: the text before `%` is not a base-10 int32.
pub const INVALID_PERCENT: &str = "invalid_percent";
/// Error kind: the percentage is outside [0, 100].
pub const PERCENT_OUT_OF_RANGE: &str = "percent_out_of_range";

/// Resolves a subset's `replicas`/`minReplicas`/`maxReplicas` against the total `total`
/// (pass −1 for an unset total where the reference's caller does).
///
/// Integers pass through unchanged (negative -> `negative_value`). Strings must be `"<p>%"` with
/// an int32 `p` in [0, 100]; the result is `floor(total * p / 100 + 0.5)` in float64 (halves round
/// up). Errors: `negative_value`, `percent_requires_total`, `not_percent`, `invalid_percent`,
/// `percent_out_of_range`; the error's field is `field`.
///
/// ```
/// use kruise_core::allocation::parse_subset_replicas;
/// use kruise_core::intstr::IntOrPercent;
/// assert_eq!(parse_subset_replicas(5, &IntOrPercent::String("50%".into()), "v").unwrap(), 3);
/// assert_eq!(parse_subset_replicas(-1, &IntOrPercent::Int(4), "v").unwrap(), 4);
/// ```
pub fn parse_subset_replicas(total: i64, value: &IntOrPercent, field: &str) -> Result<i64> {
    match value {
        IntOrPercent::Int(v) if *v < 0 => Err(Error::at(
            NEGATIVE_VALUE,
            field,
            format_args!("{v} must not be negative"),
        )),
        IntOrPercent::Int(v) => Ok(i64::from(*v)),
        IntOrPercent::String(s) => {
            if total < 0 {
                return Err(Error::at(
                    PERCENT_REQUIRES_TOTAL,
                    field,
                    format_args!("{s:?} is a string but spec.replicas is unset"),
                ));
            }
            let p = intstr::percent_i32(s).map_err(|e| match e.kind {
                intstr::NOT_A_PERCENTAGE => Error::at(
                    NOT_PERCENT,
                    field,
                    format_args!("{s:?} is neither an integer nor a percentage"),
                ),
                _ => Error::at(
                    INVALID_PERCENT,
                    field,
                    format_args!("{s:?} is not an integer percentage"),
                ),
            })?;
            if !(0..=100).contains(&p) {
                return Err(Error::at(
                    PERCENT_OUT_OF_RANGE,
                    field,
                    format_args!("{s:?} is outside [0%, 100%]"),
                ));
            }
            let x = (total as f64 * f64::from(p) / 100.0 + 0.5).floor();
            Ok(x as i32 as i64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: i64, v: &str) -> Result<i64> {
        parse_subset_replicas(t, &IntOrPercent::String(v.into()), "v")
    }

    #[test]
    fn rounding_and_errors() {
        assert_eq!(s(5, "50%").unwrap(), 3);
        assert_eq!(s(1, "50%").unwrap(), 1);
        assert_eq!(s(10, "35%").unwrap(), 4);
        assert_eq!(s(10, "-0%").unwrap(), 0);
        assert_eq!(s(10, "+20%").unwrap(), 2);
        assert_eq!(s(10, "-5%").unwrap_err().kind, PERCENT_OUT_OF_RANGE);
        assert_eq!(s(10, "3000000000%").unwrap_err().kind, INVALID_PERCENT);
        assert_eq!(s(10, "5").unwrap_err().kind, NOT_PERCENT);
        assert_eq!(s(10, " 5%").unwrap_err().kind, INVALID_PERCENT);
        assert_eq!(s(10, "%").unwrap_err().kind, INVALID_PERCENT);
        assert_eq!(s(-1, "abc").unwrap_err().kind, PERCENT_REQUIRES_TOTAL);
        let e = parse_subset_replicas(3, &IntOrPercent::Int(-2), "spec.x").unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (NEGATIVE_VALUE, Some("spec.x"))
        );
    }
}
