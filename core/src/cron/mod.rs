//! AdvancedCronJob scheduling (apps.kruise.io/v1beta1, OpenKruise v1.9): the robfig/cron v3.0.1
//! dialect, next fire times with Go's time-zone rules, the reconcile decision, history pruning,
//! child state and ownership, defaulting and admission validation. Guide: `docs/cron.md`.
//!
//! Typed entry points: [`Schedule`] (`parse`, `next`, `next_in`; the native fast path),
//! [`decide()`], [`prune()`], [`job_state()`], [`children()`], [`defaults()`], [`validate()`], and
//! the registered decisions in [`fns`] (`kruise_core::decide::<cron::fns::Decide>(input)`). JSON
//! entry points: the registry [`ENTRIES`].
//!
//! Mirrors `pkg/controller/advancedcronjob/*`, `pkg/webhook/advancedcronjob/*`,
//! `pkg/util/fieldindex/register.go`, `apis/apps/defaults/v1beta1.go` (OpenKruise v1.9.0) and
//! robfig/cron v3.0.1 `parser.go`, `spec.go`, `constantdelay.go`.

pub mod children;
mod civil;
pub mod decide;
pub mod defaults;
pub mod duration;
pub mod fns;
pub mod job_state;
mod parser;
pub mod prune;
pub mod schedule;
mod selector;
pub mod validate;
pub mod zone;

#[cfg(test)]
mod tests;

pub use children::{ChildrenInput, ChildrenOutput, children};
pub use decide::{DecideInput, Decision, decide};
pub use defaults::defaults;
pub use fns::describe;
/// The instant type of the typed API (re-exported from jiff).
pub use jiff::Timestamp;
pub use job_state::{ChildKind, JobState, job_state};
pub use parser::kinds;
pub use prune::prune;
pub use schedule::{Kind, Schedule, SpecFields, effective_schedule};
pub use validate::{FieldError, validate};
pub use zone::{Location, Zone};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::Parse>(),
    Entry::of::<fns::Next>(),
    Entry::of::<fns::Decide>(),
    Entry::of::<fns::Prune>(),
    Entry::of::<fns::JobState>(),
    Entry::of::<fns::Defaults>(),
    Entry::of::<fns::Validate>(),
    Entry::of::<fns::Children>(),
];
