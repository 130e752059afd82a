//! Pending timeout of a pod (`GetTimeBeforePendingTimeout`, OpenKruise v1.9
//! `pkg/controller/util/pod_condition_utils.go`) and the requeue-delay merge
//! (`pkg/util/requeueduration/duration.go`).

use super::types::Pod;
use crate::error::{Error, Result};
use jiff::Timestamp;

/// Nanoseconds per second.
pub const NANOS_PER_SEC: i128 = 1_000_000_000;

/// Outcome of the pending check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingCheck {
    /// The pod has been unschedulable-pending longer than the timeout.
    pub timed_out: bool,
    /// When to look again, in nanoseconds (`None` = no re-check; 0 exactly at the deadline).
    pub check_after_nanos: Option<i128>,
}

/// Whether `pod` is an unschedulable pending pod older than `timeout_secs`, measured from its
/// `creationTimestamp` (not the condition's time); the deadline must be strictly before `now`.
///
/// A pod that is terminating, not exactly `Pending`, bound to a node, or without a
/// `PodScheduled=False/Unschedulable` condition is never timed out and needs no re-check.
/// Errors: `invalid_input` when the pod has no `metadata.creationTimestamp` and the check needs it.
pub fn pending_timeout(pod: &Pod, timeout_secs: i64, now: Timestamp) -> Result<PendingCheck> {
    const NONE: PendingCheck = PendingCheck {
        timed_out: false,
        check_after_nanos: None,
    };
    if pod.metadata.deletion_timestamp.is_some() || pod.phase() != "Pending" || pod.has_node() {
        return Ok(NONE);
    }
    let unschedulable = pod.status.as_ref().and_then(|s| {
        s.conditions.iter().find(|c| {
            c.type_ == "PodScheduled" && c.status == "False" && c.reason == "Unschedulable"
        })
    });
    if unschedulable.is_none() {
        return Ok(NONE);
    }
    let created = creation(pod)?;
    let deadline = created.as_nanosecond() + i128::from(timeout_secs) * NANOS_PER_SEC;
    let now = now.as_nanosecond();
    if deadline < now {
        Ok(PendingCheck {
            timed_out: true,
            check_after_nanos: None,
        })
    } else {
        Ok(PendingCheck {
            timed_out: false,
            check_after_nanos: Some(deadline - now),
        })
    }
}

fn creation(pod: &Pod) -> Result<Timestamp> {
    pod.metadata.creation_timestamp.ok_or_else(|| {
        Error::invalid_input(
            "metadata.creationTimestamp",
            format_args!("pod {:?} has no creationTimestamp", pod.metadata.name),
        )
    })
}

/// Merged requeue delay: the smallest strictly positive delay pushed wins; none -> no requeue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Requeue(Option<i128>);

impl Requeue {
    /// Offers a delay in nanoseconds (ignored unless > 0).
    pub fn push(&mut self, nanos: i128) {
        if nanos > 0 && self.0.is_none_or(|c| nanos < c) {
            self.0 = Some(nanos);
        }
    }
    /// Merges another accumulator into this one.
    pub fn merge(&mut self, other: Requeue) {
        if let Some(n) = other.0 {
            self.push(n);
        }
    }
    /// The delay in nanoseconds (`None` = no requeue).
    pub fn nanos(&self) -> Option<i128> {
        self.0
    }
}

/// A delay in seconds as the JSON answers carry it. Held as nanoseconds (Go's `time.Duration`);
/// written as a JSON integer when it is a whole number of seconds that fits int64, otherwise as
/// a float (e.g. `0.5`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seconds(pub i128);

impl Seconds {
    /// The delay in nanoseconds.
    pub fn nanos(self) -> i128 {
        self.0
    }
}

impl serde::Serialize for Seconds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let nanos = self.0;
        if nanos % NANOS_PER_SEC == 0 {
            let secs = nanos / NANOS_PER_SEC;
            match i64::try_from(secs) {
                Ok(v) => s.serialize_i64(v),
                Err(_) => s.serialize_f64(secs as f64),
            }
        } else {
            s.serialize_f64(nanos as f64 / NANOS_PER_SEC as f64)
        }
    }
}

impl schemars::JsonSchema for Seconds {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Seconds".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "description": "A delay in seconds: an integer when whole, otherwise a fraction (nanosecond precision)."
        })
    }
}
