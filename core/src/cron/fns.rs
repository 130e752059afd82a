//! The typed decisions of the cron family: one [`Decision`] per `cron.*` fn id. Each one's JSON
//! handler and schema are derived from its `Input` and `Output` types (see `crate::registry`).
//!
//! The native fast path, [`super::Schedule`] (`parse`, `next`, `next_in`, `next_n`), stays
//! hand-written; `cron.parse` and `cron.next` are its JSON views.
//!
//! ```
//! use kruise_core::cron::fns::{JobState, JobStateInput, Next, NextInput};
//! use kruise_core::cron::{ChildKind, job_state};
//!
//! let times = kruise_core::decide::<Next>(NextInput {
//!     schedule: "30 2 * * *".into(),
//!     time_zone: Some("America/New_York".into()),
//!     local_time_zone: None,
//!     after: "2026-03-07T12:00:00Z".into(),
//!     count: 2,
//! })?;
//! // 02:30 does not exist on spring-forward day: robfig skips it.
//! assert_eq!(times, ["2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z"]);
//!
//! let input = JobStateInput { kind: ChildKind::ImageListPullJob, status: Default::default() };
//! assert_eq!(kruise_core::decide::<JobState>(input)?, job_state::JobState::Active);
//! # Ok::<(), kruise_core::Error>(())
//! ```

use super::decide::TEMPLATE_MISSING;
use super::kinds::*;
use super::schedule::{Kind, Schedule};
use super::zone::{UNKNOWN_LOCATION, format_utc, local_zone, time_field};
use crate::error::{Error, Result};
use crate::registry::Decision;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use super::children::{
    ChildMeta, ChildObject, ChildrenInput, ChildrenOutput, OwnerMeta, OwnerObject, OwnerReference,
    OwnerSpec,
};
pub use super::decide::{
    Action, DecideInput, DecideJob, DecideSpec, Decision as DecideOutput, Reason, TemplateRefs,
};
pub use super::job_state::{ChildKind, ChildStatus, Condition, JobStateInput};
pub use super::prune::{PruneInput, PruneJob};
pub use super::validate::{
    CompletionPolicy, FieldError, IlpjSpec, IlpjTemplate, NodeSelector, PullPolicy, Templates,
    ValidateInput, ValidateSpec,
};

/// Largest `count` accepted by `cron.next`.
pub const MAX_COUNT: i64 = 100_000;

/// Every error kind the robfig/cron parser answers (`Schedule::parse`).
const PARSE_ERRORS: &[&str] = &[
    EMPTY_SPEC,
    TZ_PREFIX_WITHOUT_FIELDS,
    UNKNOWN_LOCATION,
    UNRECOGNIZED_DESCRIPTOR,
    INVALID_DURATION,
    WRONG_FIELD_COUNT,
    INVALID_NUMBER,
    NEGATIVE_NUMBER,
    TOO_MANY_HYPHENS,
    TOO_MANY_SLASHES,
    BELOW_MINIMUM,
    ABOVE_MAXIMUM,
    RANGE_START_AFTER_END,
    ZERO_STEP,
];

/// `cron.parse` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ParseInput {
    /// The AdvancedCronJob `spec.schedule` (robfig/cron v3.0.1 `ParseStandard` dialect, optional
    /// `TZ=` / `CRON_TZ=` prefix).
    pub schedule: String,
    /// The AdvancedCronJob `spec.timeZone` (an IANA name), prefixed as `TZ=<zone>` when the
    /// schedule has no `TZ` and the zone loads (OpenKruise `formatSchedule`); null or absent: none.
    #[serde(default)]
    pub time_zone: Option<String>,
}

/// `cron.parse` output: the parsed schedule, by `kind`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ParseOutput {
    /// `@every <duration>`: a constant delay.
    #[serde(rename_all = "camelCase")]
    Every {
        /// The delay in whole seconds (robfig rounds the duration down to a second, at least 1).
        every_seconds: u64,
    },
    /// Five cron fields, as the sorted lists of the values each allows.
    #[serde(rename_all = "camelCase")]
    Spec {
        /// The zone the schedule is evaluated in (`TZ=` prefix or `timeZone`); null: the
        /// controller's local zone.
        location: Option<String>,
        /// Minutes 0-59.
        minutes: Vec<u32>,
        /// Hours 0-23.
        hours: Vec<u32>,
        /// Days of month 1-31.
        days_of_month: Vec<u32>,
        /// Months 1-12.
        months: Vec<u32>,
        /// Days of week 0-6, 0 = Sunday.
        days_of_week: Vec<u32>,
        /// The day-of-month field had an unstepped `*` / `?` item (robfig's star bit: days then
        /// combine with AND instead of OR).
        dom_star: bool,
        /// The day-of-week field had an unstepped `*` / `?` item.
        dow_star: bool,
    },
}

fn list(mask: u64) -> Vec<u32> {
    (0..64).filter(|i| mask >> i & 1 == 1).collect()
}

/// The `cron.parse` output of a schedule.
pub fn describe(s: &Schedule) -> ParseOutput {
    match s.kind() {
        Kind::Every { seconds } => ParseOutput::Every {
            every_seconds: *seconds,
        },
        Kind::Spec(f) => ParseOutput::Spec {
            location: s.location().name().map(str::to_string),
            minutes: list(f.minutes),
            hours: list(f.hours),
            days_of_month: list(f.days_of_month),
            months: list(f.months),
            days_of_week: list(f.days_of_week),
            dom_star: f.dom_star,
            dow_star: f.dow_star,
        },
    }
}

/// `cron.parse`: what a schedule means (`Schedule::parse_with_time_zone`).
pub struct Parse;

impl Decision for Parse {
    const ID: &'static str = "cron.parse";
    const DOC: &'static str = "robfig/cron v3.0.1 ParseStandard after OpenKruise formatSchedule (parser.go, advancedcronjob_utils.go)";
    const SOURCE: &'static str = "github.com/robfig/cron/v3 v3.0.1 parser.go ParseStandard; \
        pkg/controller/advancedcronjob/advancedcronjob_utils.go formatSchedule";
    const ERRORS: &'static [&'static str] = PARSE_ERRORS;
    type Input = ParseInput;
    type Output = ParseOutput;

    fn decide(i: ParseInput) -> Result<ParseOutput> {
        Ok(describe(&Schedule::parse_with_time_zone(
            &i.schedule,
            i.time_zone.as_deref(),
        )?))
    }
}

/// `cron.next` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NextInput {
    /// The schedule, as for `cron.parse`.
    pub schedule: String,
    /// The zone, as for `cron.parse`; null or absent: none.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// The controller process's zone (an IANA name), where a schedule without zone is evaluated;
    /// null or absent: UTC (`"Local"` is UTC too).
    #[serde(default)]
    pub local_time_zone: Option<String>,
    /// The instant to start after (RFC 3339; a fraction is dropped).
    pub after: String,
    /// How many chained fire times to answer, at most 100000 (0 or negative: none).
    pub count: i64,
}

/// `cron.next`: chained fire times, each the next one strictly after the previous.
pub struct Next;

impl Decision for Next {
    const ID: &'static str = "cron.next";
    const DOC: &'static str = "chained SpecSchedule.Next / ConstantDelaySchedule.Next fire times (robfig/cron spec.go, constantdelay.go)";
    const SOURCE: &'static str = "github.com/robfig/cron/v3 v3.0.1 spec.go SpecSchedule.Next, \
        constantdelay.go ConstantDelaySchedule.Next";
    const ERRORS: &'static [&'static str] = PARSE_ERRORS;
    /// Output: the fire times as UTC RFC 3339 strings (whole seconds), fewer than `count` when
    /// robfig's five-year search finds no more.
    type Input = NextInput;
    type Output = Vec<String>;

    fn decide(i: NextInput) -> Result<Vec<String>> {
        let s = Schedule::parse_with_time_zone(&i.schedule, i.time_zone.as_deref())?;
        let local = local_zone(i.local_time_zone.as_deref(), "localTimeZone")?;
        let (mut t, _) = time_field(&i.after, "after")?;
        if i.count > MAX_COUNT {
            return Err(Error::invalid_input(
                "count",
                format!("at most {MAX_COUNT}"),
            ));
        }
        let mut out = Vec::new();
        for _ in 0..i.count.max(0) {
            match s.next_secs(t, &local) {
                Some(n) => {
                    out.push(format_utc(n));
                    t = n;
                }
                None => break,
            }
        }
        Ok(out)
    }
}

/// `cron.decide`: one reconcile pass ([`super::decide()`]).
pub struct Decide;

impl Decision for Decide {
    const ID: &'static str = "cron.decide";
    const DOC: &'static str = "one AdvancedCronJob reconcile pass: status, pruning, missed-start scan, concurrency (advancedcronjob_*_controller.go)";
    const SOURCE: &'static str = "pkg/controller/advancedcronjob/advancedcronjob_job_controller.go reconcileJob \
        (and its twins in advancedcronjob_broadcastjob_controller.go, advancedcronjob_imagelistpulljob_controller.go); \
        advancedcronjob_utils.go getNextSchedule, formatSchedule";
    const ERRORS: &'static [&'static str] = &[UNKNOWN_LOCATION, TEMPLATE_MISSING];
    type Input = DecideInput;
    type Output = DecideOutput;

    fn decide(i: DecideInput) -> Result<DecideOutput> {
        super::decide(&i)
    }
}

/// `cron.prune`: history pruning of finished children ([`super::prune()`]).
pub struct Prune;

impl Decision for Prune {
    const ID: &'static str = "cron.prune";
    const DOC: &'static str =
        "history pruning of finished children (advancedcronjob_*_controller.go)";
    const SOURCE: &'static str = "pkg/controller/advancedcronjob/advancedcronjob_job_controller.go reconcileJob \
        (successfulJobsHistoryLimit / failedJobsHistoryLimit deletions; same in the BroadcastJob and \
        ImageListPullJob controllers)";
    const ERRORS: &'static [&'static str] = &[];
    /// Output: the names to delete, in deletion order.
    type Input = PruneInput;
    type Output = Vec<String>;

    fn decide(i: PruneInput) -> Result<Vec<String>> {
        super::prune(&i)
    }
}

/// `cron.jobState`: whether a child is active, succeeded or failed ([`super::job_state()`]).
pub struct JobState;

impl Decision for JobState {
    const ID: &'static str = "cron.jobState";
    const DOC: &'static str =
        "whether a Job / BroadcastJob / ImageListPullJob child is active, succeeded or failed";
    const SOURCE: &'static str = "pkg/controller/advancedcronjob/advancedcronjob_job_controller.go isJobFinished; \
        advancedcronjob_broadcastjob_controller.go isBroadcastJobFinished; \
        advancedcronjob_imagelistpulljob_controller.go isImageListPullJobFinished";
    const ERRORS: &'static [&'static str] = &[];
    type Input = JobStateInput;
    type Output = super::job_state::JobState;

    fn decide(i: JobStateInput) -> Result<super::job_state::JobState> {
        Ok(super::job_state(&i))
    }
}

/// `cron.defaults` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DefaultsInput {
    /// The AdvancedCronJob `spec`, carried verbatim apart from the members the defaults fill;
    /// null or absent: the zero spec.
    #[serde(default)]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub spec: Value,
}

/// `cron.defaults`: `SetDefaultsAdvancedCronJob` ([`super::defaults()`]).
pub struct Defaults;

impl Decision for Defaults {
    const ID: &'static str = "cron.defaults";
    const DOC: &'static str =
        "SetDefaultsAdvancedCronJob without pod-template injection (apis/apps/defaults/v1beta1.go)";
    const SOURCE: &'static str = "apis/apps/defaults/v1beta1.go SetDefaultsAdvancedCronJob";
    const ERRORS: &'static [&'static str] = &[];
    /// Output: the defaulted spec (every member not defaulted passes through verbatim).
    type Input = DefaultsInput;
    type Output = Map<String, Value>;

    fn decide(i: DefaultsInput) -> Result<Map<String, Value>> {
        super::defaults::defaults_map(i.spec)
    }
}

/// `cron.validate`: the validating webhook on create ([`super::validate()`]).
pub struct Validate;

impl Decision for Validate {
    const ID: &'static str = "cron.validate";
    const DOC: &'static str =
        "validating webhook, create path (advancedcronjob_create_update_handler.go)";
    const SOURCE: &'static str = "pkg/webhook/advancedcronjob/validating/advancedcronjob_create_update_handler.go validateAdvancedCronJob";
    const ERRORS: &'static [&'static str] = &["internal"];
    /// Output: every problem in webhook order (`[]`: admitted).
    type Input = ValidateInput;
    type Output = Vec<FieldError>;

    fn decide(i: ValidateInput) -> Result<Vec<FieldError>> {
        super::validate(&i)
    }
}

/// `cron.children`: which child objects belong to an AdvancedCronJob ([`super::children()`]).
pub struct Children;

impl Decision for Children {
    const ID: &'static str = "cron.children";
    const DOC: &'static str = "the children an AdvancedCronJob reconcile lists: template kind, namespace, controller owner reference (fieldindex)";
    const SOURCE: &'static str = "pkg/util/fieldindex/register.go indexJob, indexBroadcastCronJobV1Beta1, \
        indexImageListPullJobV1Beta1; pkg/controller/advancedcronjob/advancedcronjob_*_controller.go (List with \
        InNamespace and MatchingFields .metadata.controller); advancedcronjob_utils.go FindTemplateKind";
    const ERRORS: &'static [&'static str] = &[];
    type Input = ChildrenInput;
    type Output = ChildrenOutput;

    const CHECK_JSON: Option<crate::registry::JsonCheck> =
        Some(|input: &Value| -> Result<()> { super::children::objects_only(input) });

    fn decide(i: ChildrenInput) -> Result<ChildrenOutput> {
        Ok(super::children(&i))
    }
}
