//! The pod write of an in-place update (`rollout.inplace_pod_patch`): what OpenKruise v1.9.0's
//! CloneSet controller writes to a pod it updates in place, given the update spec
//! `rollout.inplace_update` computed.
//!
//! Mirrors `pkg/util/inplaceupdate/inplace_update.go` (`Update`, `updatePodInPlace`,
//! `updateCondition`), `inplace_update_defaults.go` (`defaultPatchUpdateSpecToPod`,
//! `addMetadataSharedContainersToUpdate`, `defaultCheckPodNeedsBeUnready`),
//! `inplace_update_vertical.go` (`NativeVerticalUpdate.UpdateResource`, `GenerateResourcePatch`), `pkg/util/pods.go`
//! (`SetPodCondition`, `SetPodReadyCondition`), `pkg/util/containerlaunchpriority`
//! (`GetContainerPriority`) and the CloneSet's revision writer
//! (`pkg/controller/cloneset/utils/cloneset_utils.go` `WriteRevisionHash`).
//!
//! The pod is read as a JSON value: only the members the reference reads are type-checked.
//! The Kubernetes server's version (`serverVersion`) picks the resource path, as
//! `pkg/client/registry.go` `ShouldUpdateResourceByResize` does: before 1.32 (and when absent,
//! the reference's default 1.30 when it has not asked the server) new cpu/memory are written
//! into the pod spec; from 1.32 on they are left out of the pod and sent as a strategic merge
//! patch to the `pods/resize` subresource (`NativeVerticalUpdate.GenerateResourcePatch`), which
//! the output carries as `resizePatch`.

use super::inplace::{ContainerRefMetadata, ContainerResources};
use super::progress::format_time;
use crate::api::schema::kind_of as type_name;
use crate::error::{Error, Result};
use crate::quantity::Quantity;
use crate::sidecarset::gojson::{object as go_object, push_string, string_map};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Error kind of a metadata patch this crate does not apply (members other than
/// `metadata.labels` / `metadata.annotations`, or patch directives).
pub const UNSUPPORTED: &str = "unsupported";
/// Most containers (and most entries of each spec map) read.
pub const MAX_CONTAINERS: usize = 1024;

pub(super) const STATE_KEY: &str = "apps.kruise.io/inplace-update-state";
pub(super) const STATE_KEY_OLD: &str = "inplace-update-state";
pub(super) const GRACE_KEY: &str = "apps.kruise.io/inplace-update-grace";
pub(super) const GRACE_KEY_OLD: &str = "inplace-update-grace";
pub(super) const READY_GATE: &str = "InPlaceUpdateReady";
const BARRIER_ENV: &str = "KRUISE_CONTAINER_BARRIER";
pub(super) const REVISION_LABEL: &str = "controller-revision-hash";
const TEMPLATE_HASH_LABEL: &str = "pod-template-hash";

/// The update spec, in the shape `rollout.inplace_update` outputs it (its other members, such
/// as `action` or `patch`, are ignored, so that output can be passed as is).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodPatchSpec {
    /// New image per container name.
    #[serde(default)]
    pub container_images: BTreeMap<String, String>,
    /// New cpu/memory per container name (any quantity spelling; written canonical).
    #[serde(default)]
    pub container_resources: BTreeMap<String, ContainerResources>,
    /// Labels/annotations per container reading them through env.
    #[serde(default)]
    pub container_ref_metadata: BTreeMap<String, ContainerRefMetadata>,
    /// Some container reads a changed label/annotation through env.
    #[serde(default)]
    pub update_env_from_metadata: bool,
    /// The strategic merge patch of the pod's metadata (null: none). Only
    /// `{"metadata": {"labels": {...}, "annotations": {...}}}` with string or null values (null
    /// removes the key; a null map removes the map) is applied; anything else is `unsupported`.
    #[serde(default)]
    pub metadata_patch: Option<Value>,
}

/// Feature gates the decision reads (absent: OpenKruise v1.9.0's defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PodPatchFeatureGates {
    /// `InPlaceWorkloadVerticalScaling` (default false): resources are written, and a
    /// resources-only update leaves the pod ready unless a resize policy restarts a container.
    #[serde(
        rename = "InPlaceWorkloadVerticalScaling",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub in_place_workload_vertical_scaling: Option<bool>,
    /// `CloneSetShortHash` (default false): `controller-revision-hash` gets the short hash.
    #[serde(
        rename = "CloneSetShortHash",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub clone_set_short_hash: Option<bool>,
}

/// Input of `rollout.inplace_pod_patch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InplacePodPatchInput {
    /// The pod as the API server prints it.
    pub pod: Value,
    /// The in-place update spec.
    pub spec: PodPatchSpec,
    /// The update revision's name (`{cloneset}-{hash}`); the revision labels are written from it.
    pub revision: String,
    /// The controller's clock (RFC 3339); times are written in whole seconds, UTC.
    pub now: String,
    /// `spec.updateStrategy.inPlaceUpdateStrategy.gracePeriodSeconds` (seconds; default 0).
    /// Positive: the spec is stored in `apps.kruise.io/inplace-update-grace` and applied later.
    #[serde(default)]
    pub grace_period_seconds: i32,
    /// Feature gates.
    #[serde(default)]
    pub feature_gates: PodPatchFeatureGates,
    /// The Kubernetes server's version (`gitVersion`, e.g. `v1.32.3` or `v1.32.3-eks-4096722`;
    /// read as `compat.server_version` reads it). From 1.32 resources go through the `resize`
    /// subresource (`resizePatch`) and are not written into the pod spec. Absent or null: the
    /// reference's default, 1.30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_version: Option<String>,
}

/// Output of `rollout.inplace_pod_patch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InplacePodPatchOutput {
    /// The pod as the controller leaves it (the input pod with the changes; members the
    /// reference does not read are passed through as given).
    pub pod: Value,
    /// The `InPlaceUpdateReady` condition was set to False (with `Ready` recomputed) before the
    /// update: the pod has the readiness gate and is not a resize-only update that keeps it
    /// ready.
    pub unready: bool,
    /// The value written to `apps.kruise.io/inplace-update-state` (Go `encoding/json` bytes).
    pub state: String,
    /// The value written to `apps.kruise.io/inplace-update-grace` (null without a grace
    /// period).
    pub grace: Option<String>,
    /// Containers updated by this write, sorted (empty during a grace period).
    pub containers: Vec<String>,
    /// Seconds until the controller looks again (the grace period; 0 without one).
    pub requeue_after_seconds: i64,
    /// The strategic merge patch sent to the pod's `resize` subresource (server 1.32 or later,
    /// vertical scaling on, some cpu/memory differing from the pod's): `{"spec": {"containers":
    /// [{"name", "resources": {"limits", "requests"}}]}}`, containers in pod order, only the
    /// values that differ. Absent when nothing is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resize_patch: Option<Value>,
}

/// Whether the server serves resizes through the `resize` subresource (1.32 or later);
/// `invalid_input` at `field` when the version gives no major.minor.
pub fn resize_by_subresource(version: Option<&str>, field: &str) -> Result<bool> {
    let Some(text) = version else {
        return Ok(false);
    };
    let v = crate::compat::server_version::parse(Some(text), None, None);
    if !v.known {
        return Err(Error::invalid_input(
            field,
            format_args!("{text:?} is not a Kubernetes version"),
        ));
    }
    Ok(v.at_least(1, 32))
}

/// The input's `pod` as the object both in-place writers patch (a copy; `invalid_input` naming
/// `pod` when it is not an object).
pub(super) fn pod_object(pod: &Value) -> Result<Map<String, Value>> {
    match pod {
        Value::Object(m) => Ok(m.clone()),
        other => Err(Error::invalid_input(
            "pod",
            format_args!("expected an object, got {}", type_name(other)),
        )),
    }
}

/// Answers `rollout.inplace_pod_patch`.
pub fn decide(i: &InplacePodPatchInput) -> Result<InplacePodPatchOutput> {
    let now = format_time(crate::time::parse_time(&i.now, "now")?);
    let vertical = i
        .feature_gates
        .in_place_workload_vertical_scaling
        .unwrap_or(false);
    let short_gate = i.feature_gates.clone_set_short_hash.unwrap_or(false);
    let resize = resize_by_subresource(i.server_version.as_deref(), "serverVersion")?;
    let spec = check_spec(&i.spec)?;
    let mut pod = pod_object(&i.pod)?;
    let view = PodView::read(&pod)?;
    if let Some(p) = &spec.patch {
        check_metadata_patch(p)?;
    }

    // 2. the readiness condition
    let unready = needs_unready(&view, &i.spec, &spec, vertical);
    if unready {
        set_unready(&mut pod, &view, &now);
    }

    // 3. the pod update
    let short = i.revision.rsplit('-').next().unwrap_or("").to_string();
    let meta = member_obj(&mut pod, "metadata");
    let labels = member_obj(meta, "labels");
    let full = if short_gate { &short } else { &i.revision };
    labels.insert(REVISION_LABEL.into(), Value::String(full.clone()));
    labels.insert(TEMPLATE_HASH_LABEL.into(), Value::String(short.clone()));
    let flags = Flags {
        env: i.spec.update_env_from_metadata,
        resources: !spec.resources.is_empty(),
        images: !i.spec.container_images.is_empty(),
    };
    let first_state = state_json(&State {
        revision: &i.revision,
        time: Some(&now),
        flags,
        ..State::default()
    });
    {
        let ann = member_obj(member_obj(&mut pod, "metadata"), "annotations");
        ann.insert(STATE_KEY.into(), Value::String(first_state.clone()));
        ann.remove(STATE_KEY_OLD);
    }
    let requeue = i64::from(i.grace_period_seconds.max(0));
    if i.grace_period_seconds > 0 {
        let grace = grace_json(i, &spec);
        member_obj(member_obj(&mut pod, "metadata"), "annotations")
            .insert(GRACE_KEY.into(), Value::String(grace.clone()));
        return Ok(InplacePodPatchOutput {
            pod: Value::Object(pod),
            unready,
            state: first_state,
            grace: Some(grace),
            containers: Vec::new(),
            requeue_after_seconds: requeue,
            resize_patch: None,
        });
    }
    let base = State {
        revision: &i.revision,
        time: Some(&now),
        flags,
        ..State::default()
    };
    let (state, containers, resize_patch) =
        patch_spec_to_pod(&mut pod, &i.spec, &spec, base, &now, vertical, resize)?;
    let ann = member_obj(member_obj(&mut pod, "metadata"), "annotations");
    ann.remove(GRACE_KEY);
    ann.remove(GRACE_KEY_OLD);
    Ok(InplacePodPatchOutput {
        pod: Value::Object(pod),
        unready,
        state,
        grace: None,
        containers,
        requeue_after_seconds: requeue,
        resize_patch,
    })
}

/// Resources of one container, parsed (canonical strings; only the members given).
#[derive(Debug, Clone, Default)]
pub(super) struct Res {
    pub(super) limits: BTreeMap<String, String>,
    pub(super) requests: BTreeMap<String, String>,
}

/// The spec with its quantities checked.
pub(super) struct Spec {
    pub(super) resources: BTreeMap<String, Res>,
    pub(super) patch: Option<Value>,
}

pub(super) fn check_spec(s: &PodPatchSpec) -> Result<Spec> {
    for (name, len) in [
        ("containerImages", s.container_images.len()),
        ("containerResources", s.container_resources.len()),
        ("containerRefMetadata", s.container_ref_metadata.len()),
    ] {
        if len > MAX_CONTAINERS {
            return Err(Error::invalid_input(
                format!("spec.{name}"),
                format_args!("more than {MAX_CONTAINERS} entries"),
            ));
        }
    }
    let mut resources = BTreeMap::new();
    for (c, r) in &s.container_resources {
        let mut out = Res::default();
        for (kind, from, to) in [
            ("limits", &r.limits, &mut out.limits),
            ("requests", &r.requests, &mut out.requests),
        ] {
            for (k, v) in from {
                let q = Quantity::parse(v).map_err(|e| {
                    Error::invalid_input(
                        format!("spec.containerResources.{c}.{kind}.{k}"),
                        format_args!("{v:?} is not a quantity: {e}"),
                    )
                })?;
                to.insert(k.clone(), q.canonical());
            }
        }
        resources.insert(c.clone(), out);
    }
    let patch = match &s.metadata_patch {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.clone()),
    };
    Ok(Spec { resources, patch })
}

/// Refuses metadata patches beyond labels/annotations merges.
pub(super) fn check_metadata_patch(p: &Value) -> Result<()> {
    let at = "spec.metadataPatch";
    let Value::Object(top) = p else {
        return Err(Error::invalid_input(
            at,
            format_args!("expected an object, got {}", type_name(p)),
        ));
    };
    for (k, v) in top {
        if k != "metadata" {
            return Err(Error::at(
                UNSUPPORTED,
                format!("{at}.{k}"),
                "only metadata.labels and metadata.annotations are applied",
            ));
        }
        let Value::Object(meta) = v else {
            return Err(Error::at(
                UNSUPPORTED,
                format!("{at}.metadata"),
                "only an object of labels and annotations is applied",
            ));
        };
        for (mk, mv) in meta {
            if mk != "labels" && mk != "annotations" {
                return Err(Error::at(
                    UNSUPPORTED,
                    format!("{at}.metadata.{mk}"),
                    "only metadata.labels and metadata.annotations are applied",
                ));
            }
            match mv {
                Value::Null => {}
                Value::Object(m) => {
                    for (key, val) in m {
                        if key.starts_with('$') {
                            return Err(Error::at(
                                UNSUPPORTED,
                                format!("{at}.metadata.{mk}.{key}"),
                                "patch directives are not applied",
                            ));
                        }
                        if !matches!(val, Value::Null | Value::String(_)) {
                            return Err(Error::invalid_input(
                                format!("{at}.metadata.{mk}.{key}"),
                                format_args!("expected a string or null, got {}", type_name(val)),
                            ));
                        }
                    }
                }
                other => {
                    return Err(Error::invalid_input(
                        format!("{at}.metadata.{mk}"),
                        format_args!("expected an object or null, got {}", type_name(other)),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The members of one pod container the reference reads.
pub(super) struct ContainerView {
    pub(super) name: String,
    /// Launch priority (`KRUISE_CONTAINER_BARRIER` env, the first one), if any; an error when
    /// the reference panics reading it (raised only for a container the spec updates, the only
    /// ones whose priority the reference reads).
    pub(super) priority: Option<Result<i64>>,
    /// Sizes of `resources.limits` / `resources.requests` (None: absent or null).
    pub(super) limits: Option<usize>,
    pub(super) requests: Option<usize>,
    /// `(resourceName, restartPolicy)` of `resizePolicy`.
    pub(super) resize: Vec<(String, String)>,
}

/// The pod members the reference reads.
pub(super) struct PodView {
    pub(super) containers: Vec<ContainerView>,
    pub(super) gates: Vec<String>,
    /// `(type, status)` of `status.conditions`.
    pub(super) conditions: Vec<(String, String)>,
    /// `(name, imageID)` of `status.containerStatuses`.
    pub(super) statuses: Vec<(String, String)>,
}

pub(super) fn get_obj<'a>(
    v: Option<&'a Value>,
    at: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(Error::invalid_input(
            at,
            format_args!("expected an object, got {}", type_name(other)),
        )),
    }
}

pub(super) fn get_arr<'a>(v: Option<&'a Value>, at: &str) -> Result<&'a [Value]> {
    let a: &[Value] = match v {
        None | Some(Value::Null) => &[],
        Some(Value::Array(a)) => a,
        Some(other) => {
            return Err(Error::invalid_input(
                at,
                format_args!("expected an array, got {}", type_name(other)),
            ));
        }
    };
    if a.len() > MAX_CONTAINERS {
        return Err(Error::invalid_input(
            at,
            format_args!("more than {MAX_CONTAINERS} entries"),
        ));
    }
    Ok(a)
}

pub(super) fn get_str(v: Option<&Value>, at: &str) -> Result<String> {
    match v {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(Error::invalid_input(
            at,
            format_args!("expected a string, got {}", type_name(other)),
        )),
    }
}

fn check_str_map(v: Option<&Value>, at: &str) -> Result<()> {
    if let Some(m) = get_obj(v, at)? {
        for (k, v) in m {
            if !v.is_string() {
                return Err(Error::invalid_input(
                    format!("{at}.{k}"),
                    format_args!("expected a string, got {}", type_name(v)),
                ));
            }
        }
    }
    Ok(())
}

impl PodView {
    pub(super) fn read(pod: &Map<String, Value>) -> Result<PodView> {
        let meta = get_obj(pod.get("metadata"), "pod.metadata")?;
        for k in ["labels", "annotations"] {
            check_str_map(meta.and_then(|m| m.get(k)), &format!("pod.metadata.{k}"))?;
        }
        let spec = get_obj(pod.get("spec"), "pod.spec")?;
        let mut containers = Vec::new();
        let list = get_arr(
            spec.and_then(|s| s.get("containers")),
            "pod.spec.containers",
        )?;
        for (i, c) in list.iter().enumerate() {
            let at = format!("pod.spec.containers[{i}]");
            let c = get_obj(Some(c), &at)?;
            let g = |k: &str| c.and_then(|c| c.get(k));
            let name = get_str(g("name"), &format!("{at}.name"))?;
            get_str(g("image"), &format!("{at}.image"))?;
            let res = get_obj(g("resources"), &format!("{at}.resources"))?;
            let mut has = [None, None];
            for (j, kind) in ["limits", "requests"].iter().enumerate() {
                let m = get_obj(
                    res.and_then(|r| r.get(*kind)),
                    &format!("{at}.resources.{kind}"),
                )?;
                has[j] = m.map(Map::len);
                for (k, v) in m.into_iter().flatten() {
                    let q_at = format!("{at}.resources.{kind}.{k}");
                    let text = get_str(Some(v), &q_at)?;
                    Quantity::parse(&text)
                        .map_err(|e| Error::invalid_input(&q_at, format_args!("{text:?}: {e}")))?;
                }
            }
            let mut priority: Option<Result<i64>> = None;
            for (j, e) in get_arr(g("env"), &format!("{at}.env"))?.iter().enumerate() {
                let e_at = format!("{at}.env[{j}]");
                let e = get_obj(Some(e), &e_at)?;
                let n = get_str(e.and_then(|e| e.get("name")), &format!("{e_at}.name"))?;
                if n != BARRIER_ENV || priority.is_some() {
                    continue;
                }
                priority = Some(barrier_priority(e, &e_at)?);
            }
            let mut resize = Vec::new();
            for (j, r) in get_arr(g("resizePolicy"), &format!("{at}.resizePolicy"))?
                .iter()
                .enumerate()
            {
                let r_at = format!("{at}.resizePolicy[{j}]");
                let r = get_obj(Some(r), &r_at)?;
                resize.push((
                    get_str(
                        r.and_then(|r| r.get("resourceName")),
                        &format!("{r_at}.resourceName"),
                    )?,
                    get_str(
                        r.and_then(|r| r.get("restartPolicy")),
                        &format!("{r_at}.restartPolicy"),
                    )?,
                ));
            }
            containers.push(ContainerView {
                name,
                priority,
                limits: has[0],
                requests: has[1],
                resize,
            });
        }
        let mut gates = Vec::new();
        for (i, g) in get_arr(
            spec.and_then(|s| s.get("readinessGates")),
            "pod.spec.readinessGates",
        )?
        .iter()
        .enumerate()
        {
            let at = format!("pod.spec.readinessGates[{i}]");
            let g = get_obj(Some(g), &at)?;
            gates.push(get_str(
                g.and_then(|g| g.get("conditionType")),
                &format!("{at}.conditionType"),
            )?);
        }
        let status = get_obj(pod.get("status"), "pod.status")?;
        let mut conditions = Vec::new();
        for (i, c) in get_arr(
            status.and_then(|s| s.get("conditions")),
            "pod.status.conditions",
        )?
        .iter()
        .enumerate()
        {
            let at = format!("pod.status.conditions[{i}]");
            let c = get_obj(Some(c), &at)?;
            conditions.push((
                get_str(c.and_then(|c| c.get("type")), &format!("{at}.type"))?,
                get_str(c.and_then(|c| c.get("status")), &format!("{at}.status"))?,
            ));
        }
        let mut statuses = Vec::new();
        for (i, c) in get_arr(
            status.and_then(|s| s.get("containerStatuses")),
            "pod.status.containerStatuses",
        )?
        .iter()
        .enumerate()
        {
            let at = format!("pod.status.containerStatuses[{i}]");
            let c = get_obj(Some(c), &at)?;
            statuses.push((
                get_str(c.and_then(|c| c.get("name")), &format!("{at}.name"))?,
                get_str(c.and_then(|c| c.get("imageID")), &format!("{at}.imageID"))?,
            ));
        }
        Ok(PodView {
            containers,
            gates,
            conditions,
            statuses,
        })
    }
}

/// `GetContainerPriority` of the first `KRUISE_CONTAINER_BARRIER` env: the number after the
/// first two bytes of `valueFrom.configMapKeyRef.key`. Outer error: a member of the wrong type
/// (the reference cannot decode the pod); inner error: the reference panics reading it.
fn barrier_priority(e: Option<&Map<String, Value>>, e_at: &str) -> Result<Result<i64>> {
    let key_at = format!("{e_at}.valueFrom.configMapKeyRef.key");
    let from = get_obj(
        e.and_then(|e| e.get("valueFrom")),
        &format!("{e_at}.valueFrom"),
    )?;
    let cm = get_obj(
        from.and_then(|f| f.get("configMapKeyRef")),
        &format!("{e_at}.valueFrom.configMapKeyRef"),
    )?;
    let Some(cm) = cm else {
        return Ok(Err(Error::invalid_input(
            key_at,
            "the launch-priority env has no configMapKeyRef (the reference panics)",
        )));
    };
    let key = get_str(cm.get("key"), &key_at)?;
    if key.len() < 2 {
        return Ok(Err(Error::invalid_input(
            key_at,
            "a launch-priority key is at least 2 bytes (the reference panics)",
        )));
    }
    Ok(Ok(go_atoi(&key.as_bytes()[2..])))
}

/// Go's `strconv.Atoi` value, errors read as the value it returns (0 for a syntax error, the
/// clamped value for an out-of-range one).
fn go_atoi(b: &[u8]) -> i64 {
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return 0;
    }
    let mut v: i128 = 0;
    for d in digits {
        v = v * 10 + i128::from(d - b'0');
        if v > i128::from(i64::MAX) + 1 {
            break;
        }
    }
    let v = if neg { -v } else { v };
    // the fast path (fewer than 19 bytes) never overflows; longer ones clamp
    i64::try_from(v.clamp(i128::from(i64::MIN), i128::from(i64::MAX))).unwrap_or(0)
}

/// `defaultCheckPodNeedsBeUnready`.
fn needs_unready(view: &PodView, s: &PodPatchSpec, spec: &Spec, vertical: bool) -> bool {
    let has_gate = view.gates.iter().any(|g| g == READY_GATE);
    let vertical_only =
        !spec.resources.is_empty() && s.container_images.is_empty() && !s.update_env_from_metadata;
    if !vertical || !vertical_only {
        return has_gate;
    }
    let flag = |r: &Res| {
        let has = |k: &str| r.limits.contains_key(k) || r.requests.contains_key(k);
        (has("cpu"), has("memory"))
    };
    let restart = view.containers.iter().any(|c| {
        spec.resources.get(&c.name).is_some_and(|r| {
            let (cpu, mem) = flag(r);
            c.resize.iter().any(|(res, policy)| {
                policy == "RestartContainer" && ((res == "cpu" && cpu) || (res == "memory" && mem))
            })
        })
    });
    restart && has_gate
}

/// The object member `k` of `m`, made an empty object when absent, null or not an object.
pub(super) fn member_obj<'a>(m: &'a mut Map<String, Value>, k: &str) -> &'a mut Map<String, Value> {
    let v = m
        .entry(k.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if !v.is_object() {
        *v = Value::Object(Map::new());
    }
    match v {
        Value::Object(o) => o,
        _ => unreachable!("made an object above"),
    }
}

/// `updateCondition` with `InPlaceUpdateReady` False: `SetPodCondition`, then
/// `SetPodReadyCondition`.
fn set_unready(pod: &mut Map<String, Value>, view: &PodView, now: &str) {
    let mut conds = view.conditions.clone();
    let status = member_obj(pod, "status");
    let list = status
        .entry("conditions")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !list.is_array() {
        *list = Value::Array(Vec::new());
    }
    let Value::Array(list) = list else {
        return;
    };
    let mut new = Map::new();
    new.insert("type".into(), READY_GATE.into());
    new.insert("status".into(), "False".into());
    new.insert("lastProbeTime".into(), Value::Null);
    new.insert("lastTransitionTime".into(), now.into());
    new.insert("reason".into(), "StartInPlaceUpdate".into());
    set_condition(list, &mut conds, new);
    // SetPodReadyCondition
    let get = |conds: &[(String, String)], t: &str| {
        conds.iter().find(|(ty, _)| ty == t).map(|(_, s)| s.clone())
    };
    if get(&conds, "Ready").is_none() || get(&conds, "ContainersReady").as_deref() != Some("True") {
        return;
    }
    let mut msgs = Vec::new();
    for g in &view.gates {
        match get(&conds, g) {
            None => msgs.push(format!(
                "corresponding condition of pod readiness gate {} does not exist.",
                go_quote(g)
            )),
            Some(s) if s != "True" => msgs.push(format!(
                "the status of pod readiness gate {} is not \"True\", but {s}",
                go_quote(g)
            )),
            _ => {}
        }
    }
    // the InPlaceUpdateReady gate is never True here, so Ready always turns False
    let mut ready = Map::new();
    ready.insert("type".into(), "Ready".into());
    ready.insert("status".into(), "False".into());
    ready.insert("lastProbeTime".into(), Value::Null);
    ready.insert("lastTransitionTime".into(), Value::Null);
    ready.insert("reason".into(), "ReadinessGatesNotReady".into());
    ready.insert("message".into(), msgs.join(", ").into());
    set_condition(list, &mut conds, ready);
}

/// `SetPodCondition`: the first condition of the type is replaced when its status differs;
/// none: appended.
pub(super) fn set_condition(
    list: &mut Vec<Value>,
    conds: &mut Vec<(String, String)>,
    new: Map<String, Value>,
) {
    let t = new["type"].as_str().unwrap_or_default().to_string();
    let s = new["status"].as_str().unwrap_or_default().to_string();
    if let Some(i) = conds.iter().position(|(ty, _)| *ty == t) {
        if conds[i].1 != s {
            list[i] = Value::Object(new);
            conds[i].1 = s;
        }
        return;
    }
    list.push(Value::Object(new));
    conds.push((t, s));
}

/// Go's `%q` of a string (printable ASCII kept, the usual escapes, others `\u`/`\x`).
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) >= 0x80 && c.is_control() => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Flags {
    pub(super) env: bool,
    pub(super) resources: bool,
    pub(super) images: bool,
}

/// `InPlaceUpdateState` as the reference fills it.
#[derive(Default)]
pub(super) struct State<'a> {
    pub(super) revision: &'a str,
    /// `updateTimestamp` (null: the zero time).
    pub(super) time: Option<&'a str>,
    /// null when never set.
    pub(super) last: Option<BTreeMap<String, String>>,
    pub(super) flags: Flags,
    pub(super) next_images: BTreeMap<String, String>,
    pub(super) next_meta: BTreeMap<String, ContainerRefMetadata>,
    pub(super) next_resources: BTreeMap<String, Res>,
    /// `preCheckBeforeNext.containersRequiredReady` (null: no pre-check; `Some(None)`: a
    /// pre-check without the list).
    pub(super) pre_check: Option<Vec<String>>,
    /// `containerBatchesRecord` (time, null when zero; containers, null when nil).
    pub(super) batches: Vec<(Option<String>, Option<Vec<String>>)>,
}

fn push_key(out: &mut String, k: &str) {
    if !out.ends_with('{') {
        out.push(',');
    }
    push_string(out, k);
    out.push(':');
}

fn string_list(v: &[String]) -> String {
    let mut out = String::from("[");
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_string(&mut out, s);
    }
    out.push(']');
    out
}

/// `json.Marshal(metav1.ObjectMeta{Labels, Annotations})`.
fn object_meta_json(out: &mut String, m: &ContainerRefMetadata) {
    out.push_str("{\"creationTimestamp\":null");
    if !m.labels.is_empty() {
        out.push_str(",\"labels\":");
        out.push_str(&string_map(&m.labels));
    }
    if !m.annotations.is_empty() {
        out.push_str(",\"annotations\":");
        out.push_str(&string_map(&m.annotations));
    }
    out.push('}');
}

/// `json.Marshal(v1.ResourceRequirements)`.
fn resources_json(out: &mut String, r: &Res) {
    out.push('{');
    if !r.limits.is_empty() {
        push_key(out, "limits");
        out.push_str(&string_map(&r.limits));
    }
    if !r.requests.is_empty() {
        push_key(out, "requests");
        out.push_str(&string_map(&r.requests));
    }
    out.push('}');
}

/// `json.Marshal(InPlaceUpdateState)`.
pub(super) fn state_json(s: &State<'_>) -> String {
    let mut out = String::from("{");
    push_key(&mut out, "revision");
    push_string(&mut out, s.revision);
    push_key(&mut out, "updateTimestamp");
    match s.time {
        Some(t) => push_string(&mut out, t),
        None => out.push_str("null"),
    }
    push_key(&mut out, "lastContainerStatuses");
    match &s.last {
        None => out.push_str("null"),
        Some(m) => out.push_str(&go_object(m, |o, id| {
            if id.is_empty() {
                o.push_str("{}");
            } else {
                o.push_str("{\"imageID\":");
                push_string(o, id);
                o.push('}');
            }
        })),
    }
    for (k, on) in [
        ("updateEnvFromMetadata", s.flags.env),
        ("updateResources", s.flags.resources),
        ("updateImages", s.flags.images),
    ] {
        if on {
            push_key(&mut out, k);
            out.push_str("true");
        }
    }
    if !s.next_images.is_empty() {
        push_key(&mut out, "nextContainerImages");
        out.push_str(&string_map(&s.next_images));
    }
    if !s.next_meta.is_empty() {
        push_key(&mut out, "nextContainerRefMetadata");
        out.push_str(&go_object(&s.next_meta, object_meta_json));
    }
    if !s.next_resources.is_empty() {
        push_key(&mut out, "nextContainerResources");
        out.push_str(&go_object(&s.next_resources, resources_json));
    }
    if let Some(ready) = &s.pre_check {
        push_key(&mut out, "preCheckBeforeNext");
        if ready.is_empty() {
            out.push_str("{}");
        } else {
            out.push_str("{\"containersRequiredReady\":");
            out.push_str(&string_list(ready));
            out.push('}');
        }
    }
    if !s.batches.is_empty() {
        push_key(&mut out, "containerBatchesRecord");
        out.push('[');
        for (i, (t, cs)) in s.batches.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"timestamp\":");
            match t {
                Some(t) => push_string(&mut out, t),
                None => out.push_str("null"),
            }
            out.push_str(",\"containers\":");
            match cs {
                Some(cs) => out.push_str(&string_list(cs)),
                None => out.push_str("null"),
            }
            out.push('}');
        }
        out.push(']');
    }
    out.push('}');
    out
}

/// Go `encoding/json` of a decoded JSON value (objects with sorted keys).
fn value_json(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => push_string(out, s),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                value_json(out, x);
            }
            out.push(']');
        }
        Value::Object(m) => {
            let sorted: BTreeMap<String, &Value> = m.iter().map(|(k, v)| (k.clone(), v)).collect();
            out.push_str(&go_object(&sorted, |o, x| value_json(o, x)));
        }
    }
}

/// Standard base64 with padding (Go's `[]byte` JSON encoding).
fn base64(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in b.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &x)| acc | (u32::from(x) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `json.Marshal(UpdateSpec)` as `updatePodInPlace` stores it in the grace annotation.
fn grace_json(i: &InplacePodPatchInput, spec: &Spec) -> String {
    let s = &i.spec;
    let mut out = String::from("{");
    push_key(&mut out, "revision");
    push_string(&mut out, &i.revision);
    if !s.container_images.is_empty() {
        push_key(&mut out, "containerImages");
        out.push_str(&string_map(&s.container_images));
    }
    if !s.container_ref_metadata.is_empty() {
        push_key(&mut out, "containerRefMetadata");
        out.push_str(&go_object(&s.container_ref_metadata, object_meta_json));
    }
    if !spec.resources.is_empty() {
        push_key(&mut out, "containerResources");
        out.push_str(&go_object(&spec.resources, resources_json));
    }
    if let Some(p) = &spec.patch {
        let mut bytes = String::new();
        value_json(&mut bytes, p);
        push_key(&mut out, "metaDataPatch");
        push_string(&mut out, &base64(bytes.as_bytes()));
    }
    if s.update_env_from_metadata {
        push_key(&mut out, "updateEnvFromMetadata");
        out.push_str("true");
    }
    push_key(&mut out, "graceSeconds");
    out.push_str(&i.grace_period_seconds.to_string());
    out.push('}');
    out
}

/// Applies the (checked) metadata patch: labels/annotations merged, null removing.
pub(super) fn apply_metadata_patch(pod: &mut Map<String, Value>, p: &Value) {
    let Some(meta_patch) = p.get("metadata").and_then(Value::as_object) else {
        return;
    };
    let meta = member_obj(pod, "metadata");
    for (k, v) in meta_patch {
        match v {
            Value::Object(m) => {
                let target = member_obj(meta, k);
                for (key, val) in m {
                    if val.is_null() {
                        target.remove(key);
                    } else {
                        target.insert(key.clone(), val.clone());
                    }
                }
            }
            _ => {
                meta.remove(k);
            }
        }
    }
}

/// `defaultPatchUpdateSpecToPod` (with `NativeVerticalUpdate.UpdateResource` before 1.32,
/// `GenerateResourcePatch` from 1.32) on a fresh state: the state annotation value, the
/// containers updated and the resize patch.
pub(super) fn patch_spec_to_pod(
    pod: &mut Map<String, Value>,
    s: &PodPatchSpec,
    spec: &Spec,
    mut state: State<'_>,
    now: &str,
    vertical: bool,
    resize: bool,
) -> Result<(String, Vec<String>, Option<Value>)> {
    if let Some(p) = &spec.patch {
        apply_metadata_patch(pod, p);
    }
    let view = PodView::read(pod)?;
    // containers to update now: no priority, or the highest priority
    let mut to_update: BTreeSet<String> = BTreeSet::new();
    let mut highest: Option<i64> = None;
    let mut with_highest: Vec<String> = Vec::new();
    for c in &view.containers {
        if !s.container_images.contains_key(&c.name)
            && !s.container_ref_metadata.contains_key(&c.name)
            && !spec.resources.contains_key(&c.name)
        {
            continue;
        }
        let priority = match &c.priority {
            None => None,
            Some(Ok(p)) => Some(*p),
            Some(Err(e)) => return Err(e.clone()),
        };
        match priority {
            None => {
                to_update.insert(c.name.clone());
            }
            Some(p) if highest.is_none_or(|h| h < p) => {
                highest = Some(p);
                with_highest = vec![c.name.clone()];
            }
            Some(p) if highest == Some(p) => with_highest.push(c.name.clone()),
            Some(_) => {}
        }
    }
    to_update.extend(with_highest);
    shared_metadata_closure(&mut to_update, &s.container_ref_metadata);

    state.next_images.clear();
    state.next_meta.clear();
    state.next_resources.clear();
    let containers = pod
        .get_mut("spec")
        .and_then(Value::as_object_mut)
        .and_then(|sp| sp.get_mut("containers"))
        .and_then(Value::as_array_mut);
    let mut image_changed = BTreeSet::new();
    let mut expected: BTreeMap<usize, &Res> = BTreeMap::new();
    let mut resize_patch = None;
    if let Some(list) = containers {
        for (idx, (c, view_c)) in list.iter_mut().zip(&view.containers).enumerate() {
            if let Some(img) = s.container_images.get(&view_c.name) {
                if to_update.contains(&view_c.name) {
                    if let Value::Object(m) = c {
                        m.insert("image".into(), Value::String(img.clone()));
                    }
                    image_changed.insert(view_c.name.clone());
                } else {
                    state.next_images.insert(view_c.name.clone(), img.clone());
                }
            }
            if vertical && let Some(r) = spec.resources.get(&view_c.name) {
                if to_update.contains(&view_c.name) {
                    expected.insert(idx, r);
                } else {
                    state.next_resources.insert(view_c.name.clone(), r.clone());
                }
            }
        }
        // a map is nil in the reference when absent, or empty after the JSON round trip of the
        // metadata patch
        let present = |n: Option<usize>| n.is_some_and(|n| n > 0 || spec.patch.is_none());
        if resize {
            resize_patch = resize_patch_of(list, &view, &expected, present)?;
            expected.clear();
        }
        // UpdateResource: cpu/memory written into the container's maps
        for (idx, r) in &expected {
            let vc = &view.containers[*idx];
            for (kind, new, has) in [
                ("limits", &r.limits, present(vc.limits)),
                ("requests", &r.requests, present(vc.requests)),
            ] {
                let keys: Vec<(&String, &String)> = new
                    .iter()
                    .filter(|(k, _)| *k == "cpu" || *k == "memory")
                    .collect();
                if keys.is_empty() {
                    continue;
                }
                if !has {
                    return Err(Error::invalid_input(
                        format!("pod.spec.containers[{idx}].resources.{kind}"),
                        "absent, and a resized container's resources are written into it (the reference panics)",
                    ));
                }
                if let Some(Value::Object(m)) = list[*idx]
                    .get_mut("resources")
                    .and_then(|r| r.get_mut(kind))
                {
                    for (k, q) in keys {
                        m.insert(k.clone(), Value::String(q.clone()));
                    }
                }
            }
        }
    }
    for (name, id) in &view.statuses {
        if image_changed.contains(name) {
            state
                .last
                .get_or_insert_with(BTreeMap::new)
                .entry(name.clone())
                .or_insert_with(|| id.clone());
        }
    }
    {
        let meta = member_obj(pod, "metadata");
        for (c, m) in &s.container_ref_metadata {
            if to_update.contains(c) {
                let labels = member_obj(meta, "labels");
                for (k, v) in &m.labels {
                    labels.insert(k.clone(), Value::String(v.clone()));
                }
                let ann = member_obj(meta, "annotations");
                for (k, v) in &m.annotations {
                    ann.insert(k.clone(), Value::String(v.clone()));
                }
            } else {
                state.next_meta.insert(c.clone(), m.clone());
            }
        }
    }
    let list: Vec<String> = to_update.into_iter().collect();
    if !state.next_images.is_empty()
        || !state.next_meta.is_empty()
        || !state.next_resources.is_empty()
    {
        state.pre_check = Some(list.clone());
    } else {
        state.pre_check = None;
    }
    state
        .batches
        .push((Some(now.to_string()), Some(list.clone())));
    let json = state_json(&state);
    member_obj(member_obj(pod, "metadata"), "annotations")
        .insert(STATE_KEY.into(), Value::String(json.clone()));
    Ok((json, list, resize_patch))
}

/// `NativeVerticalUpdate.GenerateResourcePatch` over the pod as written: per resized container
/// (pod order), the cpu/memory values of the spec that differ from the container's (a value
/// counts as differing when the container's map is nil; a missing key reads as zero), or none
/// when no container has one.
pub(super) fn resize_patch_of(
    list: &[Value],
    view: &PodView,
    expected: &BTreeMap<usize, &Res>,
    present: impl Fn(Option<usize>) -> bool,
) -> Result<Option<Value>> {
    let mut out = Vec::new();
    for (idx, r) in expected {
        let vc = &view.containers[*idx];
        let mut resources = Map::new();
        for (kind, new, has) in [
            ("limits", &r.limits, present(vc.limits)),
            ("requests", &r.requests, present(vc.requests)),
        ] {
            let current = list[*idx]
                .get("resources")
                .and_then(|r| r.get(kind))
                .and_then(Value::as_object);
            let mut changed = Map::new();
            for (k, q) in new.iter().filter(|(k, _)| *k == "cpu" || *k == "memory") {
                if has {
                    let now = current
                        .and_then(|m| m.get(k))
                        .and_then(Value::as_str)
                        .unwrap_or("0");
                    if let (Ok(a), Ok(b)) = (Quantity::parse(now), Quantity::parse(q))
                        && a.cmp_value(&b).is_eq()
                    {
                        continue;
                    }
                }
                changed.insert(k.clone(), Value::String(q.clone()));
            }
            if !changed.is_empty() {
                resources.insert(kind.into(), Value::Object(changed));
            }
        }
        if resources.is_empty() {
            continue;
        }
        // the reference prints the name into the JSON text unescaped
        if vc
            .name
            .chars()
            .any(|c| c == '"' || c == '\\' || c < '\u{20}')
        {
            return Err(Error::invalid_input(
                format!("pod.spec.containers[{idx}].name"),
                "a quote, backslash or control character: the reference's resize patch (the name printed unescaped) is not the JSON it means",
            ));
        }
        let mut c = Map::new();
        c.insert("name".into(), Value::String(vc.name.clone()));
        c.insert("resources".into(), Value::Object(resources));
        out.push(Value::Object(c));
    }
    if out.is_empty() {
        return Ok(None);
    }
    let mut spec = Map::new();
    spec.insert("containers".into(), Value::Array(out));
    let mut top = Map::new();
    top.insert("spec".into(), Value::Object(spec));
    Ok(Some(Value::Object(top)))
}

/// `addMetadataSharedContainersToUpdate`: containers sharing a label/annotation key with one
/// being updated are updated too (transitively).
fn shared_metadata_closure(
    to_update: &mut BTreeSet<String>,
    meta: &BTreeMap<String, ContainerRefMetadata>,
) {
    let mut labels: BTreeSet<&str> = BTreeSet::new();
    let mut annotations: BTreeSet<&str> = BTreeSet::new();
    let mut fresh: Vec<String> = to_update.iter().cloned().collect();
    while !fresh.is_empty() {
        for c in &fresh {
            if let Some(m) = meta.get(c) {
                labels.extend(m.labels.keys().map(String::as_str));
                annotations.extend(m.annotations.keys().map(String::as_str));
            }
        }
        fresh = Vec::new();
        for (c, m) in meta {
            if to_update.contains(c) {
                continue;
            }
            let shares = m.labels.keys().any(|k| labels.contains(k.as_str()))
                || m.annotations
                    .keys()
                    .any(|k| annotations.contains(k.as_str()));
            if shares {
                to_update.insert(c.clone());
                fresh.push(c.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_match_go() {
        assert_eq!(base64(b"{}"), "e30=");
        assert_eq!(base64(b"abc"), "YWJj");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(go_atoi(b"10"), 10);
        assert_eq!(go_atoi(b"-3"), -3);
        assert_eq!(go_atoi(b"x"), 0);
        assert_eq!(go_atoi(b""), 0);
        assert_eq!(go_atoi(b"99999999999999999999999"), i64::MAX);
        assert_eq!(go_quote("a\"b\n"), "\"a\\\"b\\n\"");
    }
}
