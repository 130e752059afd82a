//! The pod validating webhook's PUB check on the request the API server posts: an
//! `admission.k8s.io/v1` `AdmissionReview` (or its `request` member) is read the way OpenKruise
//! v1.9.0 reads it (`pkg/webhook/pod/validating/pod_unavailable_budget.go`,
//! `pod_create_update_handler.go`, controller-runtime's admission decoder) and mapped onto the
//! typed [`admit`]. This is the one place every adapter (Python, Go, the
//! `kruise-kube` crate) maps a request; they call it instead of keeping their own copy.
//!
//! Fail closed: a request that cannot be read is `invalid_input` naming the field, never an
//! allow. Field names are paths in the `AdmissionReview` (`apiVersion`, `kind`, `request`,
//! `request.operation`, `request.oldObject.metadata.name`, ...), also when only the request is
//! given. Checked before any decision, whatever the feature gates:
//! - a whole review: `apiVersion` `admission.k8s.io/v1` (or `v1beta1`, same shape), `kind`
//!   `AdmissionReview`, `request` an object;
//! - the request's typed members have their JSON types (`uid`, `operation`, `subResource`, `name`,
//!   `namespace` strings, `dryRun` a bool, `kind` a `{group, version, kind}` object);
//! - `operation` is exactly `CREATE`, `UPDATE`, `DELETE` or `CONNECT`; `uid` and `kind.kind` are
//!   non-empty;
//! - the objects the operation carries decode: UPDATE needs `object` and `oldObject` (Pods),
//!   DELETE's `oldObject` is a Pod when present, a `pods/eviction` CREATE needs `object` (the
//!   Eviction) and `name`. A Pod's own `apiVersion`/`kind` may be absent or `v1`/`Pod` (the
//!   scheme decoder rejects anything else); `request.kind` must be core `v1` `Pod` for UPDATE and
//!   DELETE, `policy` `Eviction` for an eviction.
//!
//! Dry run is read only where the reference reads it:
//! - UPDATE: `request.options` decoded as `UpdateOptions`, dry run = `dryRun` non-empty;
//! - DELETE: `request.options` decoded as `DeleteOptions`, the same;
//! - eviction: the Eviction object's `DeleteOptions` member. v1.9.0 decodes the object into the
//!   internal `policy.Eviction` type, which is not in its scheme and has no JSON tags, with a
//!   case-sensitive decoder: the `deleteOptions` member the API server sends is never read, so an
//!   eviction's dry run is never seen (and the budget is spent) — mirrored here;
//! - `request.dryRun` is never read.
//!
//! The options are decoded at the point the reference decodes them (once the request is
//! classified as a PUB-relevant DELETE/UPDATE); missing options there are `invalid_input`
//! (`request.options`), as controller-runtime's "there is no content to decode" fails the request.
//! Requests the reference lets through untouched are answered the same way (allowed, with the
//! code saying why): CONNECT (`operation_ignored`), DELETE without `oldObject` (`no_old_object`),
//! a DELETE of a subresource or a CREATE other than `pods/eviction` (`subresource_ignored`).

use super::admit::{AdmissionRequest, DecisionCode, RequestOperation, admit};
use super::protect::Operation;
use super::types::{FeatureGates, Pod, Pub, PubStatus, RecordTime};
use crate::error::{Error, Result};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The `AdmissionReview` API versions read (v1 and v1beta1 have the same JSON shape).
pub const REVIEW_API_VERSIONS: &[&str] = &["admission.k8s.io/v1", "admission.k8s.io/v1beta1"];

/// What the webhook knows besides the request.
#[derive(Debug, Clone, Copy)]
pub struct ReviewContext<'a> {
    /// The PUB named by the checked pod's `kruise.io/related-pub` (`None` = not found).
    pub pb: Option<&'a Pub>,
    /// For `pods/eviction`: the current pod, fetched by `request.name` (the review's object is
    /// the Eviction). Needed only when the delete gate is on.
    pub evicted_pod: Option<&'a Pod>,
    /// The Kruise feature gates.
    pub gates: FeatureGates,
    /// The record time of an admitted request.
    pub now: &'a RecordTime,
}

/// The webhook's answer to one review.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewAnswer {
    /// The request UID (echoed in the response).
    pub uid: String,
    /// The decision code (allowed unless `denied_*`).
    pub code: DecisionCode,
    /// The classified operation once classified.
    pub operation: Option<Operation>,
    /// The denial reason (`""` when allowed).
    pub reason: String,
    /// The PUB status to write (`admitted` only).
    pub new_status: Option<PubStatus>,
}

impl ReviewAnswer {
    /// Whether the request is allowed.
    pub fn allowed(&self) -> bool {
        self.code.allowed()
    }

    /// The `AdmissionResponse`, as controller-runtime's `ValidationResponse` builds it:
    /// `status` `{code: 200}` when allowed, `{code: 403, reason: "Forbidden", message}` when denied.
    pub fn admission_response(&self) -> ReviewResponse {
        let status = if self.allowed() {
            ResponseStatus {
                code: 200,
                reason: None,
                message: None,
            }
        } else {
            ResponseStatus {
                code: 403,
                reason: Some("Forbidden".into()),
                message: Some(self.reason.clone()),
            }
        };
        ReviewResponse {
            uid: self.uid.clone(),
            allowed: self.allowed(),
            status,
        }
    }

    /// [`ReviewAnswer::admission_response`] as JSON.
    pub fn response(&self) -> Value {
        serde_json::to_value(self.admission_response()).unwrap_or(Value::Null)
    }
}

/// The `admission.k8s.io/v1` `AdmissionResponse` the webhook returns (the members it sets); it
/// also reads back from JSON (other members ignored), e.g. inside a returned review.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct ReviewResponse {
    /// The request UID, echoed.
    pub uid: String,
    /// Whether the request is allowed.
    pub allowed: bool,
    /// The result status.
    pub status: ResponseStatus,
}

/// The `metav1.Status` of a [`ReviewResponse`].
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct ResponseStatus {
    /// HTTP code: 200 allowed, 403 denied.
    pub code: u16,
    /// `Forbidden` when denied; absent when allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The denial reason (`podunavailablebudget.policy.kruise.io "<name>" is forbidden: ...`);
    /// absent when allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Decides a whole `AdmissionReview` or its `request` member (told apart by the review's own
/// members: an object with `apiVersion`, `request` or a string `kind` is a review).
///
/// Errors: `invalid_input` naming the field (see the module docs); `invalid_input` (`evictedPod`)
/// when an eviction is checked without the current pod; the update classification's errors.
pub fn admit_review(review: &Value, ctx: &ReviewContext<'_>) -> Result<ReviewAnswer> {
    let obj = review.as_object().ok_or_else(|| {
        Error::invalid_input(
            "review",
            "expected a JSON object (an AdmissionReview or its request)",
        )
    })?;
    let is_review = obj.contains_key("apiVersion")
        || obj.contains_key("request")
        || obj.get("kind").is_some_and(Value::is_string);
    if !is_review {
        return admit_request(obj, ctx);
    }
    let api_version = obj.get("apiVersion").and_then(Value::as_str);
    if !api_version.is_some_and(|v| REVIEW_API_VERSIONS.contains(&v)) {
        return Err(Error::invalid_input(
            "apiVersion",
            format_args!(
                "expected admission.k8s.io/v1, got {}",
                shown(obj.get("apiVersion"))
            ),
        ));
    }
    if obj.get("kind").and_then(Value::as_str) != Some("AdmissionReview") {
        return Err(Error::invalid_input(
            "kind",
            format_args!("expected AdmissionReview, got {}", shown(obj.get("kind"))),
        ));
    }
    match obj.get("request") {
        Some(Value::Object(r)) => admit_request(r, ctx),
        None | Some(Value::Null) => Err(Error::invalid_input("request", "missing")),
        Some(_) => Err(Error::invalid_input("request", "expected a JSON object")),
    }
}

/// `group/version, Kind=...` of a request (`request.kind`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Gvk {
    group: String,
    version: String,
    kind: String,
}

/// The request's typed scalar members, checked as the typed decode of the review checks them;
/// the objects are read by reference from the map (not copied).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestMembers {
    #[serde(default)]
    uid: Option<String>,
    #[serde(default)]
    kind: Option<Gvk>,
    #[serde(default)]
    operation: Option<String>,
    #[serde(default)]
    sub_resource: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    // Typed so a non-bool fails as it does in Go; never read (see the module docs).
    #[serde(default)]
    #[allow(dead_code)]
    dry_run: Option<bool>,
}

/// `DeleteOptions` / `UpdateOptions` members with a type (others are ignored, as by Go).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct OptionsShape {
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    dry_run: Option<Vec<String>>,
    // DeleteOptions
    #[serde(default)]
    grace_period_seconds: Option<i64>,
    #[serde(default)]
    preconditions: Option<Preconditions>,
    #[serde(default)]
    orphan_dependents: Option<bool>,
    #[serde(default)]
    propagation_policy: Option<String>,
    #[serde(default)]
    ignore_store_read_error_with_cluster_breaking_potential: Option<bool>,
    // UpdateOptions
    #[serde(default)]
    field_manager: Option<String>,
    #[serde(default)]
    field_validation: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Preconditions {
    #[serde(default)]
    uid: Option<String>,
    #[serde(default)]
    resource_version: Option<String>,
}

/// The Eviction's members v1.9.0 reads: TypeMeta and ObjectMeta are promoted (no `metadata`
/// member), and the options field is matched by its Go name, `DeleteOptions`.
#[derive(Debug, Default, Deserialize)]
#[allow(dead_code)]
struct EvictionShape {
    #[serde(default, rename = "apiVersion")]
    api_version: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default, rename = "DeleteOptions")]
    delete_options: Option<OptionsShape>,
}

/// Decides an `AdmissionRequest` (the review's `request` member). See [`admit_review`].
pub fn admit_request(req: &Map<String, Value>, ctx: &ReviewContext<'_>) -> Result<ReviewAnswer> {
    let m: RequestMembers = decode_at(&Value::Object(scalars(req)), "request")?;
    let operation = match m.operation.as_deref() {
        None => return Err(Error::invalid_input("request.operation", "missing")),
        Some("CREATE") => Some(RequestOperation::Create),
        Some("UPDATE") => Some(RequestOperation::Update),
        Some("DELETE") => Some(RequestOperation::Delete),
        Some("CONNECT") => None,
        Some(other) => {
            return Err(Error::invalid_input(
                "request.operation",
                format_args!("expected CREATE, UPDATE, DELETE or CONNECT, got {other:?}"),
            ));
        }
    };
    let kind = m
        .kind
        .ok_or_else(|| Error::invalid_input("request.kind", "missing"))?;
    if kind.kind.is_empty() {
        return Err(Error::invalid_input("request.kind.kind", "missing"));
    }
    if kind.version.is_empty() {
        return Err(Error::invalid_input("request.kind.version", "missing"));
    }
    let uid = m
        .uid
        .filter(|u| !u.is_empty())
        .ok_or_else(|| Error::invalid_input("request.uid", "missing"))?;
    let sub = m.sub_resource.as_deref().unwrap_or("");
    let Some(operation) = operation else {
        return Ok(answer(
            uid,
            DecisionCode::OperationIgnored,
            None,
            String::new(),
            None,
        ));
    };

    let member = |name: &str| req.get(name).filter(|v| !v.is_null());
    let mut old_pod = None;
    let mut new_pod = None;
    let mut pod = None;
    // The options are decoded where the reference decodes them: after classification.
    let mut options: Option<Result<bool>> = None;
    let mut eviction_dry_run = false;
    match operation {
        RequestOperation::Update => {
            expect_kind(&kind, "", &["v1"], "Pod", "UPDATE")?;
            new_pod = Some(pod_at(member("object"), "request.object")?);
            old_pod = Some(pod_at(member("oldObject"), "request.oldObject")?);
            options = Some(options_dry_run(member("options"), "UpdateOptions"));
        }
        RequestOperation::Delete => {
            if sub.is_empty() {
                expect_kind(&kind, "", &["v1"], "Pod", "DELETE")?;
            }
            if let Some(o) = member("oldObject") {
                pod = Some(pod_at(Some(o), "request.oldObject")?);
            }
            options = Some(options_dry_run(member("options"), "DeleteOptions"));
        }
        RequestOperation::Create if sub == "eviction" => {
            expect_kind(
                &kind,
                "policy",
                &["v1", "v1beta1"],
                "Eviction",
                "pods/eviction CREATE",
            )?;
            eviction_dry_run = eviction_at(member("object"))?;
            let name = m.name.as_deref().unwrap_or("");
            if name.is_empty() {
                return Err(Error::invalid_input(
                    "request.name",
                    "an eviction names the pod it evicts",
                ));
            }
            if ctx.gates.delete_checked() {
                let p = ctx.evicted_pod.ok_or_else(|| {
                    Error::invalid_input(
                        "evictedPod",
                        "an eviction is checked against the current pod (fetched by request.name)",
                    )
                })?;
                if p.metadata.name != name {
                    return Err(Error::invalid_input(
                        "evictedPod.metadata.name",
                        format_args!("{:?} is not the evicted pod {name:?}", p.metadata.name),
                    ));
                }
                let ns = m.namespace.as_deref().unwrap_or("");
                if let Some(pns) = p.metadata.namespace.as_deref()
                    && !ns.is_empty()
                    && !pns.is_empty()
                    && pns != ns
                {
                    return Err(Error::invalid_input(
                        "evictedPod.metadata.namespace",
                        format_args!("{pns:?} is not the request namespace {ns:?}"),
                    ));
                }
            }
        }
        RequestOperation::Create => {}
    }
    let evicted = if operation == RequestOperation::Create {
        ctx.evicted_pod
    } else {
        None
    };
    let dry_run = match &options {
        Some(Ok(d)) => *d,
        _ => eviction_dry_run,
    };
    let core = AdmissionRequest {
        operation,
        sub_resource: sub,
        dry_run,
        old_pod: old_pod.as_ref(),
        new_pod: new_pod.as_ref(),
        pod: pod.as_ref().or(evicted),
    };
    let d = admit(&core, ctx.pb, ctx.gates)?;
    // Classified (operation set) = the reference reached its options decode.
    if d.operation.is_some()
        && let Some(Err(e)) = options
    {
        return Err(e);
    }
    let new_status = match (d.change, ctx.pb) {
        (Some(c), Some(p)) => Some(c.apply(&p.status, ctx.now)),
        _ => None,
    };
    Ok(answer(uid, d.code, d.operation, d.reason(), new_status))
}

fn answer(
    uid: String,
    code: DecisionCode,
    operation: Option<Operation>,
    reason: String,
    new_status: Option<PubStatus>,
) -> ReviewAnswer {
    ReviewAnswer {
        uid,
        code,
        operation,
        reason,
        new_status,
    }
}

/// The request without its (possibly large) object members, for the typed scalar check.
fn scalars(req: &Map<String, Value>) -> Map<String, Value> {
    req.iter()
        .filter(|(k, _)| !matches!(k.as_str(), "object" | "oldObject" | "options"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn expect_kind(k: &Gvk, group: &str, versions: &[&str], kind: &str, what: &str) -> Result<()> {
    if k.group == group && versions.contains(&k.version.as_str()) && k.kind == kind {
        return Ok(());
    }
    let want_group = if group.is_empty() { "core" } else { group };
    Err(Error::invalid_input(
        "request.kind",
        format_args!(
            "{what} is checked for {want_group}/{} {kind}, got {:?}/{:?} {:?}",
            versions.join("|"),
            k.group,
            k.version,
            k.kind
        ),
    ))
}

/// A Pod carried by the request (`object` / `oldObject`): a JSON object whose own
/// `apiVersion`/`kind`, when set, are `v1`/`Pod`.
fn pod_at(v: Option<&Value>, field: &str) -> Result<Pod> {
    let v =
        v.ok_or_else(|| Error::invalid_input(field, "missing: the operation needs this Pod"))?;
    let o = v
        .as_object()
        .ok_or_else(|| Error::invalid_input(field, "expected a Pod object"))?;
    type_meta(o, field, &["v1"], "Pod")?;
    decode_at(v, field)
}

/// The Eviction object: returns its dry run as v1.9.0 reads it (`DeleteOptions.dryRun`).
fn eviction_at(v: Option<&Value>) -> Result<bool> {
    let field = "request.object";
    let v =
        v.ok_or_else(|| Error::invalid_input(field, "missing: an eviction carries the Eviction"))?;
    let o = v
        .as_object()
        .ok_or_else(|| Error::invalid_input(field, "expected an Eviction object"))?;
    type_meta(o, field, &["policy/v1", "policy/v1beta1"], "Eviction")?;
    let e: EvictionShape = decode_at(v, field)?;
    Ok(e.delete_options
        .and_then(|d| d.dry_run)
        .is_some_and(|l| !l.is_empty()))
}

/// The operation's options (`kind` `UpdateOptions` / `DeleteOptions`, `apiVersion`
/// `meta.k8s.io/v1`, either may be absent): whether `dryRun` is non-empty.
fn options_dry_run(v: Option<&Value>, kind: &str) -> Result<bool> {
    let field = "request.options";
    let v = v.ok_or_else(|| {
        Error::invalid_input(
            field,
            format_args!("missing: the webhook decodes the {kind}"),
        )
    })?;
    let o = v
        .as_object()
        .ok_or_else(|| Error::invalid_input(field, format_args!("expected {kind}")))?;
    type_meta(o, field, &["meta.k8s.io/v1"], kind)?;
    let s: OptionsShape = decode_at(v, field)?;
    Ok(s.dry_run.is_some_and(|l| !l.is_empty()))
}

/// `apiVersion` / `kind` of an embedded object: absent, `""` or the expected values.
fn type_meta(o: &Map<String, Value>, field: &str, versions: &[&str], kind: &str) -> Result<()> {
    for (member, ok) in [("apiVersion", versions), ("kind", &[kind][..])] {
        match o.get(member) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.is_empty() || ok.contains(&s.as_str()) => {}
            Some(other) => {
                return Err(Error::invalid_input(
                    format!("{field}.{member}"),
                    format_args!("expected {}, got {other}", ok.join(" or ")),
                ));
            }
        }
    }
    Ok(())
}

/// [`crate::registry::decode`] with the error re-rooted under `field`.
fn decode_at<T: serde::de::DeserializeOwned>(v: &Value, field: &str) -> Result<T> {
    crate::registry::decode(v).map_err(|e| reroot(e, field))
}

/// Re-roots an error's field under `base` (`metadata.name` -> `request.object.metadata.name`).
pub fn reroot(e: Error, base: &str) -> Error {
    let inner = e.field.clone().unwrap_or_default();
    let message = e
        .message
        .strip_prefix(&format!("{inner}: "))
        .unwrap_or(&e.message)
        .to_owned();
    let field = if inner.is_empty() || inner == "input" {
        base.to_owned()
    } else if inner.starts_with('[') {
        format!("{base}{inner}")
    } else {
        format!("{base}.{inner}")
    };
    Error::at(e.kind, field, message)
}

fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), Value::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const VECTORS: &str = include_str!("../../../conformance/vectors/pub_review.json");

    /// Every error case of `pub_review.json` names the field its `expect_field` says (the
    /// runners compare only the error kind).
    #[test]
    fn vector_errors_name_their_field() {
        let doc: Value = serde_json::from_str(VECTORS).unwrap();
        let mut checked = 0;
        for case in doc["cases"].as_array().unwrap() {
            let Some(field) = case.get("expect_field").and_then(Value::as_str) else {
                continue;
            };
            let e = crate::call("pub.admit_review", &case["input"]).unwrap_err();
            assert_eq!(
                e.field.as_deref(),
                Some(field),
                "{}: {}",
                case["name"],
                e.message
            );
            checked += 1;
        }
        assert!(checked >= 30, "only {checked} error cases with a field");
    }

    /// Dropping or retyping any member of any vector's request never panics, and a request
    /// without `uid`, `operation` or `kind` is never answered.
    #[test]
    fn mutated_vector_requests_fail_closed() {
        let doc: Value = serde_json::from_str(VECTORS).unwrap();
        let mut tried = 0;
        for case in doc["cases"].as_array().unwrap() {
            let input = &case["input"];
            let (key, whole) = if input.get("request").is_some() {
                ("request", false)
            } else {
                ("review", input["review"].get("request").is_some())
            };
            let req = if whole {
                &input[key]["request"]
            } else {
                &input[key]
            };
            let Some(members) = req.as_object() else {
                continue;
            };
            for member in members.keys() {
                for replacement in [None, Some(json!(42)), Some(json!([])), Some(json!({}))] {
                    let mut mutated = input.clone();
                    let slot = if whole {
                        &mut mutated[key]["request"]
                    } else {
                        &mut mutated[key]
                    };
                    let m = slot.as_object_mut().unwrap();
                    match &replacement {
                        None => drop(m.remove(member)),
                        Some(v) => drop(m.insert(member.clone(), v.clone())),
                    }
                    let got = crate::call("pub.admit_review", &mutated);
                    if matches!(member.as_str(), "uid" | "operation" | "kind") {
                        let e = got.expect_err(member);
                        assert_eq!(e.kind, "invalid_input");
                    }
                    tried += 1;
                }
            }
        }
        assert!(tried > 1000, "{tried}");
    }

    fn now() -> RecordTime {
        RecordTime::parse("2026-06-21T10:00:00Z", "now").unwrap()
    }

    #[test]
    fn typed_review_and_its_request_answer_alike() {
        let pod: Pod = crate::registry::decode(&json!({"metadata": {"name": "p-0",
            "annotations": {"kruise.io/related-pub": "pb"}},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}))
        .unwrap();
        let pb: Pub = crate::registry::decode(&json!({"metadata": {"name": "pb"},
            "status": {"unavailableAllowed": 0, "desiredAvailable": 1}}))
        .unwrap();
        let now = now();
        let ctx = ReviewContext {
            pb: Some(&pb),
            evicted_pod: Some(&pod),
            gates: FeatureGates::default(),
            now: &now,
        };
        let req = json!({"uid": "e-9", "kind": {"group": "policy", "version": "v1", "kind": "Eviction"},
            "operation": "CREATE", "subResource": "eviction", "name": "p-0", "object": {}});
        let a = admit_review(&req, &ctx).unwrap();
        let whole =
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req});
        assert_eq!(admit_review(&whole, &ctx).unwrap(), a);
        assert_eq!(a.code, DecisionCode::DeniedNoBudget);
        assert_eq!(a.operation, Some(Operation::Evict));
        assert_eq!(
            a.response(),
            json!({"uid": "e-9", "allowed": false, "status": {"code": 403, "reason": "Forbidden",
                "message": "podunavailablebudget.policy.kruise.io \"pb\" is forbidden: pub unavailable allowed is negative"}})
        );
        // the pod webhook's gate off: allowed, and the answer says why
        let off = ReviewContext {
            gates: FeatureGates {
                delete_gate: false,
                ..FeatureGates::default()
            },
            ..ctx
        };
        let a = admit_review(&whole, &off).unwrap();
        assert_eq!((a.code, a.allowed()), (DecisionCode::GateDisabled, true));
        assert_eq!(a.response()["status"], json!({"code": 200}));
    }

    #[test]
    fn malformed_requests_never_allow() {
        let now = now();
        let ctx = ReviewContext {
            pb: None,
            evicted_pod: None,
            gates: FeatureGates::default(),
            now: &now,
        };
        let field = |v: Value| admit_review(&v, &ctx).unwrap_err().field.unwrap();
        assert_eq!(field(json!({})), "request.operation");
        assert_eq!(field(json!(null)), "review");
        assert_eq!(field(json!({"operation": "delete"})), "request.operation");
        assert_eq!(field(json!({"operation": "DELETE"})), "request.kind");
        assert_eq!(
            field(json!({"operation": "DELETE", "kind": {"version": "v1"}})),
            "request.kind.kind"
        );
        assert_eq!(
            field(json!({"operation": "DELETE", "kind": {"version": "v1", "kind": "Pod"}})),
            "request.uid"
        );
        assert_eq!(
            field(
                json!({"operation": "DELETE", "uid": 5, "kind": {"version": "v1", "kind": "Pod"}})
            ),
            "request.uid"
        );
        assert_eq!(
            field(json!({"operation": "DELETE", "uid": "u", "dryRun": "yes",
                "kind": {"version": "v1", "kind": "Pod"}})),
            "request.dryRun"
        );
        assert_eq!(field(json!({"request": {}})), "apiVersion");
        assert_eq!(
            field(
                json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": null})
            ),
            "request"
        );
        // a pod deep in the old object keeps its full path
        assert_eq!(
            field(
                json!({"operation": "DELETE", "uid": "u", "kind": {"version": "v1", "kind": "Pod"},
                "oldObject": {"status": {"conditions": [{"type": 1}]}}})
            ),
            "request.oldObject.status.conditions[0].type"
        );
    }

    #[test]
    fn reroot_keeps_the_message() {
        let e = reroot(
            Error::invalid_input("metadata.name", "bad"),
            "request.object",
        );
        assert_eq!(e.field.as_deref(), Some("request.object.metadata.name"));
        assert_eq!(e.message, "request.object.metadata.name: bad");
        let e = reroot(Error::invalid_input("input", "bad"), "request.object");
        assert_eq!(e.field.as_deref(), Some("request.object"));
        assert_eq!(e.message, "request.object: bad");
        let e = reroot(Error::new("other", "x"), "request");
        assert_eq!((e.kind, e.field.as_deref()), ("other", Some("request")));
    }
}
