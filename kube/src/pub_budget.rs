//! PodUnavailableBudget admission for a Rust validating webhook: k8s-openapi `Pod`s and an
//! `admission.k8s.io/v1` `AdmissionRequest` in, kruise-core's decision out — one call per request.
//!
//! k8s-openapi has no admission types, so [`AdmissionReview`] / [`AdmissionRequest`] /
//! [`AdmissionResponse`] are small serde types for the JSON the API server sends and expects.
//! The PUB itself is a CRD (no k8s-openapi type): decode the object you fetched with
//! [`pub_from_json`]. Mirrors OpenKruise v1.9.0 `pkg/webhook/pod/validating/pod_unavailable_budget.go`;
//! the decision is [`kruise_core::pub_budget::admit`].
//!
//! ```text
//! let review: AdmissionReview = serde_json::from_slice(&body)?;
//! let req = review.request.as_ref().unwrap();
//! let evicted = fetch_pod_if_eviction(req);              // your client: GET pods/{req.name}
//! let pub_name = related_pub(req, evicted.as_ref())?;     // then GET that PUB (same namespace)
//! let out = review_pod_request(req, evicted.as_ref(), pub_obj.as_ref(), FeatureGates::default(), jiff::Timestamp::now())?;
//! if let Some(status) = out.new_status { /* write it to the PUB's status subresource */ }
//! reply(AdmissionReview::respond(out.response));
//! ```

use k8s_openapi::api::core::v1::Pod as K8sPod;
use kruise_core::Error;
use kruise_core::pub_budget::types::ANN_RELATED_PUB;
use kruise_core::pub_budget::{
    AdmissionRequest as CoreRequest, DecisionCode, FeatureGates, Operation, Pod, Pub, PubStatus,
    RecordTime, RequestOperation, admit,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `admission.k8s.io/v1` `AdmissionReview`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdmissionReview {
    /// `admission.k8s.io/v1`.
    #[serde(default)]
    pub api_version: String,
    /// `AdmissionReview`.
    #[serde(default)]
    pub kind: String,
    /// The request (present in what the API server sends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<AdmissionRequest>,
    /// The response (present in what the webhook returns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<AdmissionResponse>,
}

impl AdmissionReview {
    /// The review to send back for `response`.
    pub fn respond(response: AdmissionResponse) -> Self {
        AdmissionReview {
            api_version: "admission.k8s.io/v1".into(),
            kind: "AdmissionReview".into(),
            request: None,
            response: Some(response),
        }
    }
}

/// `admission.k8s.io/v1` `AdmissionRequest`, the members a PUB check reads (others ignored).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdmissionRequest {
    /// Request UID (echoed in the response).
    #[serde(default)]
    pub uid: String,
    /// `subResource` (`eviction`, `status`, ... or absent).
    #[serde(default)]
    pub sub_resource: Option<String>,
    /// Object name (the pod being evicted for `pods/eviction`).
    #[serde(default)]
    pub name: String,
    /// Namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT`.
    pub operation: String,
    /// The new object (UPDATE: the new Pod; CREATE eviction: the `Eviction`).
    #[serde(default)]
    pub object: Option<Value>,
    /// The old object (UPDATE: the old Pod; DELETE: the Pod being deleted, when the server sends it).
    #[serde(default)]
    pub old_object: Option<Value>,
    /// Dry run flag.
    #[serde(default)]
    pub dry_run: Option<bool>,
    /// Operation options (`DeleteOptions`, `UpdateOptions`, `CreateOptions`).
    #[serde(default)]
    pub options: Option<Value>,
}

/// `admission.k8s.io/v1` `AdmissionResponse`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdmissionResponse {
    /// The request UID.
    pub uid: String,
    /// Whether the request is allowed.
    pub allowed: bool,
    /// Present when denied: `{code: 403, reason: "Forbidden", message}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ResponseStatus>,
}

/// The `metav1.Status` of a denial.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResponseStatus {
    /// HTTP code (403).
    pub code: u16,
    /// `Forbidden`.
    pub reason: String,
    /// The webhook's message, e.g. `podunavailablebudget.policy.kruise.io "x" is forbidden: ...`.
    pub message: String,
}

/// The outcome of [`review_pod_request`].
#[derive(Debug, Clone, PartialEq)]
pub struct PubAdmission {
    /// The response to return to the API server.
    pub response: AdmissionResponse,
    /// The decision code (which rule of the admission decision answered).
    pub decision: DecisionCode,
    /// The classified operation (DELETE, EVICT, UPDATE, RESIZE) once classified.
    pub operation: Option<Operation>,
    /// The PUB status to write (admitted requests only): `unavailableAllowed` decremented and the
    /// pod recorded at `now`.
    pub new_status: Option<PubStatus>,
}

/// A k8s-openapi Pod as kruise-core reads it. Errors: `invalid_input` naming the field.
pub fn pod_from_k8s(pod: &K8sPod) -> Result<Pod, Error> {
    let v = serde_json::to_value(pod).map_err(|e| Error::invalid_input("pod", e))?;
    kruise_core::registry::decode(&v)
}

/// A PodUnavailableBudget object (`policy.kruise.io/v1alpha1` or `v1beta1`) from its JSON.
pub fn pub_from_json(v: &Value) -> Result<Pub, Error> {
    let p: Pub = kruise_core::registry::decode(v)?;
    p.check_api("pub")?;
    Ok(p)
}

/// The name of the PUB guarding the pod this request concerns (`kruise.io/related-pub` of the
/// new pod for UPDATE, the old object for DELETE, `evicted_pod` for an eviction), so the caller
/// knows which PUB to fetch. `None` = nothing to fetch.
pub fn related_pub(req: &AdmissionRequest, evicted_pod: Option<&K8sPod>) -> Option<String> {
    let from_value = |v: &Value| {
        v.pointer("/metadata/annotations")
            .and_then(|a| a.get(ANN_RELATED_PUB))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    match req.operation.as_str() {
        "UPDATE" => req.object.as_ref().and_then(from_value),
        "DELETE" => req.old_object.as_ref().and_then(from_value),
        "CREATE" => evicted_pod.and_then(|p| {
            p.metadata
                .annotations
                .as_ref()?
                .get(ANN_RELATED_PUB)
                .cloned()
        }),
        _ => None,
    }
    .filter(|s| !s.is_empty())
}

/// Decides one pod admission request.
///
/// - `req`: the request as the API server sent it (`pods` UPDATE/DELETE, `pods/eviction` CREATE);
/// - `evicted_pod`: for an eviction, the current pod fetched by `req.name` (`None` otherwise);
/// - `pb`: the PUB named by the pod's `kruise.io/related-pub` (`None` = not found);
/// - `gates`: the Kruise feature gates; `now`: the record time.
///
/// Dry run comes from `req.dryRun`, the options' `dryRun` list, or the Eviction's
/// `deleteOptions.dryRun`. Other operations (CONNECT) are allowed untouched.
///
/// Errors: `invalid_input` for an undecodable pod/eviction or a missing evicted pod, naming
/// `request.object`, `request.oldObject` or `evictedPod`.
pub fn review_pod_request(
    req: &AdmissionRequest,
    evicted_pod: Option<&K8sPod>,
    pb: Option<&Pub>,
    gates: FeatureGates,
    now: jiff::Timestamp,
) -> Result<PubAdmission, Error> {
    let operation = match req.operation.as_str() {
        "CREATE" => RequestOperation::Create,
        "UPDATE" => RequestOperation::Update,
        "DELETE" => RequestOperation::Delete,
        _ => {
            return Ok(PubAdmission {
                response: AdmissionResponse {
                    uid: req.uid.clone(),
                    allowed: true,
                    status: None,
                },
                decision: DecisionCode::SubresourceIgnored,
                operation: None,
                new_status: None,
            });
        }
    };
    let sub = req.sub_resource.as_deref().unwrap_or("");
    let decode_pod = |v: &Option<Value>, field: &str| -> Result<Option<Pod>, Error> {
        v.as_ref()
            .filter(|v| !v.is_null())
            .map(|v| kruise_core::registry::decode::<Pod>(v).map_err(|e| prefix(e, field)))
            .transpose()
    };
    let list_nonempty =
        |v: Option<&Value>| v.and_then(Value::as_array).is_some_and(|a| !a.is_empty());
    let mut dry_run = req.dry_run == Some(true)
        || list_nonempty(req.options.as_ref().and_then(|o| o.get("dryRun")));
    let (old_pod, new_pod, pod) = match operation {
        RequestOperation::Update => (
            decode_pod(&req.old_object, "request.oldObject")?,
            decode_pod(&req.object, "request.object")?,
            None,
        ),
        RequestOperation::Delete => (
            None,
            None,
            decode_pod(&req.old_object, "request.oldObject")?,
        ),
        RequestOperation::Create => {
            if sub == "eviction" {
                dry_run |= list_nonempty(
                    req.object
                        .as_ref()
                        .and_then(|e| e.pointer("/deleteOptions/dryRun")),
                );
                let p = evicted_pod.ok_or_else(|| {
                    Error::invalid_input("evictedPod", "an eviction needs the current pod")
                })?;
                (
                    None,
                    None,
                    Some(pod_from_k8s(p).map_err(|e| prefix(e, "evictedPod"))?),
                )
            } else {
                (None, None, None)
            }
        }
    };
    let core_req = CoreRequest {
        operation,
        sub_resource: sub,
        dry_run,
        old_pod: old_pod.as_ref(),
        new_pod: new_pod.as_ref(),
        pod: pod.as_ref(),
    };
    let d = admit(&core_req, pb, gates)?;
    let new_status = match (d.change, pb) {
        (Some(c), Some(p)) => Some(c.apply(&p.status, &RecordTime::from_timestamp(now))),
        _ => None,
    };
    let status = (!d.allowed()).then(|| ResponseStatus {
        code: 403,
        reason: "Forbidden".into(),
        message: d.reason(),
    });
    Ok(PubAdmission {
        response: AdmissionResponse {
            uid: req.uid.clone(),
            allowed: d.allowed(),
            status,
        },
        decision: d.code,
        operation: d.operation,
        new_status,
    })
}

/// Re-roots a decode error under `field` (`metadata.name` -> `request.object.metadata.name`).
fn prefix(e: Error, field: &str) -> Error {
    match e.field.as_deref() {
        Some(inner) if !inner.is_empty() && inner != "input" => Error {
            kind: e.kind,
            message: format!("{field}.{}", e.message).into(),
            field: Some(format!("{field}.{inner}")),
        },
        _ => Error {
            kind: e.kind,
            message: format!("{field}: {}", e.message).into(),
            field: Some(field.to_owned()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{
        Container, ContainerStatus, PodCondition, PodSpec, PodStatus, ResourceRequirements,
    };
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    use serde_json::json;
    use std::collections::BTreeMap;

    const NOW: &str = "2026-06-21T10:00:00Z";

    fn k8s_pod(name: &str, cpu: &str, ready: bool) -> K8sPod {
        let q = |s: &str| Quantity(s.to_string());
        K8sPod {
            metadata: ObjectMeta {
                name: Some(name.into()),
                namespace: Some("default".into()),
                labels: Some(BTreeMap::from([("app".to_string(), "web-server".to_string())])),
                annotations: Some(BTreeMap::from([(ANN_RELATED_PUB.to_string(), "web-server-pub".to_string())])),
                ..ObjectMeta::default()
            },
            spec: Some(PodSpec {
                containers: vec![Container {
                    name: "nginx".into(),
                    image: Some("nginx:1.25".into()),
                    resources: Some(ResourceRequirements {
                        requests: Some(BTreeMap::from([("cpu".to_string(), q(cpu)), ("memory".to_string(), q("512Mi"))])),
                        limits: Some(BTreeMap::from([("cpu".to_string(), q("2")), ("memory".to_string(), q("1Gi"))])),
                        ..ResourceRequirements::default()
                    }),
                    ..Container::default()
                }],
                ..PodSpec::default()
            }),
            status: Some(PodStatus {
                phase: Some("Running".into()),
                conditions: Some(vec![PodCondition {
                    type_: "Ready".into(),
                    status: if ready { "True" } else { "False" }.into(),
                    ..PodCondition::default()
                }]),
                container_statuses: Some(vec![ContainerStatus {
                    name: "nginx".into(),
                    image: "nginx:1.25".into(),
                    image_id: "docker-pullable://nginx@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d".into(),
                    ready: true,
                    ..ContainerStatus::default()
                }]),
                ..PodStatus::default()
            }),
        }
    }

    fn web_server_pub(allowed: i32) -> Pub {
        pub_from_json(&json!({
            "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
            "metadata": {"name": "web-server-pub", "namespace": "default", "generation": 1,
                "annotations": {"kruise.io/pub-protect-operations": "DELETE,EVICT,UPDATE,RESIZE"}},
            "spec": {"targetRef": {"apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet", "name": "web-server"}, "maxUnavailable": "20%"},
            "status": {"observedGeneration": 1, "unavailableAllowed": allowed, "currentAvailable": 10, "desiredAvailable": 8, "totalReplicas": 10}
        }))
        .unwrap()
    }

    fn review(v: Value) -> AdmissionRequest {
        let r: AdmissionReview = serde_json::from_value(v).unwrap();
        r.request.unwrap()
    }

    fn now() -> jiff::Timestamp {
        NOW.parse().unwrap()
    }

    #[test]
    fn eviction_admitted_then_denied() {
        let pod = k8s_pod("web-server-0", "500m", true);
        let req = review(
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
            "uid": "e-1", "kind": {"group": "policy", "version": "v1", "kind": "Eviction"},
            "resource": {"group": "", "version": "v1", "resource": "pods"}, "subResource": "eviction",
            "name": "web-server-0", "namespace": "default", "operation": "CREATE",
            "object": {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "web-server-0", "namespace": "default"}},
            "dryRun": false}}),
        );
        assert_eq!(
            related_pub(&req, Some(&pod)).as_deref(),
            Some("web-server-pub")
        );
        let pb = web_server_pub(1);
        let out = review_pod_request(&req, Some(&pod), Some(&pb), FeatureGates::default(), now())
            .unwrap();
        assert_eq!(
            (out.decision, out.operation),
            (DecisionCode::Admitted, Some(Operation::Evict))
        );
        assert_eq!(
            out.response,
            AdmissionResponse {
                uid: "e-1".into(),
                allowed: true,
                status: None
            }
        );
        let st = out.new_status.unwrap();
        assert_eq!(st.unavailable_allowed, 0);
        assert_eq!(
            st.disrupted_pods
                .get("web-server-0")
                .map(|t| t.text.as_str()),
            Some(NOW)
        );

        let mut pb = web_server_pub(0);
        pb.status = st;
        let other = k8s_pod("web-server-1", "500m", true);
        let out = review_pod_request(
            &req,
            Some(&other),
            Some(&pb),
            FeatureGates::default(),
            now(),
        )
        .unwrap();
        assert_eq!(out.decision, DecisionCode::DeniedNoBudget);
        let status = out.response.status.clone().unwrap();
        assert_eq!(status.code, 403);
        assert_eq!(
            status.message,
            "podunavailablebudget.policy.kruise.io \"web-server-pub\" is forbidden: pub unavailable allowed is negative"
        );
        assert!(out.new_status.is_none());
        // the JSON the webhook sends back
        let back = serde_json::to_value(AdmissionReview::respond(out.response.clone())).unwrap();
        assert_eq!(back["response"]["allowed"], false);
        assert_eq!(back["apiVersion"], "admission.k8s.io/v1");
    }

    #[test]
    fn resize_update_is_judged_resize_and_dry_run_writes_nothing() {
        let old = serde_json::to_value(k8s_pod("web-server-3", "500m", true)).unwrap();
        let new = serde_json::to_value(k8s_pod("web-server-3", "1", true)).unwrap();
        let req = review(
            json!({"request": {"uid": "u-1", "operation": "UPDATE", "name": "web-server-3", "namespace": "default",
            "object": new, "oldObject": old, "options": {"apiVersion": "meta.k8s.io/v1", "kind": "UpdateOptions", "dryRun": ["All"]}}}),
        );
        let gates = FeatureGates {
            update_gate: true,
            ..FeatureGates::default()
        };
        let out = review_pod_request(&req, None, Some(&web_server_pub(2)), gates, now()).unwrap();
        assert_eq!(
            (out.decision, out.operation),
            (DecisionCode::DryRun, Some(Operation::Resize))
        );
        assert!(out.response.allowed && out.new_status.is_none());
        // default gates: pod updates are not checked at all
        let out = review_pod_request(
            &req,
            None,
            Some(&web_server_pub(2)),
            FeatureGates::default(),
            now(),
        )
        .unwrap();
        assert_eq!(
            (out.decision, out.operation),
            (DecisionCode::GateDisabled, None)
        );
    }

    #[test]
    fn delete_records_in_disrupted_and_bad_objects_name_the_field() {
        let pod = serde_json::to_value(k8s_pod("web-server-5", "500m", true)).unwrap();
        let req = review(
            json!({"request": {"uid": "d-1", "operation": "DELETE", "name": "web-server-5", "oldObject": pod}}),
        );
        let out = review_pod_request(
            &req,
            None,
            Some(&web_server_pub(2)),
            FeatureGates::default(),
            now(),
        )
        .unwrap();
        assert_eq!(out.decision, DecisionCode::Admitted);
        assert_eq!(out.new_status.unwrap().disrupted_pods.len(), 1);
        // not ready: already unavailable, admitted without spending budget
        let unready = serde_json::to_value(k8s_pod("web-server-6", "500m", false)).unwrap();
        let req =
            review(json!({"request": {"uid": "d-2", "operation": "DELETE", "oldObject": unready}}));
        let out = review_pod_request(
            &req,
            None,
            Some(&web_server_pub(0)),
            FeatureGates::default(),
            now(),
        )
        .unwrap();
        assert_eq!(out.decision, DecisionCode::PodNotAvailable);
        // a bad old object
        let req = review(
            json!({"request": {"uid": "d-3", "operation": "DELETE", "oldObject": {"metadata": {"name": 7}}}}),
        );
        let e = review_pod_request(&req, None, None, FeatureGates::default(), now()).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("request.oldObject.metadata.name"))
        );
        // an eviction without the pod
        let req = review(
            json!({"request": {"uid": "e-2", "operation": "CREATE", "subResource": "eviction", "name": "x"}}),
        );
        let e = review_pod_request(&req, None, None, FeatureGates::default(), now()).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("evictedPod"));
    }
}
