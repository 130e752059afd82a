//! WorkloadSpread decisions, controller side (OpenKruise v1.9.0 `pkg/controller/workloadspread/`):
//! the subset of every existing pod (including the takeover of pods created before the
//! WorkloadSpread), the deletion costs written on the pods, the subset statuses and rescheduling.
//! The webhook side is `api.workloadspread_subset`. Guide: `docs/workloadspread.md`.
//!
//! Typed entry point: [`reconcile::reconcile`] (or `kruise_core::decide::<fns::Reconcile>(input)`);
//! JSON: the registry [`ENTRIES`] (`workloadspread.reconcile`).

pub mod fns;
pub mod reconcile;

#[cfg(test)]
mod tests;

pub use reconcile::{ReconcileInput, ReconcileOutput, reconcile};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[Entry::of::<fns::Reconcile>()];
