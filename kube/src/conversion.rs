//! The OpenKruise conversion webhook (`/convert`, controller-runtime `pkg/webhook/conversion`) as
//! a pure function: a `ConversionReview` (apiextensions.k8s.io/v1) in, the `ConversionReview`
//! with its `response` out, every object converted by `kruise_core::api::convert`.
//!
//! k8s-openapi has no `ConversionReview` type (it is not part of the OpenAPI document), and this
//! library must build without a k8s-openapi version feature, so reviews are handled as
//! `serde_json::Value`; the embedded objects are whole manifests either way. A Rust webhook server
//! passes the request body to [`review_bytes`]; Python can call `kruise_core.call("api.convert",
//! ...)` per object or use the same envelope.
//!
//! Shapes:
//! - request: `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
//!   "request": {"uid": "...", "desiredAPIVersion": "apps.kruise.io/v1beta1", "objects": [...]}}`
//! - response: `{"apiVersion", "kind": "ConversionReview", "response": {"uid": <same>,
//!   "convertedObjects": [...], "result": {"status": "Success"}}}`; when any object fails (as
//!   controller-runtime does) `convertedObjects` is empty and `result` is
//!   `{"status": "Failure", "message": "<kind>: <message>", "reason": <kind>}`.
//!
//! Fail closed: an envelope it cannot read is an error (answer HTTP 400), never a success: not an
//! object, another apiVersion/kind, no `request` object, no non-empty string `uid`, no string
//! `desiredAPIVersion`, `objects` not an array. A `desiredAPIVersion` other than
//! `apps.kruise.io/v1alpha1`/`v1beta1` is a `Failure` response (`unsupported_version`) even with no
//! objects (controller-runtime would answer an empty list with `Success`); an object that is not a
//! convertible manifest fails the whole review, as in controller-runtime.

use kruise_core::api::convert::{UNSUPPORTED_VERSION, V1ALPHA1, V1BETA1};
use kruise_core::{Error, Result};
use serde_json::{Map, Value, json};

/// The ConversionReview API group versions understood (same JSON shape).
pub const REVIEW_VERSIONS: &[&str] = &["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"];

/// The `desiredAPIVersion`s a review may ask for (the two versions of the apps.kruise.io kinds).
pub const DESIRED_VERSIONS: &[&str] = &[V1ALPHA1, V1BETA1];

/// Converts every object of a ConversionReview request and returns the review with its response.
///
/// Errors (the envelope itself is unusable, answer HTTP 400): `invalid_input` naming the field
/// when the review is not an object, has another apiVersion/kind, or lacks `request`,
/// `request.uid`, `request.desiredAPIVersion` or `request.objects`. Conversion failures are not
/// errors: they are reported in `response.result` like the reference does.
pub fn review(review: &Value) -> Result<Value> {
    let r = review
        .as_object()
        .ok_or_else(|| Error::invalid_input("review", "expected a JSON object"))?;
    let api_version = r.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if !REVIEW_VERSIONS.contains(&api_version) {
        return Err(Error::invalid_input(
            "apiVersion",
            format!("expected apiextensions.k8s.io/v1, got {api_version:?}"),
        ));
    }
    if r.get("kind").and_then(Value::as_str) != Some("ConversionReview") {
        return Err(Error::invalid_input("kind", "expected ConversionReview"));
    }
    let req = r
        .get("request")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::invalid_input("request", "conversion request is empty"))?;
    let uid = req
        .get("uid")
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())
        .ok_or_else(|| Error::invalid_input("request.uid", "missing or not a non-empty string"))?;
    let desired = req
        .get("desiredAPIVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Error::invalid_input("request.desiredAPIVersion", "missing or not a string")
        })?;
    let objects = req
        .get("objects")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::invalid_input("request.objects", "missing or not an array"))?;
    let mut response = Map::new();
    response.insert("uid".into(), Value::String(uid.to_owned()));
    let outcome = if DESIRED_VERSIONS.contains(&desired) {
        convert_all(objects, desired)
    } else {
        Err((
            None,
            Error::at(
                UNSUPPORTED_VERSION,
                "request.desiredAPIVersion",
                format!("{desired:?} is not {}", DESIRED_VERSIONS.join(" or ")),
            ),
        ))
    };
    match outcome {
        Ok(converted) => {
            response.insert("convertedObjects".into(), Value::Array(converted));
            response.insert("result".into(), json!({"status": "Success"}));
        }
        Err((i, e)) => {
            let message = match i {
                Some(i) => format!("request.objects[{i}]: {e}"),
                None => e.to_string(),
            };
            response.insert("convertedObjects".into(), Value::Array(Vec::new()));
            response.insert(
                "result".into(),
                json!({"status": "Failure", "reason": e.kind, "message": message}),
            );
        }
    }
    Ok(json!({"apiVersion": api_version, "kind": "ConversionReview", "response": response}))
}

fn convert_all(
    objects: &[Value],
    desired: &str,
) -> std::result::Result<Vec<Value>, (Option<usize>, Error)> {
    objects
        .iter()
        .enumerate()
        .map(|(i, o)| kruise_core::api::convert::convert(o, desired).map_err(|e| (Some(i), e)))
        .collect()
}

/// [`review`] on a request body; returns the response body. Errors: `invalid_input` when the body
/// is not JSON or the envelope is unusable.
pub fn review_bytes(body: &[u8]) -> Result<Vec<u8>> {
    let v: Value = serde_json::from_slice(body).map_err(|e| Error::invalid_input("body", e))?;
    let out = review(&v)?;
    serde_json::to_vec(&out).map_err(|e| Error::new("internal", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{Container, PodSpec, PodTemplateSpec};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Status, Time};
    use std::collections::BTreeMap;

    fn daemonset_v1alpha1() -> Value {
        let meta = ObjectMeta {
            name: Some("log-agent".into()),
            namespace: Some("kube-system".into()),
            annotations: Some(BTreeMap::from([(
                "daemonset.kruise.io/progressive-create-pod".to_owned(),
                "true".to_owned(),
            )])),
            creation_timestamp: Some(Time("2026-06-21T10:00:00.250Z".parse().unwrap_or_default())),
            ..Default::default()
        };
        let template = PodTemplateSpec {
            metadata: Some(ObjectMeta {
                labels: Some(BTreeMap::from([("app".to_owned(), "log".to_owned())])),
                ..Default::default()
            }),
            spec: Some(PodSpec {
                containers: vec![Container {
                    name: "agent".into(),
                    image: Some("fluent-bit:3.0".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }),
        };
        json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet", "metadata": meta,
            "spec": {"selector": {"matchLabels": {"app": "log"}}, "template": template,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"rollingUpdateType": "Surging", "maxSurge": 1}}},
            "status": {"daemonSetHash": "abc", "numberReady": 3}
        })
    }

    fn request(objects: Vec<Value>, desired: &str) -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
            "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "desiredAPIVersion": desired, "objects": objects}})
    }

    #[test]
    fn converts_every_object_and_echoes_uid() {
        let out = review(&request(
            vec![daemonset_v1alpha1()],
            "apps.kruise.io/v1beta1",
        ))
        .unwrap();
        let resp = &out["response"];
        assert_eq!(resp["uid"], "705ab4f5-6393-11e8-b7cc-42010a800002");
        let status: Status = serde_json::from_value(resp["result"].clone()).unwrap();
        assert_eq!(status.status.as_deref(), Some("Success"));
        let ds = &resp["convertedObjects"][0];
        assert_eq!(ds["apiVersion"], "apps.kruise.io/v1beta1");
        assert_eq!(
            ds["spec"]["scaleStrategy"],
            json!({"partitionedScaling": true})
        );
        assert_eq!(
            ds["spec"]["updateStrategy"]["rollingUpdate"]["rollingUpdateType"],
            "Standard"
        );
        assert_eq!(ds["status"]["updateRevision"], "abc");
        let meta: ObjectMeta = serde_json::from_value(ds["metadata"].clone()).unwrap();
        assert_eq!(
            meta.creation_timestamp.map(|t| t.0.to_string()).as_deref(),
            Some("2026-06-21T10:00:00Z")
        );
        let template: PodTemplateSpec =
            serde_json::from_value(ds["spec"]["template"].clone()).unwrap();
        assert_eq!(
            template.spec.map(|s| s.containers[0].image.clone()),
            Some(Some("fluent-bit:3.0".into()))
        );
    }

    #[test]
    fn one_failure_fails_the_review() {
        let ws = json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread", "metadata": {"name": "w"}});
        let out = review(&request(
            vec![daemonset_v1alpha1(), ws],
            "apps.kruise.io/v1beta1",
        ))
        .unwrap();
        let status: Status = serde_json::from_value(out["response"]["result"].clone()).unwrap();
        assert_eq!(status.status.as_deref(), Some("Failure"));
        assert_eq!(status.reason.as_deref(), Some("unsupported_kind"));
        assert!(
            status
                .message
                .unwrap_or_default()
                .starts_with("request.objects[1]: unsupported_kind")
        );
        assert_eq!(out["response"]["convertedObjects"], json!([]));
    }

    #[test]
    fn malformed_envelopes_are_invalid_input() {
        let e =
            review(&json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview"}))
                .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("request"))
        );
        let e = review_bytes(b"not json").unwrap_err();
        assert_eq!(e.kind, "invalid_input");
        let body = serde_json::to_vec(&request(vec![], "apps.kruise.io/v1alpha1")).unwrap();
        let out: Value = serde_json::from_slice(&review_bytes(&body).unwrap()).unwrap();
        assert_eq!(out["response"]["convertedObjects"], json!([]));
        assert_eq!(out["response"]["result"]["status"], "Success");
    }

    #[test]
    fn malformed_reviews_never_succeed() {
        let field = |v: Value| review(&v).unwrap_err().field.unwrap();
        let with = |f: &dyn Fn(&mut Map<String, Value>)| {
            let mut r = request(vec![daemonset_v1alpha1()], "apps.kruise.io/v1beta1");
            f(r["request"].as_object_mut().unwrap());
            r
        };
        assert_eq!(field(json!([])), "review");
        assert_eq!(field(json!({})), "apiVersion");
        assert_eq!(
            field(
                json!({"apiVersion": "apiextensions.k8s.io/v2", "kind": "ConversionReview", "request": {}})
            ),
            "apiVersion"
        );
        assert_eq!(
            field(
                json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "AdmissionReview", "request": {}})
            ),
            "kind"
        );
        assert_eq!(
            field(
                json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "request": []})
            ),
            "request"
        );
        assert_eq!(field(with(&|r| drop(r.remove("uid")))), "request.uid");
        assert_eq!(
            field(with(&|r| drop(r.insert("uid".into(), json!(""))))),
            "request.uid"
        );
        assert_eq!(
            field(with(&|r| drop(r.insert("uid".into(), json!(7))))),
            "request.uid"
        );
        assert_eq!(
            field(with(&|r| drop(r.insert(
                "desiredAPIVersion".into(),
                json!(["apps.kruise.io/v1beta1"])
            )))),
            "request.desiredAPIVersion"
        );
        assert_eq!(
            field(with(&|r| drop(r.insert("objects".into(), json!({}))))),
            "request.objects"
        );
        let e = review_bytes(b"{\"apiVersion\": ").unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("body"))
        );
    }

    #[test]
    fn unreadable_objects_and_unknown_versions_are_failures() {
        let failure = |v: Value| {
            let out = review(&v).unwrap();
            let resp = &out["response"];
            assert_eq!(resp["uid"], "705ab4f5-6393-11e8-b7cc-42010a800002");
            assert_eq!(resp["convertedObjects"], json!([]));
            assert_eq!(resp["result"]["status"], "Failure", "{out}");
            resp["result"]["reason"].as_str().unwrap().to_owned()
        };
        for bad in [
            json!(3),
            json!(null),
            json!([]),
            json!("DaemonSet"),
            json!({"kind": "DaemonSet"}),
        ] {
            assert_eq!(
                failure(request(
                    vec![daemonset_v1alpha1(), bad],
                    "apps.kruise.io/v1beta1"
                )),
                "invalid_input"
            );
        }
        // an unknown desired version fails even with nothing to convert
        assert_eq!(failure(request(vec![], "apps/v1")), "unsupported_version");
        assert_eq!(
            failure(request(vec![daemonset_v1alpha1()], "apps.kruise.io/v2")),
            "unsupported_version"
        );
        assert_eq!(failure(request(vec![], "")), "unsupported_version");
    }
}
