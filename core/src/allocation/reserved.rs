//! Whether a pod is really reserved (`CheckPodReallyInReservedStatus`, OpenKruise v1.9
//! `pkg/controller/uniteddeployment/uniteddeployment_controller_utils.go`).

use super::pending::{NANOS_PER_SEC, pending_timeout};
use super::types::Pod;
use crate::error::{Error, Result};
use jiff::Timestamp;

/// Outcome of the reserved check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReservedCheck {
    /// The pod is (still) reserved.
    pub reserved: bool,
    /// When to look again, in nanoseconds (`None` = no re-check).
    pub check_after_nanos: Option<i128>,
    /// The pod became reserved because the rollout outlasted the pending timeout.
    pub update_timeout: bool,
}

/// Decides whether `pod` is reserved.
///
/// - Labelled reserved (`"true"`): leaves the reserved state only once it runs the updated
///   revision and has been Ready for longer than `min_ready_secs` (else re-check later).
/// - Otherwise, same revision as `updated_revision`: reserved iff its pending check timed out.
/// - Otherwise (old revision): reserved once `updated_since + pending_timeout_secs` is strictly
///   before `now` (terminating pods never); that also sets `update_timeout`.
///
/// A reserved outcome re-checks after `min_ready_secs`. `updated_since` is the
/// `UnitedDeploymentUpdated` condition's lastTransitionTime. Errors: `invalid_input` when
/// `updated_since` is needed but `None`, or the pod lacks `creationTimestamp` where needed.
pub fn pod_reserved(
    pod: &Pod,
    updated_revision: &str,
    updated_since: Option<Timestamp>,
    pending_timeout_secs: i64,
    min_ready_secs: i64,
    now: Timestamp,
) -> Result<ReservedCheck> {
    let (labelled, _) = pod.reserved_label();
    check(
        pod,
        labelled,
        updated_revision,
        updated_since,
        pending_timeout_secs,
        min_ready_secs,
        now,
    )
}

/// [`pod_reserved`] with the reserved label already read (`labelled` = value is `"true"`).
pub(crate) fn check(
    pod: &Pod,
    labelled: bool,
    updated_revision: &str,
    updated_since: Option<Timestamp>,
    pending_timeout_secs: i64,
    min_ready_secs: i64,
    now: Timestamp,
) -> Result<ReservedCheck> {
    let min_ready = i128::from(min_ready_secs) * NANOS_PER_SEC;
    let now_ns = now.as_nanosecond();
    if labelled {
        let ready = pod.condition("Ready").filter(|c| c.status == "True");
        if let Some(ready) = ready
            && pod.phase() == "Running"
            && pod.revision() == updated_revision
        {
            let since = ready
                .last_transition_time
                .unwrap_or_else(super::types::go_zero_time)
                .as_nanosecond();
            let until = since + min_ready;
            return Ok(if until < now_ns {
                ReservedCheck {
                    reserved: false,
                    check_after_nanos: None,
                    update_timeout: false,
                }
            } else {
                ReservedCheck {
                    reserved: true,
                    check_after_nanos: Some(until - now_ns),
                    update_timeout: false,
                }
            });
        }
        return Ok(ReservedCheck {
            reserved: true,
            check_after_nanos: Some(min_ready),
            update_timeout: false,
        });
    }
    let (timed_out, check, update_timeout) = if pod.revision() == updated_revision {
        let p = pending_timeout(pod, pending_timeout_secs, now)?;
        (p.timed_out, p.check_after_nanos, false)
    } else if pod.metadata.deletion_timestamp.is_some() {
        (false, None, false)
    } else {
        let since = updated_since.ok_or_else(|| {
            Error::invalid_input(
                "updatedCondition",
                format_args!("pod {:?} runs an old revision, so the UnitedDeploymentUpdated condition time is required", pod.metadata.name),
            )
        })?;
        let deadline = since.as_nanosecond() + i128::from(pending_timeout_secs) * NANOS_PER_SEC;
        if deadline < now_ns {
            (true, None, true)
        } else {
            (false, Some(deadline - now_ns), false)
        }
    };
    Ok(if timed_out {
        ReservedCheck {
            reserved: true,
            check_after_nanos: Some(min_ready),
            update_timeout,
        }
    } else {
        ReservedCheck {
            reserved: false,
            check_after_nanos: check,
            update_timeout: false,
        }
    })
}
