//! Partitions: how many pods stay on the old revision, per workload kind.
//!
//! - CloneSet: `CalculatePartitionReplicas` in OpenKruise `pkg/util/tools.go` (kruise flavour,
//!   rounding up, the "not 100%" rule, clamped to `[0, replicas]`).
//! - Advanced DaemonSet: `filterDaemonPodsNodeToUpdate` in
//!   `pkg/controller/daemonset/daemonset_update.go` (scaled flavour against
//!   `status.desiredNumberScheduled`, rounding down, unclamped).
//! - Advanced StatefulSet: `sortPodsToUpdate` in `pkg/controller/statefulset/stateful_update_utils.go`
//!   (a plain int32).

use crate::error::{Error, Result};
use crate::intstr::{Flavour, IntOrPercent};
use crate::registry::{decode, encode};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Error kind: a string was given for an Advanced StatefulSet partition (an int32 field).
pub const NOT_AN_INTEGER: &str = "not_an_integer";
/// Error kind: a negative Advanced StatefulSet partition.
pub const NEGATIVE_PARTITION: &str = "negative_partition";

/// A resolved partition and the largest number of pods allowed on the update revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Partition {
    /// Pods (or nodes) kept on the old revision.
    pub partition: i64,
    /// Pods (or nodes) that may be on the update revision.
    pub max_updated: i64,
}

/// CloneSet `spec.updateStrategy.partition` as pods kept on the old revision.
///
/// `replicas` is `spec.replicas` (`None` means 1). A null partition is 0. A percentage is scaled
/// with the kruise (float) flavour rounding up; if a string other than the literal `"100%"` comes
/// out equal to `replicas` (> 1), one pod is still updated; the result is clamped to
/// `[0, replicas]`. Errors: `not_a_percentage`, `invalid_number`, naming field `partition`.
///
/// ```
/// use kruise_core::intstr::IntOrPercent;
/// use kruise_core::rollout::partition::cloneset_partition;
/// assert_eq!(cloneset_partition(Some(&IntOrPercent::String("99%".into())), Some(9))?, 8);
/// assert_eq!(cloneset_partition(Some(&IntOrPercent::String("100%".into())), Some(9))?, 9);
/// # Ok::<(), kruise_core::Error>(())
/// ```
pub fn cloneset_partition(partition: Option<&IntOrPercent>, replicas: Option<i32>) -> Result<i64> {
    let Some(p) = partition else { return Ok(0) };
    let r = i64::from(replicas.unwrap_or(1));
    let mut v = p.scale(r, true, Flavour::Kruise).map_err(|e| at_field(e, "partition"))?;
    if r > 1 && v == r && matches!(p, IntOrPercent::String(s) if s != "100%") {
        v = r - 1;
    }
    Ok(v.min(r).max(0))
}

/// CloneSet partition plus `expectedUpdatedReplicas` (`replicas − partition`).
pub fn cloneset(partition: Option<&IntOrPercent>, replicas: Option<i32>) -> Result<Partition> {
    let p = cloneset_partition(partition, replicas)?;
    Ok(Partition { partition: p, max_updated: i64::from(replicas.unwrap_or(1)) - p })
}

/// Advanced DaemonSet partition: scaled flavour against `desired_number_scheduled` (the status
/// value of the previous sync), rounding down, not clamped. `nodes` is the number of candidate
/// nodes; `max_updated = max(nodes − partition, 0)` (Go int arithmetic, wrapping).
/// Errors: `not_a_percentage`, `invalid_number`, naming field `partition`.
pub fn daemonset(partition: Option<&IntOrPercent>, desired_number_scheduled: i64, nodes: i64) -> Result<Partition> {
    let p = daemonset_partition(partition, desired_number_scheduled)?;
    Ok(Partition { partition: p, max_updated: nodes.wrapping_sub(p).max(0) })
}

/// The scaled Advanced DaemonSet partition alone (null → 0). Allocation-free on success.
pub fn daemonset_partition(partition: Option<&IntOrPercent>, desired_number_scheduled: i64) -> Result<i64> {
    match partition {
        None => Ok(0),
        Some(p) => p.scale(desired_number_scheduled, false, Flavour::Scaled).map_err(|e| at_field(e, "partition")),
    }
}

/// Advanced StatefulSet partition: a plain integer (null → 0); `max_updated = max(replicas −
/// partition, 0)`. Errors: `not_an_integer` for a string, `negative_partition` below 0.
pub fn statefulset(partition: Option<&IntOrPercent>, replicas: i32) -> Result<Partition> {
    let p = match partition {
        None => 0,
        Some(IntOrPercent::Int(i)) => i64::from(*i),
        Some(IntOrPercent::String(s)) => {
            return Err(Error::at(NOT_AN_INTEGER, "partition", format_args!("{s:?} is not an integer (int32 field)")));
        }
    };
    if p < 0 {
        return Err(Error::at(NEGATIVE_PARTITION, "partition", format_args!("{p} is negative")));
    }
    Ok(Partition { partition: p, max_updated: (i64::from(replicas) - p).max(0) })
}

/// Attaches `field` to a scaling error, keeping its kind and naming the field in the message.
pub(crate) fn at_field(e: Error, field: &str) -> Error {
    Error::at(e.kind, field, e.message)
}

#[derive(Deserialize)]
#[serde(tag = "kind")]
#[allow(clippy::enum_variant_names)] // the variants are the JSON `kind` values
enum Input {
    CloneSet {
        #[serde(default)]
        partition: Option<IntOrPercent>,
        #[serde(default)]
        replicas: Option<i32>,
    },
    DaemonSet {
        #[serde(default)]
        partition: Option<IntOrPercent>,
        #[serde(rename = "desiredNumberScheduled")]
        desired: i32,
        #[serde(default)]
        nodes: Option<i32>,
    },
    StatefulSet {
        #[serde(default)]
        partition: Option<IntOrPercent>,
        replicas: i32,
    },
}

/// `rollout.partition` handler (JSON shape in `docs/rollout.md`).
pub(crate) fn handler(input: &Value) -> Result<Value> {
    let out = match decode::<Input>(input)? {
        Input::CloneSet { partition, replicas } => cloneset(partition.as_ref(), replicas)?,
        Input::DaemonSet { partition, desired, nodes } => {
            daemonset(partition.as_ref(), i64::from(desired), i64::from(nodes.unwrap_or(desired)))?
        }
        Input::StatefulSet { partition, replicas } => statefulset(partition.as_ref(), replicas)?,
    };
    encode(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> IntOrPercent {
        IntOrPercent::String(v.into())
    }

    #[test]
    fn cloneset_not_100_rule_uses_raw_text() {
        assert_eq!(cloneset_partition(Some(&s("100.0%")), Some(10)).unwrap(), 9);
        assert_eq!(cloneset_partition(Some(&s("100%")), Some(10)).unwrap(), 10);
        assert_eq!(cloneset_partition(Some(&s("150%")), Some(10)).unwrap(), 10);
        assert_eq!(cloneset_partition(Some(&s("99%")), Some(1)).unwrap(), 1);
        assert_eq!(cloneset_partition(Some(&IntOrPercent::Int(15)), Some(10)).unwrap(), 10);
        assert_eq!(cloneset_partition(Some(&IntOrPercent::Int(-2)), Some(10)).unwrap(), 0);
        assert_eq!(cloneset_partition(Some(&IntOrPercent::Int(3)), Some(-1)).unwrap(), 0);
        let e = cloneset_partition(Some(&s("5%%")), Some(10)).unwrap_err();
        assert_eq!((e.kind, e.field.as_deref()), ("invalid_number", Some("partition")));
    }

    #[test]
    fn daemonset_is_unclamped_and_rounds_down() {
        assert_eq!(daemonset(Some(&s("50%")), 5, 5).unwrap(), Partition { partition: 2, max_updated: 3 });
        assert_eq!(daemonset(Some(&s("150%")), 10, 10).unwrap(), Partition { partition: 15, max_updated: 0 });
        assert_eq!(daemonset(Some(&IntOrPercent::Int(-3)), 10, 10).unwrap().max_updated, 13);
        assert_eq!(daemonset(Some(&s("50.5%")), 10, 10).unwrap_err().kind, "invalid_number");
        assert_eq!(daemonset(Some(&s("50")), 10, 10).unwrap_err().kind, "not_a_percentage");
    }

    #[test]
    fn statefulset_errors() {
        assert_eq!(statefulset(Some(&s("50%")), 3).unwrap_err().kind, NOT_AN_INTEGER);
        assert_eq!(statefulset(Some(&IntOrPercent::Int(-1)), 3).unwrap_err().kind, NEGATIVE_PARTITION);
        assert_eq!(statefulset(Some(&IntOrPercent::Int(7)), 3).unwrap(), Partition { partition: 7, max_updated: 0 });
    }
}
