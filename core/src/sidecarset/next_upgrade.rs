//! Which matched pods the SidecarSet controller upgrades in this round, and why the others wait:
//! OpenKruise v1.9.0 `pkg/controller/sidecarset/sidecarset_processor.go` (`UpdateSidecarSet`'s
//! gates: `isSidecarSetNotUpdate`, `updateStrategy.paused`, `isSidecarSetUpdateFinish` over
//! `calculateStatus`) and `sidecarset_strategy.go` (`GetNextUpgradePods`, `SortUpdateIndexes`,
//! `calculateUpgradeCount`), over `pkg/control/sidecarcontrol` (`IsPodSidecarUpdated`,
//! `IsSidecarSetUpgradable`, `IsPodStateConsistent`, `IsPodReady`,
//! `IsSidecarContainerUpdateCompleted`) and `pkg/util/updatesort` ([`super::update_sort`]).
//!
//! The pods are the ones the controller works on (`getMatchingPods`): selected by the SidecarSet,
//! active, injected with it and carrying its containers; the caller filters them. Not modelled:
//! the controller's in-memory expectations (a round waits while earlier pod updates are in
//! flight), the hot-upgrade container flip (SidecarSets with `HotUpgrade` containers are refused
//! as `unsupported`), and the revision bookkeeping.

use super::annotations::{HASH, HASH_WITHOUT_IMAGE, read_specs};
use super::inject::{INVALID_ANNOTATION, UNSUPPORTED};
use super::update_sort::{SortPod, kruise_selector, sort_update_indexes};
use crate::error::{Error, Result};
use crate::intstr::{Flavour, IntOrPercent};
use crate::k8s::image_ref;
use crate::k8s::null_as_default;
use crate::k8s::pod::null_items;
use crate::k8s::selector::LabelSelector;
use crate::rollout::active_pods::{SortKey, time_of};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Pod annotation: SidecarSet name -> the in-place update state recorded before its last upgrade.
pub const INPLACE_UPDATE_STATE: &str = "kruise.io/sidecarset-inplace-update-state";

/// Most pods one call reads.
pub const MAX_PODS: usize = 10_000;
/// Most terms of each strategy list (`weightPriority`, `orderPriority`, `scatterStrategy`) and
/// most SidecarSet containers.
pub const MAX_TERMS: usize = 1_000;

/// `sidecarset.next_upgrade` input.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NextUpgradeInput {
    /// The SidecarSet (apps.kruise.io/v1beta1); members not listed are ignored.
    pub sidecar_set: UpgradeSidecarSet,
    /// The pods the controller works on, in the order it lists them (the order ties keep).
    /// Null or absent: none. At most 10,000.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<UpgradePod>>>")]
    pub pods: Vec<UpgradePod>,
}

/// The SidecarSet members the controller reads here.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeSidecarSet {
    /// `metadata`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<UpgradeSidecarSetMeta>")]
    pub metadata: UpgradeSidecarSetMeta,
    /// `spec`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<UpgradeSidecarSetSpec>")]
    pub spec: UpgradeSidecarSetSpec,
}

/// SidecarSet `metadata`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeSidecarSetMeta {
    /// `name`: the key of the pod's upgrade records.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `annotations`: `kruise.io/sidecarset-hash` (the latest revision; a pod whose record
    /// carries it is updated) and `kruise.io/sidecarset-hash-without-image` (a pod whose record
    /// differs can not be upgraded in place). Absent reads as `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub annotations: BTreeMap<String, String>,
}

/// SidecarSet `spec` members read here.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeSidecarSetSpec {
    /// `containers`: their names are the sidecar containers checked in the pods.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<UpgradeSidecarContainer>>>")]
    pub containers: Vec<UpgradeSidecarContainer>,
    /// `updateStrategy`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<SidecarSetUpdateStrategy>")]
    pub update_strategy: SidecarSetUpdateStrategy,
}

/// One `spec.containers[]` entry (name and upgrade type).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeSidecarContainer {
    /// `name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `upgradeStrategy`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<SidecarContainerUpgradeStrategy>")]
    pub upgrade_strategy: SidecarContainerUpgradeStrategy,
}

/// `spec.containers[].upgradeStrategy`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarContainerUpgradeStrategy {
    /// `upgradeType`: `ColdUpgrade` (or `""`); `HotUpgrade` is refused (`unsupported`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub upgrade_type: String,
}

/// `spec.updateStrategy`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarSetUpdateStrategy {
    /// `type`: `NotUpdate` stops every upgrade; anything else (`RollingUpdate`, `""`) upgrades.
    #[serde(default, rename = "type", deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `paused`: no upgrade while true.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub paused: bool,
    /// `selector`: only the pods it selects are upgraded; null: every pod. A selector with an
    /// unknown operator selects none.
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    /// `partition`: how many (or what percentage, rounded up, of the matched pods) stay on the
    /// old version (`CalculatePartitionReplicas`, clamped to `[0, matched]`; `"x%" < 100%` keeps
    /// at least one pod upgradable). Null: 0. A value the controller can not read counts as 0.
    #[serde(default)]
    pub partition: Option<IntOrPercent>,
    /// `maxUnavailable`: how many ready pods may be unavailable through upgrades at once (a
    /// percentage of the matched pods, rounded up; every `%` is dropped before reading the
    /// number). Null: 1. A value the controller can not read counts as 0.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// `priorityStrategy`.
    #[serde(default)]
    pub priority_strategy: Option<UpdatePriorityStrategy>,
    /// `scatterStrategy`: label terms whose pods are spread over the upgrade order; a `*` value
    /// stands for every value the matched pods carry for the key.
    #[serde(default)]
    pub scatter_strategy: Option<Vec<ScatterTerm>>,
}

/// `priorityStrategy` (`apps.kruise.io` `UpdatePriorityStrategy`).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePriorityStrategy {
    /// `orderPriority`: read only when `weightPriority` is empty.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<OrderPriorityTerm>>>")]
    pub order_priority: Vec<OrderPriorityTerm>,
    /// `weightPriority`.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<WeightPriorityTerm>>>")]
    pub weight_priority: Vec<WeightPriorityTerm>,
}

/// One `orderPriority[]` term.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderPriorityTerm {
    /// `orderedKey`: the label whose value's integer suffix orders the pods (larger first).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub ordered_key: String,
}

/// One `weightPriority[]` term.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WeightPriorityTerm {
    /// `weight` (int32) added for every pod `matchSelector` selects.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub weight: i32,
    /// `matchSelector`: an empty selector selects every pod.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<LabelSelector>")]
    pub match_selector: LabelSelector,
}

/// One `scatterStrategy[]` term.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScatterTerm {
    /// `key`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `value`, or `*`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
}

/// A pod, reduced to the members read here (a whole Pod may be passed).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradePod {
    /// `metadata`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<UpgradePodMeta>")]
    pub metadata: UpgradePodMeta,
    /// `spec`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<UpgradePodSpec>")]
    pub spec: UpgradePodSpec,
    /// `status`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<UpgradePodStatus>")]
    pub status: UpgradePodStatus,
}

/// Pod `metadata`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradePodMeta {
    /// `name` (reported).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `labels`: read by `updateStrategy.selector`, the priority and the scatter terms.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
    /// `annotations`: `kruise.io/sidecarset-hash`, `kruise.io/sidecarset-hash-without-image`
    /// (the upgrade records; unreadable: no record) and
    /// `kruise.io/sidecarset-inplace-update-state`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub annotations: BTreeMap<String, String>,
    /// `creationTimestamp` (RFC 3339; `ActivePods` order).
    #[serde(default)]
    pub creation_timestamp: Option<String>,
    /// `deletionTimestamp` (RFC 3339): a terminating pod is not ready.
    #[serde(default)]
    pub deletion_timestamp: Option<String>,
}

/// Pod `spec`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradePodSpec {
    /// `nodeName`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub node_name: String,
    /// `containers` (name and image).
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<UpgradeContainer>>>")]
    pub containers: Vec<UpgradeContainer>,
    /// `initContainers` (name and restart policy: `Always` makes a native sidecar, whose restarts
    /// count in the `ActivePods` order).
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<UpgradeContainer>>>")]
    pub init_containers: Vec<UpgradeContainer>,
}

/// A container.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeContainer {
    /// `name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `image`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image: String,
    /// `restartPolicy` (init containers).
    #[serde(default)]
    pub restart_policy: Option<String>,
}

/// Pod `status`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradePodStatus {
    /// `phase`: only a `Running` pod is ready.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub phase: String,
    /// `conditions`: the first `Ready` one decides readiness (`True`) and its
    /// `lastTransitionTime` the ready time.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<UpgradePodCondition>>>")]
    pub conditions: Vec<UpgradePodCondition>,
    /// `containerStatuses`.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<UpgradeContainerStatus>>>")]
    pub container_statuses: Vec<UpgradeContainerStatus>,
    /// `initContainerStatuses` (restart counts).
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<UpgradeContainerStatus>>>")]
    pub init_container_statuses: Vec<UpgradeContainerStatus>,
}

/// One `status.conditions[]` entry.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradePodCondition {
    /// `type`.
    #[serde(default, rename = "type", deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `status`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub status: String,
    /// `lastTransitionTime` (RFC 3339).
    #[serde(default)]
    pub last_transition_time: Option<String>,
}

/// One container status.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeContainerStatus {
    /// `name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `image`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image: String,
    /// `imageID` (the text after `://`, if any, is compared with a digest image).
    #[serde(default, rename = "imageID", deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image_id: String,
    /// `ready`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub ready: bool,
    /// `restartCount` (int32).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub restart_count: i32,
}

/// What the controller does with the SidecarSet in this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum UpgradeAction {
    /// `updateStrategy.type` is `NotUpdate`: nothing is upgraded.
    NotUpdate,
    /// `updateStrategy.paused`: nothing is upgraded.
    Paused,
    /// Every matched pod is updated (`updatedPods >= matchedPods`): nothing to do.
    Finished,
    /// The pods in `upgradePods` are upgraded; those in `notUpgradablePods` are marked.
    Upgrade,
}

/// Why a pod is or is not upgraded in this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PodUpgradeReason {
    /// Upgraded now.
    Upgrade,
    /// Its record already carries the SidecarSet's hash.
    Updated,
    /// `updateStrategy.selector` does not select it.
    NotSelected,
    /// Its hash-without-image differs: more than images changed, no in-place upgrade.
    NotUpgradable,
    /// A ready sidecar container is still on its previous upgrade (state not consistent).
    UpgradeInFlight,
    /// Among the last `partition` candidates in upgrade order.
    Partition,
    /// Beyond what `maxUnavailable` allows in this round.
    MaxUnavailable,
    /// Would be upgraded, but the SidecarSet's `updateStrategy` is `NotUpdate`.
    NotUpdate,
    /// Would be upgraded, but the SidecarSet is paused.
    Paused,
}

/// One pod's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodUpgrade {
    /// `metadata.name`.
    pub name: String,
    /// The verdict.
    pub reason: PodUpgradeReason,
    /// `IsPodReady`: running, first `Ready` condition `True`, not terminating.
    pub ready: bool,
    /// `IsPodStateConsistent`: the sidecar containers run what their spec says.
    pub consistent: bool,
}

/// The SidecarSet status counts (`calculateStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeStatus {
    /// `matchedPods`.
    pub matched_pods: i64,
    /// `updatedPods`: pods whose record carries the SidecarSet's hash.
    pub updated_pods: i64,
    /// `readyPods`: consistent and ready pods.
    pub ready_pods: i64,
    /// `updatedReadyPods`.
    pub updated_ready_pods: i64,
}

/// `sidecarset.next_upgrade` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NextUpgradeOutput {
    /// What the controller does in this round.
    pub action: UpgradeAction,
    /// Names of the pods upgraded now, in the controller's order (empty unless `upgrade`).
    pub upgrade_pods: Vec<String>,
    /// Names of the pods marked not upgradable (`SidecarSetUpgradable` condition false), in
    /// input order (empty unless `upgrade`).
    pub not_upgradable_pods: Vec<String>,
    /// Names of every upgrade candidate (not updated, selected, upgradable, not in flight) in
    /// upgrade order; `upgradePods` is its first `upgradeLimit`.
    pub candidates: Vec<String>,
    /// How many candidates the strategy takes (`calculateUpgradeCount`), whatever the action.
    pub upgrade_limit: i64,
    /// The resolved partition (pods).
    pub partition: i64,
    /// The resolved maxUnavailable (pods).
    pub max_unavailable: i64,
    /// Updated pods that are not ready or not consistent: they use up `maxUnavailable` first.
    pub updated_unavailable: i64,
    /// The status counts.
    pub status: UpgradeStatus,
    /// Every pod's verdict, in input order.
    pub pods: Vec<PodUpgrade>,
}

/// Per pod facts.
struct Facts {
    updated: bool,
    ready: bool,
    consistent: bool,
}

fn pod_hash(pod: &UpgradePod, key: &str, set: &str) -> String {
    match pod.metadata.annotations.get(key) {
        Some(s) if !s.is_empty() => read_specs(s)
            .and_then(|m| m.get(set).map(|r| r.hash.clone()))
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// `IsRunningAndReady` (the controller's `IsPodReady` without hot upgrade).
fn is_ready(pod: &UpgradePod, deleting: bool) -> bool {
    pod.status.phase == "Running"
        && pod
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Ready")
            .is_some_and(|c| c.status == "True")
        && !deleting
}

/// The last-recorded image IDs of the SidecarSet's in-place update state, as
/// `IsSidecarContainerUpdateCompleted` reads them: `Ok(None)` when the annotation does not
/// decode (the reference then answers "not completed"), an error for a `null` state of this
/// SidecarSet (the reference dereferences it and panics).
fn last_image_ids(
    raw: &str,
    set: &str,
    pod_index: usize,
) -> Result<Option<BTreeMap<String, String>>> {
    fn string_or_null(v: &Value) -> Option<String> {
        match v {
            Value::Null => Some(String::new()),
            Value::String(s) => Some(s.clone()),
            _ => None,
        }
    }
    fn read_state(v: &Value) -> Option<BTreeMap<String, String>> {
        let mut ids = BTreeMap::new();
        let Value::Object(o) = v else { return None };
        for (k, v) in o {
            match k.as_str() {
                "revision" => {
                    string_or_null(v)?;
                }
                "updateTimestamp" => match v {
                    Value::Null => {}
                    Value::String(s) => {
                        crate::time::parse_rfc3339(s)?;
                    }
                    _ => return None,
                },
                "lastContainerStatuses" => match v {
                    Value::Null => {}
                    Value::Object(m) => {
                        for (name, st) in m {
                            let id = match st {
                                Value::Null => String::new(),
                                Value::Object(so) => match so.get("imageID") {
                                    None => String::new(),
                                    Some(x) => string_or_null(x)?,
                                },
                                _ => return None,
                            };
                            ids.insert(name.clone(), id);
                        }
                    }
                    _ => return None,
                },
                _ => {}
            }
        }
        Some(ids)
    }
    let Ok(v) = serde_json::from_str::<Value>(raw) else {
        return Ok(None);
    };
    let obj = match &v {
        Value::Null => return Ok(Some(BTreeMap::new())),
        Value::Object(o) => o,
        _ => return Ok(None),
    };
    let mut mine = None;
    for (k, v) in obj {
        let ids = match v {
            Value::Null => None,
            _ => match read_state(v) {
                Some(ids) => Some(ids),
                None => return Ok(None),
            },
        };
        if k == set {
            mine = Some(ids);
        }
    }
    match mine {
        None => Ok(Some(BTreeMap::new())),
        Some(None) => Err(Error::at(
            INVALID_ANNOTATION,
            format!("pods[{pod_index}].metadata.annotations[\"{INPLACE_UPDATE_STATE}\"]"),
            "the in-place update state of this SidecarSet is null (the controller panics on it)",
        )),
        Some(Some(ids)) => Ok(Some(ids)),
    }
}

/// `IsPodStateConsistent(pod, containers)`.
fn is_consistent(
    pod: &UpgradePod,
    containers: &BTreeSet<&str>,
    set: &str,
    pod_index: usize,
) -> Result<bool> {
    let st = &pod.status;
    if pod.spec.containers.len() != st.container_statuses.len() {
        return Ok(false);
    }
    let image_id = |name: &str| -> Option<&str> {
        let cs = st
            .container_statuses
            .iter()
            .rev()
            .find(|c| c.name == name)?;
        Some(cs.image_id.split("://").nth(1).unwrap_or(&cs.image_id))
    };
    let mut all_digest = true;
    for c in &pod.spec.containers {
        if !containers.contains(c.name.as_str()) {
            continue;
        }
        if !image_ref::is_digest(&c.image) {
            all_digest = false;
            break;
        }
        match image_id(&c.name) {
            Some(id) if image_ref::same_image(&c.image, id) => {}
            _ => return Ok(false),
        }
    }
    if all_digest {
        return Ok(true);
    }
    // IsSidecarContainerUpdateCompleted
    let Some(raw) = pod.metadata.annotations.get(INPLACE_UPDATE_STATE) else {
        return Ok(true);
    };
    let Some(last) = last_image_ids(raw, set, pod_index)? else {
        return Ok(false);
    };
    let image_of = |name: &str| -> &str {
        pod.spec
            .containers
            .iter()
            .rev()
            .find(|c| c.name == name)
            .map_or("", |c| c.image.as_str())
    };
    for cs in &st.container_statuses {
        if !containers.contains(cs.name.as_str()) {
            continue;
        }
        if let Some(old) = last.get(&cs.name)
            && *old == cs.image_id
            && image_of(&cs.name) != cs.image
        {
            return Ok(false);
        }
    }
    Ok(true)
}

fn sort_key(pod: &UpgradePod, i: usize) -> Result<SortKey> {
    let st = &pod.status;
    let ready = st
        .conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .is_some_and(|c| c.status == "True");
    let mut ready_time = None;
    for (n, c) in st.conditions.iter().enumerate() {
        let t = time_of(
            c.last_transition_time.as_deref(),
            &format!("pods[{i}].status.conditions[{n}].lastTransitionTime"),
        )?;
        if ready && ready_time.is_none() && c.type_ == "Ready" && c.status == "True" {
            ready_time = Some(t);
        }
    }
    let sidecars: Vec<&str> = pod
        .spec
        .init_containers
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"))
        .map(|c| c.name.as_str())
        .collect();
    let max = |it: &mut dyn Iterator<Item = i32>| it.fold(0i64, |m, r| m.max(i64::from(r)));
    Ok(SortKey {
        assigned: !pod.spec.node_name.is_empty(),
        phase: match st.phase.as_str() {
            "Unknown" => 1,
            "Running" => 2,
            _ => 0,
        },
        ready,
        ready_time: ready_time.flatten(),
        restarts: max(&mut st.container_statuses.iter().map(|c| c.restart_count)),
        sidecar_restarts: max(&mut st
            .init_container_statuses
            .iter()
            .filter(|c| sidecars.contains(&c.name.as_str()))
            .map(|c| c.restart_count)),
        created: time_of(
            pod.metadata.creation_timestamp.as_deref(),
            &format!("pods[{i}].metadata.creationTimestamp"),
        )?,
    })
}

fn check_sizes(i: &NextUpgradeInput) -> Result<()> {
    let too_many = |field: &str, n: usize, max: usize| -> Result<()> {
        if n > max {
            return Err(Error::invalid_input(
                field,
                format!("{n} entries, at most {max} are read"),
            ));
        }
        Ok(())
    };
    too_many("pods", i.pods.len(), MAX_PODS)?;
    let spec = &i.sidecar_set.spec;
    too_many(
        "sidecarSet.spec.containers",
        spec.containers.len(),
        MAX_TERMS,
    )?;
    let us = &spec.update_strategy;
    if let Some(p) = &us.priority_strategy {
        too_many(
            "sidecarSet.spec.updateStrategy.priorityStrategy.weightPriority",
            p.weight_priority.len(),
            MAX_TERMS,
        )?;
        too_many(
            "sidecarSet.spec.updateStrategy.priorityStrategy.orderPriority",
            p.order_priority.len(),
            MAX_TERMS,
        )?;
    }
    if let Some(s) = &us.scatter_strategy {
        too_many(
            "sidecarSet.spec.updateStrategy.scatterStrategy",
            s.len(),
            MAX_TERMS,
        )?;
    }
    Ok(())
}

/// `sidecarset.next_upgrade` on typed input. Errors: `invalid_input` (too many entries, a time
/// that is not RFC 3339, naming it), `unsupported` (a `HotUpgrade` sidecar),
/// `invalid_annotation` (a pod whose in-place update state for this SidecarSet is `null`).
pub fn next_upgrade(i: &NextUpgradeInput) -> Result<NextUpgradeOutput> {
    check_sizes(i)?;
    let set = &i.sidecar_set;
    let name = set.metadata.name.as_str();
    let ann = |k: &str| set.metadata.annotations.get(k).map_or("", String::as_str);
    let (set_hash, set_hash_wo) = (ann(HASH), ann(HASH_WITHOUT_IMAGE));
    let sidecars: BTreeSet<&str> = set
        .spec
        .containers
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    let us = &set.spec.update_strategy;
    let pods = &i.pods;
    let total = pods.len() as i64;

    // every time is decoded first, as the controller's objects are decoded before any decision
    let mut times = Vec::with_capacity(pods.len());
    for (n, p) in pods.iter().enumerate() {
        let key = sort_key(p, n)?;
        let deleting = time_of(
            p.metadata.deletion_timestamp.as_deref(),
            &format!("pods[{n}].metadata.deletionTimestamp"),
        )?
        .is_some();
        times.push((key, deleting));
    }
    for (n, c) in set.spec.containers.iter().enumerate() {
        if c.upgrade_strategy.upgrade_type == "HotUpgrade" {
            return Err(Error::at(
                UNSUPPORTED,
                format!("sidecarSet.spec.containers[{n}].upgradeStrategy.upgradeType"),
                "hot-upgrade sidecars are not modelled (their container flip and readiness rules)",
            ));
        }
    }
    let mut facts = Vec::with_capacity(pods.len());
    let mut sort_pods = Vec::with_capacity(pods.len());
    for (n, (p, &(key, deleting))) in pods.iter().zip(&times).enumerate() {
        facts.push(Facts {
            updated: pod_hash(p, HASH, name) == set_hash,
            ready: is_ready(p, deleting),
            consistent: is_consistent(p, &sidecars, name, n)?,
        });
        sort_pods.push(SortPod {
            key,
            labels: &p.metadata.labels,
        });
    }

    let mut status = UpgradeStatus {
        matched_pods: total,
        updated_pods: 0,
        ready_pods: 0,
        updated_ready_pods: 0,
    };
    for f in &facts {
        status.updated_pods += i64::from(f.updated);
        if f.consistent && f.ready {
            status.ready_pods += 1;
            status.updated_ready_pods += i64::from(f.updated);
        }
    }
    let action = if us.type_ == "NotUpdate" {
        UpgradeAction::NotUpdate
    } else if us.paused {
        UpgradeAction::Paused
    } else if status.updated_pods >= status.matched_pods {
        UpgradeAction::Finished
    } else {
        UpgradeAction::Upgrade
    };

    // GetNextUpgradePods step 1
    let selector = us.selector.as_ref().map(|s| kruise_selector(Some(s)));
    let mut reasons = vec![PodUpgradeReason::Upgrade; pods.len()];
    let mut wait = Vec::new();
    let mut not_upgradable = Vec::new();
    for (n, p) in pods.iter().enumerate() {
        if facts[n].updated {
            reasons[n] = PodUpgradeReason::Updated;
            continue;
        }
        let selected = match selector {
            None => true,
            Some(None) => false,
            Some(Some(s)) => s.matches(&p.metadata.labels),
        };
        if !selected {
            reasons[n] = PodUpgradeReason::NotSelected;
            continue;
        }
        // IsSidecarSetUpgradable
        if pod_hash(p, HASH_WITHOUT_IMAGE, name) != set_hash_wo {
            reasons[n] = PodUpgradeReason::NotUpgradable;
            not_upgradable.push(n);
            continue;
        }
        let mut in_flight = false;
        for s in &sidecars {
            let ready = p
                .status
                .container_statuses
                .iter()
                .rev()
                .find(|c| c.name == *s)
                .is_some_and(|c| c.ready);
            if ready && !is_consistent(p, &BTreeSet::from([*s]), name, n)? {
                in_flight = true;
                break;
            }
        }
        if in_flight {
            reasons[n] = PodUpgradeReason::UpgradeInFlight;
            continue;
        }
        wait.push(n);
    }
    let order = sort_update_indexes(
        us.priority_strategy.as_ref(),
        us.scatter_strategy.as_deref(),
        &sort_pods,
        wait,
    );

    // calculateUpgradeCount
    let partition = crate::rollout::partition::cloneset_partition(
        us.partition.as_ref(),
        Some(i32::try_from(total).unwrap_or(i32::MAX)),
    )
    .unwrap_or(0);
    let max_unavailable = match &us.max_unavailable {
        None => 1,
        Some(m) => m.scale(total, true, Flavour::Legacy).unwrap_or(0),
    };
    let updated_unavailable = facts
        .iter()
        .filter(|f| f.updated && (!f.consistent || !f.ready))
        .count() as i64;
    let eligible = (order.len() as i64 - partition).max(0) as usize;
    let mut limit = 0usize;
    let mut unavailable = updated_unavailable;
    for &n in &order[..eligible] {
        if !facts[n].ready {
            limit += 1;
            continue;
        }
        if unavailable >= max_unavailable {
            break;
        }
        unavailable += 1;
        limit += 1;
    }
    for (pos, &n) in order.iter().enumerate() {
        reasons[n] = if pos >= eligible {
            PodUpgradeReason::Partition
        } else if pos >= limit {
            PodUpgradeReason::MaxUnavailable
        } else {
            match action {
                UpgradeAction::NotUpdate => PodUpgradeReason::NotUpdate,
                UpgradeAction::Paused => PodUpgradeReason::Paused,
                _ => PodUpgradeReason::Upgrade,
            }
        };
    }
    let names = |ix: &[usize]| -> Vec<String> {
        ix.iter().map(|&n| pods[n].metadata.name.clone()).collect()
    };
    let upgrading = action == UpgradeAction::Upgrade;
    Ok(NextUpgradeOutput {
        action,
        upgrade_pods: if upgrading {
            names(&order[..limit])
        } else {
            Vec::new()
        },
        not_upgradable_pods: if upgrading {
            names(&not_upgradable)
        } else {
            Vec::new()
        },
        candidates: names(&order),
        upgrade_limit: limit as i64,
        partition,
        max_unavailable,
        updated_unavailable,
        status,
        pods: pods
            .iter()
            .zip(&facts)
            .zip(reasons)
            .map(|((p, f), reason)| PodUpgrade {
                name: p.metadata.name.clone(),
                reason,
                ready: f.ready,
                consistent: f.consistent,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(v: serde_json::Value) -> Result<NextUpgradeOutput> {
        next_upgrade(&serde_json::from_value(v).unwrap())
    }

    #[test]
    fn errors_name_the_field() {
        let e = run(
            json!({"sidecarSet": {"spec": {"containers": [{"name": "a"}, {"name": "b",
            "upgradeStrategy": {"upgradeType": "HotUpgrade"}}]}}, "pods": []}),
        )
        .unwrap_err();
        assert_eq!(e.kind, UNSUPPORTED);
        assert_eq!(
            e.field.as_deref(),
            Some("sidecarSet.spec.containers[1].upgradeStrategy.upgradeType")
        );
        let e =
            run(json!({"sidecarSet": {}, "pods": [{}, {"metadata": {"creationTimestamp": "x"}}]}))
                .unwrap_err();
        assert_eq!(
            e.field.as_deref(),
            Some("pods[1].metadata.creationTimestamp")
        );
        let e = run(json!({"sidecarSet": {"metadata": {"name": "s"}, "spec": {"containers": [{"name": "c"}]}},
            "pods": [{"metadata": {"annotations": {INPLACE_UPDATE_STATE: "{\"s\":null}"}},
                      "spec": {"containers": [{"name": "c", "image": "x:1"}]},
                      "status": {"containerStatuses": [{"name": "c"}]}}]}))
        .unwrap_err();
        assert_eq!(e.kind, INVALID_ANNOTATION);
    }

    #[test]
    fn not_ready_candidates_do_not_use_max_unavailable() {
        let pod = |name: &str, ready: &str, created: &str| {
            json!({"metadata": {"name": name, "creationTimestamp": created},
                   "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": ready}]}})
        };
        let out = run(json!({"sidecarSet": {"metadata": {"annotations": {HASH: "new"}}},
            "pods": [pod("a", "True", "2024-01-01T00:00:00Z"), pod("b", "False", "2024-01-01T00:00:00Z"),
                     pod("c", "True", "2024-01-02T00:00:00Z")]}))
        .unwrap();
        assert_eq!(out.action, UpgradeAction::Upgrade);
        assert_eq!(out.candidates, ["b", "c", "a"]);
        assert_eq!(out.upgrade_pods, ["b", "c"]);
        assert_eq!(out.pods[0].reason, PodUpgradeReason::MaxUnavailable);
        assert_eq!(out.max_unavailable, 1);
    }
}
