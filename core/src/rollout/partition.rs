//! Partitions: how many pods stay on the old revision, per workload.
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
use serde::{Deserialize, Serialize};

/// Error kind: a string was given for an Advanced StatefulSet partition (an int32 field).
pub const NOT_AN_INTEGER: &str = "not_an_integer";
/// Error kind: a negative Advanced StatefulSet partition.
pub const NEGATIVE_PARTITION: &str = "negative_partition";

/// A resolved partition and the largest number of pods allowed on the update revision (the output
/// of `rollout.partition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "PartitionOutput")]
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
    let mut v = p
        .scale(r, true, Flavour::Kruise)
        .map_err(|e| at_field(e, "partition"))?;
    if r > 1 && v == r && matches!(p, IntOrPercent::String(s) if s != "100%") {
        v = r - 1;
    }
    Ok(v.min(r).max(0))
}

/// CloneSet partition plus `expectedUpdatedReplicas` (`replicas − partition`).
pub fn cloneset(partition: Option<&IntOrPercent>, replicas: Option<i32>) -> Result<Partition> {
    let p = cloneset_partition(partition, replicas)?;
    Ok(Partition {
        partition: p,
        max_updated: i64::from(replicas.unwrap_or(1)) - p,
    })
}

/// Advanced DaemonSet partition: scaled flavour against `desired_number_scheduled` (the status
/// value of the previous sync), rounding down, not clamped. `nodes` is the number of candidate
/// nodes. `filterDaemonPodsNodeToUpdate` computes `maxUpdate = nodes − partition` (Go int
/// arithmetic, wrapping), updates nothing when that is ≤ 0 and otherwise cuts its node list
/// (a subset of the nodes) to `maxUpdate`, so `max_updated = clamp(nodes − partition, 0, nodes)`:
/// a negative partition never updates more nodes than there are.
/// Errors: `not_a_percentage`, `invalid_number`, naming field `partition`.
///
/// ```
/// use kruise_core::intstr::IntOrPercent;
/// use kruise_core::rollout::partition::daemonset;
/// assert_eq!(daemonset(Some(&IntOrPercent::Int(-1)), 3, 3)?.max_updated, 3);
/// # Ok::<(), kruise_core::Error>(())
/// ```
pub fn daemonset(
    partition: Option<&IntOrPercent>,
    desired_number_scheduled: i64,
    nodes: i64,
) -> Result<Partition> {
    let p = daemonset_partition(partition, desired_number_scheduled)?;
    Ok(Partition {
        partition: p,
        max_updated: nodes.wrapping_sub(p).max(0).min(nodes.max(0)),
    })
}

/// The scaled Advanced DaemonSet partition alone (null → 0), kept as the controller keeps it: in
/// an `int32` (`partition = int32(partitionInt)`, which wraps: `"2147483648%"` of 100 is
/// −2147483648). Allocation-free on success.
pub fn daemonset_partition(
    partition: Option<&IntOrPercent>,
    desired_number_scheduled: i64,
) -> Result<i64> {
    match partition {
        None => Ok(0),
        Some(p) => p
            .scale(desired_number_scheduled, false, Flavour::Scaled)
            .map(|v| i64::from(v as i32))
            .map_err(|e| at_field(e, "partition")),
    }
}

/// Advanced StatefulSet partition: a plain integer (null → 0); `max_updated = max(replicas −
/// partition, 0)`. Errors: `not_an_integer` for a string, `negative_partition` below 0.
pub fn statefulset(partition: Option<&IntOrPercent>, replicas: i32) -> Result<Partition> {
    let p = match partition {
        None => 0,
        Some(IntOrPercent::Int(i)) => i64::from(*i),
        Some(IntOrPercent::String(s)) => {
            return Err(Error::at(
                NOT_AN_INTEGER,
                "partition",
                format_args!("{s:?} is not an integer (int32 field)"),
            ));
        }
    };
    if p < 0 {
        return Err(Error::at(
            NEGATIVE_PARTITION,
            "partition",
            format_args!("{p} is negative"),
        ));
    }
    Ok(Partition {
        partition: p,
        max_updated: (i64::from(replicas) - p).max(0),
    })
}

/// Attaches `field` to a scaling error, keeping its kind and naming the field in the message.
pub(crate) fn at_field(e: Error, field: &str) -> Error {
    Error::at(e.kind, field, e.message)
}

/// Input of `rollout.partition`: `kind` picks the workload; the other members are its fields.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", deny_unknown_fields)]
#[allow(clippy::enum_variant_names)] // the variants are the JSON `kind` values
pub enum PartitionInput {
    /// A CloneSet (`kind: "CloneSet"`).
    CloneSet {
        /// `spec.updateStrategy.partition`, int-or-percent (kruise flavour, rounded up); absent or
        /// null is 0.
        #[serde(default)]
        partition: Option<IntOrPercent>,
        /// `spec.replicas`; absent or null is the default 1.
        #[serde(default)]
        replicas: Option<i32>,
    },
    /// An Advanced DaemonSet (`kind: "DaemonSet"`); counts are nodes.
    DaemonSet {
        /// `spec.updateStrategy.rollingUpdate.partition`, int-or-percent (scaled flavour against
        /// `desiredNumberScheduled`, rounded down); absent or null is 0.
        #[serde(default)]
        partition: Option<IntOrPercent>,
        /// `status.desiredNumberScheduled` (of the previous sync): what a percentage is taken of.
        #[serde(rename = "desiredNumberScheduled")]
        desired: i32,
        /// Candidate nodes; absent or null is `desiredNumberScheduled`.
        #[serde(default)]
        nodes: Option<i32>,
    },
    /// An Advanced StatefulSet (`kind: "StatefulSet"`).
    StatefulSet {
        /// `spec.updateStrategy.rollingUpdate.partition`: an int32 (a string is
        /// `not_an_integer`); absent or null is 0.
        #[serde(default)]
        partition: Option<IntOrPercent>,
        /// `spec.replicas`.
        replicas: i32,
    },
}

/// `rollout.partition`: the resolved partition of any of the three workloads.
pub fn resolve(input: &PartitionInput) -> Result<Partition> {
    match input {
        PartitionInput::CloneSet {
            partition,
            replicas,
        } => cloneset(partition.as_ref(), *replicas),
        PartitionInput::DaemonSet {
            partition,
            desired,
            nodes,
        } => daemonset(
            partition.as_ref(),
            i64::from(*desired),
            i64::from(nodes.unwrap_or(*desired)),
        ),
        PartitionInput::StatefulSet {
            partition,
            replicas,
        } => statefulset(partition.as_ref(), *replicas),
    }
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
        assert_eq!(
            cloneset_partition(Some(&IntOrPercent::Int(15)), Some(10)).unwrap(),
            10
        );
        assert_eq!(
            cloneset_partition(Some(&IntOrPercent::Int(-2)), Some(10)).unwrap(),
            0
        );
        assert_eq!(
            cloneset_partition(Some(&IntOrPercent::Int(3)), Some(-1)).unwrap(),
            0
        );
        let e = cloneset_partition(Some(&s("5%%")), Some(10)).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_number", Some("partition"))
        );
    }

    #[test]
    fn daemonset_is_unclamped_and_rounds_down() {
        assert_eq!(
            daemonset(Some(&s("50%")), 5, 5).unwrap(),
            Partition {
                partition: 2,
                max_updated: 3
            }
        );
        assert_eq!(
            daemonset(Some(&s("150%")), 10, 10).unwrap(),
            Partition {
                partition: 15,
                max_updated: 0
            }
        );
        assert_eq!(
            daemonset(Some(&IntOrPercent::Int(-3)), 10, 10)
                .unwrap()
                .max_updated,
            10
        );
        assert_eq!(
            daemonset(Some(&IntOrPercent::Int(-3)), 10, 4)
                .unwrap()
                .max_updated,
            4
        );
        assert_eq!(
            daemonset(Some(&s("-9223372036854775808%")), 100, 3).unwrap(),
            Partition {
                partition: 0,
                max_updated: 3
            }
        );
        assert_eq!(
            daemonset(Some(&s("2147483648%")), 100, 100).unwrap(),
            Partition {
                partition: -2147483648,
                max_updated: 100
            }
        );
        assert_eq!(
            daemonset(Some(&s("50.5%")), 10, 10).unwrap_err().kind,
            "invalid_number"
        );
        assert_eq!(
            daemonset(Some(&s("50")), 10, 10).unwrap_err().kind,
            "not_a_percentage"
        );
    }

    #[test]
    fn statefulset_errors() {
        assert_eq!(
            statefulset(Some(&s("50%")), 3).unwrap_err().kind,
            NOT_AN_INTEGER
        );
        assert_eq!(
            statefulset(Some(&IntOrPercent::Int(-1)), 3)
                .unwrap_err()
                .kind,
            NEGATIVE_PARTITION
        );
        assert_eq!(
            statefulset(Some(&IntOrPercent::Int(7)), 3).unwrap(),
            Partition {
                partition: 7,
                max_updated: 0
            }
        );
    }
}
