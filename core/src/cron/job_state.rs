//! Whether a child of an AdvancedCronJob is still running (finished conditions).
//!
//! Mirrors `IsJobFinished` / `isBroadcastJobFinished` / `isImageListPullJobFinished` in
//! `pkg/controller/advancedcronjob/advancedcronjob_*_controller.go`.

use serde::{Deserialize, Serialize};

/// The state of one child (`cron.jobState` output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum JobState {
    /// Not finished.
    Active,
    /// Finished successfully.
    Succeeded,
    /// Finished unsuccessfully.
    Failed,
}

/// The child workload kinds (the `kind` of the child object; AdvancedCronJob `status.type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum ChildKind {
    /// batch/v1 Job.
    Job,
    /// apps.kruise.io BroadcastJob.
    BroadcastJob,
    /// apps.kruise.io ImageListPullJob.
    ImageListPullJob,
}

impl ChildKind {
    /// The kind's name (`Job`, `BroadcastJob`, `ImageListPullJob`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChildKind::Job => "Job",
            ChildKind::BroadcastJob => "BroadcastJob",
            ChildKind::ImageListPullJob => "ImageListPullJob",
        }
    }

    /// The API group of the kind (`batch` for Job, `apps.kruise.io` for the others).
    pub fn group(self) -> &'static str {
        match self {
            ChildKind::Job => "batch",
            ChildKind::BroadcastJob | ChildKind::ImageListPullJob => "apps.kruise.io",
        }
    }
}

/// One status condition: the shared [`crate::k8s::condition::Condition`].
pub use crate::k8s::condition::Condition;

/// The parts of a child's status that decide its state; other members (a whole `status` may be
/// passed) are ignored. Missing numbers count as 0.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChildStatus {
    /// Job / BroadcastJob `status.conditions`, in order; null or absent: none.
    #[serde(default)]
    pub conditions: Option<Vec<Condition>>,
    /// ImageListPullJob `status.completionTime`: any non-null value (carried verbatim, not parsed)
    /// counts as set; null or absent: not finished.
    #[serde(default)]
    pub completion_time: Option<serde_json::Value>,
    /// ImageListPullJob `status.desired`, images to pull; null or absent: 0.
    #[serde(default)]
    pub desired: Option<i64>,
    /// ImageListPullJob `status.succeeded`, images pulled successfully; null or absent: 0.
    #[serde(default)]
    pub succeeded: Option<i64>,
}

/// `cron.jobState` input: `{"kind", "status"}`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JobStateInput {
    /// The child's kind.
    pub kind: ChildKind,
    /// The child's `status`; absent: the zero status (active).
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
