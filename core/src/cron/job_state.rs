//! Whether a child of an AdvancedCronJob is still running (finished conditions).
//!
//! Mirrors `IsJobFinished` / `isBroadcastJobFinished` / `isImageListPullJobFinished` in
//! `pkg/controller/advancedcronjob/advancedcronjob_*_controller.go`.

use serde::{Deserialize, Serialize};

/// The state of one child.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum JobState {
    /// Not finished.
    Active,
    /// Finished successfully.
    Succeeded,
    /// Finished unsuccessfully.
    Failed,
}

/// The child workload kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChildKind {
    /// batch/v1 Job.
    Job,
    /// apps.kruise.io BroadcastJob.
    BroadcastJob,
    /// apps.kruise.io ImageListPullJob.
    ImageListPullJob,
}

/// One status condition (`type`, `status`); other members are ignored.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Condition {
    /// Condition type, e.g. `Complete`, `Failed`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// `"True"`, `"False"` or `"Unknown"`.
    #[serde(default)]
    pub status: String,
}

/// The parts of a child's status that decide its state. Missing numbers count as 0.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChildStatus {
    /// Job / BroadcastJob conditions.
    #[serde(default)]
    pub conditions: Option<Vec<Condition>>,
    /// ImageListPullJob completion time (any non-null value counts as set).
    #[serde(default)]
    pub completion_time: Option<serde_json::Value>,
    /// ImageListPullJob: images desired.
    #[serde(default)]
    pub desired: Option<i64>,
    /// ImageListPullJob: images pulled successfully.
    #[serde(default)]
    pub succeeded: Option<i64>,
}

/// `cron.jobState` input: `{"kind", "status"}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobStateInput {
    /// Child kind.
    pub kind: ChildKind,
    /// Child status.
    #[serde(default)]
    pub status: ChildStatus,
}

/// Classifies a child: Job and BroadcastJob finish at their first `Complete`/`Failed` condition
/// with status `"True"`; an ImageListPullJob is finished once `completionTime` is set, succeeded when
/// `succeeded == desired`.
pub fn job_state(input: &JobStateInput) -> JobState {
    let s = &input.status;
    match input.kind {
        ChildKind::Job | ChildKind::BroadcastJob => {
            for c in s.conditions.iter().flatten() {
                if c.status == "True" {
                    match c.type_.as_str() {
                        "Complete" => return JobState::Succeeded,
                        "Failed" => return JobState::Failed,
                        _ => {}
                    }
                }
            }
            JobState::Active
        }
        ChildKind::ImageListPullJob => match s.completion_time {
            None | Some(serde_json::Value::Null) => JobState::Active,
            Some(_) if s.succeeded.unwrap_or(0) == s.desired.unwrap_or(0) => JobState::Succeeded,
            Some(_) => JobState::Failed,
        },
    }
}
