//! The typed decisions of the pub family: one [`Decision`] per registry entry, with the input and
//! output types whose serde forms are the JSON shapes of the `pub.*` conformance vectors.
//!
//! ```
//! use kruise_core::pub_budget::fns::{ProtectOperations, ProtectOperationsInput};
//! use kruise_core::pub_budget::Operation;
//! let out = kruise_core::decide::<ProtectOperations>(ProtectOperationsInput {
//!     annotation: Some("DELETE,EVICT".into()),
//!     in_place_pod_vertical_scaling: false,
//!     strict: true,
//! })?;
//! assert_eq!(out.operations, [Operation::Delete, Operation::Evict]);
//! # Ok::<(), kruise_core::Error>(())
//! ```

pub use super::admit::{DecisionCode, RequestOperation};
pub use super::classify::UpdateClass;
pub use super::protect::Operation;
pub use super::review::{ResponseStatus, ReviewResponse};
pub use super::types::{FeatureGates, Pod, Pub, PubStatus, RecordTime, Records};
pub use super::validate::ValidationCode;

use super::admit::{AdmissionRequest, admit};
use super::protect::{
    INVALID_PROTECT_OPERATIONS, protected_operations, protected_operations_strict,
};
use super::review::{ReviewAnswer, ReviewContext, admit_request, admit_review};
use super::status::{INVALID_INT_OR_PERCENT, compute_status};
use crate::error::{Error, Result};
use crate::registry::Decision;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Input of `pub.protect_operations`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProtectOperationsInput {
    /// The PUB's `kruise.io/pub-protect-operations` annotation (`null` or absent: the annotation
    /// is not set, and the defaults DELETE, UPDATE, EVICT apply; `""` also gives the defaults).
    pub annotation: Option<String>,
    /// The `InPlacePodVerticalScaling` feature gate (default off: protecting UPDATE then protects
    /// RESIZE too).
    #[serde(default)]
    pub in_place_pod_vertical_scaling: bool,
    /// Read the annotation as the PUB validating webhook does (default off: as the runtime does):
    /// every comma-separated piece must be exactly one of the four names, else the error
    /// `invalid_protect_operations`.
    #[serde(default)]
    pub strict: bool,
}

/// Output of `pub.protect_operations`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ProtectOperationsOutput {
    /// The protected operations, alphabetically (`DELETE`, `EVICT`, `RESIZE`, `UPDATE`).
    pub operations: Vec<Operation>,
}

/// `pub.protect_operations`: which pod operations a PUB protects.
pub struct ProtectOperations;

impl Decision for ProtectOperations {
    const ID: &'static str = "pub.protect_operations";
    const DOC: &'static str = "PUB protected operations from kruise.io/pub-protect-operations (pubcontrol isNeedPubProtection)";
    const SOURCE: &'static str = "pkg/control/pubcontrol/pub_control_utils.go isNeedPubProtection; \
        strict: pkg/webhook/podunavailablebudget/validating/pub_create_update_handler.go validatingPodUnavailableBudgetFn";
    const ERRORS: &'static [&'static str] = &[INVALID_PROTECT_OPERATIONS];
    type Input = ProtectOperationsInput;
    type Output = ProtectOperationsOutput;

    fn decide(i: ProtectOperationsInput) -> Result<ProtectOperationsOutput> {
        let ann = i.annotation.as_deref();
        let set = if i.strict {
            protected_operations_strict(ann, i.in_place_pod_vertical_scaling)?
        } else {
            protected_operations(ann, i.in_place_pod_vertical_scaling)
        };
        Ok(ProtectOperationsOutput {
            operations: set.iter().collect(),
        })
    }
}

/// Input of `pub.pod_state`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PodStateInput {
    /// The pod, as the API server prints it (a JSON object).
    pub pod: Pod,
}

/// `pub.pod_state`: whether a pod is active, ready and state-consistent for the PUB (the output
/// is [`super::PodState`]).
pub struct PodState;

impl Decision for PodState {
    const ID: &'static str = "pub.pod_state";
    const DOC: &'static str =
        "Pod active/ready/consistent for PUB (pubcontrol IsPodReady, IsPodStateConsistent)";
    const SOURCE: &'static str = "pkg/control/pubcontrol/pub_control.go IsPodReady, IsPodStateConsistent; \
        k8s pkg/controller/controller_utils.go IsPodActive";
    const ERRORS: &'static [&'static str] = &[];
    type Input = PodStateInput;
    type Output = super::pod_state::PodState;

    const CHECK_JSON: Option<crate::registry::JsonCheck> =
        Some(|input: &Value| -> Result<()> { objects_only(input, &["pod"]) });

    fn decide(i: PodStateInput) -> Result<super::pod_state::PodState> {
        Ok(i.pod.state())
    }
}

/// Input of `pub.classify_update`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClassifyUpdateInput {
    /// The pod before the update (the request's `oldObject`).
    pub old_pod: Pod,
    /// The pod after the update (the request's `object`).
    pub new_pod: Pod,
}

/// `pub.classify_update`: whether a pod update is nothing, an UPDATE or an in-place RESIZE.
pub struct ClassifyUpdate;

impl Decision for ClassifyUpdate {
    const ID: &'static str = "pub.classify_update";
    const DOC: &'static str = "Pod update: nothing, UPDATE or RESIZE (pubcontrol IsPodUnavailableChanged, CanResizeInplace)";
    const SOURCE: &'static str = "pkg/control/pubcontrol/pub_control.go IsPodUnavailableChanged, CanResizeInplace; \
        pkg/webhook/pod/validating/pod_unavailable_budget.go podUnavailableBudgetValidatingPod";
    const ERRORS: &'static [&'static str] = &[];
    type Input = ClassifyUpdateInput;
    type Output = UpdateClass;

    const CHECK_JSON: Option<crate::registry::JsonCheck> =
        Some(|input: &Value| -> Result<()> { objects_only(input, &["oldPod", "newPod"]) });

    fn decide(i: ClassifyUpdateInput) -> Result<UpdateClass> {
        super::classify::classify_update(&i.old_pod, &i.new_pod)
    }
}

/// Input of `pub.status`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatusInput {
    /// The PodUnavailableBudget (`policy.kruise.io/v1alpha1`; `v1beta1` accepted), with its
    /// current status.
    #[serde(rename = "pub")]
    pub pb: Pub,
    /// The pods the PUB selects (by `spec.selector`, or the pods of `spec.targetRef`'s workload);
    /// default none.
    #[serde(default)]
    pub pods: Vec<Pod>,
    /// The replicas of the target workload (`null`/absent: none, as in selector mode).
    #[serde(default)]
    pub workload_replicas: Option<i32>,
    /// The controller's clock, RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    pub now: String,
}

/// Output of `pub.status`: the status the controller writes.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusOutput {
    /// `status.desiredAvailable` (int32).
    pub desired_available: i32,
    /// `status.currentAvailable` (int32): available pods, counting recorded ones as unavailable.
    pub current_available: i32,
    /// `status.totalReplicas` (int32).
    pub total_replicas: i32,
    /// `status.unavailableAllowed` (int32): `currentAvailable - desiredAvailable`, at least 0.
    pub unavailable_allowed: i32,
    /// `status.disruptedPods`: the records kept (pod name -> the time as given).
    pub disrupted_pods: Records,
    /// `status.unavailablePods`: the records kept (pod name -> the time as given).
    pub unavailable_pods: Records,
    /// `status.observedGeneration` (int64): the PUB's `metadata.generation`.
    pub observed_generation: i64,
    /// When the controller requeues (the earliest expiry among kept records), RFC 3339 UTC;
    /// `null` when no record is kept.
    pub recheck_time: Option<String>,
    /// Whether the status differs from the PUB's current status (a write would happen).
    pub changed: bool,
}

/// `pub.status`: the PUB controller's status computation.
pub struct Status;

impl Decision for Status {
    const ID: &'static str = "pub.status";
    const DOC: &'static str =
        "PUB status: budgets, record expiry, recheck (podunavailablebudget controller)";
    const SOURCE: &'static str = "pkg/controller/podunavailablebudget/pub_controller.go syncPodUnavailableBudget, \
        getDesiredAvailableForPub, buildDisruptedAndUnavailablePods, countAvailablePods; \
        pkg/control/pubcontrol/pub_control.go GetPodsForPub";
    const ERRORS: &'static [&'static str] = &[INVALID_INT_OR_PERCENT];
    type Input = StatusInput;
    type Output = StatusOutput;

    const CHECK_JSON: Option<crate::registry::JsonCheck> =
        Some(|input: &Value| -> Result<()> { objects_only(input, &["pub", "pods"]) });

    fn decide(i: StatusInput) -> Result<StatusOutput> {
        i.pb.check_api("pub")?;
        let now = RecordTime::parse(&i.now, "now")?;
        let out = compute_status(&i.pb, &i.pods, i.workload_replicas, now.at)?;
        let s = out.status;
        Ok(StatusOutput {
            desired_available: s.desired_available,
            current_available: s.current_available,
            total_replicas: s.total_replicas,
            unavailable_allowed: s.unavailable_allowed,
            disrupted_pods: s.disrupted_pods,
            unavailable_pods: s.unavailable_pods,
            observed_generation: s.observed_generation,
            recheck_time: out.recheck_time.map(|t| t.to_string()),
            changed: out.changed,
        })
    }
}

/// The request part of a `pub.admit` input.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AdmitRequest {
    /// The admission request's operation.
    pub operation: RequestOperation,
    /// The request's `subResource` (default `""`: the pod itself; `eviction` for an eviction).
    #[serde(default)]
    pub sub_resource: String,
    /// Dry run: the request's options carry a non-empty `dryRun` (default off).
    #[serde(default)]
    pub dry_run: bool,
    /// DELETE: whether the request carries the old object (default on; off: allowed, nothing
    /// checked).
    #[serde(default = "yes")]
    pub old_object_present: bool,
}

fn yes() -> bool {
    true
}

/// Input of `pub.admit`.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AdmitInput {
    /// The request.
    pub request: AdmitRequest,
    /// UPDATE: the pod before the update (`null`/absent: not given).
    #[serde(default)]
    pub old_pod: Option<Pod>,
    /// UPDATE: the pod after the update (`null`/absent: not given).
    #[serde(default)]
    pub new_pod: Option<Pod>,
    /// DELETE: the pod being deleted (required when `oldObjectPresent`); eviction: the pod
    /// being evicted (`null`/absent: not given).
    #[serde(default)]
    pub pod: Option<Pod>,
    /// The PUB named by the checked pod's `kruise.io/related-pub` (`null`/absent: not found).
    #[serde(default, rename = "pub")]
    pub pb: Option<Pub>,
    /// The Kruise feature gates (absent members: their defaults).
    #[serde(default)]
    pub feature_gates: FeatureGates,
    /// The request's namespace and the pod webhook's `namespaceSelector`
    /// ([`crate::k8s::webhook_namespace`]); when the selector excludes the namespace (the Helm
    /// chart's: `kube-system` and the `control-plane: openkruise` namespace) the webhook is not
    /// called: allowed, decision `namespace_excluded`, nothing written. Absent or null: called.
    #[serde(default)]
    pub webhook_namespace: Option<crate::k8s::webhook_namespace::WebhookNamespace>,
    /// The record time of an admitted request, RFC 3339 (written back as given).
    #[schemars(extend("format" = "date-time"))]
    pub now: String,
}

/// Output of `pub.admit`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdmitOutput {
    /// Whether the request is allowed (every decision but `denied_*`).
    pub allowed: bool,
    /// The denial reason as the webhook words it; `""` when allowed.
    pub reason: String,
    /// Why (the first rule that decided).
    pub decision: DecisionCode,
    /// The operation the request was classified as; `null` before classification (or an UPDATE
    /// that changes nothing).
    pub operation: Option<Operation>,
    /// The PUB status to write (`admitted` only: `unavailableAllowed` decremented, the pod
    /// recorded at `now`); `null` otherwise.
    pub new_status: Option<PubStatus>,
}

/// `pub.admit`: the pod webhook's PUB decision on a typed request.
pub struct Admit;

impl Decision for Admit {
    const ID: &'static str = "pub.admit";
    const DOC: &'static str =
        "Pod webhook PUB admission: allow/deny and status write (pod_unavailable_budget.go)";
    const SOURCE: &'static str = "pkg/webhook/pod/validating/pod_unavailable_budget.go podUnavailableBudgetValidatingPod; \
        pkg/control/pubcontrol/pub_control_utils.go PodUnavailableBudgetValidatePod";
    const ERRORS: &'static [&'static str] =
        &[crate::k8s::webhook_namespace::INVALID_LABEL_SELECTOR];
    type Input = AdmitInput;
    type Output = AdmitOutput;

    const CHECK_JSON: Option<crate::registry::JsonCheck> = Some(|input: &Value| -> Result<()> {
        objects_only(
            input,
            &["pub", "pod", "oldPod", "newPod", "webhookNamespace"],
        )
    });

    fn decide(i: AdmitInput) -> Result<AdmitOutput> {
        if let Some(p) = &i.pb {
            p.check_api("pub")?;
        }
        let now = RecordTime::parse(&i.now, "now")?;
        if crate::k8s::webhook_namespace::excluded(
            i.webhook_namespace.as_ref(),
            "webhookNamespace",
        )? {
            return Ok(AdmitOutput {
                allowed: true,
                reason: String::new(),
                decision: DecisionCode::NamespaceExcluded,
                operation: None,
                new_status: None,
            });
        }
        let r = &i.request;
        let pod = match (r.operation, r.old_object_present) {
            (RequestOperation::Delete, false) => None,
            (RequestOperation::Delete, true) if i.pod.is_none() => {
                return Err(Error::invalid_input(
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
            (Some(c), Some(p)) => Some(c.apply(&p.status, &now)),
            _ => None,
        };
        Ok(AdmitOutput {
            allowed: d.allowed(),
            reason: d.reason(),
            decision: d.code,
            operation: d.operation,
            new_status,
        })
    }
}

/// Input of `pub.admit_review`: the review (or its request) plus what the webhook fetches.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AdmitReviewInput {
    /// The `admission.k8s.io/v1` `AdmissionReview` the API server posts (or its `request`
    /// member), carried verbatim: it is read as v1.9.0 reads it, and what cannot be read is
    /// `invalid_input` naming the field. Give this or `request`, not both.
    #[serde(default)]
    pub review: Option<Value>,
    /// The review's `request` member alone (a JSON object), carried verbatim.
    #[serde(default)]
    pub request: Option<Value>,
    /// For `pods/eviction`: the current pod, fetched by the request's `name` (`null`/absent: not
    /// given; needed when the delete gate is on).
    #[serde(default)]
    pub evicted_pod: Option<Pod>,
    /// The PUB named by the checked pod's `kruise.io/related-pub` (`null`/absent: not found).
    #[serde(default, rename = "pub")]
    pub pb: Option<Pub>,
    /// The Kruise feature gates (absent members: their defaults).
    #[serde(default)]
    pub feature_gates: FeatureGates,
    /// The request's namespace and the pod webhook's `namespaceSelector`
    /// ([`crate::k8s::webhook_namespace`]); when the selector excludes the namespace (the Helm
    /// chart's: `kube-system` and the `control-plane: openkruise` namespace) the webhook is not
    /// called: allowed, decision `namespace_excluded`, nothing written. Absent or null: called.
    #[serde(default)]
    pub webhook_namespace: Option<crate::k8s::webhook_namespace::WebhookNamespace>,
    /// The record time of an admitted request, RFC 3339 (written back as given).
    #[schemars(extend("format" = "date-time"))]
    pub now: String,
}

/// Output of `pub.admit_review`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdmitReviewOutput {
    /// Whether the request is allowed (every decision but `denied_*`).
    pub allowed: bool,
    /// The denial reason as the webhook words it; `""` when allowed.
    pub reason: String,
    /// Why (the first rule that decided).
    pub decision: DecisionCode,
    /// The operation the request was classified as; `null` before classification.
    pub operation: Option<Operation>,
    /// The PUB status to write (`admitted` only); `null` otherwise.
    pub new_status: Option<PubStatus>,
    /// The `AdmissionResponse` to send back.
    pub response: ReviewResponse,
}

/// `pub.admit_review`: the pod webhook's PUB decision on the `AdmissionReview` itself.
pub struct AdmitReview;

impl Decision for AdmitReview {
    const ID: &'static str = "pub.admit_review";
    const DOC: &'static str = "Pod webhook PUB admission on an AdmissionReview or its request, fail closed (pod_unavailable_budget.go)";
    const SOURCE: &'static str = "pkg/webhook/pod/validating/pod_create_update_handler.go PodCreateHandler.Handle; \
        pkg/webhook/pod/validating/pod_unavailable_budget.go podUnavailableBudgetValidatingPod";
    const ERRORS: &'static [&'static str] =
        &[crate::k8s::webhook_namespace::INVALID_LABEL_SELECTOR];
    type Input = AdmitReviewInput;
    type Output = AdmitReviewOutput;

    const CHECK_JSON: Option<crate::registry::JsonCheck> = Some(|input: &Value| -> Result<()> {
        objects_only(input, &["pub", "evictedPod", "webhookNamespace"])
    });

    fn decide(i: AdmitReviewInput) -> Result<AdmitReviewOutput> {
        if let Some(p) = &i.pb {
            p.check_api("pub")?;
        }
        let now = RecordTime::parse(&i.now, "now")?;
        if crate::k8s::webhook_namespace::excluded(
            i.webhook_namespace.as_ref(),
            "webhookNamespace",
        )? {
            let uid = i
                .review
                .as_ref()
                .and_then(|r| r.get("request"))
                .or(i.request.as_ref())
                .and_then(|r| r.get("uid"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            return Ok(AdmitReviewOutput {
                allowed: true,
                reason: String::new(),
                decision: DecisionCode::NamespaceExcluded,
                operation: None,
                new_status: None,
                response: ReviewResponse {
                    uid: uid.to_string(),
                    allowed: true,
                    status: ResponseStatus {
                        code: 200,
                        reason: None,
                        message: None,
                    },
                },
            });
        }
        let ctx = ReviewContext {
            pb: i.pb.as_ref(),
            evicted_pod: i.evicted_pod.as_ref(),
            gates: i.feature_gates,
            now: &now,
        };
        let a = match (&i.review, &i.request) {
            (Some(r), None) => admit_review(r, &ctx)?,
            (None, Some(Value::Object(r))) => admit_request(r, &ctx)?,
            (None, Some(_)) => {
                return Err(Error::invalid_input("request", "expected a JSON object"));
            }
            (None, None) => {
                return Err(Error::invalid_input(
                    "review",
                    "missing: give the AdmissionReview (review) or its request (request)",
                ));
            }
            (Some(_), Some(_)) => {
                return Err(Error::invalid_input(
                    "request",
                    "give either review or request, not both",
                ));
            }
        };
        Ok(a.into())
    }
}

impl From<ReviewAnswer> for AdmitReviewOutput {
    fn from(a: ReviewAnswer) -> Self {
        let response = a.admission_response();
        AdmitReviewOutput {
            allowed: a.allowed(),
            reason: a.reason,
            decision: a.code,
            operation: a.operation,
            new_status: a.new_status,
            response,
        }
    }
}

/// Input of `pub.validate`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateInput {
    /// The PodUnavailableBudget to validate.
    #[serde(rename = "pub")]
    pub pb: Pub,
    /// On update: the stored object (`null`/absent: a create).
    #[serde(default)]
    pub old_pub: Option<Pub>,
    /// The Kruise feature gates (absent members: their defaults).
    #[serde(default)]
    pub feature_gates: FeatureGates,
}

/// `pub.validate`: the PUB validating webhook's error codes, in its order (empty: valid).
pub struct Validate;

impl Decision for Validate {
    const ID: &'static str = "pub.validate";
    const DOC: &'static str = "PUB object validation error codes (pub_create_update_handler.go)";
    const SOURCE: &'static str = "pkg/webhook/podunavailablebudget/validating/pub_create_update_handler.go \
        validatingPodUnavailableBudgetFn, validatePodUnavailableBudgetSpec";
    const ERRORS: &'static [&'static str] = &[];
    type Input = ValidateInput;
    /// The error codes in the webhook's order; `[]` when valid.
    type Output = Vec<ValidationCode>;

    const CHECK_JSON: Option<crate::registry::JsonCheck> =
        Some(|input: &Value| -> Result<()> { objects_only(input, &["pub", "oldPub"]) });

    fn decide(i: ValidateInput) -> Result<Vec<ValidationCode>> {
        i.pb.check_api("pub")?;
        Ok(super::validate::validate_codes(
            &i.pb,
            i.old_pub.as_ref(),
            i.feature_gates,
        ))
    }
}

/// Pods and PUBs are JSON objects (or `null` where optional): the typed decode would otherwise
/// read a JSON array as an all-default object (an empty PUB admits everything). `pods` is a list of
/// objects.
fn objects_only(input: &Value, keys: &[&str]) -> Result<()> {
    for &key in keys {
        match input.get(key) {
            Some(Value::Array(items)) if key == "pods" => {
                if let Some(i) = items.iter().position(|p| !p.is_object()) {
                    return Err(Error::invalid_input(
                        format!("pods[{i}]"),
                        "expected a JSON object",
                    ));
                }
            }
            v => crate::k8s::object_or_null(v, key)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_codes_print_as_their_names() {
        for c in ValidationCode::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        }
    }
    use crate::intstr::IntOrPercent;
    use crate::pub_budget::types::{LabelSelector, PubSpec};

    /// Typed calls, no JSON: a PUB over a workload of 3 replicas with maxUnavailable 1, two of the
    /// three pods available.
    #[test]
    fn status_and_admit_typed() {
        let pod = |name: &str, ready: bool| {
            let mut p = Pod::default();
            p.metadata.name = name.into();
            p.metadata.labels.insert("app".into(), "web".into());
            p.metadata
                .annotations
                .insert("kruise.io/related-pub".into(), "pb".into());
            p.status.phase = "Running".into();
            p.status.conditions.push(super::super::types::PodCondition {
                type_: "Ready".into(),
                status: if ready { "True" } else { "False" }.into(),
                ..Default::default()
            });
            p
        };
        let mut pb = Pub::default();
        pb.metadata.name = "pb".into();
        pb.metadata.generation = 2;
        pb.spec = PubSpec {
            selector: Some(LabelSelector {
                match_labels: Some([("app".to_string(), "web".to_string())].into()),
                match_expressions: None,
            }),
            max_unavailable: Some(IntOrPercent::Int(1)),
            ..PubSpec::default()
        };
        let pods = vec![pod("a", true), pod("b", true), pod("c", false)];
        let out = crate::decide::<Status>(StatusInput {
            pb: pb.clone(),
            pods: pods.clone(),
            workload_replicas: Some(3),
            now: "2026-06-21T10:00:00Z".into(),
        })
        .unwrap();
        assert_eq!(
            (
                out.total_replicas,
                out.desired_available,
                out.current_available,
                out.unavailable_allowed
            ),
            (3, 2, 2, 0)
        );
        assert_eq!(
            (
                out.observed_generation,
                out.recheck_time.as_deref(),
                out.changed
            ),
            (2, None, true)
        );

        // one more replica of budget: the delete of "a" is admitted and recorded at now
        pb.status.unavailable_allowed = 1;
        pb.status.desired_available = 2;
        let out = crate::decide::<Admit>(AdmitInput {
            request: AdmitRequest {
                operation: RequestOperation::Delete,
                sub_resource: String::new(),
                dry_run: false,
                old_object_present: true,
            },
            old_pod: None,
            new_pod: None,
            pod: Some(pods[0].clone()),
            pb: Some(pb),
            feature_gates: FeatureGates::default(),
            webhook_namespace: None,
            now: "2026-06-21T10:00:00Z".into(),
        })
        .unwrap();
        assert_eq!(
            (out.allowed, out.decision, out.operation),
            (true, DecisionCode::Admitted, Some(Operation::Delete))
        );
        let st = out.new_status.unwrap();
        assert_eq!(st.unavailable_allowed, 0);
        assert_eq!(st.disrupted_pods["a"].text, "2026-06-21T10:00:00Z");
    }
}
