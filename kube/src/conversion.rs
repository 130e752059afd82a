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

use kruise_core::{Error, Result};
use serde_json::{Map, Value, json};

/// The ConversionReview API group versions understood (same JSON shape).
pub const REVIEW_VERSIONS: &[&str] = &["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"];

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
        .ok_or_else(|| Error::invalid_input("request.uid", "missing"))?;
    let desired = req
        .get("desiredAPIVersion")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::invalid_input("request.desiredAPIVersion", "missing"))?;
    let objects = req
        .get("objects")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::invalid_input("request.objects", "missing or not an array"))?;
    let mut response = Map::new();
    response.insert("uid".into(), Value::String(uid.to_owned()));
    match convert_all(objects, desired) {
        Ok(converted) => {
            response.insert("convertedObjects".into(), Value::Array(converted));
            response.insert("result".into(), json!({"status": "Success"}));
        }
        Err((i, e)) => {
            response.insert("convertedObjects".into(), Value::Array(Vec::new()));
            response.insert(
                "result".into(),
                json!({"status": "Failure", "reason": e.kind, "message": format!("request.objects[{i}]: {e}")}),
            );
        }
    }
    Ok(json!({"apiVersion": api_version, "kind": "ConversionReview", "response": response}))
}

fn convert_all(
    objects: &[Value],
    desired: &str,
) -> std::result::Result<Vec<Value>, (usize, Error)> {
    objects
        .iter()
        .enumerate()
        .map(|(i, o)| kruise_core::api::convert::convert(o, desired).map_err(|e| (i, e)))
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
}
