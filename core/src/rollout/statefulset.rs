//! Advanced StatefulSet maxUnavailable resolution: the controller
//! in OpenKruise `pkg/controller/statefulset/stateful_set_control.go` scales
//! `updateStrategy.rollingUpdate.maxUnavailable` and `scaleStrategy.maxUnavailable` with the
//! legacy flavour against `spec.replicas`, rounding down, then raises the result to at least 1.

use crate::intstr::{Flavour, IntOrPercent};

/// `updateStrategy.rollingUpdate.maxUnavailable` in pods: legacy flavour rounded down against
/// `replicas`, default 1, at least 1. A parse failure reads as 0 and so becomes 1.
pub fn update_max_unavailable(v: Option<&IntOrPercent>, replicas: i32) -> i64 {
    let x = match v {
        None => 1,
        Some(v) => v
            .scale(i64::from(replicas), false, Flavour::Legacy)
            .unwrap_or(0),
    };
    x.max(1)
}

/// `scaleStrategy.maxUnavailable` in pods: `None` when unset (no limit), otherwise like
/// [`update_max_unavailable`].
pub fn scale_max_unavailable(v: Option<&IntOrPercent>, replicas: i32) -> Option<i64> {
    v.map(|v| update_max_unavailable(Some(v), replicas))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_down_then_at_least_one() {
        let p = |s: &str| IntOrPercent::String(s.into());
        assert_eq!(update_max_unavailable(Some(&p("33%")), 3), 1);
        assert_eq!(update_max_unavailable(Some(&p("50%")), 5), 2);
        assert_eq!(update_max_unavailable(Some(&p("x")), 5), 1);
        assert_eq!(update_max_unavailable(None, 5), 1);
        assert_eq!(scale_max_unavailable(None, 5), None);
        assert_eq!(
            scale_max_unavailable(Some(&IntOrPercent::Int(3)), 5),
            Some(3)
        );
    }
}
