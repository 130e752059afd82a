//! kruise-kube: OpenKruise v1.9 decisions ([`kruise_core`]) for Rust Kubernetes programs, on
//! k8s-openapi types: pods ([`allocation`], [`resources`]), a PodUnavailableBudget admission
//! webhook ([`pub_budget`]) and a CRD conversion webhook ([`conversion`]).
//!
//! Like every library over k8s-openapi, this crate selects no Kubernetes version: the final
//! program does, e.g. `k8s-openapi = { version = "0.28", features = ["v1_32"] }` (v1.32 is the line
//! OpenKruise v1.9 builds against). The conversions read only fields every supported version has.
//!
//! Times are k8s-openapi's own jiff ([`k8s_openapi::jiff`], the type inside
//! `apimachinery::pkg::apis::meta::v1::Time`), so a kube-rs program passes
//! `k8s_openapi::jiff::Timestamp::now()` and needs no second jiff.
#![forbid(unsafe_code)]

pub mod allocation;
pub mod conversion;
pub mod pub_budget;
pub mod resources;

use k8s_openapi::jiff;

/// The core's timestamp for a k8s-openapi one (the same instant; both jiff versions cover years
/// -9999..=9999, so `invalid_input` naming `field` is only for an instant outside that range).
pub(crate) fn core_time(
    t: jiff::Timestamp,
    field: &str,
) -> kruise_core::Result<kruise_core::allocation::Timestamp> {
    kruise_core::allocation::Timestamp::new(t.as_second(), t.subsec_nanosecond())
        .map_err(|e| kruise_core::Error::invalid_input(field, e))
}
