//! ResourceDistribution decisions of OpenKruise v1.9.0 (apps.kruise.io/v1alpha1; feature gate
//! `ResourceDistributionGate`): which namespaces get a copy of the distributed Secret or
//! ConfigMap, what happens to each namespace's copy, and the status the controller writes.
//! Guide: `docs/distribution.md`.
//!
//! Typed entry point: [`targets::targets`] (or `kruise_core::decide::<fns::Targets>(input)`);
//! [`validate::validate`] (`fns::Validate`); JSON: the registry [`ENTRIES`]
//! (`distribution.targets`, `distribution.validate`).
//!
//! Mirrors `pkg/controller/resourcedistribution/` (`resourcedistribution_controller.go`,
//! `utils.go`) and `pkg/webhook/resourcedistribution/validating/` (`utils.go`,
//! `resourcedistribution_create_update_handler.go`).

pub mod fns;
pub mod targets;
pub mod types;
pub mod validate;

#[cfg(test)]
mod tests;

pub use targets::{TargetsInput, TargetsOutput, targets};
pub use validate::{ValidateInput, ValidateOutput, validate};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[Entry::of::<fns::Targets>(), Entry::of::<fns::Validate>()];
