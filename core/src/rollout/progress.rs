//! CloneSet `spec.progressDeadlineSeconds` and the `Progressing` condition:
//! `calculateProgressingStatus`, `hasProgressingConditionChanged`
//! and `getRequeueSecondsFromCondition` in OpenKruise
//! `pkg/controller/cloneset/cloneset_status.go`, condition helpers in
//! `pkg/controller/cloneset/utils/cloneset_utils.go`.
//!
//! Times are RFC 3339 strings; "now" is always an input.

use crate::error::Result;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

/// `progressDeadlineSeconds` value that switches the feature off (math.MaxInt32).
pub const NO_DEADLINE: i32 = i32::MAX;

/// Reason `CloneSetAvailable` (status True).
pub const REASON_AVAILABLE: &str = "CloneSetAvailable";
/// Reason `CloneSetPaused` (status True).
pub const REASON_PAUSED: &str = "CloneSetPaused";
/// Reason `ProgressPartitionAvailable` (status True).
pub const REASON_PARTITION_AVAILABLE: &str = "ProgressPartitionAvailable";
/// Reason `ProgressDeadlineExceeded` (status False).
pub const REASON_DEADLINE_EXCEEDED: &str = "ProgressDeadlineExceeded";
/// Reason `CloneSetUpdated` (status True).
pub const REASON_UPDATED: &str = "CloneSetUpdated";

/// The spec fields the decision reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressSpec {
    /// `spec.replicas`.
    pub replicas: i32,
    /// `spec.progressDeadlineSeconds`; unset or 2147483647 switches the feature off.
    #[serde(default)]
    pub progress_deadline_seconds: Option<i32>,
    /// `spec.updateStrategy.paused`.
    #[serde(default)]
    pub paused: bool,
}

/// The freshly computed status counters the decision reads (absent members are 0 or `""`; other
/// members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressStatus {
    /// All pods.
    #[serde(default)]
    pub replicas: i32,
    /// Pods on the update revision.
    #[serde(default)]
    pub updated_replicas: i32,
    /// Updated pods available for `minReadySeconds`.
    #[serde(default)]
    pub updated_available_replicas: i32,
    /// `spec.replicas − partition`.
    #[serde(default)]
    pub expected_updated_replicas: i32,
    /// `status.currentRevision`.
    #[serde(default)]
    pub current_revision: String,
    /// `status.updateRevision`.
    #[serde(default)]
    pub update_revision: String,
}

/// A `Progressing` condition with parsed times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// `"True"` or `"False"`.
    pub status: String,
    /// One of the `REASON_*` constants (any string is carried over).
    pub reason: String,
    /// Human message.
    pub message: String,
    /// `lastUpdateTime`.
    pub last_update_time: Timestamp,
    /// `lastTransitionTime`.
    pub last_transition_time: Timestamp,
}

/// One evaluation's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// The condition after the step (`None` = removed / absent).
    pub condition: Option<Condition>,
    /// Whether the status must be written because the condition appeared, disappeared, or changed
    /// status or reason.
    pub changed: bool,
    /// Requeue hint in seconds, only in the `CloneSetUpdated` branch.
    pub requeue_after_seconds: Option<i64>,
}

/// Which rule fires, as `(status, reason, message)`.
fn decide(
    spec: &ProgressSpec,
    status: &ProgressStatus,
    old: Option<&Condition>,
    pds: i32,
    now: Timestamp,
) -> (&'static str, &'static str, Option<String>) {
    let r = spec.replicas;
    if status.current_revision == status.update_revision
        && status.replicas == r
        && status.updated_replicas == r
        && status.updated_available_replicas == r
    {
        return (
            "True",
            REASON_AVAILABLE,
            Some("CloneSet is available".into()),
        );
    }
    if spec.paused {
        return ("True", REASON_PAUSED, Some("CloneSet is paused".into()));
    }
    if status.expected_updated_replicas < r
        && status.expected_updated_replicas <= status.updated_available_replicas
    {
        return (
            "True",
            REASON_PARTITION_AVAILABLE,
            Some("CloneSet has been paused due to partition ready".into()),
        );
    }
    if let Some(c) = old
        && (c.reason == REASON_DEADLINE_EXCEEDED || deadline(c, pds).is_some_and(|d| d < now))
    {
        let msg = format!(
            "CloneSet revision {} has timed out progressing",
            status.update_revision
        );
        return ("False", REASON_DEADLINE_EXCEEDED, Some(msg));
    }
    (
        "True",
        REASON_UPDATED,
        Some("CloneSet is progressing".into()),
    )
}

fn deadline(c: &Condition, pds: i32) -> Option<Timestamp> {
    c.last_update_time
        .checked_add(SignedDuration::from_secs(i64::from(pds)))
        .ok()
}

/// Evaluates the `Progressing` condition once.
///
/// `old` is the condition the object carries on entry; `now` is the reconcile time.
///
/// ```
/// use kruise_core::rollout::progress::{evaluate, ProgressSpec, ProgressStatus, REASON_UPDATED};
/// let spec = ProgressSpec { replicas: 10, progress_deadline_seconds: Some(600), paused: false };
/// let status = ProgressStatus { replicas: 10, expected_updated_replicas: 10,
///     current_revision: "r1".into(), update_revision: "r2".into(), ..Default::default() };
/// let now = "2026-06-21T10:00:00Z".parse().unwrap();
/// let p = evaluate(&spec, &status, None, now);
/// assert_eq!(p.condition.unwrap().reason, REASON_UPDATED);
/// assert_eq!(p.requeue_after_seconds, Some(601));
/// ```
pub fn evaluate(
    spec: &ProgressSpec,
    status: &ProgressStatus,
    old: Option<&Condition>,
    now: Timestamp,
) -> Progress {
    let pds = match spec.progress_deadline_seconds {
        None | Some(NO_DEADLINE) => {
            return Progress {
                condition: None,
                changed: old.is_some(),
                requeue_after_seconds: None,
            };
        }
        Some(p) => p,
    };
    let (st, reason, message) = decide(spec, status, old, pds, now);
    let condition = match old {
        Some(c) if c.status == st && c.reason == reason => c.clone(),
        _ => Condition {
            status: st.to_string(),
            reason: reason.to_string(),
            message: message.unwrap_or_default(),
            last_update_time: now,
            last_transition_time: match old {
                Some(c) if c.status == st => c.last_transition_time,
                _ => now,
            },
        },
    };
    let changed = old.is_none_or(|c| c.status != condition.status || c.reason != condition.reason);
    let requeue_after_seconds =
        (reason == REASON_UPDATED).then(|| requeue_seconds(&condition, pds, now));
    Progress {
        condition: Some(condition),
        changed,
        requeue_after_seconds,
    }
}

/// `after = lastUpdateTime + pds − now`; `after` when below one second, else `after + 1s`,
/// in whole seconds (truncated).
pub fn requeue_seconds(c: &Condition, pds: i32, now: Timestamp) -> i64 {
    let after = c.last_update_time.duration_since(now) + SignedDuration::from_secs(i64::from(pds));
    let after = if after < SignedDuration::from_secs(1) {
        after
    } else {
        after + SignedDuration::from_secs(1)
    };
    after.as_secs()
}

/// Formats a time the way Kubernetes serialises `metav1.Time`: RFC 3339 UTC, whole seconds.
pub fn format_time(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

pub use crate::time::parse_time;

/// `spec` of the `rollout.progress` input: the CloneSet spec fields read (other members are
/// ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressInputSpec {
    /// `spec.replicas`; absent or null is the default 1.
    #[serde(default)]
    pub replicas: Option<i32>,
    /// `spec.progressDeadlineSeconds`; absent, null or 2147483647 switches the feature off (the
    /// condition is removed).
    #[serde(default)]
    pub progress_deadline_seconds: Option<i32>,
    /// `spec.updateStrategy`; absent: not paused.
    #[serde(default)]
    pub update_strategy: ProgressInputStrategy,
}

/// `spec.updateStrategy` of the `rollout.progress` input (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
pub struct ProgressInputStrategy {
    /// `spec.updateStrategy.paused`; absent: false.
    #[serde(default)]
    pub paused: bool,
}

/// The `Progressing` condition the CloneSet carries on entry (other members are ignored).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressingCondition {
    /// Condition type; absent: `Progressing` (not checked).
    #[serde(rename = "type", default = "progressing")]
    pub kind: String,
    /// `"True"` or `"False"`.
    pub status: String,
    /// The reason (`CloneSetAvailable`, `CloneSetPaused`, `ProgressPartitionAvailable`,
    /// `ProgressDeadlineExceeded`, `CloneSetUpdated`; any string is carried over).
    pub reason: String,
    /// Human message; absent or null: `""`.
    #[serde(default)]
    pub message: Option<String>,
    /// RFC 3339 time of the last update.
    pub last_update_time: String,
    /// RFC 3339 time of the last status change.
    pub last_transition_time: String,
}

fn progressing() -> String {
    "Progressing".into()
}

/// The `Progressing` condition after the step, times in RFC 3339 UTC whole seconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressingConditionOutput {
    /// Always `Progressing`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `"True"` or `"False"`.
    pub status: String,
    /// The reason (one of the `REASON_*` values, or the entry condition's own when it is kept).
    pub reason: String,
    /// Human message.
    pub message: String,
    /// Time of the last update.
    pub last_update_time: String,
    /// Time of the last status change.
    pub last_transition_time: String,
}

/// Input of `rollout.progress`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProgressInput {
    /// The CloneSet spec fields read.
    pub spec: ProgressInputSpec,
    /// The freshly computed status; absent: all zero.
    #[serde(default)]
    pub status: ProgressStatus,
    /// The `Progressing` condition on entry; absent or null: none.
    #[serde(default)]
    pub condition: Option<ProgressingCondition>,
    /// The reconcile time, RFC 3339.
    pub now: String,
}

/// Output of `rollout.progress`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressOutput {
    /// The condition after the step; null: removed or absent.
    pub condition: Option<ProgressingConditionOutput>,
    /// The status must be written: the condition appeared, disappeared, or changed status or
    /// reason.
    pub changed: bool,
    /// Requeue after this many seconds; only in the `CloneSetUpdated` branch, else null.
    pub requeue_after_seconds: Option<i64>,
}

/// `rollout.progress` on typed input. Errors: `invalid_input` naming a time that is not RFC 3339
/// (`now`, `condition.lastUpdateTime`, `condition.lastTransitionTime`).
pub fn progress(i: &ProgressInput) -> Result<ProgressOutput> {
    let now = parse_time(&i.now, "now")?;
    let old = match &i.condition {
        None => None,
        Some(c) => Some(Condition {
            status: c.status.clone(),
            reason: c.reason.clone(),
            message: c.message.clone().unwrap_or_default(),
            last_update_time: parse_time(&c.last_update_time, "condition.lastUpdateTime")?,
            last_transition_time: parse_time(
                &c.last_transition_time,
                "condition.lastTransitionTime",
            )?,
        }),
    };
    let spec = ProgressSpec {
        replicas: i.spec.replicas.unwrap_or(1),
        progress_deadline_seconds: i.spec.progress_deadline_seconds,
        paused: i.spec.update_strategy.paused,
    };
    let p = evaluate(&spec, &i.status, old.as_ref(), now);
    let condition = p.condition.map(|c| ProgressingConditionOutput {
        kind: progressing(),
        status: c.status,
        reason: c.reason,
        message: c.message,
        last_update_time: format_time(c.last_update_time),
        last_transition_time: format_time(c.last_transition_time),
    });
    Ok(ProgressOutput {
        condition,
        changed: p.changed,
        requeue_after_seconds: p.requeue_after_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn stalled() -> (ProgressSpec, ProgressStatus) {
        let spec = ProgressSpec {
            replicas: 10,
            progress_deadline_seconds: Some(600),
            paused: false,
        };
        let status = ProgressStatus {
            replicas: 10,
            updated_replicas: 3,
            updated_available_replicas: 2,
            expected_updated_replicas: 10,
            current_revision: "r1".into(),
            update_revision: "r2".into(),
        };
        (spec, status)
    }

    #[test]
    fn deadline_is_strictly_after_pds() {
        let (spec, status) = stalled();
        let first = evaluate(&spec, &status, None, t("2026-06-21T10:00:00Z"))
            .condition
            .unwrap();
        let at = evaluate(&spec, &status, Some(&first), t("2026-06-21T10:10:00Z"));
        assert_eq!(at.condition.as_ref().unwrap().reason, REASON_UPDATED);
        assert_eq!((at.changed, at.requeue_after_seconds), (false, Some(0)));
        let after = evaluate(&spec, &status, Some(&first), t("2026-06-21T10:10:01Z"));
        let c = after.condition.unwrap();
        assert_eq!(
            (c.status.as_str(), c.reason.as_str(), after.changed),
            ("False", REASON_DEADLINE_EXCEEDED, true)
        );
        assert_eq!(c.message, "CloneSet revision r2 has timed out progressing");
        assert_eq!(c.last_transition_time, t("2026-06-21T10:10:01Z"));
        assert_eq!(after.requeue_after_seconds, None);
    }

    #[test]
    fn exceeded_is_sticky_but_pause_replaces_it() {
        let (spec, status) = stalled();
        let first = evaluate(&spec, &status, None, t("2026-06-21T10:00:00Z"))
            .condition
            .unwrap();
        let exceeded = evaluate(&spec, &status, Some(&first), t("2026-06-21T11:00:00Z"))
            .condition
            .unwrap();
        let new_rev = ProgressStatus {
            update_revision: "r3".into(),
            ..status.clone()
        };
        let again = evaluate(&spec, &new_rev, Some(&exceeded), t("2026-06-21T11:00:05Z"));
        assert!(!again.changed);
        assert_eq!(
            again.condition.as_ref().unwrap().message,
            "CloneSet revision r2 has timed out progressing"
        );
        let paused = ProgressSpec {
            paused: true,
            ..spec
        };
        let p = evaluate(&paused, &status, Some(&exceeded), t("2026-06-21T11:00:05Z"));
        assert_eq!(p.condition.unwrap().reason, REASON_PAUSED);
        assert!(p.changed);
    }

    #[test]
    fn disabled_removes_the_condition() {
        let (mut spec, status) = stalled();
        spec.progress_deadline_seconds = Some(NO_DEADLINE);
        let first = evaluate(&stalled().0, &status, None, t("2026-06-21T10:00:00Z")).condition;
        let p = evaluate(&spec, &status, first.as_ref(), t("2026-06-21T10:00:00Z"));
        assert_eq!((p.condition, p.changed), (None, true));
        assert!(!evaluate(&spec, &status, None, t("2026-06-21T10:00:00Z")).changed);
    }
}
