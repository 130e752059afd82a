//! PodUnavailableBudget (PUB) decisions of OpenKruise v1.9.0: protected operations, pod state,
//! update classification (UPDATE vs RESIZE), the controller's status, the pod webhook's admission
//! decision (on the typed request or on the `AdmissionReview` the API server posts) and PUB object
//! validation. See `docs/pub.md`.
//!
//! Typed API (no JSON; what Rust callers and the benches use):
//! - [`protect::protected_operations`] / [`types::Pub::protected_operations`];
//! - [`types::Pod::state`] (`is_active`, `is_ready`, `is_consistent`);
//! - [`classify::classify_update`];
//! - [`status::compute_status`] (linear, pods borrowed);
//! - [`admit::admit`] (allocation-free; returns a [`admit::StatusChange`] to apply);
//! - [`review::admit_review`] / [`review::admit_request`] (an `AdmissionReview` or its request,
//!   read as v1.9.0 reads it, fail closed, mapped onto `admit`);
//! - [`validate::validate`].
//!
//! Registry entries ([`ENTRIES`]): `pub.protect_operations`, `pub.pod_state`,
//! `pub.classify_update`, `pub.status`, `pub.admit`, `pub.admit_review`, `pub.validate`, typed
//! decisions in [`fns`] (call them with `kruise_core::decide::<fns::Status>(input)`).

pub mod admit;
pub mod classify;
pub mod fns;
/// The reference grammar, now in [`crate::k8s::image_ref`] (re-exported under its old path).
pub use crate::k8s::image_ref;
pub mod matching;
pub mod pod_state;
pub mod protect;
pub mod review;
pub mod status;
pub mod types;
pub mod validate;

pub use admit::{AdmissionRequest, Decision, DecisionCode, RequestOperation, StatusChange, admit};
pub use classify::{UpdateClass, classify_update};
pub use pod_state::PodState;
pub use protect::{Operation, OperationSet, protected_operations};
pub use review::{ReviewAnswer, ReviewContext, admit_request, admit_review};
pub use status::{BudgetPod, PodSummary, StatusOutcome, compute_status};
pub use types::{FeatureGates, Pod, Pub, PubStatus, RecordTime};
pub use validate::validate;

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::ProtectOperations>(),
    Entry::of::<fns::PodState>(),
    Entry::of::<fns::ClassifyUpdate>(),
    Entry::of::<fns::Status>(),
    Entry::of::<fns::Admit>(),
    Entry::of::<fns::AdmitReview>(),
    Entry::of::<fns::Validate>(),
    Entry::of::<matching::Match>(),
];

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn bad_input_names_the_field() {
        let e = crate::call(
            "pub.status",
            &json!({"pub": {"spec": {"maxUnavailable": "x%"}, "metadata": {"name": "p"}},
            "pods": [], "workloadReplicas": 3, "now": "2026-06-21T10:00:00Z", "spec": {}}),
        )
        .unwrap_err();
        assert_eq!(e.kind, "invalid_input");
        let e = crate::call(
            "pub.status",
            &json!({"pub": {"spec": {"selector": {}, "maxUnavailable": "x%"}},
            "pods": [], "workloadReplicas": 3, "now": "2026-06-21T10:00:00Z"}),
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_int_or_percent", Some("spec.maxUnavailable"))
        );
        let e = crate::call(
            "pub.status",
            &json!({"pub": {}, "pods": [{"metadata": {"name": 3}}], "now": "2026-06-21T10:00:00Z"}),
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("pods[0].metadata.name"))
        );
        let e = crate::call(
            "pub.status",
            &json!({"pub": {}, "pods": [], "now": "yesterday"}),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("now"));
        let e = crate::call(
            "pub.admit",
            &json!({"request": {"operation": "PATCH"}, "now": "2026-06-21T10:00:00Z"}),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("request.operation"));
        let e = crate::call("pub.admit", &json!({"request": {"operation": "DELETE"}, "featureGates": {}, "now": "2026-06-21T10:00:00Z"}))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("pod"));
        let e =
            crate::call("pub.validate", &json!({"pub": {"apiVersion": "apps/v1"}})).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("pub.apiVersion"));
    }

    #[test]
    fn arrays_are_not_pods_or_pubs() {
        let now = "2026-06-21T10:00:00Z";
        let review = json!({"uid": "d", "kind": {"version": "v1", "kind": "Pod"}, "operation": "DELETE",
            "oldObject": {"metadata": {"name": "p", "annotations": {"kruise.io/related-pub": "pb"}}},
            "options": {}});
        for (id, input, field) in [
            (
                "pub.admit_review",
                json!({"review": review, "pub": [], "now": now}),
                "pub",
            ),
            (
                "pub.admit_review",
                json!({"review": review, "pub": null, "evictedPod": [1], "now": now}),
                "evictedPod",
            ),
            (
                "pub.admit",
                json!({"request": {"operation": "DELETE"}, "pod": [], "pub": null, "now": now}),
                "pod",
            ),
            (
                "pub.admit",
                json!({"request": {"operation": "DELETE"}, "pod": {}, "pub": [], "now": now}),
                "pub",
            ),
            (
                "pub.status",
                json!({"pub": {}, "pods": [{}, []], "now": now}),
                "pods[1]",
            ),
            ("pub.pod_state", json!({"pod": []}), "pod"),
            (
                "pub.classify_update",
                json!({"oldPod": {}, "newPod": []}),
                "newPod",
            ),
            ("pub.validate", json!({"pub": []}), "pub"),
        ] {
            let e = crate::call(id, &input).unwrap_err();
            assert_eq!(
                (e.kind, e.field.as_deref()),
                ("invalid_input", Some(field)),
                "{id} {input}"
            );
        }
    }

    #[test]
    fn delete_without_old_object() {
        let out = crate::call(
            "pub.admit",
            &json!({"request": {"operation": "DELETE", "oldObjectPresent": false},
            "pub": null, "now": "2026-06-21T10:00:00Z"}),
        )
        .unwrap();
        assert_eq!(out["decision"], "no_old_object");
        assert_eq!(out["allowed"], true);
    }
}
