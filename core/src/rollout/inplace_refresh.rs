//! A later reconcile of a pod updated in place (`rollout.inplace_refresh`): what OpenKruise
//! v1.9.0's in-place update control does when it looks at the pod again.
//!
//! Mirrors `pkg/util/inplaceupdate/inplace_update.go` `Refresh` with its steps
//! `finishGracePeriod`, `updateNextBatch`, `doPreCheckBeforeNext`, `hasEqualCondition` and
//! `updateCondition`, over the defaults of `inplace_update_defaults.go`
//! (`defaultPatchUpdateSpecToPod`, `defaultCheckContainersInPlaceUpdateCompleted`) and the
//! CloneSet's revision comparison (`pkg/controller/cloneset/utils` `EqualToRevisionHash`).
//! The pod write itself is `rollout.inplace_pod_patch`'s (`super::inplace_patch`).
//!
//! The annotations are decoded as Go's `encoding/json` decodes them into
//! `InPlaceUpdateState` / `UpdateSpec`, except that member names match exactly (Go also takes
//! a case-insensitive match) and `ObjectMeta` values of `containerRefMetadata` carry only
//! labels and annotations (others: `unsupported`).

use super::inplace::{ContainerRefMetadata, ContainerResources, containers_completion};
use super::inplace_patch::{
    GRACE_KEY, GRACE_KEY_OLD, PodPatchFeatureGates, PodPatchSpec, PodView, READY_GATE,
    REVISION_LABEL, STATE_KEY, STATE_KEY_OLD, State, UNSUPPORTED, check_metadata_patch, check_spec,
    get_obj, member_obj, patch_spec_to_pod, pod_object, resize_by_subresource, set_condition,
};
use super::progress::format_time;
use crate::api::schema::kind_of as type_name;
use crate::error::{Error, Result};
use crate::quantity::Quantity;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Error kind of a state or grace annotation the reference cannot decode.
pub const INVALID_ANNOTATION: &str = "invalid_annotation";

/// Input of `rollout.inplace_refresh`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InplaceRefreshInput {
    /// The pod as the API server prints it (as `rollout.inplace_pod_patch` left it, with the
    /// status kubelet reported since).
    pub pod: Value,
    /// The controller's clock (RFC 3339); times are written in whole seconds, UTC.
    pub now: String,
    /// Feature gates (`InPlaceWorkloadVerticalScaling`: resources are written and their
    /// completion checked; `CloneSetShortHash` is not read here).
    #[serde(default)]
    pub feature_gates: PodPatchFeatureGates,
    /// The Kubernetes server's version, as `rollout.inplace_pod_patch` reads it (from 1.32
    /// resources of a later batch or a finished grace period go to `resizePatch`). Absent or
    /// null: 1.30, the reference's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_version: Option<String>,
}

/// What the reconcile does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum RefreshAction {
    /// Nothing is written (update not completed, pre-check not passed, no readiness gate,
    /// condition already True, or the state of a grace period does not decode).
    Nothing,
    /// In the grace period: look again after `requeueAfterSeconds`.
    GracePending,
    /// The grace period is over: the stored spec is applied (`finishGracePeriod`).
    GraceFinished,
    /// The pod's revision is no longer the grace spec's: the grace annotation is removed.
    GraceDropped,
    /// The next batch of containers is updated (`updateNextBatch`).
    NextBatch,
    /// The update has completed: `InPlaceUpdateReady` is set back to True.
    Ready,
}

/// Output of `rollout.inplace_refresh`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InplaceRefreshOutput {
    /// The branch of `Refresh` taken.
    pub action: RefreshAction,
    /// Why, in words.
    pub reason: String,
    /// The pod after the write (null when nothing is written).
    pub pod: Option<Value>,
    /// The in-place update state after this step, decoded (null when the pod has none or it
    /// does not decode).
    pub state: Option<Value>,
    /// Containers updated by this write, sorted (empty unless `GraceFinished` / `NextBatch`).
    pub containers: Vec<String>,
    /// Seconds until the controller looks again (`GracePending` only; else 0).
    pub requeue_after_seconds: i64,
    /// The strategic merge patch sent to the pod's `resize` subresource (as in
    /// `rollout.inplace_pod_patch`); absent when nothing is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resize_patch: Option<Value>,
}

/// A decoded `InPlaceUpdateState`.
#[derive(Debug, Default)]
struct DecodedState {
    revision: String,
    time: Option<String>,
    /// `updateTimestamp` to the nanosecond (None: the zero time).
    time_ns: Option<i128>,
    last: Option<BTreeMap<String, String>>,
    env: bool,
    resources: bool,
    images: bool,
    next_images: BTreeMap<String, String>,
    next_meta: BTreeMap<String, ContainerRefMetadata>,
    next_resources: BTreeMap<String, ContainerResources>,
    pre_check: Option<Vec<String>>,
    batches: Vec<(Option<String>, Option<Vec<String>>)>,
}

fn bad(at: &str, msg: impl std::fmt::Display) -> Error {
    Error::at(INVALID_ANNOTATION, at, msg)
}

fn d_str(v: Option<&Value>, at: &str) -> Result<String> {
    match v {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(o) => Err(bad(
            at,
            format_args!("expected a string, got {}", type_name(o)),
        )),
    }
}

fn d_bool(v: Option<&Value>, at: &str) -> Result<bool> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(o) => Err(bad(
            at,
            format_args!("expected a boolean, got {}", type_name(o)),
        )),
    }
}

fn d_obj<'a>(v: Option<&'a Value>, at: &str) -> Result<Option<&'a Map<String, Value>>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(o) => Err(bad(
            at,
            format_args!("expected an object, got {}", type_name(o)),
        )),
    }
}

fn d_str_map(v: Option<&Value>, at: &str) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for (k, v) in d_obj(v, at)?.into_iter().flatten() {
        out.insert(k.clone(), d_str(Some(v), &format!("{at}.{k}"))?);
    }
    Ok(out)
}

/// `metav1.Time`: null is the zero time; else an RFC 3339 string, written back in UTC seconds.
fn d_time(v: Option<&Value>, at: &str) -> Result<Option<String>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => match crate::time::parse_rfc3339(s) {
            Some(t) => Ok(Some(format_time(t))),
            None => Err(bad(at, format_args!("{s:?} is not an RFC 3339 time"))),
        },
        Some(o) => Err(bad(
            at,
            format_args!("expected a time string, got {}", type_name(o)),
        )),
    }
}

fn d_meta(v: &Value, at: &str) -> Result<ContainerRefMetadata> {
    let mut out = ContainerRefMetadata::default();
    for (k, v) in d_obj(Some(v), at)?.into_iter().flatten() {
        match k.as_str() {
            "labels" => out.labels = d_str_map(Some(v), &format!("{at}.labels"))?,
            "annotations" => out.annotations = d_str_map(Some(v), &format!("{at}.annotations"))?,
            "creationTimestamp" if v.is_null() => {}
            _ => {
                return Err(Error::at(
                    UNSUPPORTED,
                    format!("{at}.{k}"),
                    "only labels and annotations of a container's metadata are read",
                ));
            }
        }
    }
    Ok(out)
}

fn d_quantity(v: &Value, at: &str) -> Result<String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        o => {
            return Err(bad(
                at,
                format_args!("expected a quantity, got {}", type_name(o)),
            ));
        }
    };
    Quantity::parse(&text)
        .map(|q| q.canonical())
        .map_err(|e| bad(at, format_args!("{text:?} is not a quantity: {e}")))
}

fn d_resources(v: &Value, at: &str) -> Result<ContainerResources> {
    let mut out = ContainerResources::default();
    for (k, v) in d_obj(Some(v), at)?.into_iter().flatten() {
        let to = match k.as_str() {
            "limits" => &mut out.limits,
            "requests" => &mut out.requests,
            "claims" if v.is_null() => continue,
            _ => {
                return Err(Error::at(
                    UNSUPPORTED,
                    format!("{at}.{k}"),
                    "only limits and requests are read",
                ));
            }
        };
        for (r, q) in d_obj(Some(v), &format!("{at}.{k}"))?.into_iter().flatten() {
            to.insert(r.clone(), d_quantity(q, &format!("{at}.{k}.{r}"))?);
        }
    }
    Ok(out)
}

fn decode_json(text: &str, at: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| bad(at, format_args!("not JSON: {e}")))
}

/// `json.Unmarshal` into `InPlaceUpdateState`.
fn decode_state(text: &str, at: &str) -> Result<DecodedState> {
    let v = decode_json(text, at)?;
    let mut s = DecodedState::default();
    let Some(m) = d_obj(Some(&v), at)? else {
        return Ok(s);
    };
    let f = |k: &str| format!("{at}.{k}");
    s.revision = d_str(m.get("revision"), &f("revision"))?;
    s.time = d_time(m.get("updateTimestamp"), &f("updateTimestamp"))?;
    if let Some(Value::String(t)) = m.get("updateTimestamp") {
        s.time_ns = crate::time::parse_rfc3339(t).map(|t| t.as_nanosecond());
    }
    if let Some(last) = d_obj(m.get("lastContainerStatuses"), &f("lastContainerStatuses"))? {
        let mut out = BTreeMap::new();
        for (k, v) in last {
            let at = format!("{at}.lastContainerStatuses.{k}");
            let o = d_obj(Some(v), &at)?;
            out.insert(
                k.clone(),
                d_str(o.and_then(|o| o.get("imageID")), &format!("{at}.imageID"))?,
            );
        }
        s.last = Some(out);
    }
    s.env = d_bool(m.get("updateEnvFromMetadata"), &f("updateEnvFromMetadata"))?;
    s.resources = d_bool(m.get("updateResources"), &f("updateResources"))?;
    s.images = d_bool(m.get("updateImages"), &f("updateImages"))?;
    s.next_images = d_str_map(m.get("nextContainerImages"), &f("nextContainerImages"))?;
    for (k, v) in d_obj(
        m.get("nextContainerRefMetadata"),
        &f("nextContainerRefMetadata"),
    )?
    .into_iter()
    .flatten()
    {
        s.next_meta.insert(
            k.clone(),
            d_meta(v, &format!("{at}.nextContainerRefMetadata.{k}"))?,
        );
    }
    for (k, v) in d_obj(
        m.get("nextContainerResources"),
        &f("nextContainerResources"),
    )?
    .into_iter()
    .flatten()
    {
        s.next_resources.insert(
            k.clone(),
            d_resources(v, &format!("{at}.nextContainerResources.{k}"))?,
        );
    }
    if let Some(p) = d_obj(m.get("preCheckBeforeNext"), &f("preCheckBeforeNext"))? {
        s.pre_check = Some(d_str_list(
            p.get("containersRequiredReady"),
            &format!("{at}.preCheckBeforeNext.containersRequiredReady"),
        )?);
    }
    match m.get("containerBatchesRecord") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) => {
            for (i, b) in a.iter().enumerate() {
                let at = format!("{at}.containerBatchesRecord[{i}]");
                let o = d_obj(Some(b), &at)?;
                let t = d_time(
                    o.and_then(|o| o.get("timestamp")),
                    &format!("{at}.timestamp"),
                )?;
                let cs = match o.and_then(|o| o.get("containers")) {
                    None | Some(Value::Null) => None,
                    v => Some(d_str_list(v, &format!("{at}.containers"))?),
                };
                s.batches.push((t, cs));
            }
        }
        Some(o) => {
            return Err(bad(
                &f("containerBatchesRecord"),
                format_args!("expected an array, got {}", type_name(o)),
            ));
        }
    }
    Ok(s)
}

fn d_str_list(v: Option<&Value>, at: &str) -> Result<Vec<String>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, x)| d_str(Some(x), &format!("{at}[{i}]")))
            .collect(),
        Some(o) => Err(bad(
            at,
            format_args!("expected an array, got {}", type_name(o)),
        )),
    }
}

/// A decoded `UpdateSpec` of the grace annotation.
struct GraceSpec {
    revision: String,
    spec: PodPatchSpec,
    grace_seconds: i64,
    /// `metaDataPatch` decoded from base64 (None: absent or null). The reference reads it as
    /// a patch only when it applies the spec.
    patch: Option<Vec<u8>>,
}

/// Go's `encoding/base64` StdEncoding (padded) of `metaDataPatch`.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    // Go's decoder skips \r and \n
    let b: Vec<u8> = s.bytes().filter(|c| *c != b'\r' && *c != b'\n').collect();
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    for (ci, chunk) in b.chunks(4).enumerate() {
        let last = ci + 1 == b.len() / 4;
        let pad = chunk.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n: u32 = 0;
        for (j, c) in chunk.iter().enumerate() {
            let v = if j >= 4 - pad { 0 } else { val(*c)? };
            n = (n << 6) | v;
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        // Go (strict off) accepts non-zero trailing bits
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

fn decode_grace(text: &str, at: &str) -> Result<GraceSpec> {
    let v = decode_json(text, at)?;
    let mut g = GraceSpec {
        revision: String::new(),
        spec: PodPatchSpec::default(),
        grace_seconds: 0,
        patch: None,
    };
    let Some(m) = d_obj(Some(&v), at)? else {
        return Ok(g);
    };
    let f = |k: &str| format!("{at}.{k}");
    g.revision = d_str(m.get("revision"), &f("revision"))?;
    g.spec.container_images = d_str_map(m.get("containerImages"), &f("containerImages"))?;
    for (k, v) in d_obj(m.get("containerRefMetadata"), &f("containerRefMetadata"))?
        .into_iter()
        .flatten()
    {
        g.spec.container_ref_metadata.insert(
            k.clone(),
            d_meta(v, &format!("{at}.containerRefMetadata.{k}"))?,
        );
    }
    for (k, v) in d_obj(m.get("containerResources"), &f("containerResources"))?
        .into_iter()
        .flatten()
    {
        g.spec.container_resources.insert(
            k.clone(),
            d_resources(v, &format!("{at}.containerResources.{k}"))?,
        );
    }
    match m.get("metaDataPatch") {
        None | Some(Value::Null) => {}
        Some(Value::String(b)) => {
            let bytes = base64_decode(b).ok_or_else(|| bad(&f("metaDataPatch"), "not base64"))?;
            // a patch this crate does not apply is refused whatever the branch
            if let Ok(p) = serde_json::from_slice::<Value>(&bytes)
                && let Err(e) = check_metadata_patch(&p)
                && e.kind == UNSUPPORTED
            {
                return Err(e);
            }
            g.patch = Some(bytes);
        }
        Some(o) => {
            return Err(bad(
                &f("metaDataPatch"),
                format_args!("expected a base64 string, got {}", type_name(o)),
            ));
        }
    }
    g.spec.update_env_from_metadata =
        d_bool(m.get("updateEnvFromMetadata"), &f("updateEnvFromMetadata"))?;
    g.grace_seconds = match m.get("graceSeconds") {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) => match n.as_i64().and_then(|x| i32::try_from(x).ok()) {
            Some(x) => i64::from(x),
            None => return Err(bad(&f("graceSeconds"), "not an int32")),
        },
        Some(o) => {
            return Err(bad(
                &f("graceSeconds"),
                format_args!("expected a number, got {}", type_name(o)),
            ));
        }
    };
    for k in ["oldTemplate", "newTemplate"] {
        if m.get(k).is_some_and(|v| !v.is_null()) {
            return Err(Error::at(
                UNSUPPORTED,
                f(k),
                "the templates of a stored update spec are not read",
            ));
        }
    }
    Ok(g)
}

/// The first annotation of `keys` present (key, value).
fn annotation<'a>(
    ann: Option<&'a Map<String, Value>>,
    keys: [&'a str; 2],
) -> Option<(&'a str, &'a str)> {
    keys.iter().find_map(|k| {
        ann.and_then(|a| a.get(*k))
            .map(|v| (*k, v.as_str().unwrap_or("")))
    })
}

fn short_hash(h: &str) -> &str {
    h.rsplit('-').next().unwrap_or("")
}

struct Ctx {
    now: String,
    now_ns: i128,
    vertical: bool,
    resize: bool,
}

fn out(action: RefreshAction, reason: impl Into<String>) -> InplaceRefreshOutput {
    InplaceRefreshOutput {
        action,
        reason: reason.into(),
        pod: None,
        state: None,
        containers: Vec::new(),
        requeue_after_seconds: 0,
        resize_patch: None,
    }
}

/// The state annotation of `pod`, decoded as a JSON value (null when absent or not JSON).
fn state_value(pod: &Map<String, Value>) -> Option<Value> {
    let ann = pod
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object);
    let (_, text) = annotation(ann, [STATE_KEY, STATE_KEY_OLD])?;
    serde_json::from_str(text).ok()
}

/// Applies `spec` to the pod with the decoded state (`defaultPatchUpdateSpecToPod`).
fn apply(
    pod: &mut Map<String, Value>,
    spec: &PodPatchSpec,
    st: &DecodedState,
    c: &Ctx,
) -> Result<(Vec<String>, Option<Value>)> {
    let checked = check_spec(spec)?;
    if let Some(p) = &checked.patch {
        check_metadata_patch(p)?;
    }
    let state = State {
        revision: &st.revision,
        time: st.time.as_deref(),
        last: st.last.clone(),
        flags: super::inplace_patch::Flags {
            env: st.env,
            resources: st.resources,
            images: st.images,
        },
        batches: st.batches.clone(),
        ..State::default()
    };
    let (_, containers, patch) =
        patch_spec_to_pod(pod, spec, &checked, state, &c.now, c.vertical, c.resize)?;
    Ok((containers, patch))
}

fn remove_grace(pod: &mut Map<String, Value>) {
    let ann = member_obj(member_obj(pod, "metadata"), "annotations");
    ann.remove(GRACE_KEY);
    ann.remove(GRACE_KEY_OLD);
}

/// `finishGracePeriod`.
fn finish_grace(
    mut pod: Map<String, Value>,
    grace_key: &str,
    grace_text: &str,
    c: &Ctx,
) -> Result<InplaceRefreshOutput> {
    let g = decode_grace(grace_text, &format!("pod.metadata.annotations.{grace_key}"))?;
    let ann = pod
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object);
    let Some((state_key, state_text)) = annotation(ann, [STATE_KEY, STATE_KEY_OLD]) else {
        return Err(bad(
            &format!("pod.metadata.annotations.{STATE_KEY}"),
            format_args!("absent while {grace_key} is set"),
        ));
    };
    let st = match decode_state(state_text, &format!("pod.metadata.annotations.{state_key}")) {
        Ok(s) => s,
        Err(e) => {
            return Ok(InplaceRefreshOutput {
                state: state_value(&pod),
                ..out(
                    RefreshAction::Nothing,
                    format!(
                        "the state does not decode ({}): the grace period is left as it is",
                        e.message
                    ),
                )
            });
        }
    };
    let label = pod
        .get("metadata")
        .and_then(|m| m.get("labels"))
        .and_then(|l| l.get(REVISION_LABEL))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if label != g.revision && short_hash(&label) != short_hash(&g.revision) {
        remove_grace(&mut pod);
        let state = state_value(&pod);
        return Ok(InplaceRefreshOutput {
            pod: Some(Value::Object(pod)),
            state,
            ..out(
                RefreshAction::GraceDropped,
                "the pod's revision is no longer the grace spec's: the grace period is dropped",
            )
        });
    }
    let grace_ns = i128::from(g.grace_seconds) * 1_000_000_000;
    let span_ns = match st.time_ns {
        // the zero time: always past
        None => i128::MAX / 2,
        Some(t) => c.now_ns - t,
    };
    if span_ns < grace_ns {
        let d = grace_ns - span_ns;
        let secs = (d + 999_999_999).div_euclid(1_000_000_000);
        return Ok(InplaceRefreshOutput {
            requeue_after_seconds: i64::try_from(secs).unwrap_or(i64::MAX),
            state: state_value(&pod),
            ..out(RefreshAction::GracePending, "still in the grace period")
        });
    }
    let mut spec = g.spec;
    if let Some(bytes) = &g.patch {
        let at = format!("pod.metadata.annotations.{grace_key}.metaDataPatch");
        let p: Value = serde_json::from_slice(bytes)
            .map_err(|e| bad(&at, format_args!("the patch is not JSON: {e}")))?;
        spec.metadata_patch = Some(p);
    }
    let (containers, resize_patch) = apply(&mut pod, &spec, &st, c)?;
    remove_grace(&mut pod);
    let state = state_value(&pod);
    Ok(InplaceRefreshOutput {
        pod: Some(Value::Object(pod)),
        state,
        containers,
        resize_patch,
        ..out(
            RefreshAction::GraceFinished,
            "the grace period is over: the stored spec is applied",
        )
    })
}

/// Answers `rollout.inplace_refresh`.
pub fn decide(i: &InplaceRefreshInput) -> Result<InplaceRefreshOutput> {
    let now_t = crate::time::parse_time(&i.now, "now")?;
    let c = Ctx {
        now: format_time(now_t),
        now_ns: now_t.as_nanosecond(),
        vertical: i
            .feature_gates
            .in_place_workload_vertical_scaling
            .unwrap_or(false),
        resize: resize_by_subresource(i.server_version.as_deref(), "serverVersion")?,
    };
    let mut pod = pod_object(&i.pod)?;
    let view = PodView::read(&pod)?;
    let meta = get_obj(pod.get("metadata"), "pod.metadata")?;
    let ann = meta
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object);
    if let Some((k, text)) = annotation(ann, [GRACE_KEY, GRACE_KEY_OLD])
        && !text.is_empty()
    {
        let (k, text) = (k.to_string(), text.to_string());
        return finish_grace(pod, &k, &text, &c);
    }
    let state_entry =
        annotation(ann, [STATE_KEY, STATE_KEY_OLD]).map(|(k, v)| (k.to_string(), v.to_string()));
    if let Some((state_key, state_text)) = state_entry {
        let st = decode_state(
            &state_text,
            &format!("pod.metadata.annotations.{state_key}"),
        )?;
        let done = containers_completion(&Value::Object(pod.clone()), c.vertical)?;
        match done.completed {
            Some(true) => {}
            Some(false) => {
                return Ok(InplaceRefreshOutput {
                    state: state_value(&pod),
                    ..out(
                        RefreshAction::Nothing,
                        format!("the in-place update has not completed: {}", done.message),
                    )
                });
            }
            None => {
                return Err(Error::at(
                    UNSUPPORTED,
                    "pod.metadata.annotations.apps.kruise.io/runtime-containers-meta",
                    done.message,
                ));
            }
        }
        if !st.next_images.is_empty() || !st.next_meta.is_empty() || !st.next_resources.is_empty() {
            if let Some(reason) = pre_check(&pod, st.pre_check.as_deref())? {
                return Ok(InplaceRefreshOutput {
                    state: state_value(&pod),
                    ..out(RefreshAction::Nothing, reason)
                });
            }
            if !st.next_images.is_empty() || !st.next_meta.is_empty() {
                let spec = PodPatchSpec {
                    container_images: st.next_images.clone(),
                    container_resources: st.next_resources.clone(),
                    container_ref_metadata: st.next_meta.clone(),
                    update_env_from_metadata: st.env,
                    metadata_patch: None,
                };
                let (containers, resize_patch) = apply(&mut pod, &spec, &st, &c)?;
                let state = state_value(&pod);
                return Ok(InplaceRefreshOutput {
                    pod: Some(Value::Object(pod)),
                    state,
                    containers,
                    resize_patch,
                    ..out(
                        RefreshAction::NextBatch,
                        "the previous batch is ready: the next batch is updated",
                    )
                });
            }
        }
    }
    let state = state_value(&pod);
    if !view.gates.iter().any(|g| g == READY_GATE) {
        return Ok(InplaceRefreshOutput {
            state,
            ..out(
                RefreshAction::Nothing,
                "the pod has no InPlaceUpdateReady readiness gate",
            )
        });
    }
    // hasEqualCondition: the first InPlaceUpdateReady condition is True without reason/message
    let status = get_obj(pod.get("status"), "pod.status")?;
    let list: &[Value] = match status.and_then(|s| s.get("conditions")) {
        Some(Value::Array(a)) => a,
        _ => &[],
    };
    let first = list
        .iter()
        .find(|x| x.get("type").and_then(Value::as_str) == Some(READY_GATE));
    let s = |k: &str| {
        first
            .and_then(|x| x.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    if first.is_some() && s("status") == "True" && s("reason").is_empty() && s("message").is_empty()
    {
        return Ok(InplaceRefreshOutput {
            state,
            ..out(RefreshAction::Nothing, "InPlaceUpdateReady is already True")
        });
    }
    let mut conds = view.conditions.clone();
    {
        let st = member_obj(&mut pod, "status");
        let list = st
            .entry("conditions")
            .or_insert_with(|| Value::Array(Vec::new()));
        if !list.is_array() {
            *list = Value::Array(Vec::new());
        }
        if let Value::Array(list) = list {
            let mut new = Map::new();
            new.insert("type".into(), READY_GATE.into());
            new.insert("status".into(), "True".into());
            new.insert("lastProbeTime".into(), Value::Null);
            new.insert("lastTransitionTime".into(), c.now.clone().into());
            set_condition(list, &mut conds, new);
        }
    }
    Ok(InplaceRefreshOutput {
        pod: Some(Value::Object(pod)),
        state,
        ..out(
            RefreshAction::Ready,
            "the in-place update has completed: InPlaceUpdateReady set True",
        )
    })
}

/// `doPreCheckBeforeNext`: the reason the next batch waits, if it does.
fn pre_check(pod: &Map<String, Value>, names: Option<&[String]>) -> Result<Option<String>> {
    let status = get_obj(pod.get("status"), "pod.status")?;
    let statuses: &[Value] = match status.and_then(|s| s.get("containerStatuses")) {
        Some(Value::Array(a)) => a,
        _ => &[],
    };
    for n in names.unwrap_or(&[]) {
        let found = statuses
            .iter()
            .find(|s| s.get("name").and_then(Value::as_str) == Some(n.as_str()));
        match found {
            None => return Ok(Some(format!("not found container {n} in pod status"))),
            Some(s) => {
                let ready = match s.get("ready") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => *b,
                    Some(o) => {
                        return Err(Error::invalid_input(
                            "pod.status.containerStatuses.ready",
                            format_args!("expected a boolean, got {}", type_name(o)),
                        ));
                    }
                };
                if !ready {
                    return Ok(Some(format!("waiting container {n} to be ready")));
                }
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_like_go_std_encoding() {
        assert_eq!(base64_decode("").unwrap(), b"");
        assert_eq!(base64_decode("eyJhIjoxfQ==").unwrap(), br#"{"a":1}"#);
        assert_eq!(base64_decode("YWI=").unwrap(), b"ab");
        assert_eq!(base64_decode("YWJj").unwrap(), b"abc");
        // Go skips line breaks
        assert_eq!(base64_decode("YW\r\nJj").unwrap(), b"abc");
        assert!(base64_decode("%%").is_none());
        assert!(base64_decode("YWI").is_none());
        assert!(base64_decode("YQ==YWJj").is_none());
    }

    #[test]
    fn state_decoding_keeps_go_shapes() {
        let s = decode_state(
            r#"{"revision":"r","updateTimestamp":"2026-06-21T09:59:57.5+02:00","containerBatchesRecord":[{"timestamp":null,"containers":null}],"nextContainerImages":{"a":null}}"#,
            "s",
        )
        .unwrap();
        assert_eq!(s.time.as_deref(), Some("2026-06-21T07:59:57Z"));
        assert_eq!(s.batches, vec![(None, None)]);
        assert_eq!(s.next_images.get("a").map(String::as_str), Some(""));
        let e = decode_state(r#"{"updateImages":"yes"}"#, "s").unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            (INVALID_ANNOTATION, Some("s.updateImages"))
        );
        assert!(decode_state("null", "s").unwrap().revision.is_empty());
    }
}
