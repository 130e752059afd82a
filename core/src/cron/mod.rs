//! AdvancedCronJob scheduling (apps.kruise.io/v1beta1, OpenKruise v1.9): the robfig/cron v3.0.1
//! dialect, next fire times with Go's time-zone rules, the reconcile decision, history pruning,
//! child state, defaulting and admission validation. Guide: `docs/cron.md`.
//!
//! Typed entry points: [`Schedule`] (`parse`, `next`, `next_in`), [`decide()`], [`prune()`],
//! [`job_state()`], [`defaults()`], [`validate()`]. JSON entry points: the registry [`ENTRIES`].
//!
//! Mirrors `pkg/controller/advancedcronjob/*`, `pkg/webhook/advancedcronjob/*`,
//! `apis/apps/defaults/v1beta1.go` (OpenKruise v1.9.0) and robfig/cron v3.0.1 `parser.go`,
//! `spec.go`, `constantdelay.go`.

mod civil;
pub mod decide;
pub mod defaults;
pub mod duration;
mod handlers;
mod image_ref;
pub mod job_state;
mod parser;
pub mod prune;
pub mod schedule;
mod selector;
pub mod validate;
pub mod zone;

#[cfg(test)]
mod tests;

pub use decide::{DecideInput, Decision, decide};
pub use defaults::defaults;
pub use handlers::describe;
/// The instant type of the typed API (re-exported from jiff).
pub use jiff::Timestamp;
pub use job_state::{JobState, job_state};
pub use parser::kinds;
pub use prune::prune;
pub use schedule::{Kind, Schedule, SpecFields, effective_schedule};
pub use validate::{FieldError, validate};
pub use zone::{Location, Zone};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::new(
        "cron.parse",
        "robfig/cron v3.0.1 ParseStandard after OpenKruise formatSchedule (parser.go, advancedcronjob_utils.go)",
        handlers::parse,
    ),
    Entry::new(
        "cron.next",
        "chained SpecSchedule.Next / ConstantDelaySchedule.Next fire times (robfig/cron spec.go, constantdelay.go)",
        handlers::next,
    ),
    Entry::new(
        "cron.decide",
        "one AdvancedCronJob reconcile pass: status, pruning, missed-start scan, concurrency (advancedcronjob_*_controller.go)",
        handlers::decide,
    ),
    Entry::new(
        "cron.prune",
        "history pruning of finished children (advancedcronjob_*_controller.go)",
        handlers::prune,
    ),
    Entry::new(
        "cron.jobState",
        "whether a Job / BroadcastJob / ImageListPullJob child is active, succeeded or failed",
        handlers::job_state,
    ),
    Entry::new(
        "cron.defaults",
        "SetDefaultsAdvancedCronJob without pod-template injection (apis/apps/defaults/v1beta1.go)",
        handlers::defaults,
    ),
    Entry::new(
        "cron.validate",
        "validating webhook, create path (advancedcronjob_create_update_handler.go)",
        handlers::validate,
    ),
];
