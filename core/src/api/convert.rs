//! `api.convert`: v1alpha1 <-> v1beta1 conversion of whole apps.kruise.io manifests, as the
//! OpenKruise v1.9.0 conversion webhook answers (controller-runtime `pkg/webhook/conversion`,
//! hub = v1beta1; spokes `apis/apps/v1alpha1/*_conversion.go`, NodeImage in `nodeimage_types.go`).
//!
//! The object is decoded into the source version's schema ([`super::types`], with the embedded
//! Kubernetes types of [`super::core_types`]), the per-kind rules below are applied, and the result
//! is re-encoded from the target schema: unknown members and members with no counterpart are
//! dropped, times are normalised, quantities re-printed as apimachinery prints them, everything
//! else is kept ([`super::schema::normalize`]).

use super::json::{ensure_obj, get};
use super::schema::normalize;
use super::types::{CONVERTIBLE, object_shape};
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The apps.kruise.io group.
pub const GROUP: &str = "apps.kruise.io";
/// `apps.kruise.io/v1alpha1`.
pub const V1ALPHA1: &str = "apps.kruise.io/v1alpha1";
/// `apps.kruise.io/v1beta1`.
pub const V1BETA1: &str = "apps.kruise.io/v1beta1";

/// Error kind: conversion to the version the object already has.
pub const SAME_VERSION: &str = "same_version";
/// Error kind: the kind has no conversion in v1.9.0.
pub const UNSUPPORTED_KIND: &str = "unsupported_kind";
/// Error kind: an apiVersion outside apps.kruise.io/{v1alpha1,v1beta1}.
pub const UNSUPPORTED_VERSION: &str = "unsupported_version";
/// Error kind: v1beta1 content that v1alpha1 cannot hold.
pub const NOT_REPRESENTABLE: &str = "not_representable";

/// Label carrying a SidecarSet's custom version in v1alpha1.
pub const CUSTOM_VERSION_LABEL: &str = "apps.kruise.io/sidecarset-custom-version";
/// Annotation carrying Advanced DaemonSet's partitioned scaling in v1alpha1.
pub const PROGRESSIVE_ANNOTATION: &str = "daemonset.kruise.io/progressive-create-pod";
/// Namespace name label used by namespace selectors.
pub const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// Converts `object` (a whole manifest with apiVersion and kind) to `target`
/// (`apps.kruise.io/v1alpha1` or `apps.kruise.io/v1beta1`).
///
/// The checks run in the order of the conversion webhook (controller-runtime
/// `pkg/webhook/conversion/conversion.go` `handleConvertRequest`: decode the object, allocate the
/// target object, `convertObject`), so the first failing one names the error:
/// 1. `invalid_input`: not an object; apiVersion or kind not a string; kind empty; apiVersion
///    with no version part (empty, `"/"`, `"group/"`, or more than one `/`), as apimachinery's
///    `SimpleMetaFactory.Interpret` and `Serializer.Decode` refuse them.
/// 2. `unsupported_version` (`object.apiVersion`) for a source outside
///    apps.kruise.io/{v1alpha1,v1beta1}: the scheme has no such apps.kruise.io type.
/// 3. For a kind convertible in v1.9.0, the object is decoded into its source version's schema
///    first: `invalid_quantity` / `quantity_out_of_range` for a quantity apimachinery rejects,
///    `invalid_input` for a field of the wrong type (each naming the field). A kind with no
///    conversion is not decoded (kruise-core has no schema for it).
/// 4. `unsupported_version` (`targetApiVersion`), then `same_version`, then `unsupported_kind`.
/// 5. `not_representable` (AdvancedCronJob `spec.template.imageListPullJobTemplate` to
///    v1alpha1).
///
/// ```
/// use serde_json::json;
/// let ds = json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet",
///     "metadata": {"name": "d"}, "status": {"daemonSetHash": "h1"}});
/// let out = kruise_core::api::convert::convert(&ds, "apps.kruise.io/v1beta1")?;
/// assert_eq!(out["status"], json!({"updateRevision": "h1"}));
/// // The object is decoded before the target version is judged, as the webhook does.
/// let bad = json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet", "metadata": "50%"});
/// let e = kruise_core::api::convert::convert(&bad, "apps/v1").unwrap_err();
/// assert_eq!((e.kind, e.field.as_deref()), ("invalid_input", Some("object.metadata")));
/// # Ok::<(), kruise_core::Error>(())
/// ```
pub fn convert(object: &Value, target: &str) -> Result<Value> {
    let obj = object
        .as_object()
        .ok_or_else(|| Error::invalid_input("object", "the manifest must be a JSON object"))?;
    // Interpret reads both members as strings (null reads as empty) before looking at either.
    let type_meta = |key: &str| match obj.get(key) {
        None | Some(Value::Null) => Ok(""),
        Some(Value::String(s)) => Ok(s.as_str()),
        Some(_) => Err(Error::invalid_input(
            format!("object.{key}"),
            "not a string",
        )),
    };
    let api_version = type_meta("apiVersion")?;
    let kind = type_meta("kind")?;
    if kind.is_empty() {
        return Err(Error::invalid_input("object.kind", "missing or empty"));
    }
    if !has_version_part(api_version) {
        return Err(Error::invalid_input(
            "object.apiVersion",
            format!("{api_version:?} is missing or has no version"),
        ));
    }
    let from_beta = version_of(api_version, "object.apiVersion")?;
    let Some(src) = object_shape(kind, from_beta) else {
        // No such type in the scheme: the decoder's "no kind is registered" error, which the
        // webhook reports for the pair of versions.
        let to_beta = version_of(target, "targetApiVersion")?;
        if from_beta == to_beta {
            return Err(same_version(kind, target));
        }
        return Err(unsupported_kind(kind));
    };
    let mut v = normalize(object, src, "object")?.unwrap_or(Value::Null);
    let to_beta = version_of(target, "targetApiVersion")?;
    if from_beta == to_beta {
        return Err(same_version(kind, target));
    }
    let dst = object_shape(kind, to_beta).ok_or_else(|| unsupported_kind(kind))?;
    let m = v
        .as_object_mut()
        .ok_or_else(|| Error::invalid_input("object", "the manifest must be a JSON object"))?;
    match (kind, to_beta) {
        ("SidecarSet", true) => sidecarset_up(m)?,
        ("SidecarSet", false) => sidecarset_down(m)?,
        ("DaemonSet", true) => daemonset_up(m)?,
        ("DaemonSet", false) => daemonset_down(m)?,
        ("AdvancedCronJob", false) => cronjob_down(m)?,
        _ => {}
    }
    m.insert("apiVersion".into(), Value::String(target.to_owned()));
    m.insert("kind".into(), Value::String(kind.to_owned()));
    let mut out = normalize(&v, dst, "object")?.unwrap_or(Value::Null);
    if let Some(m) = out.as_object_mut() {
        drop_empty_meta_maps(m);
    }
    Ok(out)
}

/// Whether apimachinery's `schema.ParseGroupVersion` finds a version in `gv`: not `""` or `"/"`,
/// at most one `/`, and something after it.
fn has_version_part(gv: &str) -> bool {
    match gv.split_once('/') {
        None => !gv.is_empty(),
        Some((_, version)) => !version.is_empty() && !version.contains('/'),
    }
}

fn same_version(kind: &str, target: &str) -> Error {
    Error::at(
        SAME_VERSION,
        "targetApiVersion",
        format!("conversion is not allowed between same type ({kind} is already {target})"),
    )
}

fn unsupported_kind(kind: &str) -> Error {
    Error::at(
        UNSUPPORTED_KIND,
        "object.kind",
        format!(
            "{kind} has no conversion in OpenKruise v1.9.0 (convertible: {})",
            CONVERTIBLE.join(", ")
        ),
    )
}

/// `true` for v1beta1, `false` for v1alpha1; anything else is `unsupported_version` at `field`.
fn version_of(api_version: &str, field: &str) -> Result<bool> {
    match api_version {
        V1ALPHA1 => Ok(false),
        V1BETA1 => Ok(true),
        other => Err(Error::at(
            UNSUPPORTED_VERSION,
            field,
            format!("{other:?} is not {V1ALPHA1} or {V1BETA1}"),
        )),
    }
}

/// Go's encoder omits empty label/annotation maps (`omitempty`).
fn drop_empty_meta_maps(obj: &mut Map<String, Value>) {
    if let Some(Value::Object(meta)) = obj.get_mut("metadata") {
        for key in ["labels", "annotations"] {
            if meta
                .get(key)
                .and_then(Value::as_object)
                .is_some_and(Map::is_empty)
            {
                meta.remove(key);
            }
        }
    }
}

fn meta_map<'a>(obj: &'a mut Map<String, Value>, key: &str) -> Result<&'a mut Map<String, Value>> {
    let meta = ensure_obj(obj, "metadata", "object")?;
    ensure_obj(meta, key, "object.metadata")
}

fn meta_value<'a>(obj: &'a Map<String, Value>, map: &str, key: &str) -> Option<&'a str> {
    obj.get("metadata")?.get(map)?.get(key)?.as_str()
}

/// SidecarSet v1alpha1 -> v1beta1 (`ConvertTo`): namespace becomes a namespace selector (and wins
/// over an existing one); the custom-version label becomes `spec.customVersion` and is removed.
fn sidecarset_up(obj: &mut Map<String, Value>) -> Result<()> {
    let custom = match obj
        .get_mut("metadata")
        .and_then(|m| m.get_mut("labels"))
        .and_then(Value::as_object_mut)
    {
        Some(labels) => labels.remove(CUSTOM_VERSION_LABEL),
        None => None,
    };
    let spec = ensure_obj(obj, "spec", "object")?;
    if let Some(ns) = spec
        .remove("namespace")
        .and_then(|v| v.as_str().map(str::to_owned))
        && !ns.is_empty()
    {
        let mut labels = Map::new();
        labels.insert(NAMESPACE_NAME_LABEL.into(), Value::String(ns));
        let mut sel = Map::new();
        sel.insert("matchLabels".into(), Value::Object(labels));
        spec.insert("namespaceSelector".into(), Value::Object(sel));
    }
    if let Some(Value::String(cv)) = custom {
        if cv.is_empty() {
            spec.remove("customVersion");
        } else {
            spec.insert("customVersion".into(), Value::String(cv));
        }
    }
    Ok(())
}

/// SidecarSet v1beta1 -> v1alpha1 (`ConvertFrom`): a non-empty `spec.customVersion` is written to
/// the custom-version label; the namespace selector is copied as is.
fn sidecarset_down(obj: &mut Map<String, Value>) -> Result<()> {
    let cv = obj
        .get("spec")
        .and_then(|s| s.get("customVersion"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    if let Some(cv) = cv {
        meta_map(obj, "labels")?.insert(CUSTOM_VERSION_LABEL.into(), Value::String(cv));
    }
    Ok(())
}

/// Advanced DaemonSet v1alpha1 -> v1beta1: `Surging` becomes `Standard`, the progressive-create
/// annotation `"true"` becomes `scaleStrategy.partitionedScaling`, `daemonSetHash` becomes
/// `updateRevision`.
fn daemonset_up(obj: &mut Map<String, Value>) -> Result<()> {
    let progressive = meta_value(obj, "annotations", PROGRESSIVE_ANNOTATION) == Some("true");
    let spec = ensure_obj(obj, "spec", "object")?;
    if let Some(Value::Object(ru)) = spec
        .get_mut("updateStrategy")
        .and_then(|u| u.get_mut("rollingUpdate"))
        && ru.get("rollingUpdateType").and_then(Value::as_str) == Some("Surging")
    {
        ru.insert("rollingUpdateType".into(), Value::String("Standard".into()));
    }
    if progressive {
        let mut ss = Map::new();
        ss.insert("partitionedScaling".into(), Value::Bool(true));
        spec.insert("scaleStrategy".into(), Value::Object(ss));
    }
    rename_status(obj, "daemonSetHash", "updateRevision");
    Ok(())
}

/// Advanced DaemonSet v1beta1 -> v1alpha1: partitioned scaling becomes the annotation (nothing is
/// removed otherwise), `updateRevision` becomes `daemonSetHash`.
fn daemonset_down(obj: &mut Map<String, Value>) -> Result<()> {
    let partitioned = obj
        .get("spec")
        .and_then(|s| s.get("scaleStrategy"))
        .and_then(|s| s.get("partitionedScaling"))
        .and_then(Value::as_bool)
        == Some(true);
    if partitioned {
        meta_map(obj, "annotations")?
            .insert(PROGRESSIVE_ANNOTATION.into(), Value::String("true".into()));
    }
    rename_status(obj, "updateRevision", "daemonSetHash");
    Ok(())
}

fn rename_status(obj: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(Value::Object(status)) = obj.get_mut("status")
        && let Some(v) = status.remove(from)
    {
        status.insert(to.to_owned(), v);
    }
}

/// AdvancedCronJob v1beta1 -> v1alpha1: an imageListPullJobTemplate cannot be represented.
fn cronjob_down(obj: &Map<String, Value>) -> Result<()> {
    let has = obj
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(Value::as_object)
        .is_some_and(|t| get(t, "imageListPullJobTemplate").is_some());
    if has {
        return Err(Error::at(
            NOT_REPRESENTABLE,
            "object.spec.template.imageListPullJobTemplate",
            "imageListPullJobTemplate is not supported in v1alpha1",
        ));
    }
    Ok(())
}

/// Input of `api.convert`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConvertInput {
    /// The whole manifest to convert (`apiVersion`, `kind`, `metadata`, `spec`, `status`), carried
    /// verbatim as JSON: the conversion decodes it against the source version's schema itself,
    /// naming the failing field (e.g. `object.spec.replicas`). Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub object: Value,
    /// The version to convert to: `apps.kruise.io/v1alpha1` or `apps.kruise.io/v1beta1` (other
    /// values answer `unsupported_version`). Required.
    pub target_api_version: String,
}

/// Output of `api.convert`: the converted manifest, as the webhook re-encodes the target Go type
/// (members the target cannot hold dropped, times and quantities re-printed). Vectors compare it
/// zero-pruned.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct ConvertOutput(pub Value);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sidecarset(spec: Value, labels: Value) -> Value {
        json!({"apiVersion": V1ALPHA1, "kind": "SidecarSet", "metadata": {"name": "s", "labels": labels}, "spec": spec})
    }

    #[test]
    fn empty_custom_version_label_is_removed_without_custom_version() {
        let out = convert(
            &sidecarset(json!({}), json!({CUSTOM_VERSION_LABEL: ""})),
            V1BETA1,
        )
        .unwrap();
        assert_eq!(out["metadata"].get("labels"), None);
        assert_eq!(out["spec"].get("customVersion"), None);
    }

    #[test]
    fn down_keeps_existing_label_when_custom_version_empty() {
        let o = json!({"apiVersion": V1BETA1, "kind": "SidecarSet",
            "metadata": {"labels": {CUSTOM_VERSION_LABEL: "old"}}, "spec": {"customVersion": ""}});
        let out = convert(&o, V1ALPHA1).unwrap();
        assert_eq!(out["metadata"]["labels"][CUSTOM_VERSION_LABEL], "old");
        let o = json!({"apiVersion": V1BETA1, "kind": "SidecarSet",
            "metadata": {"labels": {CUSTOM_VERSION_LABEL: "old"}}, "spec": {"customVersion": "new"}});
        assert_eq!(
            convert(&o, V1ALPHA1).unwrap()["metadata"]["labels"][CUSTOM_VERSION_LABEL],
            "new"
        );
    }

    #[test]
    fn unknown_fields_dropped_and_times_normalised() {
        let o = json!({"apiVersion": V1ALPHA1, "kind": "BroadcastJob", "extra": 1,
            "metadata": {"name": "b", "creationTimestamp": "2026-01-01T01:00:00.5+01:00"},
            "spec": {"bogus": true, "paused": true}, "status": {"startTime": "2026-01-01T00:00:00.9Z"}});
        let out = convert(&o, V1BETA1).unwrap();
        assert_eq!(
            out,
            json!({"apiVersion": V1BETA1, "kind": "BroadcastJob",
            "metadata": {"name": "b", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"paused": true}, "status": {"startTime": "2026-01-01T00:00:00Z"}})
        );
    }

    #[test]
    fn error_precedence() {
        let e = convert(&json!([1]), V1BETA1).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("object"))
        );
        let e = convert(
            &json!({"apiVersion": "apps/v1", "kind": "CloneSet"}),
            V1BETA1,
        )
        .unwrap_err();
        assert_eq!(e.kind, UNSUPPORTED_VERSION);
        let e = convert(
            &json!({"apiVersion": V1ALPHA1, "kind": "CloneSet"}),
            "apps.kruise.io/v2",
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (UNSUPPORTED_VERSION, Some("targetApiVersion"))
        );
        let e = convert(&json!({"apiVersion": V1BETA1, "kind": "CloneSet"}), V1BETA1).unwrap_err();
        assert_eq!(e.kind, SAME_VERSION);
        let e = convert(
            &json!({"apiVersion": V1BETA1, "kind": "CloneSet"}),
            V1ALPHA1,
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (UNSUPPORTED_KIND, Some("object.kind"))
        );
        let e = convert(
            &json!({"apiVersion": V1ALPHA1, "kind": "StatefulSet", "spec": {"replicas": "3"}}),
            V1BETA1,
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("object.spec.replicas"))
        );
        let acj = json!({"apiVersion": V1BETA1, "kind": "AdvancedCronJob",
            "spec": {"template": {"imageListPullJobTemplate": {}}}});
        assert_eq!(convert(&acj, V1ALPHA1).unwrap_err().kind, NOT_REPRESENTABLE);
        let acj = json!({"apiVersion": V1BETA1, "kind": "AdvancedCronJob", "status": {"type": "ImageListPullJob"}});
        assert_eq!(
            convert(&acj, V1ALPHA1).unwrap()["status"]["type"],
            "ImageListPullJob"
        );
    }

    /// The webhook decodes the object before it allocates the target object, so a field that does
    /// not decode wins over the target version's errors; a kind with no conversion is not decoded.
    #[test]
    fn object_is_decoded_before_the_target_is_judged() {
        let bj = json!({"apiVersion": V1ALPHA1, "kind": "BroadcastJob", "metadata": "50%"});
        for target in ["apps/v1", "apps.kruise.io/v2", V1ALPHA1, ""] {
            let e = convert(&bj, target).unwrap_err();
            assert_eq!(
                (e.kind, e.field.as_deref()),
                ("invalid_input", Some("object.metadata")),
                "{target}"
            );
        }
        let ds = json!({"apiVersion": V1BETA1, "kind": "DaemonSet",
            "spec": {"template": {"spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": "x"}}}]}}}});
        assert_eq!(convert(&ds, V1BETA1).unwrap_err().kind, "invalid_quantity");
        // A kind the scheme does not have: the version errors stay first.
        let ws = json!({"apiVersion": V1ALPHA1, "kind": "Foo", "metadata": "50%"});
        assert_eq!(
            convert(&ws, "apps/v1").unwrap_err().kind,
            UNSUPPORTED_VERSION
        );
        assert_eq!(convert(&ws, V1ALPHA1).unwrap_err().kind, SAME_VERSION);
        assert_eq!(convert(&ws, V1BETA1).unwrap_err().kind, UNSUPPORTED_KIND);
        // A source outside apps.kruise.io is not decoded either.
        let e = convert(
            &json!({"apiVersion": "apps/v2", "kind": "BroadcastJob", "metadata": "50%"}),
            V1BETA1,
        )
        .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (UNSUPPORTED_VERSION, Some("object.apiVersion"))
        );
    }

    /// apimachinery's Interpret: the kind is required before the version, and an apiVersion
    /// without a version part is missing.
    #[test]
    fn type_meta_is_read_as_the_decoder_reads_it() {
        let e = convert(&json!({}), V1BETA1).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("object.kind"))
        );
        let e = convert(&json!({"apiVersion": 1, "kind": "DaemonSet"}), V1BETA1).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("object.apiVersion"))
        );
        for av in [
            "",
            "/",
            "apps.kruise.io/",
            "apps.kruise.io/v1alpha1/x",
            "a/b/c",
        ] {
            let e = convert(&json!({"apiVersion": av, "kind": "DaemonSet"}), V1BETA1).unwrap_err();
            assert_eq!(
                (e.kind, e.field.as_deref()),
                ("invalid_input", Some("object.apiVersion")),
                "{av:?}"
            );
        }
        for av in ["apps.kruise.io", "v1", "/v1"] {
            let e = convert(&json!({"apiVersion": av, "kind": "DaemonSet"}), V1BETA1).unwrap_err();
            assert_eq!(e.kind, UNSUPPORTED_VERSION, "{av:?}");
        }
    }

    #[test]
    fn nodeimage_secret_mode_dropped_down() {
        let o = json!({"apiVersion": V1BETA1, "kind": "NodeImage",
            "spec": {"images": {"nginx": {"pullSecrets": [{"name": "r", "namespace": "d", "mode": "X"}]}}}});
        let out = convert(&o, V1ALPHA1).unwrap();
        assert_eq!(
            out["spec"]["images"]["nginx"]["pullSecrets"],
            json!([{"name": "r", "namespace": "d"}])
        );
    }

    #[test]
    fn failed_image_statuses_drop_nulls() {
        let o = json!({"apiVersion": V1ALPHA1, "kind": "ImageListPullJob",
            "status": {"failedImageStatuses": [null, {"name": "a"}, null, {"name": "b"}]}});
        let out = convert(&o, V1BETA1).unwrap();
        assert_eq!(
            out["status"]["failedImageStatuses"],
            json!([{"name": "a"}, {"name": "b"}])
        );
    }

    #[test]
    fn quantities_in_embedded_core_types_are_reprinted() {
        let o = json!({"apiVersion": V1ALPHA1, "kind": "DaemonSet", "metadata": {"name": "d"},
            "spec": {"template": {"spec": {
                "containers": [{"name": "c", "bogus": 1,
                    "resources": {"limits": {"cpu": "1.5", "memory": 1.5, "x": null},
                                  "requests": {"cpu": "0.0001", "memory": "1.500m"}},
                    "env": [{"name": "e", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}}]}],
                "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1.5Gi"}}],
                "overhead": {"cpu": "100.0m"}}}}});
        let out = convert(&o, V1BETA1).unwrap();
        let spec = &out["spec"]["template"]["spec"];
        assert_eq!(
            spec["containers"][0]["resources"],
            json!({"limits": {"cpu": "1500m", "memory": "1500m", "x": "0"},
                   "requests": {"cpu": "100u", "memory": "1.500m"}})
        );
        assert_eq!(spec["containers"][0].get("bogus"), None);
        assert_eq!(
            spec["containers"][0]["env"][0]["valueFrom"]["resourceFieldRef"],
            json!({"resource": "limits.cpu", "divisor": "0"})
        );
        assert_eq!(spec["volumes"][0]["emptyDir"]["sizeLimit"], "1536Mi");
        assert_eq!(spec["overhead"]["cpu"], "100m");
    }

    #[test]
    fn invalid_quantities_fail_naming_the_field() {
        for bad in [json!("abc"), json!(""), json!(true), json!({})] {
            let o = json!({"apiVersion": V1BETA1, "kind": "StatefulSet",
                "spec": {"volumeClaimTemplates": [{"spec": {"resources": {"requests": {"storage": bad}}}}]}});
            let e = convert(&o, V1ALPHA1).unwrap_err();
            assert_eq!(
                (e.kind, e.field.as_deref()),
                (
                    "invalid_quantity",
                    Some("object.spec.volumeClaimTemplates[0].spec.resources.requests.storage")
                ),
                "{bad}"
            );
        }
        // A quantity error wins over a type mismatch met before it (Go's decoder goes on after
        // the latter and stops at the former).
        let o = json!({"apiVersion": V1ALPHA1, "kind": "DaemonSet", "spec": {"template": {"spec": {
            "containers": [{"name": "c", "ports": [{"containerPort": "80"}], "resources": {"limits": {"cpu": "x"}}}]}}}});
        assert_eq!(convert(&o, V1BETA1).unwrap_err().kind, "invalid_quantity");
        let o = json!({"apiVersion": V1ALPHA1, "kind": "DaemonSet", "spec": {"template": {"spec": {
            "containers": [{"name": "c", "ports": [{"containerPort": "80"}]}]}}}});
        let e = convert(&o, V1BETA1).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (
                "invalid_input",
                Some("object.spec.template.spec.containers[0].ports[0].containerPort")
            )
        );
    }
}
