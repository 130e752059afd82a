//! History pruning of finished children (the history-limit deletions of the controllers).
//!
//! Mirrors the `successfulJobsHistoryLimit` / `failedJobsHistoryLimit` block of
//! `pkg/controller/advancedcronjob/advancedcronjob_*_controller.go`.

use super::job_state::JobState;
use super::zone::time_field;
use crate::error::Result;
use serde::Deserialize;

/// One child as pruning sees it; other members are ignored.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PruneJob {
    /// The child's `metadata.name`.
    pub name: String,
    /// Its state, as `cron.jobState` answers it.
    pub state: JobState,
    /// The child's `status.startTime` (RFC 3339); null or absent: not started, deleted before
    /// every started child of its state.
    #[serde(default)]
    pub start_time: Option<String>,
}

/// `cron.prune` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct PruneInput {
    /// `spec.successfulJobsHistoryLimit`, how many succeeded children to keep (null or absent: no
    /// pruning of succeeded children).
    #[serde(default)]
    pub successful_jobs_history_limit: Option<i32>,
    /// `spec.failedJobsHistoryLimit`, how many failed children to keep (null or absent: no pruning
    /// of failed children).
    #[serde(default)]
    pub failed_jobs_history_limit: Option<i32>,
    /// The owned children in listing order; absent: none.
    #[serde(default)]
    pub jobs: Vec<PruneJob>,
}

/// Names to delete, in deletion order: failed children first, then succeeded ones; within a
/// kind oldest `startTime` first, children without one before all others; `count - limit` of each
/// kind in wrapping 32-bit arithmetic (a negative limit deletes all, `i32::MIN` none).
///
/// Errors: `invalid_input` for an unparsable `startTime`. Ties keep listing order (Go's sort is
/// unstable for more than 12 items; see docs/deviations.md).
pub fn prune(input: &PruneInput) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (state, limit) in [
        (JobState::Failed, input.failed_jobs_history_limit),
        (JobState::Succeeded, input.successful_jobs_history_limit),
    ] {
        let Some(limit) = limit else { continue };
        let mut kind: Vec<(Option<(i64, u32)>, &str)> = Vec::new();
        for (i, j) in input.jobs.iter().enumerate() {
            if j.state == state {
                let st = match &j.start_time {
                    Some(s) => Some(time_field(s, &format!("jobs[{i}].startTime"))?),
                    None => None,
                };
                kind.push((st, &j.name));
            }
        }
        // None sorts before Some; Option's Ord does exactly that.
        kind.sort_by_key(|a| a.0);
        let keep_from = (kind.len() as i32).wrapping_sub(limit);
        for (i, (_, name)) in kind.iter().enumerate() {
            if (i as i32) >= keep_from {
                break;
            }
            out.push((*name).to_string());
        }
    }
    Ok(out)
}
