//! PodUnavailableBudget (PUB) decisions of OpenKruise v1.9.0: protected operations, pod state,
//! update classification (UPDATE vs RESIZE), the controller's status, the pod webhook's admission
//! decision and PUB object validation. See `docs/pub.md`.
//!
//! Typed API (no JSON; what Rust callers and the benches use):
//! - [`protect::protected_operations`] / [`types::Pub::protected_operations`];
//! - [`types::Pod::state`] (`is_active`, `is_ready`, `is_consistent`);
//! - [`classify::classify_update`];
//! - [`status::compute_status`] (linear, pods borrowed);
//! - [`admit::admit`] (allocation-free; returns a [`admit::StatusChange`] to apply);
//! - [`validate::validate`].
//!
//! Registry entries ([`ENTRIES`]): `pub.protect_operations`, `pub.pod_state`,
//! `pub.classify_update`, `pub.status`, `pub.admit`, `pub.validate`.

pub mod admit;
pub mod classify;
pub mod image_ref;
pub mod pod_state;
pub mod protect;
pub mod status;
pub mod types;
pub mod validate;

pub use admit::{AdmissionRequest, Decision, DecisionCode, RequestOperation, StatusChange, admit};
pub use classify::{UpdateClass, classify_update};
pub use pod_state::PodState;
pub use protect::{Operation, OperationSet, protected_operations};
pub use status::{BudgetPod, PodSummary, StatusOutcome, compute_status};
pub use types::{FeatureGates, Pod, Pub, PubStatus, RecordTime};
pub use validate::validate;

use crate::error::Result;
use crate::registry::{Entry, decode};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ProtectInput {
    annotation: Option<String>,
    #[serde(default)]
    in_place_pod_vertical_scaling: bool,
    #[serde(default)]
    strict: bool,
}

fn protect_handler(input: &Value) -> Result<Value> {
    let i: ProtectInput = decode(input)?;
    let set = if i.strict {
        protect::protected_operations_strict(
            i.annotation.as_deref(),
            i.in_place_pod_vertical_scaling,
        )?
    } else {
        protected_operations(i.annotation.as_deref(), i.in_place_pod_vertical_scaling)
    };
    Ok(json!({"operations": set.iter().map(Operation::as_str).collect::<Vec<_>>()}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PodInput {
    pod: Pod,
}

fn pod_state_handler(input: &Value) -> Result<Value> {
    let i: PodInput = decode(input)?;
    crate::registry::encode(&i.pod.state())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ClassifyInput {
    old_pod: Pod,
    new_pod: Pod,
}

fn classify_handler(input: &Value) -> Result<Value> {
    let i: ClassifyInput = decode(input)?;
    crate::registry::encode(&classify_update(&i.old_pod, &i.new_pod)?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StatusInput {
    #[serde(rename = "pub")]
    pb: Pub,
    #[serde(default)]
    pods: Vec<Pod>,
    #[serde(default)]
    workload_replicas: Option<i32>,
    now: String,
}

fn status_handler(input: &Value) -> Result<Value> {
    let i: StatusInput = decode(input)?;
    i.pb.check_api("pub")?;
    let now = RecordTime::parse(&i.now, "now")?;
    let out = compute_status(&i.pb, &i.pods, i.workload_replicas, now.at)?;
    let s = &out.status;
    Ok(json!({
        "desiredAvailable": s.desired_available,
        "currentAvailable": s.current_available,
        "totalReplicas": s.total_replicas,
        "unavailableAllowed": s.unavailable_allowed,
        "disruptedPods": s.disrupted_pods,
        "unavailablePods": s.unavailable_pods,
        "observedGeneration": s.observed_generation,
        "recheckTime": out.recheck_time.map(|t| t.to_string()),
        "changed": out.changed,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RequestInput {
    operation: RequestOperation,
    #[serde(default)]
    sub_resource: String,
    #[serde(default)]
    dry_run: bool,
    #[serde(default = "yes")]
    old_object_present: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AdmitInput {
    request: RequestInput,
    #[serde(default)]
    old_pod: Option<Pod>,
    #[serde(default)]
    new_pod: Option<Pod>,
    #[serde(default)]
    pod: Option<Pod>,
    #[serde(default, rename = "pub")]
    pb: Option<Pub>,
    #[serde(default)]
    feature_gates: FeatureGates,
    now: String,
}

fn admit_handler(input: &Value) -> Result<Value> {
    let i: AdmitInput = decode(input)?;
    if let Some(p) = &i.pb {
        p.check_api("pub")?;
    }
    let now = RecordTime::parse(&i.now, "now")?;
    let r = &i.request;
    let pod = match (r.operation, r.old_object_present) {
        (RequestOperation::Delete, false) => None,
        (RequestOperation::Delete, true) if i.pod.is_none() => {
            return Err(crate::Error::invalid_input(
                "pod",
                "DELETE with oldObjectPresent needs the old pod",
            ));
        }
        _ => i.pod.as_ref(),
    };
    let req = AdmissionRequest {
        operation: r.operation,
        sub_resource: &r.sub_resource,
        dry_run: r.dry_run,
        old_pod: i.old_pod.as_ref(),
        new_pod: i.new_pod.as_ref(),
        pod,
    };
    let d = admit(&req, i.pb.as_ref(), i.feature_gates)?;
    let new_status = match (d.change, &i.pb) {
        (Some(c), Some(p)) => crate::registry::encode(&c.apply(&p.status, &now))?,
        _ => Value::Null,
    };
    Ok(json!({
        "allowed": d.allowed(),
        "reason": d.reason(),
        "decision": d.code.as_str(),
        "operation": d.operation.map(Operation::as_str),
        "newStatus": new_status,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ValidateInput {
    #[serde(rename = "pub")]
    pb: Pub,
    #[serde(default)]
    old_pub: Option<Pub>,
    #[serde(default)]
    feature_gates: FeatureGates,
}

fn validate_handler(input: &Value) -> Result<Value> {
    let i: ValidateInput = decode(input)?;
    i.pb.check_api("pub")?;
    Ok(json!(validate(&i.pb, i.old_pub.as_ref(), i.feature_gates)))
}

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::new(
        "pub.protect_operations",
        "PUB protected operations from kruise.io/pub-protect-operations (pubcontrol isNeedPubProtection)",
        protect_handler,
    ),
    Entry::new(
        "pub.pod_state",
        "Pod active/ready/consistent for PUB (pubcontrol IsPodReady, IsPodStateConsistent)",
        pod_state_handler,
    ),
    Entry::new(
        "pub.classify_update",
        "Pod update: nothing, UPDATE or RESIZE (pubcontrol IsPodUnavailableChanged, CanResizeInplace)",
        classify_handler,
    ),
    Entry::new(
        "pub.status",
        "PUB status: budgets, record expiry, recheck (podunavailablebudget controller)",
        status_handler,
    ),
    Entry::new(
        "pub.admit",
        "Pod webhook PUB admission: allow/deny and status write (pod_unavailable_budget.go)",
        admit_handler,
    ),
    Entry::new(
        "pub.validate",
        "PUB object validation error codes (pub_create_update_handler.go)",
        validate_handler,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

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
