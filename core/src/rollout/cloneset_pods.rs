//! Which CloneSet pods the controller touches in one reconcile pass, and in what order:
//! `rollout.cloneset_pods_to_update` (the update path, `Update`, `SortUpdateIndexes` and
//! `limitUpdateIndexes` of OpenKruise v1.9.0 `pkg/controller/cloneset/sync/cloneset_update.go`,
//! with the priority and scatter sorters of `pkg/util/updatesort`) and
//! `rollout.cloneset_pods_to_delete` (the scale path, `Scale`, `managePreparingDelete`,
//! `getPlannedDeletedPods`, `choosePodsToDelete` and `deletePods` of `cloneset_scale.go`, with the
//! `ActivePodsWithRanks` deletion order and the same-node ranker of
//! `pkg/controller/cloneset/utils/pod_sorter.go`).
//!
//! Both take the CloneSet and its pods as the controller lists them (pods being deleted or
//! finished are skipped, as the controller never sees them) and read the pods' lifecycle state
//! label `lifecycle.apps.kruise.io/state` as it stands: the lifecycle transitions the controller
//! writes first (`refreshPodState`, which then ends the pass) are not computed here.

use super::active_pods::{self, Condition, SortKey, time_of};
use super::cloneset_budget::{BudgetSpec, Params, diffs};
use super::pods::{LifecycleState, PodView};
use super::status::{FOREIGN_POD, LIFECYCLE_LABEL, is_updated, revisions};
use crate::error::{Error, Result};
use crate::intstr::IntOrPercent;
use crate::k8s::null_as_default as null_default;
use crate::k8s::selector::LabelSelector;
use crate::time::parse_time;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Most pods one call accepts.
pub const MAX_PODS: usize = 5_000;
/// Most priority / scatter terms one call accepts.
pub const MAX_TERMS: usize = 20;

/// Label `apps.kruise.io/specified-delete` (its presence marks a pod for deletion).
pub const SPECIFIED_DELETE_LABEL: &str = "apps.kruise.io/specified-delete";
/// Annotation of a pending in-place update waiting for its grace period.
pub const INPLACE_GRACE_ANNOTATION: &str = "apps.kruise.io/inplace-update-grace";
/// The older spelling of [`INPLACE_GRACE_ANNOTATION`], read when that one is absent.
pub const INPLACE_GRACE_ANNOTATION_OLD: &str = "inplace-update-grace";
/// Annotation giving a pod's deletion cost (int32; lower is deleted first).
pub const DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";
/// CloneSet label switching `scalingExcludePreparingDelete` on (value `"true"`).
pub const SCALING_EXCLUDE_PREPARING_DELETE_LABEL: &str =
    "apps.kruise.io/cloneset-scaling-exclude-preparing-delete";

/// The update types the CRD accepts (`""` is the API default `ReCreate`).
pub const UPDATE_TYPES: [&str; 5] = [
    "",
    "ReCreate",
    "InPlaceIfPossible",
    "InPlaceOnly",
    "OnDelete",
];

// ---------------------------------------------------------------------------------------------
// Shapes

/// `metadata` of a pod (other members ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "ClonesetPodsPodMeta")]
pub struct PodMeta {
    /// `name`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `uid` (the same-node ranker keys its ranks by it).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub uid: String,
    /// `labels`: `controller-revision-hash`, `lifecycle.apps.kruise.io/state`,
    /// `apps.kruise.io/specified-delete`, the priority / scatter / lifecycle hook labels.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
    /// `annotations`: `apps.kruise.io/inplace-update-grace` (or `inplace-update-grace`),
    /// `controller.kubernetes.io/pod-deletion-cost`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub annotations: BTreeMap<String, String>,
    /// `finalizers` (lifecycle hooks).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<String>>")]
    pub finalizers: Vec<String>,
    /// `creationTimestamp` (RFC 3339; absent or null is the zero time).
    pub creation_timestamp: Option<String>,
    /// `deletionTimestamp` (RFC 3339); set: the pod is skipped (not active).
    pub deletion_timestamp: Option<String>,
    /// `ownerReferences` (their `uid`s are checked against the CloneSet's).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<super::status::OwnerReference>>")]
    pub owner_references: Vec<super::status::OwnerReference>,
}

/// A pod as `kubectl get -o json` prints it, reduced to the members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "ClonesetPodsPod")]
pub struct Pod {
    /// `metadata`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<PodMeta>")]
    pub metadata: PodMeta,
    /// `spec`: `nodeName`, `initContainers` (sidecar restarts).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<active_pods::Spec>")]
    pub spec: active_pods::Spec,
    /// `status`: phase, conditions (`Ready`, `InPlaceUpdateReady`), container restarts.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<active_pods::Status>")]
    pub status: active_pods::Status,
}

/// One `weightPriority[]` term.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct WeightTerm {
    /// `weight` (int32) added for each matching pod.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub weight: i32,
    /// `matchSelector`; a term whose selector has an unknown operator is skipped.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<LabelSelector>")]
    pub match_selector: LabelSelector,
}

/// One `orderPriority[]` term.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct OrderTerm {
    /// `orderedKey`: a label whose value's trailing digits order the pods (higher first).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub ordered_key: String,
}

/// `updateStrategy.priorityStrategy`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityStrategy {
    /// `weightPriority`: used when non-empty (then `orderPriority` is ignored).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<WeightTerm>>")]
    pub weight_priority: Vec<WeightTerm>,
    /// `orderPriority`: the first term whose key the pod has gives its level (pods with none of
    /// the keys come first).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<OrderTerm>>")]
    pub order_priority: Vec<OrderTerm>,
}

/// One `scatterStrategy[]` term.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct ScatterTerm {
    /// `key` (a label key).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `value` (a label value).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
}

/// `spec.updateStrategy` (v1alpha1 layout).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "ClonesetPodsUpdateStrategy")]
pub struct UpdateStrategy {
    /// `type`: `ReCreate`, `InPlaceIfPossible`, `InPlaceOnly` or `OnDelete`; absent or `""`:
    /// `ReCreate`. Any other value is `invalid_input`.
    #[serde(rename = "type", deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `partition`, int-or-percent of `replicas` (rounded up); absent: 0.
    pub partition: Option<IntOrPercent>,
    /// `maxUnavailable`, int-or-percent; absent: `"20%"`.
    pub max_unavailable: Option<IntOrPercent>,
    /// `maxSurge`, int-or-percent; absent: 0.
    pub max_surge: Option<IntOrPercent>,
    /// `paused`: no pod is updated.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<bool>")]
    pub paused: bool,
    /// `priorityStrategy`.
    pub priority_strategy: Option<PriorityStrategy>,
    /// `scatterStrategy`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<ScatterTerm>>")]
    pub scatter_strategy: Vec<ScatterTerm>,
}

/// `spec.scaleStrategy`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct ScaleStrategy {
    /// `podsToDelete`: names of pods to delete.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<String>>")]
    pub pods_to_delete: Vec<String>,
    /// `maxUnavailable`, int-or-percent; absent: no limit on creations.
    pub max_unavailable: Option<IntOrPercent>,
}

/// A lifecycle hook (`spec.lifecycle.preDelete` / `inPlaceUpdate`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct LifecycleHook {
    /// `labelsHandler`: a pod with any of these labels (same value) is hooked.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels_handler: BTreeMap<String, String>,
    /// `finalizersHandler`: a pod with any of these finalizers is hooked.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<String>>")]
    pub finalizers_handler: Vec<String>,
    /// `markPodNotReady`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<bool>")]
    pub mark_pod_not_ready: bool,
}

impl LifecycleHook {
    /// `IsPodHooked`.
    fn hooks(&self, p: &Pod) -> bool {
        self.finalizers_handler
            .iter()
            .any(|f| p.metadata.finalizers.contains(f))
            || self
                .labels_handler
                .iter()
                .any(|(k, v)| p.metadata.labels.get(k).map_or("", String::as_str) == v)
    }
}

/// `spec.lifecycle`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct Lifecycle {
    /// `preDelete`: a hooked pod goes to `PreparingDelete` instead of being deleted.
    pub pre_delete: Option<LifecycleHook>,
    /// `inPlaceUpdate` (its `markPodNotReady` is read).
    pub in_place_update: Option<LifecycleHook>,
}

/// `spec` of the CloneSet.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "ClonesetPodsSpec")]
pub struct CloneSetSpec {
    /// `replicas`; absent or null: 1 (the API default).
    pub replicas: Option<i32>,
    /// `minReadySeconds`; absent: 0.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub min_ready_seconds: i32,
    /// `updateStrategy`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<UpdateStrategy>")]
    pub update_strategy: UpdateStrategy,
    /// `scaleStrategy`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<ScaleStrategy>")]
    pub scale_strategy: ScaleStrategy,
    /// `lifecycle`.
    pub lifecycle: Option<Lifecycle>,
}

/// `metadata` of the CloneSet.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "ClonesetPodsMeta")]
pub struct CloneSetMeta {
    /// `uid`; absent or empty switches the owner check off.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub uid: String,
    /// `labels` (`apps.kruise.io/cloneset-scaling-exclude-preparing-delete: "true"`).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
}

/// `status` of the CloneSet (the revisions).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "ClonesetPodsStatus")]
pub struct CloneSetStatus {
    /// `updateRevision`: the default of the input's `updateRevision`.
    pub update_revision: Option<String>,
    /// `currentRevision`: the default of the input's `currentRevision`.
    pub current_revision: Option<String>,
}

/// The CloneSet (`apps.kruise.io/v1alpha1`), reduced to the members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "ClonesetPodsCloneSet")]
pub struct CloneSet {
    /// `metadata`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<CloneSetMeta>")]
    pub metadata: CloneSetMeta,
    /// `spec`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<CloneSetSpec>")]
    pub spec: CloneSetSpec,
    /// `status`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<CloneSetStatus>")]
    pub status: CloneSetStatus,
}

/// Feature gates read by the two fns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "ClonesetPodsFeatureGates")]
pub struct FeatureGates {
    /// `CloneSetPartitionRollback` (a larger partition rolls pods back); absent: off.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<bool>")]
    pub clone_set_partition_rollback: bool,
    /// `PreparingUpdateAsUpdate` (scale path: a `PreparingUpdate` pod counts as updated);
    /// absent: off.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<bool>")]
    pub preparing_update_as_update: bool,
}

/// Input of `rollout.cloneset_pods_to_update` and `rollout.cloneset_pods_to_delete`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClonesetPodsInput {
    /// The CloneSet.
    pub clone_set: CloneSet,
    /// Its pods as listed (at most 5,000); pods with a `deletionTimestamp` or in phase
    /// `Succeeded`/`Failed` are skipped; absent: none.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<Pod>>")]
    pub pods: Vec<Pod>,
    /// The update revision's name; absent or null: `cloneSet.status.updateRevision`.
    #[serde(default)]
    pub update_revision: Option<String>,
    /// The current revision's name; absent or null: `cloneSet.status.currentRevision`; empty:
    /// the update revision.
    #[serde(default)]
    pub current_revision: Option<String>,
    /// The reconcile time, RFC 3339 (availability under `minReadySeconds`).
    pub now: String,
    /// Feature gates; absent: all off.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<FeatureGates>")]
    pub feature_gates: FeatureGates,
    /// The controller flag `--cloneset-scaling-exclude-preparing-delete` (the CloneSet label of
    /// that name also switches it on); absent: off.
    #[serde(default)]
    pub scaling_exclude_preparing_delete: bool,
}

// ---------------------------------------------------------------------------------------------
// Shared preparation

/// One active pod with what both paths read, resolved once.
struct Prepared<'a> {
    pod: &'a Pod,
    view: PodView,
    key: SortKey,
    /// `IsPodAvailable(minReadySeconds)`.
    available: bool,
    /// `IsPodAvailable(0)` (`isPodReady` of the scale path).
    ready_now: bool,
    state: &'a str,
}

struct Context<'a> {
    cs: &'a CloneSet,
    pods: Vec<Prepared<'a>>,
    update: String,
    current: String,
    params: Params,
    rollback_allowed: bool,
    exclude_preparing_delete: bool,
}

fn lifecycle_state(s: &str) -> LifecycleState {
    match s {
        "" => LifecycleState::None,
        "PreparingNormal" => LifecycleState::PreparingNormal,
        "Normal" => LifecycleState::Normal,
        "PreparingUpdate" => LifecycleState::PreparingUpdate,
        "Updated" => LifecycleState::Updated,
        "PreparingDelete" => LifecycleState::PreparingDelete,
        // `Updating` and any unknown value: not available and not special in either path.
        _ => LifecycleState::Updating,
    }
}

fn is_active(p: &Pod) -> bool {
    p.status.phase != "Succeeded"
        && p.status.phase != "Failed"
        && p.metadata.deletion_timestamp.is_none()
}

/// `IsPodUpdateReady(pod, min_ready)`: running, first `Ready` condition true and (with
/// `min_ready` > 0) its transition strictly more than `min_ready` seconds before `now`, and the
/// first `InPlaceUpdateReady` condition (if any) true.
fn update_ready(p: &Pod, min_ready: i32, now: Timestamp, at: &str) -> Result<bool> {
    if p.status.phase != "Running" {
        return Ok(false);
    }
    let conds: &[Condition] = &p.status.conditions;
    let Some(idx) = conds.iter().position(|c| c.type_ == "Ready") else {
        return Ok(false);
    };
    if conds[idx].status != "True" {
        return Ok(false);
    }
    if min_ready > 0 {
        let t = time_of(
            conds[idx].last_transition_time.as_deref(),
            &format!("{at}.status.conditions[{idx}].lastTransitionTime"),
        )?;
        let ok = t.is_some_and(|t| {
            t.checked_add(SignedDuration::from_secs(i64::from(min_ready)))
                .is_ok_and(|d| d < now)
        });
        if !ok {
            return Ok(false);
        }
    }
    Ok(conds
        .iter()
        .find(|c| c.type_ == "InPlaceUpdateReady")
        .is_none_or(|c| c.status == "True"))
}

fn prepare(i: &ClonesetPodsInput) -> Result<Context<'_>> {
    let cs = &i.clone_set;
    let now = parse_time(&i.now, "now")?;
    let ty = cs.spec.update_strategy.type_.as_str();
    if !UPDATE_TYPES.contains(&ty) {
        return Err(Error::invalid_input(
            "cloneSet.spec.updateStrategy.type",
            format_args!(
                "{ty:?} is not an update type (ReCreate, InPlaceIfPossible, InPlaceOnly, OnDelete)"
            ),
        ));
    }
    if i.pods.len() > MAX_PODS {
        return Err(Error::invalid_input(
            "pods",
            format_args!("{} pods (at most {MAX_PODS})", i.pods.len()),
        ));
    }
    let ps = cs.spec.update_strategy.priority_strategy.as_ref();
    let weights = ps.map_or(0, |p| p.weight_priority.len());
    let orders = ps.map_or(0, |p| p.order_priority.len());
    for (n, field) in [
        (
            weights,
            "cloneSet.spec.updateStrategy.priorityStrategy.weightPriority",
        ),
        (
            orders,
            "cloneSet.spec.updateStrategy.priorityStrategy.orderPriority",
        ),
        (
            cs.spec.update_strategy.scatter_strategy.len(),
            "cloneSet.spec.updateStrategy.scatterStrategy",
        ),
    ] {
        if n > MAX_TERMS {
            return Err(Error::invalid_input(
                field,
                format_args!("{n} terms (at most {MAX_TERMS})"),
            ));
        }
    }
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
    let mrs = cs.spec.min_ready_seconds;
    let to_delete: BTreeSet<&str> = cs
        .spec
        .scale_strategy
        .pods_to_delete
        .iter()
        .map(String::as_str)
        .collect();
    let mut pods = Vec::with_capacity(i.pods.len());
    for (n, p) in i.pods.iter().enumerate() {
        let at = format!("pods[{n}]");
        let uid = &cs.metadata.uid;
        if !uid.is_empty()
            && !p.metadata.owner_references.is_empty()
            && !p.metadata.owner_references.iter().any(|o| &o.uid == uid)
        {
            return Err(Error::at(
                FOREIGN_POD,
                format!("{at}.metadata.ownerReferences"),
                format_args!(
                    "pod {:?} is not owned by the CloneSet (uid {uid})",
                    p.metadata.name
                ),
            ));
        }
        if let Some(d) = &p.metadata.deletion_timestamp {
            parse_time(d, &format!("{at}.metadata.deletionTimestamp"))?;
        }
        let key = active_pods::Pod {
            metadata: active_pods::Meta {
                name: String::new(),
                creation_timestamp: p.metadata.creation_timestamp.clone(),
                ..Default::default()
            },
            spec: p.spec.clone(),
            status: p.status.clone(),
        }
        .key()
        .map_err(|e| {
            Error::invalid_input(
                format!("{at}.{}", e.field.as_deref().unwrap_or("")),
                "not an RFC 3339 time",
            )
        })?;
        if !is_active(p) {
            continue;
        }
        let state = p
            .metadata
            .labels
            .get(LIFECYCLE_LABEL)
            .map_or("", String::as_str);
        let lifecycle_state = lifecycle_state(state);
        let normal = state.is_empty() || state == "Normal";
        let update_ready_mrs = update_ready(p, mrs, now, &at)?;
        let available = normal && update_ready_mrs;
        let ready_now = normal && update_ready(p, 0, now, &at)?;
        let view = PodView {
            updated: is_updated_pod(p, &update),
            lifecycle_state,
            available: update_ready_mrs,
            specified_delete: p.metadata.labels.contains_key(SPECIFIED_DELETE_LABEL)
                || to_delete.contains(p.metadata.name.as_str()),
        };
        pods.push(Prepared {
            pod: p,
            view,
            key,
            available,
            ready_now,
            state,
        });
    }
    let spec = BudgetSpec {
        replicas: cs.spec.replicas.unwrap_or(1),
        partition: cs.spec.update_strategy.partition.clone(),
        max_unavailable: cs.spec.update_strategy.max_unavailable.clone(),
        max_surge: cs.spec.update_strategy.max_surge.clone(),
        scale_max_unavailable: cs.spec.scale_strategy.max_unavailable.clone(),
        paused: cs.spec.update_strategy.paused,
        revision_consistent: update == current,
        partition_rollback: i.feature_gates.clone_set_partition_rollback,
        preparing_update_as_update: i.feature_gates.preparing_update_as_update,
        scaling_exclude_preparing_delete: i.scaling_exclude_preparing_delete
            || cs
                .metadata
                .labels
                .get(SCALING_EXCLUDE_PREPARING_DELETE_LABEL)
                .is_some_and(|v| v == "true"),
    };
    Ok(Context {
        cs,
        pods,
        params: Params::resolve(&spec),
        rollback_allowed: spec.partition_rollback && !spec.revision_consistent,
        exclude_preparing_delete: spec.scaling_exclude_preparing_delete,
        update,
        current,
    })
}

fn is_updated_pod(p: &Pod, rev: &str) -> bool {
    let h = p
        .metadata
        .labels
        .get(super::status::REVISION_LABEL)
        .map_or("", String::as_str);
    // the same rule as `status::is_updated`, on this fn's pod shape
    let probe = super::status::Pod {
        metadata: super::status::ObjectMeta {
            labels: BTreeMap::from([(super::status::REVISION_LABEL.to_string(), h.to_string())]),
            ..Default::default()
        },
        ..Default::default()
    };
    is_updated(&probe, rev)
}

impl Context<'_> {
    fn views(&self) -> Vec<PodView> {
        self.pods.iter().map(|p| p.view).collect()
    }

    fn name(&self, i: usize) -> String {
        self.pods[i].pod.metadata.name.clone()
    }
}

// ---------------------------------------------------------------------------------------------
// Update path

/// Why a pod is not updated in this pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub enum WaitReason {
    /// `updateStrategy.type` is `OnDelete`: the controller updates no pod.
    OnDelete,
    /// `updateStrategy.paused`.
    Paused,
    /// The update diff is 0: the revisions already match the partition.
    NoUpdateNeeded,
    /// The pod is already on the revision this pass moves pods to.
    OnTargetRevision,
    /// The pod is in lifecycle state `PreparingDelete`.
    PreparingDelete,
    /// The pod carries an in-place update grace annotation (an update in its grace period).
    InPlaceUpdateGrace,
    /// A candidate beyond `|updateNum|` in the update order.
    UpdateNumReached,
    /// A candidate stopped by the `maxUnavailable` budget.
    MaxUnavailable,
}

/// A pod that waits, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaitingPod {
    /// `metadata.name`.
    pub name: String,
    /// Why it is not updated now.
    pub reason: WaitReason,
}

/// Output of `rollout.cloneset_pods_to_update`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodsToUpdateOutput {
    /// The update diff of `calculateDiffsWithExpectation` (pods to move to the update revision,
    /// negative: back to the current one); 0 when the pass stops before computing it.
    pub update_num: i64,
    /// Its unavailability budget.
    pub update_max_unavailable: i64,
    /// The revision the pods move to (`updateRevision`, or `currentRevision` when rolling back);
    /// `""` when no pod moves.
    pub target_revision: String,
    /// Every candidate in the controller's update order (default `ActivePods` order, then the
    /// priority and scatter sorters, then `PreparingUpdate` pods first).
    pub update_order: Vec<String>,
    /// The pods updated in this pass: the head of `updateOrder` the budget allows.
    pub pods_to_update: Vec<String>,
    /// The other active pods, candidates cut by the budget first (in update order), then the
    /// others in input order.
    pub waiting: Vec<WaitingPod>,
}

/// `getIntFromStringSuffix`: the trailing decimal digits of `v` as an int64, 0 when none or out
/// of range.
fn int_suffix(v: &str) -> i64 {
    let digits = v.bytes().rev().take_while(u8::is_ascii_digit).count();
    v[v.len() - digits..].parse::<i64>().unwrap_or(0)
}

/// kruise's `ValidatedLabelSelectorAsSelector` and `Matches`: only an unknown operator is
/// refused (`None`); values are not validated, `In` with no values matches nothing, `NotIn`
/// with no values everything (with the key absent too).
fn weight_selector_matches(sel: &LabelSelector, labels: &BTreeMap<String, String>) -> Option<bool> {
    let exprs = sel.match_expressions.as_deref().unwrap_or_default();
    if exprs.iter().any(|e| {
        !matches!(
            e.operator.as_str(),
            "In" | "NotIn" | "Exists" | "DoesNotExist"
        )
    }) {
        return None;
    }
    let ml = sel.match_labels.as_ref();
    if ml.is_none_or(BTreeMap::is_empty) && exprs.is_empty() {
        return Some(true);
    }
    let eq = ml
        .into_iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v));
    Some(
        eq && exprs.iter().all(|r| {
            let values = r.values.as_deref().unwrap_or_default();
            match (r.operator.as_str(), labels.get(&r.key)) {
                ("In", Some(v)) => values.contains(v),
                ("NotIn", Some(v)) => !values.contains(v),
                ("NotIn", None) | ("Exists", Some(_)) | ("DoesNotExist", None) => true,
                _ => false,
            }
        }),
    )
}

fn priority_sort(ps: &PriorityStrategy, pods: &[Prepared<'_>], idx: &mut [usize]) {
    if !ps.weight_priority.is_empty() {
        let weight = |i: usize| -> i64 {
            ps.weight_priority
                .iter()
                .filter(|t| {
                    weight_selector_matches(&t.match_selector, &pods[i].pod.metadata.labels)
                        == Some(true)
                })
                .map(|t| i64::from(t.weight))
                .sum()
        };
        idx.sort_by_cached_key(|&i| std::cmp::Reverse(weight(i)));
    } else if !ps.order_priority.is_empty() {
        let level = |i: usize| -> (i64, std::cmp::Reverse<i64>) {
            let labels = &pods[i].pod.metadata.labels;
            for (n, t) in ps.order_priority.iter().enumerate() {
                if let Some(v) = labels.get(&t.ordered_key) {
                    return (n as i64, std::cmp::Reverse(int_suffix(v)));
                }
            }
            (-1, std::cmp::Reverse(0))
        };
        idx.sort_by_cached_key(|&i| level(i));
    }
}

struct ScatterGroup {
    groups: usize,
    matched_size: usize,
    unmatched_size: usize,
    unmatched_remainder: usize,
}

fn go_round(x: f64) -> usize {
    // math.Round: half away from zero; x is positive here
    x.round() as usize
}

fn scatter_group(matched: usize, unmatched: usize) -> ScatterGroup {
    let groups = matched.min(unmatched);
    ScatterGroup {
        groups,
        matched_size: go_round(matched as f64 / groups as f64),
        unmatched_size: go_round(unmatched as f64 / groups as f64),
        unmatched_remainder: 0,
    }
}

/// `calculateGroupByDensity` (every count is at least 1 here).
fn group_by_density(
    total_matched: usize,
    total_unmatched: usize,
    upd_matched: usize,
    upd_unmatched: usize,
) -> ScatterGroup {
    let total = scatter_group(total_matched, total_unmatched);
    let upd = scatter_group(upd_matched, upd_unmatched);
    if total_unmatched as f32 / total_matched as f32 >= upd_unmatched as f32 / upd_matched as f32 {
        return upd;
    }
    let (ms, us) = (total.matched_size, total.unmatched_size);
    let groups = (upd_matched / ms).min(upd_unmatched / us);
    ScatterGroup {
        groups,
        matched_size: ms,
        unmatched_size: us,
        unmatched_remainder: upd_unmatched - groups * us,
    }
}

fn migrate(src: &mut Vec<usize>, dst: &mut Vec<usize>, size: usize) {
    if src.len() < size {
        dst.append(src);
    } else {
        dst.extend(src.drain(..size));
    }
}

fn label<'a>(p: &'a Pod, k: &str) -> &'a str {
    p.metadata.labels.get(k).map_or("", String::as_str)
}

/// `scatterPodsByRule` for one term.
fn scatter_by_rule(t: &ScatterTerm, pods: &[Prepared<'_>], idx: Vec<usize>) -> Vec<usize> {
    let (mut matched, mut unmatched): (Vec<usize>, Vec<usize>) = idx
        .iter()
        .partition(|&&i| label(pods[i].pod, &t.key) == t.value);
    if matched.len() <= 1 || unmatched.len() <= 1 {
        return idx;
    }
    let total_matched = pods
        .iter()
        .filter(|p| label(p.pod, &t.key) == t.value)
        .count();
    let total_unmatched = pods.len() - total_matched;
    let last = matched.pop().unwrap_or_default();
    let g = group_by_density(
        total_matched - 1,
        total_unmatched,
        matched.len(),
        unmatched.len(),
    );
    let mut out = Vec::with_capacity(idx.len());
    if g.unmatched_remainder > 0 && g.unmatched_remainder <= unmatched.len() {
        out.extend(unmatched.drain(..g.unmatched_remainder));
    }
    for _ in 0..g.groups {
        if !matched.is_empty() {
            migrate(&mut matched, &mut out, g.matched_size);
        }
        if !unmatched.is_empty() {
            migrate(&mut unmatched, &mut out, g.unmatched_size);
        }
    }
    out.append(&mut matched);
    out.append(&mut unmatched);
    out.push(last);
    out
}

fn scatter_sort(terms: &[ScatterTerm], pods: &[Prepared<'_>], mut idx: Vec<usize>) -> Vec<usize> {
    if terms.is_empty() || idx.len() <= 1 {
        return idx;
    }
    let list: Vec<ScatterTerm> = if terms.len() == 1 {
        terms.to_vec()
    } else {
        let mut seen: Vec<(ScatterTerm, usize)> = Vec::new();
        for t in terms {
            for &i in &idx {
                if pods[i].pod.metadata.labels.get(&t.key) == Some(&t.value) {
                    match seen.iter_mut().find(|(s, _)| s == t) {
                        Some((_, c)) => *c += 1,
                        None => seen.push((t.clone(), 1)),
                    }
                }
            }
        }
        seen.sort_by_key(|s| std::cmp::Reverse(s.1));
        seen.into_iter().map(|(t, _)| t).collect()
    };
    for t in &list {
        idx = scatter_by_rule(t, pods, idx);
    }
    idx
}

/// `rollout.cloneset_pods_to_update` on typed input. Errors: `invalid_input` (an unknown
/// `updateStrategy.type`, more than 5,000 pods or 20 terms of a strategy, a time that is not
/// RFC 3339), `invalid_revision`, `foreign_pod`.
pub fn pods_to_update(i: &ClonesetPodsInput) -> Result<PodsToUpdateOutput> {
    let c = prepare(i)?;
    let us = &c.cs.spec.update_strategy;
    let all = |reason| PodsToUpdateOutput {
        waiting: (0..c.pods.len())
            .map(|n| WaitingPod {
                name: c.name(n),
                reason,
            })
            .collect(),
        ..Default::default()
    };
    if us.type_ == "OnDelete" {
        return Ok(all(WaitReason::OnDelete));
    }
    if us.paused {
        return Ok(all(WaitReason::Paused));
    }
    let d = diffs(
        &c.params,
        &c.views(),
        false,
        c.rollback_allowed,
        c.exclude_preparing_delete,
    );
    if d.update_num == 0 {
        return Ok(all(WaitReason::NoUpdateNeeded));
    }
    let forward = d.update_num > 0;
    let target = if forward { &c.update } else { &c.current };
    let mut skipped: Vec<(usize, WaitReason)> = Vec::new();
    let mut cand: Vec<usize> = Vec::new();
    for (n, p) in c.pods.iter().enumerate() {
        if p.view.updated == forward {
            skipped.push((n, WaitReason::OnTargetRevision));
            continue;
        }
        let grace = p
            .pod
            .metadata
            .annotations
            .get(INPLACE_GRACE_ANNOTATION)
            .or_else(|| p.pod.metadata.annotations.get(INPLACE_GRACE_ANNOTATION_OLD));
        match p.state {
            "PreparingDelete" => skipped.push((n, WaitReason::PreparingDelete)),
            "Updated" => cand.push(n),
            _ if grace.is_some_and(|g| !g.is_empty()) => {
                skipped.push((n, WaitReason::InPlaceUpdateGrace));
            }
            _ => cand.push(n),
        }
    }
    // 4. the order
    cand.sort_by(|&a, &b| active_pods::compare(&c.pods[a].key, &c.pods[b].key));
    if let Some(ps) = &us.priority_strategy {
        priority_sort(ps, &c.pods, &mut cand);
    }
    cand = scatter_sort(&us.scatter_strategy, &c.pods, cand);
    cand.sort_by_key(|&n| c.pods[n].state != "PreparingUpdate");
    // 5. the budget
    let limit = usize::try_from(d.update_num.unsigned_abs()).unwrap_or(usize::MAX);
    let mut unavailable: i64 = 0;
    let mut target_unavailable: i64 = 0;
    for p in &c.pods {
        if !p.available {
            unavailable += 1;
            if p.view.updated == forward {
                target_unavailable += 1;
            }
        }
    }
    let mut taken = 0usize;
    let mut cut_reason = WaitReason::UpdateNumReached;
    for &n in cand.iter().take(limit) {
        if target_unavailable + taken as i64 >= d.update_max_unavailable {
            cut_reason = WaitReason::MaxUnavailable;
            break;
        }
        if c.pods[n].available {
            if unavailable >= d.update_max_unavailable {
                cut_reason = WaitReason::MaxUnavailable;
                break;
            }
            unavailable += 1;
        }
        taken += 1;
    }
    let mut waiting: Vec<WaitingPod> = Vec::new();
    for (k, &n) in cand.iter().enumerate().skip(taken) {
        let reason = if k >= limit {
            WaitReason::UpdateNumReached
        } else {
            cut_reason
        };
        waiting.push(WaitingPod {
            name: c.name(n),
            reason,
        });
    }
    waiting.extend(skipped.into_iter().map(|(n, reason)| WaitingPod {
        name: c.name(n),
        reason,
    }));
    Ok(PodsToUpdateOutput {
        update_num: d.update_num,
        update_max_unavailable: d.update_max_unavailable,
        target_revision: target.clone(),
        pods_to_update: cand[..taken].iter().map(|&n| c.name(n)).collect(),
        update_order: cand.iter().map(|&n| c.name(n)).collect(),
        waiting,
    })
}

// ---------------------------------------------------------------------------------------------
// Scale path

/// What the scale path does in this pass (it does one of these, then ends the pass).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub enum ScaleStep {
    /// Nothing to do.
    #[default]
    None,
    /// Pods in `PreparingDelete` move back to `PreparingNormal` (the CloneSet needs them again).
    CancelPreparingDelete,
    /// Pods are created (`scaleUpNum` > 0); no pod is deleted.
    ScaleUp,
    /// Pods already in `PreparingDelete` whose hook is gone are deleted.
    DeletePreparingDelete,
    /// Pods specified for deletion (`podsToDelete` or the label) are deleted or moved to
    /// `PreparingDelete`.
    SpecifiedDelete,
    /// Excess pods are chosen and deleted or moved to `PreparingDelete`.
    ScaleDown,
    /// There are excess pods, but pods specified for deletion or in `PreparingDelete` are still
    /// pending, so the controller waits.
    WaitForPlannedDeletions,
}

/// What happens to one pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub enum PodAction {
    /// The pod is deleted.
    Delete,
    /// Its `preDelete` hook holds it: it moves to lifecycle state `PreparingDelete`.
    PreparingDelete,
    /// It leaves `PreparingDelete` for `PreparingNormal`.
    CancelDelete,
    /// It stays in `PreparingDelete` (the hook still holds it).
    Keep,
}

/// One pod the scale path acts on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletedPod {
    /// `metadata.name`.
    pub name: String,
    /// What happens to it.
    pub action: PodAction,
}

/// Output of `rollout.cloneset_pods_to_delete`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodsToDeleteOutput {
    /// The step the scale path takes in this pass.
    pub step: ScaleStep,
    /// Pods to create (`scaleUpLimit`), when `step` is `ScaleUp`.
    pub create: i64,
    /// Of those, pods on the current revision (`scaleUpNumOldRevision`).
    pub create_current_revision: i64,
    /// Excess pods (`scaleDownNum`), whatever the step.
    pub scale_down_num: i64,
    /// Of those, pods on the current revision (`scaleDownNumOldRevision`).
    pub scale_down_num_old_revision: i64,
    /// Ready pods that may go (`deleteReadyLimit`) before this step uses it.
    pub delete_ready_limit: i64,
    /// The pods acted on, in the controller's order (for `ScaleDown`: old-revision pods first,
    /// each group in `ActivePodsWithRanks` order).
    pub pods: Vec<DeletedPod>,
    /// Chosen pods held back because they are ready and `deleteReadyLimit` is used up.
    pub limited: Vec<String>,
}

/// `getDeletionCostFromPodAnnotations`: absent or invalid is 0.
fn deletion_cost(p: &Pod) -> i32 {
    let Some(v) = p.metadata.annotations.get(DELETION_COST_ANNOTATION) else {
        return 0;
    };
    let b = v.as_bytes();
    let first_ok = match b.first() {
        Some(b'-') | Some(b'1'..=b'9') => true,
        Some(b'0') => v == "0",
        _ => false,
    };
    if !first_ok || !v[1..].bytes().all(|c| c.is_ascii_digit()) {
        return 0;
    }
    v.parse::<i32>().unwrap_or(0)
}

fn max_restarts(p: &Pod) -> i64 {
    p.status
        .container_statuses
        .iter()
        .map(|c| i64::from(c.restart_count))
        .fold(0, i64::max)
}

/// `ActivePodsWithRanks.Less` as an ordering (`available`: the `AvailableFunc`, absent in the
/// ranker's own sort).
fn ranked_cmp(
    a: &Prepared<'_>,
    b: &Prepared<'_>,
    ranks: Option<&BTreeMap<String, f64>>,
    with_available: bool,
) -> Ordering {
    let (na, nb) = (&a.pod.spec.node_name, &b.pod.spec.node_name);
    if na != nb && (na.is_empty() || nb.is_empty()) {
        return if na.is_empty() {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    let rank = |p: &Prepared<'_>| {
        ranks
            .and_then(|r| r.get(&p.pod.metadata.uid))
            .copied()
            .unwrap_or(0.0)
    };
    a.key
        .phase
        .cmp(&b.key.phase)
        .then_with(|| {
            if with_available {
                a.available.cmp(&b.available)
            } else {
                Ordering::Equal
            }
        })
        .then(a.key.ready.cmp(&b.key.ready))
        .then(deletion_cost(a.pod).cmp(&deletion_cost(b.pod)))
        .then_with(|| rank(b).partial_cmp(&rank(a)).unwrap_or(Ordering::Equal))
        .then_with(|| {
            if a.key.ready && b.key.ready {
                after_or_zero(a.key.ready_time, b.key.ready_time)
            } else {
                Ordering::Equal
            }
        })
        .then(max_restarts(b.pod).cmp(&max_restarts(a.pod)))
        .then_with(|| after_or_zero(a.key.created, b.key.created))
}

fn after_or_zero(a: Option<Timestamp>, b: Option<Timestamp>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => b.cmp(&a),
    }
}

/// `NewSameNodeRanker`: on each node with several of `group`'s pods, all but the last in
/// `ActivePodsWithRanks` order (no ranker) get rank `count − position` (keyed by `uid`).
fn same_node_ranks(pods: &[Prepared<'_>], group: &[usize]) -> BTreeMap<String, f64> {
    let mut by_node: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &n in group {
        let node = pods[n].pod.spec.node_name.as_str();
        if !node.is_empty() {
            by_node.entry(node).or_default().push(n);
        }
    }
    let mut ranks = BTreeMap::new();
    for (_, mut on_node) in by_node {
        if on_node.len() <= 1 {
            continue;
        }
        on_node.sort_by(|&x, &y| ranked_cmp(&pods[x], &pods[y], None, false));
        on_node.pop();
        let len = on_node.len();
        for (k, n) in on_node.into_iter().enumerate() {
            ranks.insert(pods[n].pod.metadata.uid.clone(), (len - k) as f64);
        }
    }
    ranks
}

/// `choosePodsToDelete`'s `choose`: the first `diff` pods of `group` in deletion order.
fn choose(pods: &[Prepared<'_>], mut group: Vec<usize>, diff: i64) -> Vec<usize> {
    let diff = usize::try_from(diff.max(0)).unwrap_or(usize::MAX);
    if diff < group.len() {
        let ranks = same_node_ranks(pods, &group);
        group.sort_by(|&x, &y| ranked_cmp(&pods[x], &pods[y], Some(&ranks), true));
    } else if diff > group.len() {
        return group;
    }
    group.truncate(diff);
    group
}

/// `rollout.cloneset_pods_to_delete` on typed input. Errors as
/// [`pods_to_update`].
pub fn pods_to_delete(i: &ClonesetPodsInput) -> Result<PodsToDeleteOutput> {
    let c = prepare(i)?;
    let spec = &c.cs.spec;
    let lc = spec.lifecycle.as_ref();
    let pre_delete = lc.and_then(|l| l.pre_delete.as_ref());
    let mark_not_ready = lc.is_some_and(|l| {
        l.pre_delete.as_ref().is_some_and(|h| h.mark_pod_not_ready)
            || l.in_place_update
                .as_ref()
                .is_some_and(|h| h.mark_pod_not_ready)
    });
    // 1. planned deletions
    let specified: Vec<usize> = (0..c.pods.len())
        .filter(|&n| c.pods[n].view.specified_delete)
        .collect();
    let pre_deleting: Vec<usize> = (0..c.pods.len())
        .filter(|&n| c.pods[n].state == "PreparingDelete")
        .collect();
    let num_to_delete = (0..c.pods.len())
        .filter(|&n| c.pods[n].view.specified_delete || c.pods[n].state == "PreparingDelete")
        .count() as i64;
    let mut out = PodsToDeleteOutput::default();
    if !mark_not_ready {
        let mut diff = i64::from(spec.replicas.unwrap_or(1)) - c.pods.len() as i64 + num_to_delete;
        for &n in &pre_deleting {
            if diff <= 0 {
                break;
            }
            if c.pods[n].view.specified_delete {
                continue;
            }
            out.pods.push(DeletedPod {
                name: c.name(n),
                action: PodAction::CancelDelete,
            });
            diff -= 1;
        }
        if !out.pods.is_empty() {
            out.step = ScaleStep::CancelPreparingDelete;
            return Ok(out);
        }
    }
    // 2. the diffs (scale path view)
    let d = diffs(
        &c.params,
        &c.views(),
        i.feature_gates.preparing_update_as_update,
        c.rollback_allowed,
        c.exclude_preparing_delete,
    );
    out.scale_down_num = d.scale_down_num;
    out.scale_down_num_old_revision = d.scale_down_num_old_revision;
    out.delete_ready_limit = d.delete_ready_limit;
    if d.scale_up_num > 0 {
        out.step = ScaleStep::ScaleUp;
        out.create = d.scale_up_limit;
        out.create_current_revision = d.scale_up_num_old_revision;
        return Ok(out);
    }
    let act = |n: usize| -> PodAction {
        if pre_delete.is_some_and(|h| h.hooks(c.pods[n].pod)) {
            if c.pods[n].state == "PreparingDelete" {
                PodAction::Keep
            } else {
                PodAction::PreparingDelete
            }
        } else {
            PodAction::Delete
        }
    };
    let run = |out: &mut PodsToDeleteOutput, list: &[usize]| -> bool {
        let mut modified = false;
        for &n in list {
            let a = act(n);
            modified |= a != PodAction::Keep;
            out.pods.push(DeletedPod {
                name: c.name(n),
                action: a,
            });
        }
        modified
    };
    // 4. pods already in PreparingDelete
    if !pre_deleting.is_empty() {
        let modified = run(&mut out, &pre_deleting);
        if modified {
            out.step = ScaleStep::DeletePreparingDelete;
            return Ok(out);
        }
    }
    let mut limit = d.delete_ready_limit;
    let mut limited = Vec::new();
    let mut by_readiness = |list: &[usize], limited: &mut Vec<String>| -> Vec<usize> {
        let mut can = Vec::new();
        for &n in list {
            if !c.pods[n].ready_now {
                can.push(n);
            } else if limit > 0 {
                can.push(n);
                limit -= 1;
            } else {
                limited.push(c.name(n));
            }
        }
        can
    };
    // 5. specified deletions
    let specified: Vec<usize> = specified
        .into_iter()
        .filter(|n| !pre_deleting.contains(n))
        .collect();
    if !specified.is_empty() {
        let can = by_readiness(&specified, &mut limited);
        let before = out.pods.len();
        let modified = run(&mut out, &can);
        if modified {
            out.step = ScaleStep::SpecifiedDelete;
            out.limited = limited;
            return Ok(out);
        }
        out.pods.truncate(before);
    }
    // 6. scale down
    if d.scale_down_num > 0 {
        if num_to_delete > 0 {
            out.step = ScaleStep::WaitForPlannedDeletions;
            out.limited = limited;
            return Ok(out);
        }
        let pug = i.feature_gates.preparing_update_as_update;
        let (updated, not_updated): (Vec<usize>, Vec<usize>) =
            (0..c.pods.len()).partition(|&n| c.pods[n].view.counts_as_updated(pug));
        let (total, old) = (d.scale_down_num, d.scale_down_num_old_revision);
        let chosen = if old >= total {
            choose(&c.pods, not_updated, total)
        } else if old > 0 {
            let mut v = choose(&c.pods, not_updated, old);
            v.extend(choose(&c.pods, updated, total - old));
            v
        } else {
            choose(&c.pods, updated, total)
        };
        let can = by_readiness(&chosen, &mut limited);
        run(&mut out, &can);
        out.step = ScaleStep::ScaleDown;
    }
    out.limited = limited;
    Ok(out)
}

/// `rollout.cloneset_pods_to_update`.
pub struct ClonesetPodsToUpdate;

impl crate::registry::Decision for ClonesetPodsToUpdate {
    const ID: &'static str = "rollout.cloneset_pods_to_update";
    const DOC: &'static str = "The CloneSet pods updated in this reconcile pass, in the controller's order (ActivePods, priority and scatter strategies, PreparingUpdate first), cut by updateNum and maxUnavailable, and why the others wait (kruise cloneset_update.go Update, SortUpdateIndexes, limitUpdateIndexes)";
    const SOURCE: &'static str = "pkg/controller/cloneset/sync/cloneset_update.go Update, SortUpdateIndexes, limitUpdateIndexes; pkg/util/updatesort/priority_sort.go, scatter_sort.go; pkg/controller/cloneset/sync/cloneset_sync_utils.go calculateDiffsWithExpectation, IsPodAvailable";
    const ERRORS: &'static [&'static str] = &["invalid_revision", "foreign_pod"];
    type Input = ClonesetPodsInput;
    type Output = PodsToUpdateOutput;

    fn decide(input: Self::Input) -> Result<Self::Output> {
        pods_to_update(&input)
    }
}

/// `rollout.cloneset_pods_to_delete`.
pub struct ClonesetPodsToDelete;

impl crate::registry::Decision for ClonesetPodsToDelete {
    const ID: &'static str = "rollout.cloneset_pods_to_delete";
    const DOC: &'static str = "The CloneSet scale step of this reconcile pass and the pods it deletes or moves to PreparingDelete, in the controller's order (podsToDelete, PreparingDelete, excess replicas by ActivePodsWithRanks with deletion cost and same-node rank) (kruise cloneset_scale.go Scale, choosePodsToDelete)";
    const SOURCE: &'static str = "pkg/controller/cloneset/sync/cloneset_scale.go Scale, managePreparingDelete, getPlannedDeletedPods, choosePodsToDelete, deletePods; pkg/controller/cloneset/utils/pod_sorter.go ActivePodsWithRanks, NewSameNodeRanker";
    const ERRORS: &'static [&'static str] = &["invalid_revision", "foreign_pod"];
    type Input = ClonesetPodsInput;
    type Output = PodsToDeleteOutput;

    fn decide(input: Self::Input) -> Result<Self::Output> {
        pods_to_delete(&input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn pod(name: &str, rev: &str, secs: u32, labels: Value) -> Value {
        let mut l = json!({"controller-revision-hash": rev});
        l.as_object_mut()
            .unwrap()
            .extend(labels.as_object().unwrap().clone());
        json!({"metadata": {"name": name, "uid": name, "labels": l,
                "creationTimestamp": format!("2026-01-01T00:00:{secs:02}Z")},
               "spec": {"nodeName": "n1"},
               "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}})
    }

    fn input(spec: Value, pods: Vec<Value>) -> ClonesetPodsInput {
        serde_json::from_value(json!({
            "cloneSet": {"spec": spec, "status": {"updateRevision": "r-new", "currentRevision": "r-old"}},
            "pods": pods, "now": "2026-01-01T01:00:00Z"}))
        .unwrap()
    }

    #[test]
    fn suffix_digits_and_overflow() {
        assert_eq!(int_suffix("pod-12"), 12);
        assert_eq!(int_suffix("abc"), 0);
        assert_eq!(int_suffix("x99999999999999999999"), 0);
        assert_eq!(int_suffix(""), 0);
    }

    #[test]
    fn deletion_cost_reads_like_the_reference() {
        let cost = |v: &str| {
            let mut p = Pod::default();
            p.metadata
                .annotations
                .insert(DELETION_COST_ANNOTATION.into(), v.into());
            deletion_cost(&p)
        };
        assert_eq!(
            [
                "10",
                "-5",
                "0",
                "07",
                "+3",
                "-",
                "2147483648",
                "-2147483648"
            ]
            .map(cost),
            [10, -5, 0, 0, 0, 0, 0, i32::MIN]
        );
    }

    #[test]
    fn scatter_spreads_matched_pods() {
        // the reference's "even scattered pods + even ordinary pods" case
        let labels = ["", "", "", "", "AAA", "AAA"];
        let pods: Vec<Value> = labels
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let l = if v.is_empty() {
                    json!({})
                } else {
                    json!({"labelA": v})
                };
                pod(&format!("p{i}"), "r-old", 59 - i as u32, l)
            })
            .collect();
        let i = input(
            json!({"replicas": 6, "updateStrategy": {"maxUnavailable": "100%",
                "scatterStrategy": [{"key": "labelA", "value": "AAA"}]}}),
            pods,
        );
        let out = pods_to_update(&i).unwrap();
        assert_eq!(out.update_order, ["p4", "p0", "p1", "p2", "p3", "p5"]);
        assert_eq!(out.pods_to_update, out.update_order);
    }

    #[test]
    fn budget_cut_names_the_reason() {
        let pods = (0..3)
            .map(|i| pod(&format!("p{i}"), "r-old", i, json!({})))
            .collect();
        let out = pods_to_update(&input(
            json!({"replicas": 3, "updateStrategy": {"maxUnavailable": 1, "partition": 1}}),
            pods,
        ))
        .unwrap();
        assert_eq!(out.pods_to_update, ["p2"]);
        let reasons: Vec<_> = out
            .waiting
            .iter()
            .map(|w| (w.name.as_str(), w.reason))
            .collect();
        assert_eq!(
            reasons,
            [
                ("p1", WaitReason::MaxUnavailable),
                ("p0", WaitReason::UpdateNumReached)
            ]
        );
    }

    #[test]
    fn scale_down_prefers_old_revision_and_same_node() {
        let mut pods: Vec<Value> = (0..4)
            .map(|i| pod(&format!("p{i}"), "r-old", i, json!({})))
            .collect();
        pods[0]["spec"]["nodeName"] = json!("n2");
        let out = pods_to_delete(&input(
            json!({"replicas": 2, "updateStrategy": {"partition": 2}}),
            pods,
        ))
        .unwrap();
        assert_eq!(out.step, ScaleStep::ScaleDown);
        let names: Vec<_> = out.pods.iter().map(|p| p.name.as_str()).collect();
        // p1..p3 share n1: p3, p2 rank higher than p0 alone on n2
        assert_eq!(names, ["p3", "p2"]);
    }

    #[test]
    fn unknown_update_type_is_refused() {
        let e = pods_to_update(&input(
            json!({"updateStrategy": {"type": "Rolling"}}),
            vec![],
        ))
        .unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("cloneSet.spec.updateStrategy.type"))
        );
    }
}
