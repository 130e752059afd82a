//! # kruise-core
//!
//! OpenKruise v1.9's decision logic as a pure Rust library: no I/O, no clock reads, no globals
//! ("now" is always a parameter). Each module mirrors one OpenKruise concept and names the Go file
//! it reproduces.
//!
//! Two kinds of entry point:
//! - typed functions in each module (e.g. `resources::Expression`, `intstr::IntOrPercent::scale`);
//! - the generic [`registry::call`]`(fn_id, &json)`, keyed by the conformance-vector fn ids, which
//!   feeds the CLI, the conformance runner and the Python, C and Go bindings.

#![forbid(unsafe_code)]

pub mod allocation;
pub mod api;
pub mod compat;
pub mod conformance;
pub mod cron;
pub mod distribution;
pub mod error;
pub mod imagepull;
pub mod intstr;
pub mod jobsidecar;
pub mod k8s;
pub mod pub_budget;
pub mod quantity;
pub mod registry;
pub mod resources;
pub mod rollout;
pub mod sidecarset;
pub mod time;
pub mod updatesort;
pub mod workloadspread;

pub use error::{Error, Result};
pub use registry::{Decision, call, decide};
