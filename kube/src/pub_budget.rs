//! PodUnavailableBudget admission for a Rust validating webhook: k8s-openapi `Pod`s and an
//! `admission.k8s.io/v1` `AdmissionRequest` in, kruise-core's decision out — one call per request.
//!
//! k8s-openapi has no admission types, so [`AdmissionReview`] / [`AdmissionRequest`] /
//! [`AdmissionResponse`] are small serde types for the JSON the API server sends and expects.
//! The PUB itself is a CRD (no k8s-openapi type): decode the object you fetched with
//! [`pub_from_json`]. Mirrors OpenKruise v1.9.0 `pkg/webhook/pod/validating/pod_unavailable_budget.go`:
//! the request is read and decided by kruise-core's `pub.admit_review`
//! ([`kruise_core::pub_budget::admit_review`]), the one mapping every binding shares, so a request
//! it cannot read is `invalid_input` naming the field (never an allow).
//!
//! ```text
//! let review: AdmissionReview = serde_json::from_slice(&body)?;   // or review_body(&body, ...)
//! let Some(req) = review.request.as_ref() else { return bad_request() };
//! let evicted = fetch_pod_if_eviction(req);              // your client: GET pods/{req.name}
//! let pub_name = related_pub(req, evicted.as_ref());     // then GET that PUB (same namespace)
//! match review_pod_request(req, evicted.as_ref(), pub_obj.as_ref(), FeatureGates::default(), k8s_openapi::jiff::Timestamp::now()) {
//!     Ok(out) => {
//!         if let Some(status) = out.new_status { /* write it to the PUB's status subresource */ }
//!         reply(AdmissionReview::respond(out.response))
//!     }
//!     Err(e) => reply_error(400, e),                      // unreadable request: fail closed
//! }
//! ```

use k8s_openapi::api::core::v1::Pod as K8sPod;
use kruise_core::Error;
use kruise_core::pub_budget::review::reroot;
use kruise_core::pub_budget::types::ANN_RELATED_PUB;
use kruise_core::pub_budget::{
    FeatureGates, Pod, Pub, RecordTime, ReviewAnswer, ReviewContext, admit_request, admit_review,
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
/// Every member may be absent when decoding, so a malformed request reaches kruise-core's checks
/// and is answered with the field it lacks.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdmissionRequest {
    /// Request UID (echoed in the response; required).
    #[serde(default)]
    pub uid: String,
    /// The kind of the object (`v1` `Pod`, or `policy/v1` `Eviction` for `pods/eviction`; required).
    #[serde(default)]
    pub kind: Option<GroupVersionKind>,
    /// `subResource` (`eviction`, `status`, ... or absent).
    #[serde(default)]
    pub sub_resource: Option<String>,
    /// Object name (the pod being evicted for `pods/eviction`).
    #[serde(default)]
    pub name: String,
    /// Namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT` (required, upper case).
    #[serde(default)]
    pub operation: String,
    /// The new object (UPDATE: the new Pod; CREATE eviction: the `Eviction`).
    #[serde(default)]
    pub object: Option<Value>,
    /// The old object (UPDATE: the old Pod; DELETE: the Pod being deleted, when the server sends it).
    #[serde(default)]
    pub old_object: Option<Value>,
    /// Dry run flag (v1.9.0 does not read it; the options' `dryRun` decides).
    #[serde(default)]
    pub dry_run: Option<bool>,
    /// Operation options (`DeleteOptions`, `UpdateOptions`, `CreateOptions`); dry run is their
    /// `dryRun` list for UPDATE and DELETE.
    #[serde(default)]
    pub options: Option<Value>,
}

/// `group`/`version`/`kind` of `AdmissionRequest.kind`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupVersionKind {
    /// API group (`""` for core).
    #[serde(default)]
    pub group: String,
    /// Version (`v1`).
    #[serde(default)]
    pub version: String,
    /// Kind (`Pod`, `Eviction`).
    #[serde(default)]
    pub kind: String,
}

/// The `admission.k8s.io/v1` `AdmissionResponse` to return: kruise-core's own
/// ([`kruise_core::pub_budget::review::ReviewResponse`]), under the name this crate gave it.
pub use kruise_core::pub_budget::review::{ResponseStatus, ReviewResponse as AdmissionResponse};

/// The outcome of [`review_pod_request`]: kruise-core's `pub.admit_review` output
/// ([`kruise_core::pub_budget::fns::AdmitReviewOutput`]): the response to return, the decision
/// code, the classified operation and the PUB status to write (admitted requests only).
pub use kruise_core::pub_budget::fns::AdmitReviewOutput as PubAdmission;

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

/// Decides one pod admission request (the `request` member of the review).
///
/// - `req`: the request as the API server sent it (`pods` UPDATE/DELETE, `pods/eviction` CREATE);
/// - `evicted_pod`: for an eviction, the current pod fetched by `req.name` (`None` otherwise);
/// - `pb`: the PUB named by the pod's `kruise.io/related-pub` (`None` = not found);
/// - `gates`: the Kruise feature gates; `now`: the record time.
///
/// The request is read by kruise-core's `pub.admit_review`: dry run comes from the options'
/// `dryRun` list (UPDATE, DELETE) as in v1.9.0, which never reads an Eviction's `deleteOptions`.
/// CONNECT is allowed (`operation_ignored`).
///
/// Errors (answer HTTP 400, never allow): `invalid_input` naming the field of a request it cannot
/// read (`request.operation`, `request.kind`, `request.uid`, `request.object`,
/// `request.oldObject`, `request.options`, ...), or `evictedPod` when an eviction is checked
/// without the pod.
pub fn review_pod_request(
    req: &AdmissionRequest,
    evicted_pod: Option<&K8sPod>,
    pb: Option<&Pub>,
    gates: FeatureGates,
    now: k8s_openapi::jiff::Timestamp,
) -> Result<PubAdmission, Error> {
    let v = serde_json::to_value(req).map_err(|e| Error::invalid_input("request", e))?;
    let Value::Object(m) = v else {
        return Err(Error::invalid_input("request", "expected a JSON object"));
    };
    decide(evicted_pod, pb, gates, now, |ctx| admit_request(&m, ctx))
}

/// Decides a whole `AdmissionReview` (or its `request` member) given as JSON, fail closed: a
/// review with another `apiVersion`/`kind`, without `request`, or with a request it cannot read
/// is `invalid_input` naming the field. Arguments as [`review_pod_request`].
pub fn review_admission(
    review: &Value,
    evicted_pod: Option<&K8sPod>,
    pb: Option<&Pub>,
    gates: FeatureGates,
    now: k8s_openapi::jiff::Timestamp,
) -> Result<PubAdmission, Error> {
    decide(evicted_pod, pb, gates, now, |ctx| admit_review(review, ctx))
}

/// [`review_admission`] on the request body. Errors: also `invalid_input` (`body`) when the body
/// is not JSON.
pub fn review_body(
    body: &[u8],
    evicted_pod: Option<&K8sPod>,
    pb: Option<&Pub>,
    gates: FeatureGates,
    now: k8s_openapi::jiff::Timestamp,
) -> Result<PubAdmission, Error> {
    let v: Value = serde_json::from_slice(body).map_err(|e| Error::invalid_input("body", e))?;
    review_admission(&v, evicted_pod, pb, gates, now)
}

fn decide(
    evicted_pod: Option<&K8sPod>,
    pb: Option<&Pub>,
    gates: FeatureGates,
    now: k8s_openapi::jiff::Timestamp,
    run: impl FnOnce(&ReviewContext<'_>) -> Result<ReviewAnswer, Error>,
) -> Result<PubAdmission, Error> {
    let evicted = evicted_pod
        .map(|p| pod_from_k8s(p).map_err(|e| reroot(e, "evictedPod")))
        .transpose()?;
    let now = RecordTime::from_timestamp(crate::core_time(now, "now")?);
    let ctx = ReviewContext {
        pb,
        evicted_pod: evicted.as_ref(),
        gates,
        now: &now,
    };
    run(&ctx).map(PubAdmission::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{
        Container, ContainerStatus, PodCondition, PodSpec, PodStatus, ResourceRequirements,
    };
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    use kruise_core::pub_budget::{DecisionCode, Operation};
    use serde_json::json;
    use std::collections::BTreeMap;

    const NOW: &str = "2026-06-21T10:00:00Z";

    fn pod_kind() -> Value {
        json!({"group": "", "version": "v1", "kind": "Pod"})
    }

    fn delete_options() -> Value {
        json!({"apiVersion": "meta.k8s.io/v1", "kind": "DeleteOptions"})
    }

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

    fn now() -> k8s_openapi::jiff::Timestamp {
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
                status: ResponseStatus {
                    code: 200,
                    reason: None,
                    message: None,
                }
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
        // the evicted pod must be the one the request names
        let e = review_pod_request(
            &req,
            Some(&other),
            Some(&pb),
            FeatureGates::default(),
            now(),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("evictedPod.metadata.name"));
        let mut req = req;
        req.name = "web-server-1".into();
        let out = review_pod_request(
            &req,
            Some(&other),
            Some(&pb),
            FeatureGates::default(),
            now(),
        )
        .unwrap();
        assert_eq!(out.decision, DecisionCode::DeniedNoBudget);
        let status = out.response.status.clone();
        assert_eq!(status.code, 403);
        assert_eq!(
            status.message.as_deref().unwrap_or_default(),
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
            json!({"request": {"uid": "u-1", "kind": {"group": "", "version": "v1", "kind": "Pod"},
            "operation": "UPDATE", "name": "web-server-3", "namespace": "default",
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
            json!({"request": {"uid": "d-1", "kind": pod_kind(), "operation": "DELETE", "name": "web-server-5",
                "oldObject": pod, "options": delete_options()}}),
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
        let req = review(
            json!({"request": {"uid": "d-2", "kind": pod_kind(), "operation": "DELETE",
                "oldObject": unready, "options": delete_options()}}),
        );
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
            json!({"request": {"uid": "d-3", "kind": pod_kind(), "operation": "DELETE", "oldObject": {"metadata": {"name": 7}}}}),
        );
        let e = review_pod_request(&req, None, None, FeatureGates::default(), now()).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("request.oldObject.metadata.name"))
        );
        // an eviction without the pod
        let req = review(
            json!({"request": {"uid": "e-2", "kind": {"group": "policy", "version": "v1", "kind": "Eviction"},
                "operation": "CREATE", "subResource": "eviction", "name": "x", "object": {"kind": "Eviction"}}}),
        );
        let e = review_pod_request(&req, None, None, FeatureGates::default(), now()).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("evictedPod"));
    }

    #[test]
    fn malformed_requests_fail_closed() {
        let field = |r: Result<PubAdmission, Error>| {
            let e = r.unwrap_err();
            assert_eq!(e.kind, "invalid_input");
            e.field.unwrap()
        };
        let gates = FeatureGates::default();
        let pb = web_server_pub(0);
        // typed request: every member may be absent, kruise-core names what is missing
        let req = review(json!({"request": {}}));
        assert_eq!(
            field(review_pod_request(&req, None, Some(&pb), gates, now())),
            "request.operation"
        );
        let req = review(
            json!({"request": {"uid": "x", "operation": "create", "subResource": "eviction"}}),
        );
        assert_eq!(
            field(review_pod_request(&req, None, Some(&pb), gates, now())),
            "request.operation"
        );
        let req = review(json!({"request": {"uid": "x", "operation": "DELETE"}}));
        assert_eq!(
            field(review_pod_request(&req, None, Some(&pb), gates, now())),
            "request.kind"
        );
        let req = review(json!({"request": {"operation": "DELETE", "kind": pod_kind()}}));
        assert_eq!(
            field(review_pod_request(&req, None, Some(&pb), gates, now())),
            "request.uid"
        );
        let pod = serde_json::to_value(k8s_pod("web-server-5", "500m", true)).unwrap();
        let req = review(
            json!({"request": {"uid": "d", "kind": pod_kind(), "operation": "DELETE", "oldObject": pod}}),
        );
        assert_eq!(
            field(review_pod_request(&req, None, Some(&pb), gates, now())),
            "request.options"
        );
        // raw bodies
        assert_eq!(
            field(review_body(b"not json", None, Some(&pb), gates, now())),
            "body"
        );
        assert_eq!(
            field(review_body(b"{}", None, Some(&pb), gates, now())),
            "request.operation"
        );
        assert_eq!(
            field(review_body(b"[]", None, Some(&pb), gates, now())),
            "review"
        );
        let body =
            br#"{"apiVersion": "admission.k8s.io/v2", "kind": "AdmissionReview", "request": {}}"#;
        assert_eq!(
            field(review_body(body, None, Some(&pb), gates, now())),
            "apiVersion"
        );
        let body = br#"{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}"#;
        assert_eq!(
            field(review_body(body, None, Some(&pb), gates, now())),
            "request"
        );
    }

    #[test]
    fn whole_review_body_answers_like_the_typed_request_and_eviction_delete_options_are_not_read() {
        let pod = k8s_pod("web-server-0", "500m", true);
        let request = json!({"uid": "e-3", "kind": {"group": "policy", "version": "v1", "kind": "Eviction"},
            "subResource": "eviction", "name": "web-server-0", "namespace": "default", "operation": "CREATE",
            "dryRun": true, "object": {"apiVersion": "policy/v1", "kind": "Eviction",
                "deleteOptions": {"dryRun": ["All"]}}});
        let whole = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request});
        let body = serde_json::to_vec(&whole).unwrap();
        let pb = web_server_pub(1);
        let gates = FeatureGates::default();
        let by_body = review_body(&body, Some(&pod), Some(&pb), gates, now()).unwrap();
        let by_request =
            review_pod_request(&review(whole), Some(&pod), Some(&pb), gates, now()).unwrap();
        assert_eq!(by_body, by_request);
        // v1.9.0 decodes the Eviction into an untagged internal type: deleteOptions is not seen
        assert_eq!(by_body.decision, DecisionCode::Admitted);
        assert_eq!(by_body.new_status.map(|s| s.unavailable_allowed), Some(0));
    }
}
