//! SidecarSet decisions of OpenKruise v1.9.0 (apps.kruise.io/v1beta1): whether a SidecarSet
//! applies to a pod, the pod after injection, and which pods the controller upgrades next. Guide: `docs/sidecarset.md`.
//!
//! Typed entry points: [`matching::matches`], [`inject::inject`] (or
//! `kruise_core::decide::<fns::Match>(input)`, `fns::Inject`, [`next_upgrade::next_upgrade`] /
//! `fns::NextUpgrade`); JSON: the registry [`ENTRIES`] (`sidecarset.match`, `sidecarset.inject`,
//! `sidecarset.next_upgrade`).
//!
//! Mirrors `pkg/control/sidecarcontrol/util.go`, `pkg/webhook/pod/mutating/sidecarset*.go`,
//! `pkg/util/fieldindex/register.go` and the pod webhook's namespace selector.

pub mod annotations;
pub mod fns;
pub mod gojson;
pub mod inject;
pub mod matching;
pub mod next_upgrade;
pub mod update_sort;
/// The pod view, now in [`crate::k8s::pod`] (re-exported under its old path).
pub use crate::k8s::pod;

#[cfg(test)]
mod tests;

pub use inject::{InjectInput, InjectOutput, inject};
pub use matching::{MatchInput, MatchOutput, MatchReason, matches};
pub use next_upgrade::{NextUpgradeInput, NextUpgradeOutput, next_upgrade};
pub use pod::MatchPod;

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::Match>(),
    Entry::of::<fns::Inject>(),
    Entry::of::<fns::NextUpgrade>(),
];
