//! `api.default`: the SetDefaults* functions the OpenKruise v1.9.0 mutating webhooks apply to
//! v1beta1 objects (`apis/apps/defaults/v1beta1.go`) and to v1alpha1 Advanced DaemonSets
//! (`apis/apps/defaults/v1alpha1.go`). Pod-template defaults, SidecarSet hash annotations and
//! statuses are not touched; everything not named here is left exactly as given.

use super::json::{as_obj, default_empty, default_nil, ensure_obj, get, is_nil, str_at};
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

/// Error kind: a SidecarSet container's `transferEnv[].sourceContainerNameFrom` has no `fieldRef`
/// (OpenKruise v1.9.0's defaulting dereferences it; the webhook request fails).
pub const FIELD_REF_MISSING: &str = "field_ref_missing";

/// Feature gates read by the StatefulSet defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gates {
    /// `StatefulSetAutoDeletePVC` (default on).
    pub auto_delete_pvc: bool,
    /// `StatefulSetAutoResizePVCGate` (default off).
    pub auto_resize_pvc: bool,
}

impl Default for Gates {
    fn default() -> Self {
        Gates {
            auto_delete_pvc: true,
            auto_resize_pvc: false,
        }
    }
}

type Obj = Map<String, Value>;

/// Applies the defaults to a copy of `object`. `now` (RFC 3339) is NodeImage's `createdAt`.
///
/// Errors: `unsupported_kind` for anything but apps.kruise.io/v1beta1 SidecarSet, DaemonSet,
/// BroadcastJob, AdvancedCronJob, ImagePullJob, ImageListPullJob, NodeImage, StatefulSet and
/// apps.kruise.io/v1alpha1 DaemonSet; `invalid_input` when a member to default has the wrong type.
pub fn apply(object: &Value, now: &str, gates: Gates) -> Result<Value> {
    let obj = as_obj(object, "object")?;
    let api_version = str_at(obj, "apiVersion", "object")?.unwrap_or("");
    let kind = str_at(obj, "kind", "object")?.unwrap_or("");
    let mut out = obj.clone();
    let spec = || "object.spec";
    match (api_version, kind) {
        ("apps.kruise.io/v1beta1", "DaemonSet") => {
            daemonset(ensure_obj(&mut out, "spec", "object")?, false)?
        }
        ("apps.kruise.io/v1alpha1", "DaemonSet") => {
            daemonset(ensure_obj(&mut out, "spec", "object")?, true)?
        }
        ("apps.kruise.io/v1beta1", "BroadcastJob") => {
            broadcastjob(ensure_obj(&mut out, "spec", "object")?)?
        }
        ("apps.kruise.io/v1beta1", "AdvancedCronJob") => {
            cronjob(ensure_obj(&mut out, "spec", "object")?)?
        }
        ("apps.kruise.io/v1beta1", "ImagePullJob") => {
            pull_job(ensure_obj(&mut out, "spec", "object")?, spec(), true)?
        }
        ("apps.kruise.io/v1beta1", "ImageListPullJob") => {
            pull_job(ensure_obj(&mut out, "spec", "object")?, spec(), false)?
        }
        ("apps.kruise.io/v1beta1", "NodeImage") => {
            nodeimage(ensure_obj(&mut out, "spec", "object")?, now)?
        }
        ("apps.kruise.io/v1beta1", "StatefulSet") => {
            statefulset(ensure_obj(&mut out, "spec", "object")?, gates)?
        }
        ("apps.kruise.io/v1beta1", "SidecarSet") => {
            sidecarset(ensure_obj(&mut out, "spec", "object")?)?
        }
        _ => {
            return Err(Error::at(
                super::convert::UNSUPPORTED_KIND,
                "object.kind",
                format!("no defaulting modelled for {api_version} {kind}"),
            ));
        }
    }
    Ok(Value::Object(out))
}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

fn daemonset(spec: &mut Obj, alpha: bool) -> Result<()> {
    default_nil(spec, "burstReplicas", json!(250));
    let us = ensure_obj(spec, "updateStrategy", "object.spec")?;
    default_empty(us, "type", s("RollingUpdate"));
    if str_at(us, "type", "object.spec.updateStrategy")? == Some("RollingUpdate") {
        let ru = ensure_obj(us, "rollingUpdate", "object.spec.updateStrategy")?;
        let p = "object.spec.updateStrategy.rollingUpdate";
        if alpha && str_at(ru, "rollingUpdateType", p)? == Some("Surging") {
            default_nil(ru, "maxSurge", json!(1));
            default_nil(ru, "maxUnavailable", json!(0));
        }
        if alpha && str_at(ru, "rollingUpdateType", p)? == Some("Surging") {
            ru.insert("rollingUpdateType".into(), s("Standard"));
        }
        default_empty(ru, "rollingUpdateType", s("Standard"));
        if get(ru, "maxUnavailable").is_none() && get(ru, "maxSurge").is_none() {
            ru.insert("maxUnavailable".into(), json!(1));
            ru.insert("maxSurge".into(), json!(0));
        }
    }
    default_nil(spec, "revisionHistoryLimit", json!(10));
    Ok(())
}

fn broadcastjob(spec: &mut Obj) -> Result<()> {
    default_empty(
        ensure_obj(spec, "completionPolicy", "object.spec")?,
        "type",
        s("Always"),
    );
    default_nil(spec, "parallelism", json!(i32::MAX));
    default_empty(
        ensure_obj(spec, "failurePolicy", "object.spec")?,
        "type",
        s("FailFast"),
    );
    Ok(())
}

fn pull_policy(spec: &mut Obj, path: &str) -> Result<()> {
    let pp = ensure_obj(spec, "pullPolicy", path)?;
    default_nil(pp, "timeoutSeconds", json!(600));
    default_nil(pp, "backoffLimit", json!(3));
    Ok(())
}

fn pull_job(spec: &mut Obj, path: &str, image_pull_policy: bool) -> Result<()> {
    default_empty(
        ensure_obj(spec, "completionPolicy", path)?,
        "type",
        s("Always"),
    );
    pull_policy(spec, path)?;
    if image_pull_policy {
        default_empty(spec, "imagePullPolicy", s("IfNotPresent"));
    }
    Ok(())
}

fn cronjob(spec: &mut Obj) -> Result<()> {
    let mut has_ilpj = false;
    if let Some(Value::Object(t)) = spec.get_mut("template")
        && let Some(Value::Object(ilpj)) = t.get_mut("imageListPullJobTemplate")
    {
        has_ilpj = true;
        let p = "object.spec.template.imageListPullJobTemplate.spec";
        let js = ensure_obj(
            ilpj,
            "spec",
            "object.spec.template.imageListPullJobTemplate",
        )?;
        let cp = ensure_obj(js, "completionPolicy", p)?;
        if str_at(cp, "type", p)?.unwrap_or("").is_empty() {
            cp.insert("type".into(), s("Always"));
            pull_policy(js, p)?;
            default_empty(js, "imagePullPolicy", s("IfNotPresent"));
        }
    }
    default_empty(
        spec,
        "concurrencyPolicy",
        s(if has_ilpj { "Replace" } else { "Allow" }),
    );
    default_nil(spec, "paused", json!(false));
    default_nil(spec, "successfulJobsHistoryLimit", json!(3));
    default_nil(spec, "failedJobsHistoryLimit", json!(1));
    Ok(())
}

fn nodeimage(spec: &mut Obj, now: &str) -> Result<()> {
    let Some(Value::Object(images)) = spec.get_mut("images") else {
        return Ok(());
    };
    for (name, img) in images.iter_mut() {
        let Value::Object(img) = img else { continue };
        let Some(Value::Array(tags)) = img.get_mut("tags") else {
            continue;
        };
        for (i, t) in tags.iter_mut().enumerate() {
            let p = format!("object.spec.images.{name}.tags[{i}]");
            let t = t
                .as_object_mut()
                .ok_or_else(|| Error::invalid_input(&*p, "expected a JSON object"))?;
            if is_nil(t, "createdAt") {
                if now.is_empty() {
                    return Err(Error::invalid_input(
                        "now",
                        format!("needed to default {p}.createdAt"),
                    ));
                }
                t.insert("createdAt".into(), s(now));
            }
            pull_policy(t, &p)?;
        }
    }
    Ok(())
}

fn statefulset(spec: &mut Obj, gates: Gates) -> Result<()> {
    default_empty(spec, "podManagementPolicy", s("OrderedReady"));
    let us = ensure_obj(spec, "updateStrategy", "object.spec")?;
    default_empty(us, "type", s("RollingUpdate"));
    if str_at(us, "type", "object.spec.updateStrategy")? == Some("RollingUpdate") {
        let ru = ensure_obj(us, "rollingUpdate", "object.spec.updateStrategy")?;
        default_nil(ru, "partition", json!(0));
        default_nil(ru, "maxUnavailable", json!(1));
        default_empty(ru, "podUpdatePolicy", s("ReCreate"));
        default_nil(ru, "minReadySeconds", json!(0));
    }
    if gates.auto_delete_pvc {
        let p = ensure_obj(spec, "persistentVolumeClaimRetentionPolicy", "object.spec")?;
        default_empty(p, "whenDeleted", s("Retain"));
        default_empty(p, "whenScaled", s("Retain"));
    }
    if gates.auto_resize_pvc {
        default_empty(
            ensure_obj(spec, "volumeClaimUpdateStrategy", "object.spec")?,
            "type",
            s("OnDelete"),
        );
    }
    default_nil(spec, "replicas", json!(1));
    default_nil(spec, "revisionHistoryLimit", json!(10));
    Ok(())
}

fn sidecarset(spec: &mut Obj) -> Result<()> {
    let us = ensure_obj(spec, "updateStrategy", "object.spec")?;
    default_empty(us, "type", s("RollingUpdate"));
    default_nil(us, "maxUnavailable", json!(1));
    default_nil(us, "partition", json!(0));
    for (key, policy) in [
        ("initContainers", "AfterAppContainer"),
        ("containers", "BeforeAppContainer"),
    ] {
        if let Some(Value::Array(list)) = spec.get_mut(key) {
            for (i, c) in list.iter_mut().enumerate() {
                let p = format!("object.spec.{key}[{i}]");
                let c = c
                    .as_object_mut()
                    .ok_or_else(|| Error::invalid_input(&*p, "expected a JSON object"))?;
                default_empty(c, "podInjectPolicy", s(policy));
                default_empty(
                    ensure_obj(c, "upgradeStrategy", &p)?,
                    "upgradeType",
                    s("ColdUpgrade"),
                );
                default_empty(
                    ensure_obj(c, "shareVolumePolicy", &p)?,
                    "type",
                    s("disabled"),
                );
                container(c, &p)?;
            }
        }
    }
    if let Some(Value::Array(vols)) = spec.get_mut("volumes") {
        for (i, v) in vols.iter_mut().enumerate() {
            let p = format!("object.spec.volumes[{i}]");
            volume(
                v.as_object_mut()
                    .ok_or_else(|| Error::invalid_input(&*p, "expected a JSON object"))?,
            );
        }
    }
    default_nil(spec, "revisionHistoryLimit", json!(10));
    if let Some(Value::Array(list)) = spec.get_mut("patchPodMetadata") {
        for m in list.iter_mut().filter_map(Value::as_object_mut) {
            default_empty(m, "patchPolicy", s("Retain"));
        }
    }
    if let Some(Value::Object(inj)) = spec.get_mut("injectionStrategy")
        && let Some(Value::Object(rev)) = inj.get_mut("revision")
    {
        default_empty(rev, "policy", s("Always"));
    }
    Ok(())
}

/// `setDefaultContainerV1beta1`: the core container defaults SidecarSet applies to its containers.
fn container(c: &mut Obj, path: &str) -> Result<()> {
    if str_at(c, "imagePullPolicy", path)?.unwrap_or("").is_empty() {
        let image = str_at(c, "image", path)?.unwrap_or("");
        let policy = if image_tag(image).as_deref() == Some("latest") {
            "Always"
        } else {
            "IfNotPresent"
        };
        c.insert("imagePullPolicy".into(), s(policy));
    }
    default_empty(c, "terminationMessagePath", s("/dev/termination-log"));
    default_empty(c, "terminationMessagePolicy", s("File"));
    if let Some(Value::Array(ports)) = c.get_mut("ports") {
        for p in ports.iter_mut().filter_map(Value::as_object_mut) {
            default_empty(p, "protocol", s("TCP"));
        }
    }
    if let Some(Value::Array(envs)) = c.get_mut("env") {
        for e in envs.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(Value::Object(vf)) = e.get_mut("valueFrom") {
                field_ref(vf);
            }
        }
    }
    if let Some(Value::Array(te)) = c.get_mut("transferEnv") {
        for (n, t) in te.iter_mut().enumerate() {
            let Some(Value::Object(from)) = t.get_mut("sourceContainerNameFrom") else {
                continue;
            };
            // v1.9.0 defaults `sourceContainerNameFrom.fieldRef` without checking that it is set
            // (apis/apps/defaults/v1beta1.go setDefaultContainerV1beta1): without one the mutating
            // webhook dereferences a nil pointer and the request fails. Refuse it here.
            if matches!(from.get("fieldRef"), None | Some(Value::Null)) {
                return Err(Error::at(
                    FIELD_REF_MISSING,
                    format!("{path}.transferEnv[{n}].sourceContainerNameFrom.fieldRef"),
                    "sourceContainerNameFrom without fieldRef: OpenKruise's defaulting dereferences the missing fieldRef and the webhook fails",
                ));
            }
            field_ref(from);
        }
    }
    if let Some(Value::Object(res)) = c.get_mut("resources") {
        for list in ["limits", "requests"] {
            if let Some(Value::Object(m)) = res.get_mut(list) {
                for q in m.values_mut() {
                    if let Some(r) = q.as_str().and_then(round_up_milli) {
                        *q = Value::String(r);
                    }
                }
            }
        }
    }
    for probe in ["livenessProbe", "readinessProbe"] {
        if let Some(Value::Object(p)) = c.get_mut(probe) {
            default_empty(p, "timeoutSeconds", json!(1));
            default_empty(p, "periodSeconds", json!(10));
            default_empty(p, "successThreshold", json!(1));
            default_empty(p, "failureThreshold", json!(3));
            http_get(p);
        }
    }
    if let Some(Value::Object(lc)) = c.get_mut("lifecycle") {
        for hook in ["postStart", "preStop"] {
            if let Some(Value::Object(h)) = lc.get_mut(hook) {
                http_get(h);
            }
        }
    }
    Ok(())
}

fn field_ref(holder: &mut Obj) {
    if let Some(Value::Object(fr)) = holder.get_mut("fieldRef") {
        default_empty(fr, "apiVersion", s("v1"));
    }
}

fn http_get(holder: &mut Obj) {
    if let Some(Value::Object(h)) = holder.get_mut("httpGet") {
        default_empty(h, "path", s("/"));
        default_empty(h, "scheme", s("HTTP"));
    }
}

/// Kubernetes volume defaults (`SetDefaults_Volume` and the per-source defaulters).
fn volume(v: &mut Obj) {
    if v.iter().all(|(k, val)| k == "name" || val.is_null()) {
        v.insert("emptyDir".into(), json!({}));
    }
    for src in ["configMap", "secret", "downwardAPI", "projected"] {
        if let Some(Value::Object(o)) = v.get_mut(src) {
            default_nil(o, "defaultMode", json!(420));
        }
    }
    if let Some(Value::Object(h)) = v.get_mut("hostPath") {
        default_nil(h, "type", s(""));
    }
    if let Some(Value::Object(d)) = v.get_mut("downwardAPI") {
        downward_items(d);
    }
    if let Some(Value::Array(sources)) = v.get_mut("projected").and_then(|p| p.get_mut("sources")) {
        for src in sources.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(Value::Object(d)) = src.get_mut("downwardAPI") {
                downward_items(d);
            }
            if let Some(Value::Object(t)) = src.get_mut("serviceAccountToken") {
                default_nil(t, "expirationSeconds", json!(3600));
            }
        }
    }
}

fn downward_items(d: &mut Obj) {
    if let Some(Value::Array(items)) = d.get_mut("items") {
        for it in items.iter_mut().filter_map(Value::as_object_mut) {
            field_ref(it);
        }
    }
}

/// A resource-list quantity after Kubernetes `SetDefaults_ResourceList`: `RoundUp(resource.Milli)`
/// (away from zero), then re-serialised as `resource.Quantity` marshals (`String()`: the text as
/// written when apimachinery keeps it, else canonical), so `1500000u` -> `1500m`, `1000m` -> `1`,
/// `0.5` -> `500m`, `1e-6` -> `1m`. `None` when that is the text as given, or when the text is not
/// a quantity (left untouched; the reference would reject it while decoding).
pub fn round_up_milli(q: &str) -> Option<String> {
    let mut v = crate::quantity::Quantity::parse(q).ok()?;
    v.round_up(-3).ok()?;
    let out = v.to_string();
    (out != q).then_some(out)
}

static REFERENCE: LazyLock<regex::Regex> = LazyLock::new(|| {
    // distribution/reference grammar: [domain/]path[:tag][@digest]
    let domain_component = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
    let domain = format!(r"(?:{domain_component}(?:\.{domain_component})*(?::[0-9]+)?)");
    let path_component = r"(?:[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)";
    let name = format!(r"(?:{domain}/)?{path_component}(?:/{path_component})*");
    let tag = r"[\w][\w.-]{0,127}";
    let digest = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
    let re = format!(r"^({name})(?::({tag}))?(?:@({digest}))?$");
    regex::Regex::new(&re).unwrap_or_else(|_| unreachable!("static pattern"))
});

/// The tag Kubernetes' `parsers.ParseImageName` reports: the explicit tag, `latest` when there is
/// neither tag nor digest, `""` for digest-only references; `None` when the reference does not
/// parse (empty, upper-case path, ...).
pub fn image_tag(image: &str) -> Option<String> {
    if image.len() > 255 + 128 + 80 {
        return None;
    }
    let caps = REFERENCE.captures(image)?;
    let name = caps.get(1).map_or("", |m| m.as_str());
    if name.len() > 255 {
        return None;
    }
    // a single upper-case-free component before the first `/` that has no `.`/`:` and is not
    // `localhost` is a Docker Hub path, so it must be lower-case (checked by the path grammar).
    if let Some((first, _)) = name.split_once('/') {
        let looks_domain =
            first.contains(['.', ':']) || first == "localhost" || first.to_lowercase() != first;
        if !looks_domain && first.bytes().any(|b| b.is_ascii_uppercase()) {
            return None;
        }
    }
    Some(match (caps.get(2), caps.get(3)) {
        (Some(t), _) => t.as_str().to_owned(),
        (None, Some(_)) => String::new(),
        (None, None) => "latest".to_owned(),
    })
}

/// Input of `api.default`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DefaultInput {
    /// The object to default (`apiVersion` and `kind` pick the SetDefaults function), carried
    /// verbatim as JSON: the answer is this object with the defaults filled in, every member not
    /// defaulted left exactly as given. Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub object: Value,
    /// The clock (RFC 3339; normalised to UTC whole seconds), NodeImage's `createdAt` default.
    /// Absent or `null`: no clock (an empty `createdAt`).
    #[serde(default)]
    pub now: Option<String>,
    /// Feature gates the StatefulSet defaults read; absent or `null` gates keep their v1.9.0
    /// defaults, other gates are ignored.
    #[serde(default)]
    pub feature_gates: Option<DefaultFeatureGates>,
}

/// The feature gates `api.default` reads (others are ignored).
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
pub struct DefaultFeatureGates {
    /// `StatefulSetAutoDeletePVC` (`null` or absent: on).
    #[serde(default, rename = "StatefulSetAutoDeletePVC")]
    pub statefulset_auto_delete_pvc: Option<bool>,
    /// `StatefulSetAutoResizePVCGate` (`null` or absent: off).
    #[serde(default, rename = "StatefulSetAutoResizePVCGate")]
    pub statefulset_auto_resize_pvc_gate: Option<bool>,
}

impl From<Option<DefaultFeatureGates>> for Gates {
    fn from(g: Option<DefaultFeatureGates>) -> Self {
        let d = Gates::default();
        let g = g.unwrap_or_default();
        Gates {
            auto_delete_pvc: g.statefulset_auto_delete_pvc.unwrap_or(d.auto_delete_pvc),
            auto_resize_pvc: g
                .statefulset_auto_resize_pvc_gate
                .unwrap_or(d.auto_resize_pvc),
        }
    }
}

/// Output of `api.default`: the defaulted object. Vectors compare it null-pruned.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct DefaultOutput(pub Value);

/// Decides `api.default` on a typed input.
pub(crate) fn decide_typed(i: DefaultInput) -> Result<DefaultOutput> {
    let now = match &i.now {
        Some(t) => super::schema::time(&Value::String(t.clone()), "now")?,
        None => String::new(),
    };
    apply(&i.object, &now, i.feature_gates.into()).map(DefaultOutput)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_tags() {
        assert_eq!(image_tag("busybox").as_deref(), Some("latest"));
        assert_eq!(image_tag("nginx:latest").as_deref(), Some("latest"));
        assert_eq!(image_tag("nginx:1.25").as_deref(), Some("1.25"));
        assert_eq!(
            image_tag("registry.example.com:5000/team/app:v2").as_deref(),
            Some("v2")
        );
        let digest =
            "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        assert_eq!(image_tag(digest).as_deref(), Some(""));
        assert_eq!(image_tag(""), None);
        assert_eq!(image_tag("Nginx:latest"), None);
        assert_eq!(image_tag("localhost/app").as_deref(), Some("latest"));
    }

    #[test]
    fn sub_milli_quantities_round_up() {
        assert_eq!(round_up_milli("1500000u").as_deref(), Some("1500m"));
        assert_eq!(round_up_milli("1n").as_deref(), Some("1m"));
        assert_eq!(round_up_milli("2000000000n").as_deref(), Some("2"));
        assert_eq!(round_up_milli("1001u").as_deref(), Some("2m"));
        assert_eq!(round_up_milli("100m"), None);
        assert_eq!(round_up_milli("1Gi"), None);
        // re-serialised like resource.Quantity: canonical unless apimachinery keeps the text
        assert_eq!(round_up_milli("1000m").as_deref(), Some("1"));
        assert_eq!(round_up_milli("0.5").as_deref(), Some("500m"));
        assert_eq!(round_up_milli("0.0001").as_deref(), Some("1m"));
        assert_eq!(round_up_milli("1e-6").as_deref(), Some("1e-3")); // DecimalExponent keeps its format
        assert_eq!(round_up_milli("-1500001n").as_deref(), Some("-2m"));
        assert_eq!(round_up_milli("1024Mi").as_deref(), Some("1Gi"));
        assert_eq!(round_up_milli("1.5Gi").as_deref(), Some("1536Mi"));
        assert_eq!(round_up_milli("1.500m").as_deref(), Some("2m"));
        assert_eq!(round_up_milli("1.250k"), None); // apimachinery keeps this text
        assert_eq!(round_up_milli("lots"), None);
        let ss = json!({"apiVersion": "apps.kruise.io/v1beta1", "kind": "SidecarSet", "spec": {
            "containers": [{"name": "c", "image": "x:1", "resources": {"limits": {"cpu": "250001u", "memory": "1Gi"}}}]}});
        let out = apply(&ss, "", Gates::default()).unwrap();
        assert_eq!(
            out["spec"]["containers"][0]["resources"]["limits"],
            json!({"cpu": "251m", "memory": "1Gi"})
        );
    }

    #[test]
    fn alpha_surging_daemonset() {
        let ds = json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet",
            "spec": {"updateStrategy": {"rollingUpdate": {"rollingUpdateType": "Surging"}}}});
        let out = apply(&ds, "", Gates::default()).unwrap();
        assert_eq!(
            out["spec"]["updateStrategy"]["rollingUpdate"],
            json!({"rollingUpdateType": "Standard", "maxSurge": 1, "maxUnavailable": 0})
        );
    }

    #[test]
    fn one_budget_set_leaves_other_absent() {
        let ds = json!({"apiVersion": "apps.kruise.io/v1beta1", "kind": "DaemonSet",
            "spec": {"updateStrategy": {"rollingUpdate": {"maxSurge": "10%"}}}});
        let out = apply(&ds, "", Gates::default()).unwrap();
        assert_eq!(
            out["spec"]["updateStrategy"]["rollingUpdate"],
            json!({"rollingUpdateType": "Standard", "maxSurge": "10%"})
        );
    }

    #[test]
    fn sidecarset_volumes_and_probes() {
        let ss = json!({"apiVersion": "apps.kruise.io/v1beta1", "kind": "SidecarSet", "spec": {
            "containers": [{"name": "c", "image": "x:1", "readinessProbe": {"httpGet": {"port": 80}},
                "ports": [{"containerPort": 80}]}],
            "volumes": [{"name": "a"}, {"name": "b", "configMap": {"name": "cm"}}, {"name": "h", "hostPath": {"path": "/x"}}]}});
        let out = apply(&ss, "", Gates::default()).unwrap();
        let c = &out["spec"]["containers"][0];
        assert_eq!(
            c["readinessProbe"],
            json!({"httpGet": {"port": 80, "path": "/", "scheme": "HTTP"},
            "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3})
        );
        assert_eq!(c["ports"][0]["protocol"], "TCP");
        assert_eq!(
            out["spec"]["volumes"],
            json!([{"name": "a", "emptyDir": {}},
            {"name": "b", "configMap": {"name": "cm", "defaultMode": 420}}, {"name": "h", "hostPath": {"path": "/x", "type": ""}}])
        );
    }

    #[test]
    fn nodeimage_needs_now_only_when_defaulting_created_at() {
        let ni = json!({"apiVersion": "apps.kruise.io/v1beta1", "kind": "NodeImage",
            "spec": {"images": {"a": {"tags": [{"tag": "1"}]}}}});
        assert_eq!(
            apply(&ni, "", Gates::default())
                .unwrap_err()
                .field
                .as_deref(),
            Some("now")
        );
        let out = crate::call(
            "api.default",
            &json!({"object": ni, "now": "2026-06-21T10:00:00.9+02:00"}),
        )
        .unwrap();
        assert_eq!(
            out["spec"]["images"]["a"]["tags"][0]["createdAt"],
            "2026-06-21T08:00:00Z"
        );
    }

    #[test]
    fn unsupported_kinds() {
        let e = apply(
            &json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet"}),
            "",
            Gates::default(),
        )
        .unwrap_err();
        assert_eq!(e.kind, "unsupported_kind");
    }
}
