//! In place or recreate (`rollout.inplace_update`): what OpenKruise v1.9.0 does with a pod whose
//! revision differs from the update revision.
//!
//! Mirrors `pkg/util/inplaceupdate/inplace_update_defaults.go` (`defaultCalculateInPlaceUpdateSpec`,
//! `DefaultCheckInPlaceUpdateCompleted`, `defaultCheckContainersInPlaceUpdateCompleted`,
//! `checkAllContainersHashConsistent`, with the hashes of [`super::container_hash`]),
//! `inplace_update_vertical.go` (`UpdateInplaceUpdateMetadata`, `IsPodQoSChanged`,
//! `IsUpdateCompleted`), `pkg/util/containermeta` (`IsContainerReferenceToMeta`),
//! `pkg/util/volumeclaimtemplate` (`CanVCTemplateInplaceUpdate`), the CloneSet's
//! `GetUpdateOptions` (`pkg/controller/cloneset/core/cloneset_core.go`) and the choice in
//! `updatePod` (`pkg/controller/cloneset/sync/cloneset_update.go`).
//!
//! Templates and pods are read as JSON values: only the members the reference reads are
//! type-checked (a wrong type there is `invalid_input` naming the member; the reference, which
//! decodes whole `PodTemplateSpec`s, would answer "recreate" for a revision it cannot decode).

use super::container_hash;
use super::jsonpatch::{self, Operation, deep_eq};
use crate::api::schema::kind_of as type_name;
use crate::error::{Error, Result};
use crate::pub_budget::classify::qos_class;
use crate::pub_budget::types::PodSpec;
use crate::quantity::Quantity;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Revision annotation holding the hash of the CloneSet's volumeClaimTemplates.
pub const VCT_HASH_ANNOTATION: &str = "kruise.io/cloneset-volumeclaimtemplate-hash";
/// Pod annotation with the in-place update state (and its pre-v1.0 spelling).
pub const STATE_KEYS: [&str; 2] = [
    "apps.kruise.io/inplace-update-state",
    "inplace-update-state",
];
/// Pod annotation present while an in-place update waits for its grace period.
pub const GRACE_KEYS: [&str; 2] = [
    "apps.kruise.io/inplace-update-grace",
    "inplace-update-grace",
];
/// Pod annotation kruise-daemon writes with the containers' runtime hashes.
pub const RUNTIME_META_KEY: &str = "apps.kruise.io/runtime-containers-meta";
/// Env names `IsContainerReferenceToMeta` skips (SidecarSet versions).
const EXCLUDED_ENVS: [&str; 2] = ["SIDECARSET_VERSION", "SIDECARSET_VERSION_ALT"];

/// A ControllerRevision as the decision reads it: its `data` (the CloneSet stores
/// `{"spec":{"template":{...,"$patch":"replace"}}}`) or, instead, the pod template itself.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Revision {
    /// `metadata.name` (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `metadata.annotations`; `kruise.io/cloneset-volumeclaimtemplate-hash` is read when the
    /// gate `RecreatePodWhenChangeVCTInCloneSetGate` is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
    /// `data`: a JSON object, or a string holding one (the raw bytes). Exclusive with `template`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// The pod template; read as the data `{"spec":{"template": template}}`. Exclusive with
    /// `data`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Value>,
}

/// Feature gates the decision reads (absent: OpenKruise v1.9.0's defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InplaceFeatureGates {
    /// `InPlaceUpdateEnvFromMetadata` (default true): labels/annotations that containers read
    /// through the downward API (`env[].valueFrom.fieldRef`) are updated in place.
    #[serde(
        rename = "InPlaceUpdateEnvFromMetadata",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub in_place_update_env_from_metadata: Option<bool>,
    /// `InPlaceWorkloadVerticalScaling` (default false): cpu/memory changes are resized in place.
    #[serde(
        rename = "InPlaceWorkloadVerticalScaling",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub in_place_workload_vertical_scaling: Option<bool>,
    /// `RecreatePodWhenChangeVCTInCloneSetGate` (default false): a changed volumeClaimTemplates
    /// hash forces a recreate (except with `InPlaceOnly`).
    #[serde(
        rename = "RecreatePodWhenChangeVCTInCloneSetGate",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub recreate_pod_when_change_vct_in_clone_set_gate: Option<bool>,
}

/// Input of `rollout.inplace_update`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InplaceUpdateInput {
    /// The revision the pod runs; null when it is not among the workload's revisions (then the
    /// pod cannot be updated in place).
    #[serde(default)]
    pub old_revision: Option<Revision>,
    /// The update revision.
    pub new_revision: Revision,
    /// `spec.updateStrategy.type`: `ReCreate` (the default when absent), `InPlaceIfPossible` or
    /// `InPlaceOnly`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_type: Option<String>,
    /// Feature gates.
    #[serde(default)]
    pub feature_gates: InplaceFeatureGates,
    /// The pod as the API server prints it; when given, `completion` says whether an in-place
    /// update recorded on it has completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod: Option<Value>,
}

/// Resources to set on one container (canonical quantities).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerResources {
    /// `limits` to set (cpu, memory).
    pub limits: BTreeMap<String, String>,
    /// `requests` to set (cpu, memory).
    pub requests: BTreeMap<String, String>,
}

/// Labels and annotations a container reads through the downward API, with their new values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerRefMetadata {
    /// Labels (key to new value).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Annotations (key to new value).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// What the controller does with the pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum InplaceAction {
    /// Updated in place.
    InPlace,
    /// Deleted and created again on the new revision.
    Recreate,
    /// `InPlaceOnly` and the change cannot be made in place: the controller reports an error
    /// and leaves the pod.
    Blocked,
}

/// Whether the in-place update recorded on the pod has completed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// true: completed; false: not yet; null: the answer depends on the pre-1.31 kubelet hash
    /// (the JSON of the whole container) of a container in
    /// `apps.kruise.io/runtime-containers-meta`, which is not computed (kubelet v1.32's hash and
    /// the env-from-metadata hash are).
    pub completed: Option<bool>,
    /// Why not completed (empty when completed).
    pub message: String,
}

/// Output of `rollout.inplace_update`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InplaceUpdateOutput {
    /// What the controller does for the update type.
    pub action: InplaceAction,
    /// The change can be made in place (`defaultCalculateInPlaceUpdateSpec` gives a spec), with
    /// the update type's options (`InPlaceOnly` ignores the volumeClaimTemplates hash).
    pub can_in_place: bool,
    /// Why not in place (null when it can be).
    pub reason: Option<String>,
    /// The JSON patch between the two revisions' data (object members in key order; the
    /// reference's order is unspecified).
    pub patch: Vec<Operation>,
    /// New image per container name (in place only).
    pub container_images: BTreeMap<String, String>,
    /// New cpu/memory per container name (in place with `InPlaceWorkloadVerticalScaling`).
    pub container_resources: BTreeMap<String, ContainerResources>,
    /// Labels/annotations per container reading them through env (in place only).
    pub container_ref_metadata: BTreeMap<String, ContainerRefMetadata>,
    /// Some container reads a changed label/annotation through env.
    pub update_env_from_metadata: bool,
    /// The strategic merge patch of the pod's metadata (null when no metadata changed).
    pub metadata_patch: Option<Value>,
    /// When `pod` is given: whether the in-place update recorded on it has completed.
    pub completion: Option<Completion>,
}

/// The update spec `defaultCalculateInPlaceUpdateSpec` builds.
#[derive(Debug, Default)]
struct Spec {
    images: BTreeMap<String, String>,
    resources: BTreeMap<String, ContainerResources>,
    ref_metadata: BTreeMap<String, ContainerRefMetadata>,
    env_from_metadata: bool,
    metadata_patch: Option<Value>,
}

/// Answers `rollout.inplace_update`.
pub fn decide(i: &InplaceUpdateInput) -> Result<InplaceUpdateOutput> {
    let update_type = i.update_type.as_deref().unwrap_or("ReCreate");
    if !matches!(
        update_type,
        "ReCreate" | "InPlaceIfPossible" | "InPlaceOnly"
    ) {
        return Err(Error::invalid_input(
            "updateType",
            format_args!("{update_type:?} is not ReCreate, InPlaceIfPossible or InPlaceOnly"),
        ));
    }
    let gates = &i.feature_gates;
    let env_gate = gates.in_place_update_env_from_metadata.unwrap_or(true);
    let vertical = gates.in_place_workload_vertical_scaling.unwrap_or(false);
    let vct_gate = gates
        .recreate_pod_when_change_vct_in_clone_set_gate
        .unwrap_or(false);
    let new_data = revision_data(&i.new_revision, "newRevision")?;
    let old_data = match &i.old_revision {
        Some(r) => Some(revision_data(r, "oldRevision")?),
        None => None,
    };
    let patch = old_data
        .as_ref()
        .map(|o| jsonpatch::create_patch(o, &new_data))
        .unwrap_or_default();
    let calc = match &old_data {
        None => Err("the pod's revision is not among the workload's revisions".to_string()),
        Some(old) => {
            let ignore_vct = update_type == "InPlaceOnly";
            if vct_gate
                && !ignore_vct
                && !vct_can_in_place(i.old_revision.as_ref(), &i.new_revision)
            {
                Err("the volumeClaimTemplates hash changed".to_string())
            } else {
                calculate(old, &new_data, &patch, env_gate, vertical)?
            }
        }
    };
    let completion = match &i.pod {
        Some(p) => Some(completion(p, vertical)?),
        None => None,
    };
    let can = calc.is_ok();
    let action = match (update_type, can) {
        ("ReCreate", _) => InplaceAction::Recreate,
        (_, true) => InplaceAction::InPlace,
        ("InPlaceOnly", false) => InplaceAction::Blocked,
        _ => InplaceAction::Recreate,
    };
    let (spec, reason) = match calc {
        Ok(s) => (s, None),
        Err(r) => (Spec::default(), Some(r)),
    };
    Ok(InplaceUpdateOutput {
        action,
        can_in_place: can,
        reason,
        patch,
        container_images: spec.images,
        container_resources: spec.resources,
        container_ref_metadata: spec.ref_metadata,
        update_env_from_metadata: spec.env_from_metadata,
        metadata_patch: spec.metadata_patch,
        completion,
    })
}

/// The revision's data as an object. Errors: both or neither of `data`/`template`; a string that
/// is not JSON; data that is not an object (null makes the reference panic).
fn revision_data(r: &Revision, at: &str) -> Result<Map<String, Value>> {
    let v = match (&r.data, &r.template) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid_input(
                at,
                "give either data or template, not both",
            ));
        }
        (None, None) => {
            return Err(Error::invalid_input(at, "data or template is required"));
        }
        (None, Some(t)) => {
            let mut spec = Map::new();
            spec.insert("template".into(), t.clone());
            let mut m = Map::new();
            m.insert("spec".into(), Value::Object(spec));
            return Ok(m);
        }
        (Some(Value::String(s)), None) => serde_json::from_str::<Value>(s).map_err(|e| {
            Error::invalid_input(format!("{at}.data"), format_args!("not JSON: {e}"))
        })?,
        (Some(v), None) => v.clone(),
    };
    match v {
        Value::Object(m) => Ok(m),
        other => Err(Error::invalid_input(
            format!("{at}.data"),
            format_args!(
                "a revision's data is a JSON object, not {}",
                type_name(&other)
            ),
        )),
    }
}

/// `CanVCTemplateInplaceUpdate`: equal hashes, or either revision without the annotation.
fn vct_can_in_place(old: Option<&Revision>, new: &Revision) -> bool {
    let hash = |r: Option<&Revision>| {
        r.and_then(|r| r.annotations.as_ref())
            .and_then(|a| a.get(VCT_HASH_ANNOTATION).cloned())
    };
    match (hash(old), hash(Some(new))) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// A template's pieces the calculation reads.
struct Template {
    /// `metadata` (null members dropped, as Go's decoder leaves them zero).
    meta: Map<String, Value>,
    /// Container names, images' owners by index.
    containers: Vec<Container>,
    /// `spec`, for the QoS class.
    spec: Value,
}

struct Container {
    name: String,
    /// `(env name, fieldPath)` of env entries with no value and a fieldRef.
    field_refs: Vec<(String, String)>,
}

fn obj<'a>(v: Option<&'a Value>, at: &str) -> Result<Option<&'a Map<String, Value>>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(Error::invalid_input(
            at,
            format_args!("expected an object, got {}", type_name(other)),
        )),
    }
}

fn arr<'a>(v: Option<&'a Value>, at: &str) -> Result<&'a [Value]> {
    match v {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(Error::invalid_input(
            at,
            format_args!("expected an array, got {}", type_name(other)),
        )),
    }
}

fn string<'a>(v: Option<&'a Value>, at: &str) -> Result<&'a str> {
    match v {
        None | Some(Value::Null) => Ok(""),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(Error::invalid_input(
            at,
            format_args!("expected a string, got {}", type_name(other)),
        )),
    }
}

fn str_map(v: Option<&Value>, at: &str) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for (k, v) in obj(v, at)?.into_iter().flatten() {
        out.insert(
            k.clone(),
            string(Some(v), &format!("{at}.{k}"))?.to_string(),
        );
    }
    Ok(out)
}

/// `GetTemplateFromRevision` over the members the calculation reads.
fn template(data: &Map<String, Value>, at: &str) -> Result<Template> {
    let spec = obj(data.get("spec"), &format!("{at}.spec"))?;
    let t_at = format!("{at}.spec.template");
    let t = obj(spec.and_then(|s| s.get("template")), &t_at)?;
    let meta_at = format!("{t_at}.metadata");
    let mut meta = obj(t.and_then(|t| t.get("metadata")), &meta_at)?
        .cloned()
        .unwrap_or_default();
    meta.retain(|_, v| !v.is_null());
    for key in ["labels", "annotations"] {
        str_map(meta.get(key), &format!("{meta_at}.{key}"))?;
    }
    let pod_spec = t
        .and_then(|t| t.get("spec"))
        .cloned()
        .unwrap_or(Value::Null);
    let s_at = format!("{t_at}.spec");
    let ps = obj(Some(&pod_spec), &s_at)?;
    for (ci, c) in arr(
        ps.and_then(|s| s.get("initContainers")),
        &format!("{s_at}.initContainers"),
    )?
    .iter()
    .enumerate()
    {
        check_quantities(c, &format!("{s_at}.initContainers[{ci}]"))?;
    }
    let mut containers = Vec::new();
    for (ci, c) in arr(
        ps.and_then(|s| s.get("containers")),
        &format!("{s_at}.containers"),
    )?
    .iter()
    .enumerate()
    {
        let c_at = format!("{s_at}.containers[{ci}]");
        check_quantities(c, &c_at)?;
        let c = obj(Some(c), &c_at)?;
        let name = string(c.and_then(|c| c.get("name")), &format!("{c_at}.name"))?.to_string();
        let mut field_refs = Vec::new();
        for (ei, e) in arr(c.and_then(|c| c.get("env")), &format!("{c_at}.env"))?
            .iter()
            .enumerate()
        {
            let e_at = format!("{c_at}.env[{ei}]");
            let e = obj(Some(e), &e_at)?;
            let value = string(e.and_then(|e| e.get("value")), &format!("{e_at}.value"))?;
            let vf = obj(
                e.and_then(|e| e.get("valueFrom")),
                &format!("{e_at}.valueFrom"),
            )?;
            let fr = obj(
                vf.and_then(|v| v.get("fieldRef")),
                &format!("{e_at}.valueFrom.fieldRef"),
            )?;
            let path = string(
                fr.and_then(|f| f.get("fieldPath")),
                &format!("{e_at}.valueFrom.fieldRef.fieldPath"),
            )?;
            let name = string(e.and_then(|e| e.get("name")), &format!("{e_at}.name"))?;
            if value.is_empty() && fr.is_some() {
                field_refs.push((name.to_string(), path.to_string()));
            }
        }
        containers.push(Container { name, field_refs });
    }
    Ok(Template {
        meta,
        containers,
        spec: pod_spec,
    })
}

/// The quantities of a container's (or container status's) `resources.limits` / `requests` parse
/// (Go's decoder refuses the object otherwise).
fn check_quantities(c: &Value, at: &str) -> Result<()> {
    let c = obj(Some(c), at)?;
    let res = obj(
        c.and_then(|c| c.get("resources")),
        &format!("{at}.resources"),
    )?;
    for kind in ["limits", "requests"] {
        let k_at = format!("{at}.resources.{kind}");
        for (name, v) in obj(res.and_then(|r| r.get(kind)), &k_at)?
            .into_iter()
            .flatten()
        {
            quantity(v, format!("{k_at}.{name}"))?;
        }
    }
    Ok(())
}

/// A quantity member (a string, or a number as Go's `Quantity.UnmarshalJSON` also reads).
fn quantity(v: &Value, at: String) -> Result<Quantity<'static>> {
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => {
            return Err(Error::invalid_input(
                at,
                format_args!("expected a quantity, got {}", type_name(other)),
            ));
        }
    };
    Quantity::parse_owned(s.trim()).map_err(|e| {
        Error::invalid_input(at, format_args!("{s:?} is not a quantity: {}", e.reason()))
    })
}

/// Kubernetes `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']` to
/// `("metadata.labels", "key")`.
fn split_subscripted(path: &str) -> Option<(&str, &str)> {
    let s = path.strip_suffix("']")?;
    let (head, key) = s.split_once("['")?;
    (!head.is_empty()).then_some((head, key))
}

/// `IsContainerReferenceToMeta`.
fn references(c: &Container, path: &str, key: &str) -> bool {
    c.field_refs.iter().any(|(name, fp)| {
        !EXCLUDED_ENVS.contains(&name.as_str()) && split_subscripted(fp) == Some((path, key))
    })
}

/// Go's `strconv.Atoi` on the digits of a path index (overflow reads as out of range).
fn index(s: &str) -> usize {
    s.parse().unwrap_or(usize::MAX)
}

/// `^/spec/containers/([0-9]+)/<suffix>`: the index text when the path has that shape.
fn container_path(path: &str, rest_ok: impl Fn(&str) -> bool) -> Option<&str> {
    let tail = path.strip_prefix("/spec/containers/")?;
    let (idx, rest) = tail.split_once('/')?;
    (!idx.is_empty() && idx.bytes().all(|b| b.is_ascii_digit()) && rest_ok(rest)).then_some(idx)
}

/// `defaultCalculateInPlaceUpdateSpec` after the revisions are found: `Ok(Err(reason))` when
/// the change cannot be made in place.
fn calculate(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    patch: &[Operation],
    env_gate: bool,
    vertical: bool,
) -> Result<std::result::Result<Spec, String>> {
    let mut old_t = template(old, "oldRevision.data")?;
    let mut new_t = template(new, "newRevision.data")?;
    let mut spec = Spec::default();
    let mut metadata_ops = Vec::new();
    for op in patch {
        let path = op.path.replacen("/spec/template", "", 1);
        if !path.starts_with("/spec/") {
            if path.starts_with("/metadata/") {
                metadata_ops.push((op, path));
                continue;
            }
            return Ok(Err(format!(
                "{} {} is not in the pod spec or metadata",
                op.op, op.path
            )));
        }
        if op.op != "replace" {
            return Ok(Err(format!(
                "{} {}: only replace can be done in place",
                op.op, op.path
            )));
        }
        if let Some(idx) = container_path(&path, |r| r == "image") {
            let Some(c) = old_t.containers.get(index(idx)) else {
                return Ok(Err(format!(
                    "{}: no such container in the old template",
                    op.path
                )));
            };
            let image = match &op.value {
                Some(Value::String(s)) => s.clone(),
                _ => {
                    return Err(Error::invalid_input(
                        "newRevision.data",
                        format_args!("{}: the new image is not a string", op.path),
                    ));
                }
            };
            spec.images.insert(c.name.clone(), image);
            continue;
        }
        if vertical
            && container_path(&path, |r| r.starts_with("resources/") && !r.contains('\n')).is_some()
        {
            if let Err(r) = resource_op(op, &path, &old_t, &mut spec)? {
                return Ok(Err(r));
            }
            continue;
        }
        return Ok(Err(format!(
            "{} {} cannot be done in place",
            op.op, op.path
        )));
    }
    if vertical && !spec.resources.is_empty() {
        let qos = |t: &Template, at: &str| -> Result<_> {
            let ps: PodSpec = if t.spec.is_null() {
                PodSpec::default()
            } else {
                serde_json::from_value(t.spec.clone()).map_err(|e| Error::invalid_input(at, e))?
            };
            qos_class(&ps, at)
        };
        if qos(&old_t, "oldRevision.data.spec.template.spec")?
            != qos(&new_t, "newRevision.data.spec.template.spec")?
        {
            return Ok(Err("the pod's QoS class would change".to_string()));
        }
    }
    if !metadata_ops.is_empty() {
        if env_gate {
            let mut routed: Vec<(String, String)> = Vec::new();
            for (op, path) in &metadata_ops {
                if op.op != "replace" && op.op != "add" {
                    continue;
                }
                let words: Vec<&str> = path.splitn(4, '/').collect();
                if words.len() != 4 || (words[2] != "labels" && words[2] != "annotations") {
                    continue;
                }
                let key = words[3].replace("~1", "/").replace("~0", "~");
                let field = format!("metadata.{}", words[2]);
                for c in &new_t.containers {
                    if !references(c, &field, &key) {
                        continue;
                    }
                    let value = match &op.value {
                        Some(Value::String(s)) => s.clone(),
                        _ => {
                            return Err(Error::invalid_input(
                                "newRevision.data",
                                format_args!("{}: the new value is not a string", op.path),
                            ));
                        }
                    };
                    let m = spec.ref_metadata.entry(c.name.clone()).or_default();
                    if words[2] == "labels" {
                        m.labels.insert(key.clone(), value);
                    } else {
                        m.annotations.insert(key.clone(), value);
                    }
                    routed.push((words[2].to_string(), key.clone()));
                    spec.env_from_metadata = true;
                }
                for (which, key) in routed.drain(..) {
                    for t in [&mut old_t, &mut new_t] {
                        if let Some(Value::Object(map)) = t.meta.get_mut(&which) {
                            map.remove(&key);
                        }
                    }
                }
            }
        }
        spec.metadata_patch = Some(metadata_patch(&old_t.meta, &new_t.meta));
    }
    Ok(Ok(spec))
}

/// `UpdateInplaceUpdateMetadata`: a cpu/memory `replace` under `resources/limits|requests`.
fn resource_op(
    op: &Operation,
    path: &str,
    old_t: &Template,
    spec: &mut Spec,
) -> Result<std::result::Result<(), String>> {
    let words: Vec<&str> = path.split('/').collect();
    if words.len() != 7 {
        return Ok(Err(format!("{}: not a resource quantity", op.path)));
    }
    let Some(c) = old_t.containers.get(index(words[3])) else {
        return Ok(Err(format!(
            "{}: no such container in the old template",
            op.path
        )));
    };
    if op.op == "remove" || op.op == "add" {
        return Ok(Err(format!(
            "{}: resources cannot be added or removed in place",
            op.path
        )));
    }
    let text = match &op.value {
        None | Some(Value::Null) => return Ok(Err(format!("{}: no new value", op.path))),
        Some(Value::String(s)) => s,
        Some(_) => {
            return Err(Error::invalid_input(
                "newRevision.data",
                format_args!("{}: the new quantity is not a string", op.path),
            ));
        }
    };
    let Ok(q) = Quantity::parse(text) else {
        return Ok(Err(format!("{}: {text:?} is not a quantity", op.path)));
    };
    if words[6] != "cpu" && words[6] != "memory" {
        return Ok(Err(format!(
            "{}: only cpu and memory are resized in place",
            op.path
        )));
    }
    let r = spec.resources.entry(c.name.clone()).or_default();
    match words[5] {
        "limits" => {
            r.limits.insert(words[6].to_string(), q.canonical());
        }
        "requests" => {
            r.requests.insert(words[6].to_string(), q.canonical());
        }
        _ => {}
    }
    Ok(Ok(()))
}

/// `strategicpatch.CreateTwoWayMergePatch` of `{"metadata": old}` to `{"metadata": new}` as the
/// reference marshals a `v1.Pod` with only that metadata: empty maps and lists are omitted,
/// labels and annotations are merged per key (removed keys `null`), `finalizers` (a merge list of
/// strings) gets the additions, `$deleteFromPrimitiveList/finalizers` and
/// `$setElementOrder/finalizers`, and any other member differing is replaced whole.
fn metadata_patch(old: &Map<String, Value>, new: &Map<String, Value>) -> Value {
    let present = |m: &Map<String, Value>| -> Map<String, Value> {
        m.iter()
            .filter(|(_, v)| match v {
                Value::Object(o) => !o.is_empty(),
                Value::Array(a) => !a.is_empty(),
                Value::String(s) => !s.is_empty(),
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::Null => false,
                Value::Bool(_) => true,
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let (old, new) = (present(old), present(new));
    let mut patch = Map::new();
    for (k, nv) in &new {
        let Some(ov) = old.get(k) else {
            patch.insert(k.clone(), nv.clone());
            continue;
        };
        match (k.as_str(), ov, nv) {
            ("labels" | "annotations", Value::Object(o), Value::Object(n)) => {
                let mut m = Map::new();
                for (key, v) in n {
                    if o.get(key) != Some(v) {
                        m.insert(key.clone(), v.clone());
                    }
                }
                for key in o.keys().filter(|key| !n.contains_key(*key)) {
                    m.insert(key.clone(), Value::Null);
                }
                if !m.is_empty() {
                    patch.insert(k.clone(), Value::Object(m));
                }
            }
            ("finalizers", Value::Array(o), Value::Array(n)) => finalizers(o, n, &mut patch),
            _ => {
                if !deep_eq(ov, nv) {
                    patch.insert(k.clone(), nv.clone());
                }
            }
        }
    }
    for k in old.keys().filter(|k| !new.contains_key(*k)) {
        patch.insert(k.clone(), Value::Null);
    }
    let mut out = Map::new();
    if !patch.is_empty() {
        out.insert("metadata".into(), Value::Object(patch));
    }
    Value::Object(out)
}

/// `diffListsOfScalars` for `finalizers`: a sorted merge walk, additions in the new list's
/// order, deletions sorted and deduplicated, the new order when anything differs.
fn finalizers(o: &[Value], n: &[Value], patch: &mut Map<String, Value>) {
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    let mut os: Vec<&Value> = o.iter().collect();
    let mut ns: Vec<&Value> = n.iter().collect();
    os.sort_by_key(|v| text(v));
    ns.sort_by_key(|v| text(v));
    let (mut i, mut j) = (0, 0);
    let mut add: Vec<Value> = Vec::new();
    let mut del: Vec<Value> = Vec::new();
    while i < os.len() || j < ns.len() {
        let a = os.get(i).map(|v| text(v));
        let b = ns.get(j).map(|v| text(v));
        match (a, b) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                del.push(os[i].clone());
                i += 1;
            }
            (Some(_), None) => {
                del.push(os[i].clone());
                i += 1;
            }
            _ => {
                add.push(ns[j].clone());
                j += 1;
            }
        }
    }
    // additions in the order of the new list
    let pos = |v: &Value| n.iter().position(|x| x == v).unwrap_or(usize::MAX);
    add.sort_by_key(|v| pos(v));
    let mut seen = BTreeSet::new();
    del.retain(|v| seen.insert(text(v)));
    let changed = !del.is_empty() || o != n;
    if !add.is_empty() {
        patch.insert("finalizers".into(), Value::Array(add));
    }
    if !del.is_empty() {
        patch.insert(
            "$deleteFromPrimitiveList/finalizers".into(),
            Value::Array(del),
        );
    }
    if changed {
        patch.insert(
            "$setElementOrder/finalizers".into(),
            Value::Array(n.to_vec()),
        );
    }
}

/// A pod container: name, resources, image.
type SpecContainer<'a> = (String, Option<&'a Map<String, Value>>, String);
/// A container status: name, image, imageID, resources.
type StatusContainer<'a> = (String, String, String, Option<&'a Map<String, Value>>);

/// `DefaultCheckInPlaceUpdateCompleted` with the gate `InPlaceWorkloadVerticalScaling`.
fn completion(pod: &Value, vertical: bool) -> Result<Completion> {
    completion_of(pod, vertical, false)
}

/// `defaultCheckContainersInPlaceUpdateCompleted` over the pod's state annotation (the grace
/// and later-batch checks of `DefaultCheckInPlaceUpdateCompleted` left out).
pub(super) fn containers_completion(pod: &Value, vertical: bool) -> Result<Completion> {
    completion_of(pod, vertical, true)
}

fn completion_of(pod: &Value, vertical: bool, containers_only: bool) -> Result<Completion> {
    let done = || Completion {
        completed: Some(true),
        message: String::new(),
    };
    let not = |m: String| Completion {
        completed: Some(false),
        message: m,
    };
    let p = obj(Some(pod), "pod")?;
    // Go decodes the whole pod first: every container quantity must parse
    for (list, at) in [("spec", "containers"), ("status", "containerStatuses")] {
        let part = obj(p.and_then(|p| p.get(list)), &format!("pod.{list}"))?;
        for (i, c) in arr(part.and_then(|s| s.get(at)), &format!("pod.{list}.{at}"))?
            .iter()
            .enumerate()
        {
            check_quantities(c, &format!("pod.{list}.{at}[{i}]"))?;
        }
    }
    let meta = obj(p.and_then(|p| p.get("metadata")), "pod.metadata")?;
    let ann = str_map(
        meta.and_then(|m| m.get("annotations")),
        "pod.metadata.annotations",
    )?;
    if !containers_only && GRACE_KEYS.iter().any(|k| ann.contains_key(*k)) {
        return Ok(not(
            "still in the grace period of the in-place update".into()
        ));
    }
    let Some((state_key, state_text)) =
        STATE_KEYS.iter().find_map(|k| ann.get(*k).map(|v| (*k, v)))
    else {
        return Ok(done());
    };
    let state_at = format!("pod.metadata.annotations.{state_key}");
    let state: Value = match serde_json::from_str(state_text) {
        Ok(v) => v,
        Err(e) => return Ok(not(format!("the in-place update state is not JSON: {e}"))),
    };
    let state = match obj(Some(&state), &state_at) {
        Ok(s) => s.cloned().unwrap_or_default(),
        Err(e) => return Ok(not(e.message.to_string())),
    };
    let state_check = || -> Result<()> {
        for key in [
            "nextContainerImages",
            "nextContainerRefMetadata",
            "nextContainerResources",
            "lastContainerStatuses",
        ] {
            obj(state.get(key), &format!("{state_at}.{key}"))?;
        }
        for key in ["updateEnvFromMetadata", "updateResources"] {
            if !matches!(state.get(key), None | Some(Value::Null | Value::Bool(_))) {
                return Err(Error::invalid_input(
                    format!("{state_at}.{key}"),
                    "expected a boolean",
                ));
            }
        }
        if let Some(Value::String(t)) = state.get("updateTimestamp") {
            crate::time::parse_time(t, &format!("{state_at}.updateTimestamp"))?;
        }
        Ok(())
    };
    if let Err(e) = state_check() {
        return Ok(not(e.message.to_string()));
    }
    let non_empty = |k: &str| matches!(state.get(k), Some(Value::Object(m)) if !m.is_empty());
    if [
        "nextContainerImages",
        "nextContainerRefMetadata",
        "nextContainerResources",
    ]
    .iter()
    .any(|k| non_empty(k))
        && !containers_only
    {
        return Ok(not(
            "containers remain to be updated in later batches".into()
        ));
    }
    let flag = |k: &str| state.get(k) == Some(&Value::Bool(true));
    let runtime_meta = match ann.get(RUNTIME_META_KEY) {
        None => None,
        Some(text) => match container_hash::parse_runtime_meta(text) {
            Ok(m) => Some(m),
            Err(e) => return Ok(not(format!("{RUNTIME_META_KEY}: {e}"))),
        },
    };
    if flag("updateEnvFromMetadata") && runtime_meta.is_none() {
        return Ok(not(
            "waiting for the containers' hashes, but apps.kruise.io/runtime-containers-meta is absent".into(),
        ));
    }
    let spec = obj(p.and_then(|p| p.get("spec")), "pod.spec")?;
    let status = obj(p.and_then(|p| p.get("status")), "pod.status")?;
    let containers = arr(
        spec.and_then(|s| s.get("containers")),
        "pod.spec.containers",
    )?;
    let statuses = arr(
        status.and_then(|s| s.get("containerStatuses")),
        "pod.status.containerStatuses",
    )?;
    let mut spec_c: Vec<SpecContainer<'_>> = Vec::new();
    for (i, c) in containers.iter().enumerate() {
        let at = format!("pod.spec.containers[{i}]");
        let c = obj(Some(c), &at)?;
        let name = string(c.and_then(|c| c.get("name")), &format!("{at}.name"))?;
        let image = string(c.and_then(|c| c.get("image")), &format!("{at}.image"))?;
        let res = obj(
            c.and_then(|c| c.get("resources")),
            &format!("{at}.resources"),
        )?;
        spec_c.push((name.to_string(), res, image.to_string()));
    }
    let mut stat: Vec<StatusContainer<'_>> = Vec::new();
    for (i, s) in statuses.iter().enumerate() {
        let at = format!("pod.status.containerStatuses[{i}]");
        let s = obj(Some(s), &at)?;
        let g =
            |k: &str| string(s.and_then(|s| s.get(k)), &format!("{at}.{k}")).map(str::to_string);
        let res = obj(
            s.and_then(|s| s.get("resources")),
            &format!("{at}.resources"),
        )?;
        stat.push((g("name")?, g("image")?, g("imageID")?, res));
    }
    let hash_view = HashView::read(p, spec, status)?;
    if flag("updateEnvFromMetadata")
        && let Some(meta) = &runtime_meta
        && hash_view.consistent(meta, HashKind::Env) != Some(true)
    {
        return Ok(not(
            "waiting for all containers' hashes to be consistent".into()
        ));
    }
    if vertical && flag("updateResources") {
        let by_name: BTreeMap<&str, Option<&Map<String, Value>>> =
            spec_c.iter().map(|(n, r, _)| (n.as_str(), *r)).collect();
        if stat.len() != by_name.len() {
            return Ok(not("some container status is not reported".into()));
        }
        for (i, (name, _, _, res)) in stat.iter().enumerate() {
            let ok = match (by_name.get(name.as_str()), res) {
                (Some(spec_res), Some(st)) => {
                    let at = format!("pod.status.containerStatuses[{i}].resources");
                    resources_equal(*spec_res, Some(st), "pod.spec.containers", &at)?
                }
                _ => false,
            };
            if !ok {
                return Ok(not(format!("container {name} resources not changed")));
            }
        }
    }
    // the image check (the reference's fallback when the plain hashes are not consistent)
    let images: BTreeMap<&str, String> = spec_c
        .iter()
        .map(|(n, _, img)| {
            let img = if img.contains(':') {
                img.clone()
            } else {
                format!("{img}:latest")
            };
            (n.as_str(), img)
        })
        .collect();
    let mut last: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in obj(state.get("lastContainerStatuses"), &state_at)?
        .into_iter()
        .flatten()
    {
        let o = obj(Some(v), &format!("{state_at}.lastContainerStatuses.{k}"));
        let id = match o {
            Ok(o) => string(
                o.and_then(|o| o.get("imageID")),
                &format!("{state_at}.lastContainerStatuses.{k}.imageID"),
            ),
            Err(e) => Err(e),
        };
        match id {
            Ok(id) => {
                last.insert(k.clone(), id.to_string());
            }
            Err(e) => return Ok(not(e.message.to_string())),
        }
    }
    let mut image_check = Ok(());
    for (name, image, image_id, _) in &stat {
        if let Some(old_id) = last.get(name) {
            let want = images.get(name.as_str()).map_or("", String::as_str);
            if old_id == image_id && want != image {
                image_check = Err(format!("container {name} imageID not changed"));
                break;
            }
            last.remove(name);
        }
    }
    if image_check.is_ok() && !last.is_empty() {
        let names: Vec<&str> = last.keys().map(String::as_str).collect();
        image_check = Err(format!("no status of containers {}", names.join(", ")));
    }
    let plain = runtime_meta
        .as_ref()
        .map(|m| hash_view.consistent(m, HashKind::Plain));
    match (plain, image_check) {
        // the plain hashes are consistent: completed, whatever the images say
        (Some(Some(true)), _) | (_, Ok(())) => Ok(done()),
        (Some(None), Err(_)) => Ok(Completion {
            completed: None,
            message: "depends on the pre-1.31 kubelet hash of some container in apps.kruise.io/runtime-containers-meta, which is not computed".into(),
        }),
        (_, Err(m)) => Ok(not(m)),
    }
}

/// Which hash `checkAllContainersHashConsistent` compares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HashKind {
    /// `plainHash`: kubelet's hash of the container.
    Plain,
    /// `extractedEnvFromMetadataHash`: the env read from labels/annotations.
    Env,
}

/// A spec container as the hashes read it: name, image, `(env name, value)` sorted by name.
type HashedContainer = (String, String, Vec<(String, String)>);

/// The pod members the hash checks read.
struct HashView {
    /// Per spec container: name, image, the env read from labels/annotations (sorted by name).
    containers: Vec<HashedContainer>,
    /// Per container status: name, containerID.
    statuses: Vec<(String, String)>,
}

impl HashView {
    fn read(
        p: Option<&Map<String, Value>>,
        spec: Option<&Map<String, Value>>,
        status: Option<&Map<String, Value>>,
    ) -> Result<HashView> {
        let meta = obj(p.and_then(|p| p.get("metadata")), "pod.metadata")?;
        let labels = str_map(meta.and_then(|m| m.get("labels")), "pod.metadata.labels")?;
        let annotations = str_map(
            meta.and_then(|m| m.get("annotations")),
            "pod.metadata.annotations",
        )?;
        let mut containers = Vec::new();
        for (i, c) in arr(
            spec.and_then(|s| s.get("containers")),
            "pod.spec.containers",
        )?
        .iter()
        .enumerate()
        {
            let at = format!("pod.spec.containers[{i}]");
            let c = obj(Some(c), &at)?;
            let name = string(c.and_then(|c| c.get("name")), &format!("{at}.name"))?;
            let image = string(c.and_then(|c| c.get("image")), &format!("{at}.image"))?;
            let mut envs: Vec<(String, String)> = Vec::new();
            for (j, e) in arr(c.and_then(|c| c.get("env")), &format!("{at}.env"))?
                .iter()
                .enumerate()
            {
                let e_at = format!("{at}.env[{j}]");
                let e = obj(Some(e), &e_at)?;
                let value = string(e.and_then(|e| e.get("value")), &format!("{e_at}.value"))?;
                let vf = obj(
                    e.and_then(|e| e.get("valueFrom")),
                    &format!("{e_at}.valueFrom"),
                )?;
                let fr = obj(
                    vf.and_then(|v| v.get("fieldRef")),
                    &format!("{e_at}.valueFrom.fieldRef"),
                )?;
                let path = string(
                    fr.and_then(|f| f.get("fieldPath")),
                    &format!("{e_at}.valueFrom.fieldRef.fieldPath"),
                )?;
                let env_name = string(e.and_then(|e| e.get("name")), &format!("{e_at}.name"))?;
                if !value.is_empty() || fr.is_none() || EXCLUDED_ENVS.contains(&env_name) {
                    continue;
                }
                let source = match split_subscripted(path) {
                    Some(("metadata.annotations", key)) => &annotations.get(key),
                    Some(("metadata.labels", key)) => &labels.get(key),
                    _ => continue,
                };
                envs.push((env_name.to_string(), source.cloned().unwrap_or_default()));
            }
            envs.sort_by(|a, b| a.0.cmp(&b.0));
            containers.push((name.to_string(), image.to_string(), envs));
        }
        let mut statuses = Vec::new();
        for (i, s) in arr(
            status.and_then(|s| s.get("containerStatuses")),
            "pod.status.containerStatuses",
        )?
        .iter()
        .enumerate()
        {
            let at = format!("pod.status.containerStatuses[{i}]");
            let s = obj(Some(s), &at)?;
            statuses.push((
                string(s.and_then(|s| s.get("name")), &format!("{at}.name"))?.to_string(),
                string(
                    s.and_then(|s| s.get("containerID")),
                    &format!("{at}.containerID"),
                )?
                .to_string(),
            ));
        }
        Ok(HashView {
            containers,
            statuses,
        })
    }

    /// `checkAllContainersHashConsistent`; None when only the pre-1.31 kubelet hash (the
    /// reference's fallback for `plainHash`, not computed) could decide.
    fn consistent(&self, meta: &[container_hash::RuntimeMeta], kind: HashKind) -> Option<bool> {
        let mut unknown = false;
        for (name, image, envs) in &self.containers {
            let Some((_, id)) = self.statuses.iter().find(|(n, _)| n == name) else {
                return Some(false);
            };
            let Some(m) = meta.iter().rev().find(|m| &m.name == name) else {
                return Some(false);
            };
            if &m.container_id != id {
                return Some(false);
            }
            match kind {
                HashKind::Plain => {
                    if container_hash::plain_hash(name, image) != m.plain_hash {
                        unknown = true;
                    }
                }
                HashKind::Env => {
                    if container_hash::env_hash(envs) != m.env_hash {
                        return Some(false);
                    }
                }
            }
        }
        if unknown { None } else { Some(true) }
    }
}

/// go-cmp equality of two containers' `resources.limits` / `requests` (nil and empty maps
/// differ; quantities by value).
fn resources_equal(
    a: Option<&Map<String, Value>>,
    b: Option<&Map<String, Value>>,
    a_at: &str,
    b_at: &str,
) -> Result<bool> {
    for kind in ["limits", "requests"] {
        let x = obj(a.and_then(|a| a.get(kind)), &format!("{a_at}.{kind}"))?;
        let y = obj(b.and_then(|b| b.get(kind)), &format!("{b_at}.{kind}"))?;
        match (x, y) {
            (None, None) => {}
            (Some(x), Some(y)) => {
                if x.len() != y.len() {
                    return Ok(false);
                }
                for (k, xv) in x {
                    let Some(yv) = y.get(k) else { return Ok(false) };
                    let xq = quantity(xv, format!("{a_at}.{kind}.{k}"))?;
                    let yq = quantity(yv, format!("{b_at}.{kind}.{k}"))?;
                    if xq.cmp_value(&yq).is_ne() {
                        return Ok(false);
                    }
                }
            }
            _ => return Ok(false),
        }
    }
    Ok(true)
}
