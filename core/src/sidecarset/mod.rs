//! SidecarSet decisions of OpenKruise v1.9.0 (apps.kruise.io/v1beta1): whether a SidecarSet
//! applies to a pod, and the pod after injection. Guide: `docs/sidecarset.md`.
//!
//! Typed entry points: [`matching::matches`], [`inject::inject`] (or
//! `kruise_core::decide::<fns::Match>(input)`, `fns::Inject`); JSON: the registry [`ENTRIES`]
//! (`sidecarset.match`, `sidecarset.inject`).
//!
//! Mirrors `pkg/control/sidecarcontrol/util.go`, `pkg/webhook/pod/mutating/sidecarset*.go`,
//! `pkg/util/fieldindex/register.go` and the pod webhook's namespace selector.

pub mod annotations;
pub mod fns;
pub mod gojson;
pub mod inject;
pub mod matching;
/// The pod view, now in [`crate::k8s::pod`] (re-exported under its old path).
pub use crate::k8s::pod;

#[cfg(test)]
mod tests;

pub use inject::{InjectInput, InjectOutput, inject};
pub use matching::{MatchInput, MatchOutput, MatchReason, matches};
pub use pod::MatchPod;

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[Entry::of::<fns::Match>(), Entry::of::<fns::Inject>()];
