//! One reconcile pass of the AdvancedCronJob controller (`Reconcile`): status recomputation,
//! history pruning, the paused check, the missed-start scan, the deadline and concurrency rules,
//! and the child to create.
//!
//! Mirrors `Reconcile` in `pkg/controller/advancedcronjob/advancedcronjob_job_controller.go` (and
//! its BroadcastJob / ImageListPullJob twins) with `getNextSchedule` / `formatSchedule` from
//! `advancedcronjob_utils.go`. `now` is an input; nothing here reads a clock.

use super::handlers::{local_zone, time_field};
use super::job_state::JobState;
use super::prune::{PruneInput, PruneJob, prune};
use super::schedule::Schedule;
use super::zone::{Zone, format_utc, parse_rfc3339};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Go's zero `time.Time` (0001-01-01T00:00:00Z) as Unix seconds: what `Next` returns for "none".
pub const GO_ZERO_TIME: i64 = -62_135_596_800;
/// More missed starts than this is an error (`too many missed start times`).
pub const MAX_MISSED_STARTS: u32 = 100;
/// Error kind: a child is due but `spec.template` holds no template (see [`decide`]).
pub const TEMPLATE_MISSING: &str = "template_missing";

/// The `spec.template` members; only their presence matters here.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateRefs {
    /// `jobTemplate`.
    #[serde(default)]
    pub job_template: Option<Value>,
    /// `broadcastJobTemplate`.
    #[serde(default)]
    pub broadcast_job_template: Option<Value>,
    /// `imageListPullJobTemplate`.
    #[serde(default)]
    pub image_list_pull_job_template: Option<Value>,
}

impl TemplateRefs {
    /// Whether no template is present (all three absent or `null`; an empty object `{}` counts
    /// as present, as a non-nil pointer to a zero template does in Go).
    pub fn is_empty(&self) -> bool {
        self.job_template.is_none()
            && self.broadcast_job_template.is_none()
            && self.image_list_pull_job_template.is_none()
    }

    /// The child kind (`status.type`): Job if `jobTemplate`, else ImageListPullJob if
    /// `imageListPullJobTemplate`, else BroadcastJob (also when no template is present).
    pub fn kind(&self) -> &'static str {
        if self.job_template.is_some() {
            "Job"
        } else if self.image_list_pull_job_template.is_some() {
            "ImageListPullJob"
        } else {
            "BroadcastJob"
        }
    }
}

/// The AdvancedCronJob spec fields the controller reads (no defaults applied).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecideSpec {
    /// Cron schedule.
    #[serde(default)]
    pub schedule: String,
    /// IANA zone name.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// Seconds; `now - s` and `missed + s` wrap like Go's `time.Duration` arithmetic.
    #[serde(default)]
    pub starting_deadline_seconds: Option<i64>,
    /// `Allow` / `Forbid` / `Replace`; anything else acts as Allow.
    #[serde(default)]
    pub concurrency_policy: Option<String>,
    /// Paused.
    #[serde(default)]
    pub paused: Option<bool>,
    /// History limit for succeeded children.
    #[serde(default)]
    pub successful_jobs_history_limit: Option<i32>,
    /// History limit for failed children.
    #[serde(default)]
    pub failed_jobs_history_limit: Option<i32>,
    /// Templates.
    #[serde(default)]
    pub template: TemplateRefs,
}

/// One owned child.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecideJob {
    /// Child name.
    pub name: String,
    /// `cron.jobState` of the child.
    pub state: JobState,
    /// `status.startTime` (RFC 3339).
    #[serde(default)]
    pub start_time: Option<String>,
    /// Raw `apps.kruise.io/scheduled-at` annotation; may be missing or malformed.
    #[serde(default)]
    pub scheduled_at: Option<String>,
}

/// `cron.decide` input.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct DecideInput {
    /// ACJ name (child names are `<name>-<unix seconds>`).
    pub name: String,
    /// `metadata.creationTimestamp` (RFC 3339).
    pub creation_timestamp: String,
    /// The reconcile time (RFC 3339).
    pub now: String,
    /// The controller process's zone (default UTC).
    #[serde(default)]
    pub local_time_zone: Option<String>,
    /// The spec.
    pub spec: DecideSpec,
    /// Owned children in listing order.
    #[serde(default)]
    pub jobs: Vec<DecideJob>,
}

/// What the reconcile does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    /// Create a child; nothing deleted.
    Create,
    /// Delete the active children, then create.
    Replace,
    /// Create nothing (requeue still set unless there is no next time).
    Skip,
    /// Paused: stop, no requeue.
    Paused,
    /// Unparsable schedule or too many missed starts: stop, no requeue.
    Error,
}

/// Why nothing was created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// `spec.paused`.
    Paused,
    /// The effective schedule does not parse.
    UnparsableSchedule,
    /// More than 100 missed starts.
    TooManyMissedStarts,
    /// No fire time in (earliest, now].
    NoMissedStart,
    /// Latest missed start older than the deadline (unreachable, kept for completeness).
    DeadlineExceeded,
    /// `Forbid` with an active child.
    ConcurrencyForbid,
}

/// `cron.decide` output (the JSON shape in `docs/cron.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// `status.type`.
    #[serde(rename = "type")]
    pub type_: &'static str,
    /// Recomputed `status.lastScheduleTime` (UTC RFC 3339) or null.
    pub last_schedule_time: Option<String>,
    /// Names of active children, input order.
    pub active: Vec<String>,
    /// History deletions (`cron.prune` order).
    pub history_deletes: Vec<String>,
    /// The action.
    pub action: Action,
    /// Why nothing was created (null for create/replace).
    pub reason: Option<Reason>,
    /// Nominal time of the created child.
    pub scheduled_time: Option<String>,
    /// Name of the created child.
    pub job_name: Option<String>,
    /// Active children deleted because of Replace, input order.
    pub jobs_to_delete: Vec<String>,
    /// Seconds until the next reconcile, or null for none.
    pub requeue_after_seconds: Option<i64>,
}

/// Instants with nanoseconds, as Go's `time.Time` compares them.
type Ns = i128;

fn ns(secs: i64, nanos: u32) -> Ns {
    i128::from(secs) * 1_000_000_000 + i128::from(nanos)
}

/// Whole-second floor of a nanosecond instant.
fn floor_secs(t: Ns) -> i64 {
    t.div_euclid(1_000_000_000) as i64
}

/// One reconcile pass. Errors: `invalid_input` for malformed times (`now`, `creationTimestamp`,
/// `jobs[i].startTime`) or an unknown `localTimeZone`; `template_missing` (field `spec.template`)
/// when a child is due (create or replace) but no template is present: the controller then takes
/// the BroadcastJob path and dereferences the nil `broadcastJobTemplate`
/// (`advancedcronjob_broadcastjob_controller.go`, `constructBrJobForCronJob`), so the reconcile
/// panics and creates nothing. By then it has written the status, pruned the history and, for
/// `Replace`, deleted the active children. Schedule problems are not errors but the `error` action
/// (like the controller, which logs and stops).
pub fn decide(input: &DecideInput) -> Result<Decision> {
    let spec = &input.spec;
    let local = local_zone(input.local_time_zone.as_deref(), "localTimeZone")?;
    let (now_s, now_n) = time_field(&input.now, "now")?;
    let (cr_s, cr_n) = time_field(&input.creation_timestamp, "creationTimestamp")?;
    let now = ns(now_s, now_n);

    // Status: active children and the latest scheduled-at over all children.
    let active: Vec<String> = input
        .jobs
        .iter()
        .filter(|j| j.state == JobState::Active)
        .map(|j| j.name.clone())
        .collect();
    let last = input
        .jobs
        .iter()
        .filter_map(|j| j.scheduled_at.as_deref().and_then(parse_rfc3339))
        .max();
    let history_deletes = prune(&PruneInput {
        successful_jobs_history_limit: spec.successful_jobs_history_limit,
        failed_jobs_history_limit: spec.failed_jobs_history_limit,
        jobs: input
            .jobs
            .iter()
            .map(|j| PruneJob {
                name: j.name.clone(),
                state: j.state,
                start_time: j.start_time.clone(),
            })
            .collect(),
    })?;
    let mut d = Decision {
        type_: spec.template.kind(),
        // metav1.Time drops the fraction when status is written.
        last_schedule_time: last.map(|(s, _)| format_utc(s)),
        active,
        history_deletes,
        action: Action::Skip,
        reason: None,
        scheduled_time: None,
        job_name: None,
        jobs_to_delete: Vec::new(),
        requeue_after_seconds: None,
    };
    if spec.paused == Some(true) {
        d.action = Action::Paused;
        d.reason = Some(Reason::Paused);
        return Ok(d);
    }
    let Ok(sched) = Schedule::parse_with_time_zone(&spec.schedule, spec.time_zone.as_deref())
    else {
        d.action = Action::Error;
        d.reason = Some(Reason::UnparsableSchedule);
        return Ok(d);
    };

    // Scan start.
    let mut earliest = match last {
        Some((s, _)) => ns(s, 0),
        None => ns(cr_s, cr_n),
    };
    if let Some(s) = spec.starting_deadline_seconds {
        let deadline = now + i128::from(s.wrapping_neg().wrapping_mul(1_000_000_000));
        if deadline > earliest {
            earliest = deadline;
        }
    }
    let next_of = |t: i64, z: &Zone| sched.next_secs(t, z).unwrap_or(GO_ZERO_TIME);
    let utc = Zone::utc();
    let mut last_missed: Option<i64> = None;
    if earliest <= now {
        let mut t = next_of(floor_secs(earliest), &local);
        let mut starts = 0u32;
        while ns(t, 0) <= now {
            last_missed = Some(t);
            starts += 1;
            if starts > MAX_MISSED_STARTS {
                d.action = Action::Error;
                d.reason = Some(Reason::TooManyMissedStarts);
                return Ok(d);
            }
            // Go's zero time carries UTC, so a Local schedule continues in UTC from there.
            let z = if t == GO_ZERO_TIME { &utc } else { &local };
            t = next_of(t, z);
        }
    }
    let next = sched.next_secs(floor_secs(now), &local);
    d.requeue_after_seconds = next.map(|n| ((ns(n, 0) - now) / 1_000_000_000) as i64);

    let Some(lm) = last_missed else {
        d.reason = Some(Reason::NoMissedStart);
        return Ok(d);
    };
    if let Some(s) = spec.starting_deadline_seconds {
        let late = ns(lm, 0) + i128::from(s.wrapping_mul(1_000_000_000));
        if late < now {
            d.reason = Some(Reason::DeadlineExceeded);
            return Ok(d);
        }
    }
    match spec.concurrency_policy.as_deref() {
        Some("Forbid") if !d.active.is_empty() => {
            d.reason = Some(Reason::ConcurrencyForbid);
            return Ok(d);
        }
        Some("Replace") if !d.active.is_empty() => {
            d.jobs_to_delete = d.active.clone();
            d.action = Action::Replace;
        }
        _ => d.action = Action::Create,
    }
    if spec.template.is_empty() {
        return Err(Error::at(
            TEMPLATE_MISSING,
            "spec.template",
            "a child is due but no jobTemplate, broadcastJobTemplate or imageListPullJobTemplate is set (the controller dereferences the missing broadcastJobTemplate and creates nothing)",
        ));
    }
    d.scheduled_time = Some(format_utc(lm));
    d.job_name = Some(format!("{}-{}", input.name, lm));
    Ok(d)
}
