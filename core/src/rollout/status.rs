//! CloneSet status from its pods: `calculateStatus` of OpenKruise v1.9.0
//! `pkg/controller/cloneset/cloneset_status.go` with the values `Reconcile`
//! (`cloneset_controller.go`) puts into the new status before it (observed generation, revisions,
//! label selector) and the pod list it hands over (`getOwnedPods`: pods owned by the CloneSet's
//! UID, active ones only).
//!
//! Per active pod (phase neither `Succeeded` nor `Failed`, no `deletionTimestamp`; Kubernetes'
//! `IsPodActive`):
//!
//! - **ready** (`IsPodUpdateReady(pod, 0)`, `cloneset/core/cloneset_core.go`): phase `Running`,
//!   the first `Ready` condition `True`, and the first `InPlaceUpdateReady` condition absent or
//!   `True`;
//! - **available** (`sync.IsPodAvailable`, `cloneset_sync_utils.go`): the label
//!   `lifecycle.apps.kruise.io/state` absent, empty or `Normal`, and ready as above with
//!   `spec.minReadySeconds`: when that is not 0 the `Ready` condition's `lastTransitionTime` must
//!   be set and strictly before `now − minReadySeconds` (Kubernetes' `podutil.IsPodAvailable`);
//! - **updated** (`EqualToRevisionHash`, `cloneset/utils/cloneset_utils.go`): the pod's
//!   `controller-revision-hash` label equals the update revision, or both end in the same
//!   `-`-separated last piece (the short hash).
//!
//! Then `currentRevision` becomes the update revision when every pod is updated and their number is
//! `spec.replicas`; `expectedUpdatedReplicas = spec.replicas − partition` (`CalculatePartitionReplicas`
//! through [`super::partition::cloneset_partition`]; a partition it refuses leaves 0, as the
//! controller leaves the field unset); the `Progressing` condition is [`super::progress`]'s step on
//! these counters.

use super::active_pods::{Condition as PodCondition, time_of};
use super::partition::cloneset_partition;
use super::progress::{
    ProgressInput, ProgressInputSpec, ProgressInputStrategy, ProgressOutput, ProgressStatus,
    ProgressingCondition,
};
use crate::error::{Error, Result};
use crate::intstr::IntOrPercent;
use crate::k8s::null_as_default as null_default;
use crate::k8s::selector::LabelSelector;
use crate::k8s::validation::is_dns1123_subdomain;
use crate::time::parse_time;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

/// Error kind: a revision name that is empty or not a DNS-1123 subdomain (a ControllerRevision
/// name).
pub const INVALID_REVISION: &str = "invalid_revision";
/// Error kind: a pod whose `ownerReferences` do not name the CloneSet's UID (the controller lists
/// pods by owner UID, so it never counts such a pod).
pub const FOREIGN_POD: &str = "foreign_pod";
/// Error kind: a `matchExpressions` operator other than `In`, `NotIn`, `Exists`, `DoesNotExist`
/// (the controller stops before computing a status).
pub const INVALID_SELECTOR: &str = "invalid_selector";

/// Go's zero `metav1.Time`, for condition times the entry status lacks.
const GO_ZERO_TIME: &str = "0001-01-01T00:00:00Z";

/// The pod label carrying the revision (`apps.ControllerRevisionHashLabelKey`).
pub const REVISION_LABEL: &str = "controller-revision-hash";
/// The CloneSet lifecycle state label (`appspub.LifecycleStateKey`).
pub const LIFECYCLE_LABEL: &str = "lifecycle.apps.kruise.io/state";

/// `metadata` of a pod or a CloneSet: the shared [`crate::k8s::meta::ObjectMeta`] (read here:
/// `name` in messages, `uid` (on the CloneSet, absent or empty switches the owner check off),
/// `generation`, `labels`, `deletionTimestamp`, the owner references' `uid`s).
pub use crate::k8s::meta::{ObjectMeta, OwnerReference};
/// A pod as `kubectl get -o json` prints it: the shared [`crate::k8s::pod::Pod`] (read here:
/// labels, deletionTimestamp, ownerReferences, phase and conditions).
pub use crate::k8s::pod::{Pod, PodStatus};

/// `spec.updateStrategy` of the CloneSet (v1alpha1 layout; other members ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "StatusUpdateStrategy")]
pub struct UpdateStrategy {
    /// `partition`: pods kept on the old revision, an integer or a percentage of `spec.replicas`.
    pub partition: Option<IntOrPercent>,
    /// `paused`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<bool>")]
    pub paused: bool,
}

/// The CloneSet `spec` members read (others ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "StatusCloneSetSpec")]
pub struct CloneSetSpec {
    /// `replicas`; absent or null: 1 (the API default).
    pub replicas: Option<i32>,
    /// `minReadySeconds`; absent: 0.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub min_ready_seconds: i32,
    /// `selector`; absent or null: matches nothing (its string form is `""`).
    pub selector: Option<LabelSelector>,
    /// `progressDeadlineSeconds`; absent, null or 2147483647: no `Progressing` condition.
    pub progress_deadline_seconds: Option<i32>,
    /// `updateStrategy`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<UpdateStrategy>")]
    pub update_strategy: UpdateStrategy,
}

/// One `status.conditions[]` entry of the CloneSet (only `Progressing` is read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "StatusCloneSetCondition")]
pub struct CloneSetCondition {
    /// `type`.
    #[serde(rename = "type", deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `status`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub status: String,
    /// `reason`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub reason: String,
    /// `message`.
    pub message: Option<String>,
    /// `lastUpdateTime` (RFC 3339).
    pub last_update_time: Option<String>,
    /// `lastTransitionTime` (RFC 3339).
    pub last_transition_time: Option<String>,
}

/// The CloneSet `status` on entry, the members read (others ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "StatusCloneSetStatusIn")]
pub struct CloneSetStatusIn {
    /// `currentRevision`: the default of the input's `currentRevision`.
    pub current_revision: Option<String>,
    /// `updateRevision`: the default of the input's `updateRevision`.
    pub update_revision: Option<String>,
    /// `conditions` (the `Progressing` one is the condition on entry).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<CloneSetCondition>>")]
    pub conditions: Vec<CloneSetCondition>,
    /// `observedGeneration` written last time; absent: 0.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i64>")]
    pub observed_generation: i64,
    /// `replicas` written last time; absent: 0 (the counters are compared for `changed`).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub replicas: i32,
    /// `readyReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub ready_replicas: i32,
    /// `availableReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub available_replicas: i32,
    /// `updatedReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub updated_replicas: i32,
    /// `updatedReadyReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub updated_ready_replicas: i32,
    /// `updatedAvailableReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub updated_available_replicas: i32,
    /// `expectedUpdatedReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub expected_updated_replicas: i32,
    /// `labelSelector` written last time; absent: `""`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub label_selector: String,
}

/// The CloneSet as `kubectl get -o json` prints it (`apiVersion: apps.kruise.io/v1alpha1`), reduced
/// to the members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "StatusCloneSet")]
pub struct CloneSet {
    /// `metadata`: uid (owner check), generation.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<ObjectMeta>")]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<CloneSetSpec>")]
    pub spec: CloneSetSpec,
    /// `status` on entry.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<CloneSetStatusIn>")]
    pub status: CloneSetStatusIn,
}

/// Input of `rollout.cloneset_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClonesetStatusInput {
    /// The CloneSet.
    pub clone_set: CloneSet,
    /// Its pods as listed (inactive ones are skipped, as the controller skips them); absent: none.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<Pod>>")]
    pub pods: Vec<Pod>,
    /// The update revision's name (the ControllerRevision of the current template); absent or
    /// null: `cloneSet.status.updateRevision`.
    #[serde(default)]
    pub update_revision: Option<String>,
    /// The current revision's name; absent or null: `cloneSet.status.currentRevision`; empty: the
    /// update revision (the controller's choice when the recorded one is not found).
    #[serde(default)]
    pub current_revision: Option<String>,
    /// The reconcile time, RFC 3339 (availability under `minReadySeconds`, the condition times).
    pub now: String,
}

/// The computed CloneSet `status` fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ClonesetStatusFields")]
pub struct StatusFields {
    /// `metadata.generation` of the CloneSet.
    pub observed_generation: i64,
    /// Active pods.
    pub replicas: i32,
    /// Active pods running and ready (in-place update finished).
    pub ready_replicas: i32,
    /// Ready pods ready for `minReadySeconds` and in lifecycle state `Normal` (or none).
    pub available_replicas: i32,
    /// Pods on the update revision.
    pub updated_replicas: i32,
    /// Updated pods that are ready.
    pub updated_ready_replicas: i32,
    /// Updated pods that are available.
    pub updated_available_replicas: i32,
    /// `spec.replicas − partition` (0 when the partition does not resolve).
    pub expected_updated_replicas: i32,
    /// The current revision: the update revision once all `spec.replicas` pods run it.
    pub current_revision: String,
    /// The update revision.
    pub update_revision: String,
    /// `spec.selector` in Kubernetes' selector string form (`app=web,tier in (a,b)`).
    pub label_selector: String,
}

/// Output of `rollout.cloneset_status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClonesetStatusOutput {
    /// The computed fields.
    pub status: StatusFields,
    /// The `Progressing` condition step on them (`rollout.progress`).
    pub progressing: ProgressOutput,
    /// The controller writes the status: a field differs from the entry status (observed
    /// generation only when it grows) or the condition changed (`inconsistentStatus`).
    pub changed: bool,
}

fn first<'a>(conds: &'a [PodCondition], t: &str) -> Option<&'a PodCondition> {
    conds.iter().find(|c| c.type_ == t)
}

/// Kubernetes' `IsPodActive`.
pub fn is_active(p: &Pod) -> bool {
    p.status.phase != "Succeeded"
        && p.status.phase != "Failed"
        && p.metadata.deletion_timestamp.is_none()
}

/// Phase `Running`, the first `Ready` condition `True`, and with `min_ready` ≠ 0 its
/// `lastTransitionTime` set and `min_ready` seconds old: strictly before `now` (`strict`, Kubernetes'
/// `podutil.IsPodAvailable`) or at the latest `now` (the Advanced StatefulSet's
/// `isRunningAndAvailable`). `at` is the pod's path for a time that does not parse.
pub(crate) fn running_ready_for(
    p: &Pod,
    min_ready: i32,
    now: Timestamp,
    strict: bool,
    at: &str,
) -> Result<bool> {
    if p.status.phase != "Running" {
        return Ok(false);
    }
    let Some(idx) = p.status.conditions.iter().position(|c| c.type_ == "Ready") else {
        return Ok(false);
    };
    let ready = &p.status.conditions[idx];
    if ready.status != "True" {
        return Ok(false);
    }
    if min_ready == 0 {
        return Ok(true);
    }
    let ltt = time_of(
        ready.last_transition_time.as_deref(),
        &format!("{at}.status.conditions[{idx}].lastTransitionTime"),
    )?;
    Ok(ltt.is_some_and(|t| {
        t.checked_add(SignedDuration::from_secs(i64::from(min_ready)))
            .is_ok_and(|d| if strict { d < now } else { d <= now })
    }))
}

/// The lifecycle label `lifecycle.apps.kruise.io/state` is absent, empty or `Normal`.
pub(crate) fn lifecycle_normal(p: &Pod) -> bool {
    let state = p
        .metadata
        .labels
        .get(LIFECYCLE_LABEL)
        .map_or("", String::as_str);
    state.is_empty() || state == "Normal"
}

/// `IsPodUpdateReady(pod, min_ready)` of the CloneSet core control.
fn update_ready(p: &Pod, min_ready: i32, now: Timestamp, at: &str) -> Result<bool> {
    Ok(running_ready_for(p, min_ready, now, true, at)?
        && first(&p.status.conditions, "InPlaceUpdateReady").is_none_or(|c| c.status == "True"))
}

/// The last `-`-separated piece of a revision name (`GetShortHash`).
pub fn short_hash(h: &str) -> &str {
    h.rsplit('-').next().unwrap_or(h)
}

/// `EqualToRevisionHash`: the pod's revision label equals `rev` or has the same short hash.
pub fn is_updated(p: &Pod, rev: &str) -> bool {
    let h = p
        .metadata
        .labels
        .get(REVISION_LABEL)
        .map_or("", String::as_str);
    h == rev || short_hash(h) == short_hash(rev)
}

/// apimachinery's `Selector.String()` of the selector kruise's `ValidatedLabelSelectorAsSelector`
/// builds: requirements sorted by key (stable), `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`,
/// values sorted, joined by `,`; absent or empty selector: `""`. Keys and values are not
/// validated (that function does not); an unknown operator is `invalid_selector` naming
/// `{at}.matchExpressions[i].operator` (`at`: the selector's path in the input).
pub fn selector_string(sel: Option<&LabelSelector>, at: &str) -> Result<String> {
    let Some(sel) = sel else {
        return Ok(String::new());
    };
    let mut reqs: Vec<(&str, String)> = Vec::new();
    for (k, v) in sel.match_labels.iter().flatten() {
        reqs.push((k, format!("{k}={v}")));
    }
    for (i, e) in sel.match_expressions.iter().flatten().enumerate() {
        let mut vals: Vec<&str> = e.values.iter().flatten().map(String::as_str).collect();
        vals.sort_unstable();
        let k = &e.key;
        let s = match e.operator.as_str() {
            "In" => format!("{k} in ({})", vals.join(",")),
            "NotIn" => format!("{k} notin ({})", vals.join(",")),
            "Exists" => k.clone(),
            "DoesNotExist" => format!("!{k}"),
            op => {
                return Err(Error::at(
                    INVALID_SELECTOR,
                    format!("{at}.matchExpressions[{i}].operator"),
                    format_args!("{op:?} is not a valid pod selector operator"),
                ));
            }
        };
        reqs.push((k, s));
    }
    reqs.sort_by(|a, b| a.0.cmp(b.0));
    Ok(reqs
        .into_iter()
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join(","))
}

/// The update and current revision names, each given as (the input's, the entry status's): the
/// input's wins; an absent or empty current revision is the update revision (the controller's
/// choice when the recorded one no longer exists). Errors: `invalid_revision` naming
/// `updateRevision` or `currentRevision`.
pub(crate) fn revisions(
    update: (Option<&str>, Option<&str>),
    current: (Option<&str>, Option<&str>),
) -> Result<(String, String)> {
    let update = revision(update.0.or(update.1), "updateRevision")?;
    let current = match current.0.or(current.1) {
        None | Some("") => update.clone(),
        Some(c) => revision(Some(c), "currentRevision")?,
    };
    Ok((update, current))
}

/// A revision name: non-empty and a DNS-1123 subdomain, else `invalid_revision` naming `field`.
fn revision(v: Option<&str>, field: &str) -> Result<String> {
    let v = v.unwrap_or("");
    if v.is_empty() || !is_dns1123_subdomain(v) {
        return Err(Error::at(
            INVALID_REVISION,
            field,
            format_args!("{v:?} is not a revision name (a DNS-1123 subdomain)"),
        ));
    }
    Ok(v.to_string())
}

/// `rollout.cloneset_status` on typed input. Errors: `invalid_revision` (`updateRevision`,
/// `currentRevision`), `foreign_pod` (`pods[i].metadata.ownerReferences`), `invalid_selector`,
/// `invalid_input` naming a time that is not RFC 3339 or a written status field of the wrong type.
pub fn cloneset_status(i: &ClonesetStatusInput) -> Result<ClonesetStatusOutput> {
    let cs = &i.clone_set;
    let now = parse_time(&i.now, "now")?;
    let (update, current) = revisions(
        (
            i.update_revision.as_deref(),
            cs.status.update_revision.as_deref(),
        ),
        (
            i.current_revision.as_deref(),
            cs.status.current_revision.as_deref(),
        ),
    )?;
    let label_selector = selector_string(cs.spec.selector.as_ref(), "cloneSet.spec.selector")?;
    let replicas = cs.spec.replicas.unwrap_or(1);
    let mrs = cs.spec.min_ready_seconds;
    let mut s = StatusFields {
        observed_generation: cs.metadata.generation,
        current_revision: current,
        update_revision: update,
        label_selector,
        ..Default::default()
    };
    for (n, p) in i.pods.iter().enumerate() {
        let at = format!("pods[{n}]");
        if !cs.metadata.uid.is_empty()
            && !p.metadata.owner_references.is_empty()
            && !p
                .metadata
                .owner_references
                .iter()
                .any(|o| o.uid == cs.metadata.uid)
        {
            return Err(Error::at(
                FOREIGN_POD,
                format!("{at}.metadata.ownerReferences"),
                format_args!(
                    "pod {:?} is not owned by the CloneSet (uid {})",
                    p.metadata.name, cs.metadata.uid
                ),
            ));
        }
        if let Some(d) = &p.metadata.deletion_timestamp {
            parse_time(d, &format!("{at}.metadata.deletionTimestamp"))?;
        }
        if !is_active(p) {
            continue;
        }
        let ready = update_ready(p, 0, now, &at)?;
        let available = lifecycle_normal(p) && update_ready(p, mrs, now, &at)?;
        let updated = is_updated(p, &s.update_revision);
        s.replicas += 1;
        s.ready_replicas += i32::from(ready);
        s.available_replicas += i32::from(available);
        s.updated_replicas += i32::from(updated);
        s.updated_ready_replicas += i32::from(updated && ready);
        s.updated_available_replicas += i32::from(updated && available);
    }
    if s.updated_replicas == s.replicas && s.replicas == replicas {
        s.current_revision = s.update_revision.clone();
    }
    if let Ok(p) = cloneset_partition(cs.spec.update_strategy.partition.as_ref(), Some(replicas)) {
        s.expected_updated_replicas = (i64::from(replicas) - p) as i32;
    }
    let condition = match cs
        .status
        .conditions
        .iter()
        .position(|c| c.type_ == "Progressing")
    {
        None => None,
        Some(k) => {
            let c = &cs.status.conditions[k];
            let time = |v: &Option<String>| v.clone().unwrap_or_else(|| GO_ZERO_TIME.into());
            Some(ProgressingCondition {
                kind: c.type_.clone(),
                status: c.status.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
                last_update_time: time(&c.last_update_time),
                last_transition_time: time(&c.last_transition_time),
            })
        }
    };
    let progressing = super::progress::progress(&ProgressInput {
        spec: ProgressInputSpec {
            replicas: Some(replicas),
            progress_deadline_seconds: cs.spec.progress_deadline_seconds,
            update_strategy: ProgressInputStrategy {
                paused: cs.spec.update_strategy.paused,
            },
        },
        status: ProgressStatus {
            replicas: s.replicas,
            updated_replicas: s.updated_replicas,
            updated_available_replicas: s.updated_available_replicas,
            expected_updated_replicas: s.expected_updated_replicas,
            current_revision: s.current_revision.clone(),
            update_revision: s.update_revision.clone(),
        },
        condition,
        now: i.now.clone(),
    })
    .map_err(|e| match e.field.as_deref() {
        Some(f) if f.starts_with("condition.") => {
            let k = cs
                .status
                .conditions
                .iter()
                .position(|c| c.type_ == "Progressing")
                .unwrap_or(0);
            Error::invalid_input(
                format!(
                    "cloneSet.status.conditions[{k}].{}",
                    &f["condition.".len()..]
                ),
                e.message
                    .strip_prefix(&format!("{f}: "))
                    .unwrap_or(&e.message),
            )
        }
        _ => e,
    })?;
    let changed = status_changed(&cs.status, &s) || progressing.changed;
    Ok(ClonesetStatusOutput {
        status: s,
        progressing,
        changed,
    })
}

/// `inconsistentStatus` without the condition: any counter, revision or the selector differs from
/// the entry status, or the observed generation grew.
fn status_changed(old: &CloneSetStatusIn, s: &StatusFields) -> bool {
    s.observed_generation > old.observed_generation
        || (old.replicas, old.ready_replicas, old.available_replicas)
            != (s.replicas, s.ready_replicas, s.available_replicas)
        || (
            old.updated_replicas,
            old.updated_ready_replicas,
            old.updated_available_replicas,
        ) != (
            s.updated_replicas,
            s.updated_ready_replicas,
            s.updated_available_replicas,
        )
        || old.expected_updated_replicas != s.expected_updated_replicas
        || old.update_revision.as_deref().unwrap_or("") != s.update_revision
        || old.current_revision.as_deref().unwrap_or("") != s.current_revision
        || old.label_selector != s.label_selector
}

/// `rollout.cloneset_status`: the CloneSet status computed from its pods.
pub struct ClonesetStatus;

impl crate::registry::Decision for ClonesetStatus {
    const ID: &'static str = "rollout.cloneset_status";
    const DOC: &'static str = "CloneSet status from its pods: ready/available/updated counts, expectedUpdatedReplicas, currentRevision, labelSelector, Progressing condition (kruise cloneset_status.go calculateStatus)";
    const SOURCE: &'static str = "pkg/controller/cloneset/cloneset_status.go calculateStatus, inconsistentStatus; \
        pkg/controller/cloneset/cloneset_controller.go Reconcile (new status), getOwnedPods; \
        pkg/controller/cloneset/core/cloneset_core.go IsPodUpdateReady; \
        pkg/controller/cloneset/sync/cloneset_sync_utils.go IsPodAvailable; \
        pkg/controller/cloneset/utils/cloneset_utils.go EqualToRevisionHash; \
        pkg/util/selector.go ValidatedLabelSelectorAsSelector";
    const ERRORS: &'static [&'static str] = &[INVALID_REVISION, FOREIGN_POD, INVALID_SELECTOR];
    type Input = ClonesetStatusInput;
    type Output = ClonesetStatusOutput;

    fn decide(input: ClonesetStatusInput) -> Result<ClonesetStatusOutput> {
        cloneset_status(&input)
    }
}
