//! One reconcile pass of the AdvancedCronJob controller (`Reconcile`): status recomputation,
//! history pruning, the paused check, the missed-start scan, the deadline and concurrency rules,
//! and the child to create.
//!
//! Mirrors `Reconcile` in `pkg/controller/advancedcronjob/advancedcronjob_job_controller.go` (and
//! its BroadcastJob / ImageListPullJob twins) with `getNextSchedule` / `formatSchedule` from
//! `advancedcronjob_utils.go`. `now` is an input; nothing here reads a clock.

use super::job_state::{ChildKind, JobState};
use super::prune::{PruneInput, PruneJob, prune};
use super::schedule::Schedule;
use super::zone::{Zone, format_utc, parse_rfc3339};
use super::zone::{local_zone, time_field};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Go's zero `time.Time` (0001-01-01T00:00:00Z) as Unix seconds: what `Next` returns for "none".
pub const GO_ZERO_TIME: i64 = -62_135_596_800;
/// More missed starts than this is an error (`too many missed start times`).
pub const MAX_MISSED_STARTS: u32 = 100;
/// Error kind: a child is due but `spec.template` holds no template (see [`decide`]).
pub const TEMPLATE_MISSING: &str = "template_missing";

/// The `spec.template` members; only their presence matters here (each is carried verbatim and
/// never read: absent or `null` is "not set", any other value, `{}` included, is "set").
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateRefs {
    /// `jobTemplate` (a batch/v1 Job template, carried verbatim); null or absent: not set.
    #[serde(default)]
    pub job_template: Option<Value>,
    /// `broadcastJobTemplate` (carried verbatim); null or absent: not set.
    #[serde(default)]
    pub broadcast_job_template: Option<Value>,
    /// `imageListPullJobTemplate` (carried verbatim); null or absent: not set.
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
    pub fn kind(&self) -> ChildKind {
        if self.job_template.is_some() {
            ChildKind::Job
        } else if self.image_list_pull_job_template.is_some() {
            ChildKind::ImageListPullJob
        } else {
            ChildKind::BroadcastJob
        }
    }
}

/// The AdvancedCronJob spec fields the controller reads (no defaults applied). Other members of
/// the spec are ignored, so a whole `spec` can be passed.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecideSpec {
    /// `spec.schedule`, the cron schedule (robfig/cron standard dialect); absent: `""`, which does
    /// not parse (action `error`).
    #[serde(default)]
    pub schedule: String,
    /// `spec.timeZone`, an IANA zone name; null or absent: none (an unloadable name is ignored, as
    /// by the controller's `formatSchedule`).
    #[serde(default)]
    pub time_zone: Option<String>,
    /// `spec.startingDeadlineSeconds`, in seconds; null or absent: no deadline. `now - s` and
    /// `missed + s` wrap like Go's `time.Duration` arithmetic.
    #[serde(default)]
    pub starting_deadline_seconds: Option<i64>,
    /// `spec.concurrencyPolicy`: `Allow` / `Forbid` / `Replace`; null, absent or anything else acts
    /// as `Allow`.
    #[serde(default)]
    pub concurrency_policy: Option<String>,
    /// `spec.paused`; null or absent: not paused.
    #[serde(default)]
    pub paused: Option<bool>,
    /// `spec.successfulJobsHistoryLimit`, how many succeeded children to keep; null or absent: keep
    /// all.
    #[serde(default)]
    pub successful_jobs_history_limit: Option<i32>,
    /// `spec.failedJobsHistoryLimit`, how many failed children to keep; null or absent: keep all.
    #[serde(default)]
    pub failed_jobs_history_limit: Option<i32>,
    /// `spec.template`; absent: no template.
    #[serde(default)]
    pub template: TemplateRefs,
}

/// One owned child (see `cron.children` for which children are owned).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecideJob {
    /// The child's `metadata.name`.
    pub name: String,
    /// The child's state, as `cron.jobState` answers it.
    pub state: JobState,
    /// The child's `status.startTime` (RFC 3339); null or absent: not started (sorts first when
    /// pruning).
    #[serde(default)]
    pub start_time: Option<String>,
    /// The raw `apps.kruise.io/scheduled-at` annotation (RFC 3339 expected); null, absent or
    /// malformed: the child does not count for `lastScheduleTime`.
    #[serde(default)]
    pub scheduled_at: Option<String>,
}

/// `cron.decide` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct DecideInput {
    /// The AdvancedCronJob's `metadata.name` (child names are `<name>-<unix seconds>`).
    pub name: String,
    /// The AdvancedCronJob's `metadata.creationTimestamp` (RFC 3339): where the missed-start scan
    /// begins when no child carries a scheduled time.
    pub creation_timestamp: String,
    /// The reconcile time (RFC 3339, fractions kept).
    pub now: String,
    /// The controller process's zone (an IANA name), where a schedule without zone is evaluated;
    /// null or absent: UTC (`"Local"` is UTC too).
    #[serde(default)]
    pub local_time_zone: Option<String>,
    /// The AdvancedCronJob spec.
    pub spec: DecideSpec,
    /// The owned children in listing order; absent: none.
    #[serde(default)]
    pub jobs: Vec<DecideJob>,
}

/// What the reconcile does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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

/// `cron.decide` output (the JSON shape in `docs/cron.md`). Every member is always present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "DecideOutput")]
pub struct Decision {
    /// `status.type`: the child kind picked from `spec.template`.
    #[serde(rename = "type")]
    pub type_: ChildKind,
    /// Recomputed `status.lastScheduleTime` (UTC RFC 3339, whole seconds): the latest scheduled
    /// time over all children; null when no child carries one.
    pub last_schedule_time: Option<String>,
    /// Names of the active children (`status.active`), input order.
    pub active: Vec<String>,
    /// Finished children deleted by the history limits, in deletion order (`cron.prune`).
    pub history_deletes: Vec<String>,
    /// The action.
    pub action: Action,
    /// Why nothing was created; null for `create` and `replace`.
    pub reason: Option<Reason>,
    /// Nominal fire time of the created child (UTC RFC 3339); null when nothing is created.
    pub scheduled_time: Option<String>,
    /// Name of the created child (`<name>-<unix seconds>`); null when nothing is created.
    pub job_name: Option<String>,
    /// Active children deleted because of `Replace`, input order (empty otherwise).
    pub jobs_to_delete: Vec<String>,
    /// Whole seconds until the next reconcile (the next fire time after `now`, minus `now`,
    /// truncated); null for no requeue.
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
