//! ImagePullJob decisions of OpenKruise v1.9.0 (apps.kruise.io/v1beta1): the status the
//! controller writes for a job pulling one image onto a set of nodes, its completion, TTL and
//! active deadline (the v1.6 `completionPolicy: Never` with `imagePullPolicy: Always`), and the
//! pull policy it puts on the NodeImages. An ImageListPullJob (v1.9 AdvancedCronJob
//! `imageListPullJobTemplate`) runs one such job per image from its template.
//! Guide: `docs/imagepull.md`.
//!
//! Typed entry point: [`status::status`] (or `kruise_core::decide::<fns::Status>(input)`);
//! JSON: the registry [`ENTRIES`] (`imagepull.status`).
//!
//! Mirrors `pkg/controller/imagepulljob/` (`imagepulljob_controller.go`,
//! `imagepulljob_utils.go`) and `pkg/util/imagejob/imagejob_reader.go`.

pub mod fns;
pub mod status;
pub mod types;

#[cfg(test)]
mod tests;

pub use status::{StatusInput, StatusOutput, status};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[Entry::of::<fns::Status>()];
