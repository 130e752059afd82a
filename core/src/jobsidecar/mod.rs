//! Job sidecar terminator decisions of OpenKruise v1.9.0 (the `SidecarTerminator` feature gate):
//! when the sidecars of a job pod whose main containers have finished are stopped, how, and what
//! the pod's phase becomes. Guide: `docs/jobsidecar.md`.
//!
//! Typed entry point: [`decide::decide`] (or `kruise_core::decide::<fns::Decide>(input)`);
//! JSON: the registry [`ENTRIES`] (`jobsidecar.decide`).
//!
//! Mirrors `pkg/controller/sidecarterminator/` (`sidecar_terminator_controller.go`, `utils.go`,
//! `kill_container_action.go`, `inplace_update_action.go`, `virtual_kubelet_manager.go`).

pub mod decide;
pub mod fns;

#[cfg(test)]
mod tests;

pub use decide::{DecideInput, DecideOutput, decide};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[Entry::of::<fns::Decide>()];
