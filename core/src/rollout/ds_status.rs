//! Advanced DaemonSet status from its nodes and pods: `updateDaemonSetStatus` and
//! `storeDaemonSetStatus` of OpenKruise v1.9.0 `pkg/controller/daemonset/daemonset_controller.go`,
//! with `nodeShouldRunDaemonPod` (`daemonset_util.go`), the pod grouping of
//! `getNodesToDaemonPods` (Kubernetes' `GetTargetNodeName`) and the pod order
//! `podByCreationTimestampAndPhase`.
//!
//! Per node of `nodes`:
//!
//! - **should run**: the template's `nodeName` is empty or the node's name, the template's
//!   `nodeSelector` and required node affinity match the node, and no `NoSchedule`/`NoExecute`
//!   taint is left untolerated by the template's tolerations plus the daemon tolerations
//!   ([`crate::k8s::scheduling`]);
//! - **scheduled**: one of `pods` targets the node (its `spec.nodeName`, else the value of the first
//!   `matchFields` `metadata.name` `In` requirement of its required node affinity; a pod with
//!   neither, or with such a requirement of other than one value, is not counted).
//!
//! A node that should run and is scheduled adds to `currentNumberScheduled`; its first pod (pods
//! with a `nodeName` first, then oldest `creationTimestamp`, then name) decides `numberReady`
//! (first `Ready` condition `True`), `numberAvailable` (ready for `minReadySeconds`: the `Ready`
//! condition's `lastTransitionTime + minReadySeconds` strictly before `now`, or minReadySeconds 0;
//! and, with the `InPlaceUpdateReady` readiness gate, that condition absent or `True`) and
//! `updatedNumberScheduled` (label `controller-revision-hash` equal to a non-empty `hash`, or
//! label `pod-template-generation` equal to the annotation `deprecated.daemonset.template.generation`
//! when that parses as an integer). A node that should not run but is scheduled adds to
//! `numberMisscheduled`. Pods on nodes not listed count nowhere.

use super::active_pods::Condition as PodCondition;
use crate::error::{Error, Result};
use crate::k8s::null_as_default as null_default;
use crate::k8s::scheduling::{
    Affinity, Toleration, daemon_pod_tolerations, required_node_affinity_matches, untolerated_taint,
};
use crate::k8s::strconv::atoi;
use crate::time::parse_time;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The pod label carrying the revision hash (`DefaultDaemonSetUniqueLabelKey`).
pub const HASH_LABEL: &str = "controller-revision-hash";
/// The pod label carrying the template generation (`DaemonSetTemplateGenerationKey`).
pub const GENERATION_LABEL: &str = "pod-template-generation";
/// The DaemonSet annotation carrying the template generation (`DeprecatedTemplateGeneration`).
pub const GENERATION_ANNOTATION: &str = "deprecated.daemonset.template.generation";

/// Go's zero `metav1.Time` (an absent `creationTimestamp`).
const GO_ZERO: i64 = -62_135_596_800;

/// The DaemonSet's `metadata` (members read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "DaemonsetStatusObjectMeta")]
pub struct DsMeta {
    /// `generation`; absent: 0.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i64>")]
    pub generation: i64,
    /// `annotations` (`deprecated.daemonset.template.generation` is read).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub annotations: BTreeMap<String, String>,
}

/// The pod template's `spec` as the predicates read it (other members ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "DaemonsetStatusTemplateSpec")]
pub struct TemplateSpec {
    /// `nodeName`; non-empty: only that node should run the pod.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub node_name: String,
    /// `nodeSelector`: labels every node running the pod must carry.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub node_selector: BTreeMap<String, String>,
    /// `affinity` (its required node affinity).
    pub affinity: Option<Affinity>,
    /// `tolerations` (the daemon tolerations are added).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<Toleration>>")]
    pub tolerations: Vec<Toleration>,
    /// `hostNetwork`: also tolerate `node.kubernetes.io/network-unavailable`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<bool>")]
    pub host_network: bool,
}

/// `spec.template` (only its `spec` is read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "DaemonsetStatusTemplate")]
pub struct Template {
    /// The pod spec.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<TemplateSpec>")]
    pub spec: TemplateSpec,
}

/// The DaemonSet's `spec` (members read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "DaemonsetStatusSpec")]
pub struct DsSpec {
    /// The pod template.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Template>")]
    pub template: Template,
    /// Seconds a ready pod must stay ready to be available; absent: 0.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub min_ready_seconds: i32,
}

/// An Advanced DaemonSet `status` (the members the controller writes; others ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "DaemonsetStatusFields")]
pub struct DsStatus {
    /// Nodes that should run the pod and run at least one.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub current_number_scheduled: i32,
    /// Nodes that run the pod but should not.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub number_misscheduled: i32,
    /// Nodes that should run the pod.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub desired_number_scheduled: i32,
    /// Nodes that should run the pod whose first pod is ready.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub number_ready: i32,
    /// The generation the status reflects.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i64>")]
    pub observed_generation: i64,
    /// Nodes that should run the pod whose first pod is on `hash` (or the template generation).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub updated_number_scheduled: i32,
    /// Nodes that should run the pod whose first pod is available.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub number_available: i32,
    /// `desiredNumberScheduled − numberAvailable`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub number_unavailable: i32,
    /// The update revision's hash.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub update_revision: String,
}

/// The Advanced DaemonSet (members read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "DaemonsetStatusDaemonSet")]
pub struct DaemonSet {
    /// `metadata`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<DsMeta>")]
    pub metadata: DsMeta,
    /// `spec`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<DsSpec>")]
    pub spec: DsSpec,
    /// The entry `status` (compared to decide whether the controller writes).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<DsStatus>")]
    pub status: DsStatus,
}

/// A node: the shared [`crate::k8s::node::Node`] (name, labels, taints are read).
pub use crate::k8s::node::{Node, NodeSpec};
/// A node's or pod's `metadata`: the shared [`crate::k8s::meta::ObjectMeta`] (a pod's name orders
/// pods created at the same time; its labels `controller-revision-hash` and
/// `pod-template-generation`; `creationTimestamp`, absent or null: the zero time, the oldest).
pub type PodMeta = crate::k8s::meta::ObjectMeta;
/// A node's `metadata` (the shared `ObjectMeta`).
pub type NodeMeta = crate::k8s::meta::ObjectMeta;
/// A daemon pod: the shared [`crate::k8s::pod::Pod`]. Read: `metadata`; `spec.nodeName` (empty:
/// not bound, the pod targets the node its required node affinity's `matchFields` names),
/// `spec.affinity`, `spec.readinessGates`; `status.conditions` (`Ready`, `InPlaceUpdateReady`).
pub use crate::k8s::pod::{Pod, PodSpec, PodStatus, ReadinessGate};

/// Input of `rollout.daemonset_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DaemonsetStatusInput {
    /// The Advanced DaemonSet.
    pub daemon_set: DaemonSet,
    /// Every node of the cluster; absent or null: none.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<Node>>")]
    pub nodes: Vec<Node>,
    /// The DaemonSet's pods (those it owns or adopts, terminating ones included); absent or null:
    /// none.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<Pod>>")]
    pub pods: Vec<Pod>,
    /// The update revision's hash (the `controller-revision-hash` of the current
    /// ControllerRevision); empty: only the template generation marks a pod updated.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub hash: String,
    /// The sync got to its end (the controller then records `metadata.generation` as
    /// `observedGeneration`); `false`: it stopped early on unsatisfied expectations. Absent or
    /// null: `true`.
    #[serde(default)]
    pub update_observed_generation: Option<bool>,
    /// The reconcile time, RFC 3339 (availability under `minReadySeconds`).
    pub now: String,
}

/// Output of `rollout.daemonset_status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaemonsetStatusOutput {
    /// The status after the sync: the entry status when `changed` is false, else the one written.
    pub status: DsStatus,
    /// The controller writes the status: a counter or the update revision differs from the entry
    /// status, or the entry `observedGeneration` is below `metadata.generation`.
    pub changed: bool,
    /// The controller requeues the DaemonSet after this many seconds (`minReadySeconds`, when it is
    /// not negative and some ready pod is not yet available); null: no requeue.
    pub requeue_after_seconds: Option<i32>,
}

/// Kubernetes' `GetTargetNodeName`: `spec.nodeName`, else the one value of the first
/// `metadata.name` `In` field requirement of the required node affinity; `None` when there is none
/// (or it has other than one value).
fn target_node(p: &Pod) -> Option<&str> {
    if !p.spec.node_name.is_empty() {
        return Some(&p.spec.node_name);
    }
    let ns = p
        .spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?;
    for term in &ns.node_selector_terms {
        for r in &term.match_fields {
            if r.key == "metadata.name" && r.operator == "In" {
                return (r.values.len() == 1).then(|| r.values[0].as_str());
            }
        }
    }
    None
}

/// `nodeShouldRunDaemonPod`'s first answer (`shouldRun`).
fn should_run(spec: &TemplateSpec, tolerations: &[Toleration], node: &Node) -> bool {
    let name = &node.metadata.name;
    if !spec.node_name.is_empty() && spec.node_name != *name {
        return false;
    }
    if !required_node_affinity_matches(
        &spec.node_selector,
        spec.affinity.as_ref(),
        name,
        &node.metadata.labels,
    ) {
        return false;
    }
    untolerated_taint(&node.spec.taints, tolerations, |t| {
        t.effect == "NoExecute" || t.effect == "NoSchedule"
    })
    .is_none()
}

/// A pod with its decoded creation time, for the order.
struct Entry<'a> {
    pod: &'a Pod,
    at: usize,
    created: Timestamp,
}

/// `podByCreationTimestampAndPhase`: bound pods first, then older, then smaller name.
fn order(a: &Entry<'_>, b: &Entry<'_>) -> std::cmp::Ordering {
    let bound = |e: &Entry<'_>| e.pod.spec.node_name.is_empty();
    bound(a)
        .cmp(&bound(b))
        .then(a.created.cmp(&b.created))
        .then_with(|| a.pod.metadata.name.cmp(&b.pod.metadata.name))
}

/// `isDaemonPodAvailable` given the pod is ready.
fn available(
    p: &Pod,
    ready: &PodCondition,
    min_ready: i32,
    now: Timestamp,
    at: &str,
) -> Result<bool> {
    if min_ready != 0 {
        let ltt = match ready.last_transition_time.as_deref() {
            None => None,
            Some(s) => Some(parse_time(s, at)?),
        };
        let ok = ltt.is_some_and(|t| t.as_second() != GO_ZERO || t.subsec_nanosecond() != 0)
            && ltt
                .and_then(|t| {
                    t.checked_add(SignedDuration::from_secs(i64::from(min_ready)))
                        .ok()
                })
                .is_some_and(|d| d < now);
        if !ok {
            return Ok(false);
        }
    }
    let gated = p
        .spec
        .readiness_gates
        .iter()
        .any(|g| g.condition_type == "InPlaceUpdateReady");
    if gated
        && let Some(c) = p
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "InPlaceUpdateReady")
        && c.status != "True"
    {
        return Ok(false);
    }
    Ok(true)
}

/// `rollout.daemonset_status` on typed input. Errors: `invalid_input` naming `now`, a pod's
/// `creationTimestamp` or a `Ready` condition's `lastTransitionTime` that is not RFC 3339.
pub fn daemonset_status(i: &DaemonsetStatusInput) -> Result<DaemonsetStatusOutput> {
    let now = parse_time(&i.now, "now")?;
    let ds = &i.daemon_set;
    let tspec = &ds.spec.template.spec;
    let tolerations = daemon_pod_tolerations(&tspec.tolerations, tspec.host_network);
    let generation = ds
        .metadata
        .annotations
        .get(GENERATION_ANNOTATION)
        .and_then(|g| atoi(g).ok());

    let mut by_node: HashMap<&str, Vec<Entry<'_>>> = HashMap::new();
    for (n, p) in i.pods.iter().enumerate() {
        let created = match p.metadata.creation_timestamp.as_deref() {
            None => Timestamp::new(GO_ZERO, 0).map_err(|e| Error::invalid_input("pods", e))?,
            Some(s) => parse_time(s, &format!("pods[{n}].metadata.creationTimestamp"))?,
        };
        // Go decodes the whole pod: every condition time must parse.
        for (ci, c) in p.status.conditions.iter().enumerate() {
            if let Some(t) = c.last_transition_time.as_deref() {
                parse_time(
                    t,
                    &format!("pods[{n}].status.conditions[{ci}].lastTransitionTime"),
                )?;
            }
        }
        if let Some(node) = target_node(p) {
            by_node.entry(node).or_default().push(Entry {
                pod: p,
                at: n,
                created,
            });
        }
    }

    let mut s = DsStatus {
        update_revision: i.hash.clone(),
        ..Default::default()
    };
    for node in &i.nodes {
        let run = should_run(tspec, &tolerations, node);
        let pods = by_node.get_mut(node.metadata.name.as_str());
        let Some(pods) = pods.filter(|p| !p.is_empty()) else {
            if run {
                s.desired_number_scheduled += 1;
            }
            continue;
        };
        if !run {
            s.number_misscheduled += 1;
            continue;
        }
        s.desired_number_scheduled += 1;
        s.current_number_scheduled += 1;
        pods.sort_by(order);
        let e = &pods[0];
        let p = e.pod;
        if let Some((ci, ready)) = p
            .status
            .conditions
            .iter()
            .enumerate()
            .find(|(_, c)| c.type_ == "Ready")
            && ready.status == "True"
        {
            s.number_ready += 1;
            let at = format!("pods[{}].status.conditions[{ci}].lastTransitionTime", e.at);
            if available(p, ready, ds.spec.min_ready_seconds, now, &at)? {
                s.number_available += 1;
            }
        }
        let labels = &p.metadata.labels;
        let by_hash = !i.hash.is_empty() && labels.get(HASH_LABEL) == Some(&i.hash);
        let by_gen = generation.is_some_and(|g| {
            labels.get(GENERATION_LABEL).map(String::as_str) == Some(&g.to_string())
        });
        if by_hash || by_gen {
            s.updated_number_scheduled += 1;
        }
    }
    s.number_unavailable = s.desired_number_scheduled - s.number_available;

    let old = &ds.status;
    let same = (
        old.desired_number_scheduled,
        old.current_number_scheduled,
        old.number_misscheduled,
        old.number_ready,
    ) == (
        s.desired_number_scheduled,
        s.current_number_scheduled,
        s.number_misscheduled,
        s.number_ready,
    ) && (
        old.updated_number_scheduled,
        old.number_available,
        old.number_unavailable,
    ) == (
        s.updated_number_scheduled,
        s.number_available,
        s.number_unavailable,
    ) && old.observed_generation >= ds.metadata.generation
        && old.update_revision == i.hash;
    s.observed_generation = if i.update_observed_generation.unwrap_or(true) {
        ds.metadata.generation
    } else {
        old.observed_generation
    };
    let requeue_after_seconds = (ds.spec.min_ready_seconds >= 0
        && s.number_ready != s.number_available)
        .then_some(ds.spec.min_ready_seconds);
    Ok(DaemonsetStatusOutput {
        status: if same { old.clone() } else { s },
        changed: !same,
        requeue_after_seconds,
    })
}

/// `rollout.daemonset_status`: the Advanced DaemonSet status computed from nodes and pods.
pub struct DaemonsetStatus;

impl crate::registry::Decision for DaemonsetStatus {
    const ID: &'static str = "rollout.daemonset_status";
    const DOC: &'static str = "Advanced DaemonSet status from nodes and pods: desired, current, misscheduled, ready, available, updated, unavailable counts (kruise daemonset_controller.go updateDaemonSetStatus)";
    const SOURCE: &'static str = "pkg/controller/daemonset/daemonset_controller.go updateDaemonSetStatus, storeDaemonSetStatus, \
        getNodesToDaemonPods, Predicates, NewPod, podByCreationTimestampAndPhase; \
        pkg/controller/daemonset/daemonset_util.go nodeShouldRunDaemonPod, isDaemonPodAvailable, ContainsReadinessGate; \
        pkg/controller/daemonset/daemonset_update.go GetTemplateGeneration; \
        k8s.io/kubernetes v1.32 pkg/controller/daemon/util GetTargetNodeName, IsPodUpdated, AddOrUpdateDaemonPodTolerations; \
        k8s.io/component-helpers v0.32 scheduling/corev1/nodeaffinity GetRequiredNodeAffinity";
    const ERRORS: &'static [&'static str] = &[];
    type Input = DaemonsetStatusInput;
    type Output = DaemonsetStatusOutput;

    fn decide(input: DaemonsetStatusInput) -> Result<DaemonsetStatusOutput> {
        daemonset_status(&input)
    }
}
