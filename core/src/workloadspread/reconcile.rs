//! `workloadspread.reconcile`: one pass of the WorkloadSpread controller
//! (`pkg/controller/workloadspread/`): the subset of every pod of the workload (the annotation the
//! webhook wrote, else the takeover of a pod created before the WorkloadSpread by the subset its
//! node matches best), the deletion cost each active pod carries, the subset statuses (replicas,
//! missingReplicas, creatingPods/deletingPods clean-up, the `Schedulable` condition of the adaptive
//! strategy), the pods deleted for rescheduling and the requeue delay.

use crate::api::workloadspread::{MATCHED_ANNOTATION, pod_version};
use crate::error::{Error, Result};
use crate::intstr::{Flavour, IntOrPercent};
use crate::k8s::meta::ObjectMeta;
use crate::k8s::null_as_default;
use crate::k8s::scheduling::{
    NodeSelectorTerm, PreferredSchedulingTerm, Toleration, match_terms, preferred_score,
    untolerated_taint,
};
use crate::rollout::active_pods;
use jiff::Timestamp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Pods in one input at most.
pub const MAX_PODS: usize = 10_000;
/// Nodes in one input at most.
pub const MAX_NODES: usize = 10_000;
/// Subsets in one WorkloadSpread at most.
pub const MAX_SUBSETS: usize = 1_000;

/// Name under which pods that match no subset are grouped (`FakeSubsetName`).
pub const FAKE_SUBSET: &str = "kruise.io/workloadspread-fake-subset-name";
/// The pod annotation the deletion cost is written to.
pub const DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";
/// WorkloadSpread annotation: `"true"` (any case) keeps a subset's patch off taken-over pods.
pub const IGNORE_PATCH_ANNOTATION: &str =
    "workloadspread.kruise.io/ignore-patch-existing-pods-metadata";
/// Error kind: a subset patch the fn cannot evaluate (see `docs/workloadspread.md`).
pub const UNSUPPORTED: &str = "unsupported";

const CREATE_TIMEOUT_NS: i128 = 30_000_000_000;
const DELETE_TIMEOUT_NS: i128 = 15_000_000_000;
const UNSCHEDULABLE_KEEP_NS: i128 = 300_000_000_000;

/// A WorkloadSpread, reduced to what the controller reads; other members are ignored.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpread {
    /// `metadata`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<WsMeta>")]
    pub metadata: WsMeta,
    /// `spec`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<WsSpec>")]
    pub spec: WsSpec,
    /// `status`: the status of the previous pass (absent or null: empty).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<WsStatus>")]
    pub status: WsStatus,
}

/// WorkloadSpread `metadata`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WsMeta {
    /// `name`: compared with the `name` of each pod's matched-workloadspread annotation.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `annotations` (`workloadspread.kruise.io/ignore-patch-existing-pods-metadata` is read).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub annotations: BTreeMap<String, String>,
    /// `generation`, written as `status.observedGeneration`; absent: 0.
    #[serde(default)]
    pub generation: Option<i64>,
}

/// WorkloadSpread `spec`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WsSpec {
    /// `targetRef`; null or absent: the controller does nothing (output `status: null`).
    #[serde(default)]
    pub target_ref: Option<TargetRef>,
    /// `targetFilter`: not supported (the replicas paths need the workload object); any non-null
    /// value is `unsupported`. Pass the pods and replicas the filter selects instead.
    #[serde(default)]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub target_filter: Option<Value>,
    /// `subsets`, in priority order.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Subset>>")]
    pub subsets: Vec<Subset>,
    /// `scheduleStrategy`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ScheduleStrategy>")]
    pub schedule_strategy: ScheduleStrategy,
}

/// `spec.targetRef`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetRef {
    /// `apiVersion`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub api_version: String,
    /// `kind`: deletion costs are written only for `ReplicaSet`, `Deployment` and `CloneSet`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub kind: String,
    /// `name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
}

/// One `spec.subsets[]` entry.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subset {
    /// `name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `requiredNodeSelectorTerm`: ANDed into each of the pod's own required node affinity terms
    /// (or used alone); null: every node whose taints are tolerated matches.
    #[serde(default)]
    pub required_node_selector_term: Option<NodeSelectorTerm>,
    /// `preferredNodeSelectorTerms`: their matching weights rank the subsets of a taken-over pod.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<PreferredSchedulingTerm>>")]
    pub preferred_node_selector_terms: Vec<PreferredSchedulingTerm>,
    /// `tolerations`, added to the pod's.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Toleration>>")]
    pub tolerations: Vec<Toleration>,
    /// `maxReplicas` (int or percent of the workload replicas, rounded up); null: unlimited.
    #[serde(default)]
    pub max_replicas: Option<IntOrPercent>,
    /// `patch` (a strategic merge patch of the pod); null or absent: none.
    #[serde(default)]
    #[schemars(with = "Option<Value>")]
    pub patch: Option<Value>,
}

/// `spec.scheduleStrategy`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleStrategy {
    /// `type`: `Fixed` or `Adaptive`; rescheduling needs `Adaptive`.
    #[serde(rename = "type", default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `adaptive`.
    #[serde(default)]
    pub adaptive: Option<AdaptiveStrategy>,
}

/// `spec.scheduleStrategy.adaptive`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdaptiveStrategy {
    /// `rescheduleCriticalSeconds`: a pending, unschedulable pod older than this is deleted and
    /// its subset marked unschedulable; null or not positive: no rescheduling.
    #[serde(default)]
    pub reschedule_critical_seconds: Option<i32>,
    /// `disableSimulationSchedule`: read by the webhook only.
    #[serde(default)]
    pub disable_simulation_schedule: Option<bool>,
}

/// WorkloadSpread `status` (input: the previous one; output: the one written).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WsStatus {
    /// `observedGeneration`.
    #[serde(default)]
    pub observed_generation: Option<i64>,
    /// `subsetStatuses`, one per spec subset in spec order; null in the output when a subset's
    /// `maxReplicas` does not scale (not a percentage string, or negative).
    #[serde(default)]
    pub subset_statuses: Option<Vec<SubsetStatus>>,
    /// `versionedSubsetStatuses`: the same per pod version (`pod-template-hash`, or the
    /// `controller-revision-hash` suffix, for ReplicaSet/Deployment pods; `versionIgnored` else).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, Option<Vec<SubsetStatus>>>>")]
    pub versioned_subset_statuses: BTreeMap<String, Option<Vec<SubsetStatus>>>,
}

/// One subset status.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubsetStatus {
    /// `name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `missingReplicas`: room left under `maxReplicas`; -1 = unlimited.
    #[serde(default)]
    pub missing_replicas: i32,
    /// `replicas`: active pods of the subset.
    #[serde(default)]
    pub replicas: i32,
    /// `creatingPods`: pod name (or webhook UID) → time the webhook admitted it (RFC 3339).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub creating_pods: BTreeMap<String, String>,
    /// `deletingPods`: pod name → time the webhook admitted its deletion (RFC 3339).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub deleting_pods: BTreeMap<String, String>,
    /// `conditions` (only `Schedulable` is written).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<SubsetCondition>>")]
    pub conditions: Vec<SubsetCondition>,
}

/// One subset condition.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubsetCondition {
    /// `type` (`Schedulable`).
    #[serde(rename = "type", default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `status`: `True` / `False`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub status: String,
    /// `lastTransitionTime` (RFC 3339); null: the zero time.
    #[serde(default)]
    pub last_transition_time: Option<String>,
    /// `reason`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub reason: String,
    /// `message`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub message: String,
}

/// A pod of the workload: the shared [`crate::k8s::pod::Pod`] (a whole Pod may be passed). Read:
/// `metadata` (name, annotations, deletion timestamp, creation time); `spec.nodeName` (the node a
/// pod without a subset is placed by; empty: unscheduled), `tolerations`, `affinity` (its
/// required node affinity), `initContainers` (restart policy, for the deletion order of sidecar
/// restarts); `status.phase` (`Succeeded`/`Failed` pods are not active, `Pending` ones may be
/// rescheduled), `conditions` (`Ready` for the deletion order, `PodScheduled` for rescheduling),
/// container and init container restart counts (the deletion order).
pub type WsPod = crate::k8s::pod::Pod;
/// Pod `spec` (the shared [`crate::k8s::pod::PodSpec`]).
pub type WsPodSpec = crate::k8s::pod::PodSpec;
/// Pod `status` (the shared [`crate::k8s::pod::PodStatus`]).
pub type WsPodStatus = crate::k8s::pod::PodStatus;
/// A node: the shared [`crate::k8s::node::Node`] (name, labels, taints).
pub type WsNode = crate::k8s::node::Node;
/// Node `metadata` (the shared `ObjectMeta`: name, unique among the nodes, and labels).
pub type WsNodeMeta = ObjectMeta;
/// Node `spec` (the shared [`crate::k8s::node::NodeSpec`]: taints).
pub type WsNodeSpec = crate::k8s::node::NodeSpec;

/// Input of `workloadspread.reconcile`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReconcileInput {
    /// The WorkloadSpread. Required.
    pub workload_spread: WorkloadSpread,
    /// The workload's replicas (a Job's parallelism), what percentage `maxReplicas` are taken of;
    /// absent or null: 0.
    #[serde(default)]
    pub workload_replicas: Option<i32>,
    /// The workload's latest version (`GetWorkloadVersion`: a Deployment's newest ReplicaSet's
    /// `pod-template-hash`, a CloneSet's update revision suffix; `versionIgnored` for a kind not in
    /// `versionedStatusKinds`); pods of other versions get their deletion costs in reverse subset
    /// order. Absent or null: `""` (workload not found).
    #[serde(default)]
    pub latest_version: Option<String>,
    /// The pods of the workload (after `targetFilter`), in the order the cache lists them.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<WsPod>>")]
    pub pods: Vec<WsPod>,
    /// The nodes the pods run on (a pod whose node is not listed matches no subset).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<WsNode>>")]
    pub nodes: Vec<WsNode>,
    /// The current time (RFC 3339). Required.
    pub now: String,
    /// Lower-case workload kinds whose pods are grouped per version (absent or null:
    /// `["deployment", "replicaset"]`, v1.9.0's).
    #[serde(default)]
    pub versioned_status_kinds: Option<Vec<String>>,
}

/// Output of `workloadspread.reconcile`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReconcileOutput {
    /// The status written; null when `spec.targetRef` is null (nothing is done).
    pub status: Option<WsStatus>,
    /// The pods of each spec subset (names, input order), in spec order.
    pub subsets: Vec<SubsetPods>,
    /// Pods that match no subset (names, input order); they get the lowest deletion cost.
    pub unmatched_pods: Vec<String>,
    /// Pods taken over: the metadata patch written to each (the matched-workloadspread
    /// annotation, plus the subset patch's labels and annotations), in the order written.
    pub takeovers: Vec<Takeover>,
    /// The deletion cost of every active pod (only for ReplicaSet, Deployment and CloneSet
    /// targets), by pod name.
    pub deletion_costs: Vec<DeletionCost>,
    /// Pods deleted to be rescheduled (pending and unschedulable longer than
    /// `rescheduleCriticalSeconds`), by subset in spec order.
    pub pods_to_delete: Vec<String>,
    /// Requeue delay in nanoseconds: the earliest creating/deleting entry expiry, pending-pod
    /// timeout or unschedulable-subset recovery; null: no requeue.
    pub requeue_after_nanos: Option<i64>,
}

/// The pods of one subset.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubsetPods {
    /// Subset name.
    pub name: String,
    /// Pod names.
    pub pods: Vec<String>,
}

/// One taken-over pod.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Takeover {
    /// Pod name.
    pub pod: String,
    /// The subset chosen.
    pub subset: String,
    /// The `metadata` of the strategic merge patch written to the pod.
    #[schemars(with = "Map<String, Value>")]
    pub metadata: Value,
}

/// The deletion cost of one pod.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletionCost {
    /// Pod name.
    pub pod: String,
    /// The `controller.kubernetes.io/pod-deletion-cost` the pod carries after the pass (the last
    /// value patched; with two subsets of one name the pod is compared with its listed value for
    /// each, as the reference does).
    pub value: String,
    /// Whether a patch is sent (the listed annotation differs from a value computed for it).
    pub patched: bool,
}

struct Inject {
    name: String,
    subset: String,
    uid: String,
}

/// Reads the matched-workloadspread annotation as `json.Unmarshal` into
/// `InjectWorkloadSpread` does: `None` when absent or not decodable.
fn inject_of(annotations: &BTreeMap<String, String>) -> Option<Inject> {
    let raw = annotations.get(MATCHED_ANNOTATION)?;
    let v: Value = serde_json::from_str(raw).ok()?;
    let o = v.as_object()?;
    let mut out = Inject {
        name: String::new(),
        subset: String::new(),
        uid: String::new(),
    };
    for (k, v) in o {
        let slot = if k.eq_ignore_ascii_case("name") {
            &mut out.name
        } else if k.eq_ignore_ascii_case("subset") {
            &mut out.subset
        } else if k.eq_ignore_ascii_case("uid") {
            &mut out.uid
        } else {
            continue;
        };
        match v {
            Value::String(s) => s.clone_into(slot),
            Value::Null => {}
            _ => return None,
        }
    }
    Some(out)
}

fn matched_subset<'a>(inject: Option<&'a Inject>, ws_name: &str) -> Option<&'a str> {
    let i = inject?;
    (i.name == ws_name && !i.subset.is_empty()).then_some(i.subset.as_str())
}

/// Go's `json.Marshal` of a string-only value: `<`, `>`, `&`, U+2028 and U+2029 escaped.
fn go_json(v: &Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

struct PodState {
    name: String,
    version: String,
    active: bool,
    node: String,
    labels: BTreeMap<String, String>,
    annotations: BTreeMap<String, String>,
    tolerations: Vec<Toleration>,
    affinity_terms: Option<Vec<NodeSelectorTerm>>,
    key: active_pods::SortKey,
    /// Pending-unschedulable since (creation time), when the reschedule rule applies.
    unschedulable_since: Option<i128>,
}

fn nanos(t: Timestamp) -> i128 {
    t.as_nanosecond()
}

const ZERO_TIME_NS: i128 = -62_135_596_800 * 1_000_000_000;

fn time_ns(s: Option<&str>, field: &str) -> Result<i128> {
    match s {
        None => Ok(ZERO_TIME_NS),
        Some(s) => Ok(nanos(crate::time::parse_time(s, field)?)),
    }
}

/// A `metav1.Time` as the API writes it back: whole seconds in UTC, the zero time as null.
fn norm_time(s: Option<&str>) -> Option<String> {
    let ns = time_ns(s, "").unwrap_or(ZERO_TIME_NS);
    (ns != ZERO_TIME_NS).then(|| format_ns(ns))
}

fn norm_cond(c: &SubsetCondition) -> SubsetCondition {
    SubsetCondition {
        last_transition_time: norm_time(c.last_transition_time.as_deref()),
        ..c.clone()
    }
}

fn format_ns(ns: i128) -> String {
    Timestamp::from_nanosecond(ns).map_or_else(
        |_| String::new(),
        |t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
    )
}

/// Go's `time.Time.Sub` saturating into an int64 duration.
fn sub(a: i128, b: i128) -> i64 {
    i64::try_from(a - b).unwrap_or(if a > b { i64::MAX } else { i64::MIN })
}

struct Requeue(Option<i64>);

impl Requeue {
    fn push(&mut self, d: i64) {
        if d > 0 && self.0.is_none_or(|cur| d < cur) {
            self.0 = Some(d);
        }
    }
}

/// Decides `workloadspread.reconcile`.
pub fn reconcile(i: &ReconcileInput) -> Result<ReconcileOutput> {
    let ws = &i.workload_spread;
    if i.pods.len() > MAX_PODS {
        return Err(Error::invalid_input(
            "pods",
            format_args!("more than {MAX_PODS} pods"),
        ));
    }
    if i.nodes.len() > MAX_NODES {
        return Err(Error::invalid_input(
            "nodes",
            format_args!("more than {MAX_NODES} nodes"),
        ));
    }
    if ws.spec.subsets.len() > MAX_SUBSETS {
        return Err(Error::invalid_input(
            "workloadSpread.spec.subsets",
            format_args!("more than {MAX_SUBSETS} subsets"),
        ));
    }
    let now = nanos(crate::time::parse_time(&i.now, "now")?);
    if ws.spec.target_filter.as_ref().is_some_and(|v| !v.is_null()) {
        return Err(Error::at(
            UNSUPPORTED,
            "workloadSpread.spec.targetFilter",
            "targetFilter needs the workload object; pass the filtered pods and replicas instead",
        ));
    }
    let Some(target) = &ws.spec.target_ref else {
        return Ok(ReconcileOutput::default());
    };
    let replicas = i64::from(i.workload_replicas.unwrap_or(0));
    let kinds: Vec<&str> = match &i.versioned_status_kinds {
        None => vec!["deployment", "replicaset"],
        Some(k) => k.iter().map(String::as_str).collect(),
    };

    let mut nodes: BTreeMap<&str, &WsNode> = BTreeMap::new();
    for (n, node) in i.nodes.iter().enumerate() {
        if nodes.insert(node.metadata.name.as_str(), node).is_some() {
            return Err(Error::invalid_input(
                format!("nodes[{n}].metadata.name"),
                "duplicate node name",
            ));
        }
    }

    // validate times of the old status up front
    let old_status_times = |list: &[SubsetStatus], path: &str| -> Result<()> {
        for (s, st) in list.iter().enumerate() {
            for (k, v) in st.creating_pods.iter().chain(&st.deleting_pods) {
                time_ns(Some(v), &format!("{path}[{s}] pod {k}"))?;
            }
            for (c, cond) in st.conditions.iter().enumerate() {
                time_ns(
                    cond.last_transition_time.as_deref(),
                    &format!("{path}[{s}].conditions[{c}].lastTransitionTime"),
                )?;
            }
        }
        Ok(())
    };
    old_status_times(
        ws.status.subset_statuses.as_deref().unwrap_or_default(),
        "workloadSpread.status.subsetStatuses",
    )?;
    for (v, l) in &ws.status.versioned_subset_statuses {
        old_status_times(
            l.as_deref().unwrap_or_default(),
            &format!("workloadSpread.status.versionedSubsetStatuses.{v}"),
        )?;
    }

    let mut pods = Vec::with_capacity(i.pods.len());
    let mut names = BTreeSet::new();
    for (n, p) in i.pods.iter().enumerate() {
        let path = format!("pods[{n}]");
        if p.metadata.name.is_empty() {
            return Err(Error::invalid_input(
                format!("{path}.metadata.name"),
                "a pod needs a name",
            ));
        }
        if !names.insert(p.metadata.name.as_str()) {
            return Err(Error::invalid_input(
                format!("{path}.metadata.name"),
                "duplicate pod name",
            ));
        }
        let sort_pod = active_pods::Pod {
            metadata: active_pods::Meta {
                name: p.metadata.name.clone(),
                creation_timestamp: p.metadata.creation_timestamp.clone(),
                ..Default::default()
            },
            spec: active_pods::Spec {
                node_name: p.spec.node_name.clone(),
                init_containers: p.spec.init_containers.clone(),
                ..Default::default()
            },
            status: active_pods::Status {
                phase: p.status.phase.clone(),
                conditions: p.status.conditions.clone(),
                container_statuses: p.status.container_statuses.clone(),
                init_container_statuses: p.status.init_container_statuses.clone(),
            },
        };
        let key = sort_pod.key().map_err(|e| {
            Error::invalid_input(
                format!("{path}.{}", e.field.as_deref().unwrap_or("")),
                e.message,
            )
        })?;
        let created = time_ns(
            p.metadata.creation_timestamp.as_deref(),
            &format!("{path}.metadata.creationTimestamp"),
        )?;
        if let Some(d) = &p.metadata.deletion_timestamp {
            time_ns(Some(d), &format!("{path}.metadata.deletionTimestamp"))?;
        }
        let labels: Map<String, Value> = p
            .metadata
            .labels
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let owner = p
            .metadata
            .owner_references
            .iter()
            .find(|r| r.controller == Some(true))
            .map(|r| r.kind.as_str());
        let version = pod_version(Some(&labels), owner, &kinds);
        let unschedulable = p.metadata.deletion_timestamp.is_none()
            && p.status.phase == "Pending"
            && p.spec.node_name.is_empty()
            && p.status.conditions.iter().any(|c| {
                c.type_ == "PodScheduled" && c.status == "False" && c.reason == "Unschedulable"
            });
        pods.push(PodState {
            name: p.metadata.name.clone(),
            version,
            active: p.status.phase != "Succeeded"
                && p.status.phase != "Failed"
                && p.metadata.deletion_timestamp.is_none(),
            node: p.spec.node_name.clone(),
            labels: p.metadata.labels.clone(),
            annotations: p.metadata.annotations.clone(),
            tolerations: p.spec.tolerations.clone(),
            affinity_terms: p
                .spec
                .affinity
                .as_ref()
                .and_then(|a| a.node_affinity.as_ref())
                .and_then(|n| {
                    n.required_during_scheduling_ignored_during_execution
                        .as_ref()
                })
                .map(|s| s.node_selector_terms.clone()),
            key,
            unschedulable_since: unschedulable.then_some(created),
        });
    }

    // versions in order of first appearance (each version is grouped independently)
    let mut versions: Vec<String> = Vec::new();
    for p in &pods {
        if !versions.contains(&p.version) {
            versions.push(p.version.clone());
        }
    }
    let subsets = &ws.spec.subsets;
    let ignore_patch = ws
        .metadata
        .annotations
        .get(IGNORE_PATCH_ANNOTATION)
        .is_some_and(|v| v.eq_ignore_ascii_case("true"));

    check_takeover_terms(ws, &pods, &nodes)?;
    // pod index → subset name (FAKE_SUBSET when none)
    let mut assigned: Vec<String> = vec![String::new(); pods.len()];
    let mut takeovers = Vec::new();
    for version in &versions {
        let members: Vec<usize> = (0..pods.len())
            .filter(|&k| &pods[k].version == version)
            .collect();
        let mut missing: BTreeMap<&str, i64> = BTreeMap::new();
        for s in subsets {
            let max = s
                .max_replicas
                .clone()
                .unwrap_or(IntOrPercent::Int(i32::MAX));
            missing.insert(
                s.name.as_str(),
                max.scale(replicas, true, Flavour::Scaled).unwrap_or(0),
            );
        }
        for &k in &members {
            let inject = inject_of(&pods[k].annotations);
            if let Some(sub) = matched_subset(inject.as_ref(), &ws.metadata.name)
                && let Some(m) = missing.get_mut(sub)
            {
                *m -= 1;
            }
        }
        for &k in &members {
            let inject = inject_of(&pods[k].annotations);
            let name = if let Some(sub) = matched_subset(inject.as_ref(), &ws.metadata.name) {
                sub.to_owned()
            } else {
                match takeover_subset(ws, &pods[k], &nodes, &missing)? {
                    None => FAKE_SUBSET.to_owned(),
                    Some(si) => {
                        let subset = &subsets[si];
                        let metadata = takeover_patch(ws, subset, si, ignore_patch)?;
                        apply_annotations(&mut pods[k].annotations, &metadata);
                        takeovers.push(Takeover {
                            pod: pods[k].name.clone(),
                            subset: subset.name.clone(),
                            metadata,
                        });
                        if let Some(m) = missing.get_mut(subset.name.as_str()) {
                            *m -= 1;
                        }
                        subset.name.clone()
                    }
                }
            };
            let known = name == FAKE_SUBSET || subsets.iter().any(|s| s.name == name);
            assigned[k] = if known { name } else { FAKE_SUBSET.to_owned() };
        }
    }

    let mut out = ReconcileOutput {
        takeovers,
        ..ReconcileOutput::default()
    };
    for s in subsets {
        out.subsets.push(SubsetPods {
            name: s.name.clone(),
            pods: (0..pods.len())
                .filter(|&k| assigned[k] == s.name)
                .map(|k| pods[k].name.clone())
                .collect(),
        });
    }
    out.unmatched_pods = (0..pods.len())
        .filter(|&k| assigned[k] == FAKE_SUBSET)
        .map(|k| pods[k].name.clone())
        .collect();

    // deletion costs
    if matches!(
        target.kind.as_str(),
        "ReplicaSet" | "Deployment" | "CloneSet"
    ) {
        let latest = i.latest_version.as_deref().unwrap_or("");
        let mut costs: BTreeMap<String, (String, bool)> = BTreeMap::new();
        for version in &versions {
            let reverse = version != latest;
            let n = subsets.len();
            let in_subset = |name: &str| -> Vec<usize> {
                (0..pods.len())
                    .filter(|&k| &pods[k].version == version && assigned[k] == name)
                    .collect()
            };
            let mut plan: Vec<(Option<usize>, usize, Vec<usize>)> = Vec::new();
            for (idx, s) in subsets.iter().enumerate() {
                let index = if reverse { n - idx - 1 } else { idx };
                plan.push((Some(idx), index, in_subset(&s.name)));
            }
            let fake = in_subset(FAKE_SUBSET);
            if !fake.is_empty() {
                plan.push((None, n, fake));
            }
            for (subset, index, members) in plan {
                let active: Vec<usize> = members.into_iter().filter(|&k| pods[k].active).collect();
                let count = active.len() as i64;
                let (positive, negative): (Vec<usize>, Vec<usize>) =
                    match subset.map(|s| &subsets[s]) {
                        None => (Vec::new(), active),
                        Some(Subset {
                            max_replicas: None, ..
                        }) => (active, Vec::new()),
                        Some(Subset {
                            max_replicas: Some(m),
                            ..
                        }) => {
                            let Ok(max) = m.scale(replicas, true, Flavour::Legacy) else {
                                continue;
                            };
                            if max < 0 {
                                continue;
                            }
                            if count <= max {
                                (active, Vec::new())
                            } else {
                                let keys: Vec<active_pods::SortKey> =
                                    active.iter().map(|&k| pods[k].key).collect();
                                let order = active_pods::order(&keys);
                                let cut = usize::try_from(count - max).unwrap_or(0);
                                let neg = order[..cut].iter().map(|&o| active[o]).collect();
                                let pos = order[cut..].iter().map(|&o| active[o]).collect();
                                (pos, neg)
                            }
                        }
                    };
                let index = i64::try_from(index).unwrap_or(i64::MAX);
                let n = i64::try_from(n).unwrap_or(i64::MAX);
                for (list, value) in [
                    (positive, 100 * (n - index)),
                    (negative, -100 * (index + 1)),
                ] {
                    let value = value.to_string();
                    for k in list {
                        // The reference compares with the pod as listed (it patches a copy), so
                        // a pod met twice (two subsets of one name) is compared with its listed
                        // value both times; what it carries afterwards is the last value patched.
                        let old = pods[k].annotations.get(DELETION_COST_ANNOTATION);
                        let skip = old == Some(&value) || (old.is_none() && value == "0");
                        let e = costs
                            .entry(pods[k].name.clone())
                            .or_insert_with(|| (old.cloned().unwrap_or_default(), false));
                        if !skip {
                            e.0.clone_from(&value);
                            e.1 = true;
                        }
                    }
                }
            }
        }
        out.deletion_costs = costs
            .into_iter()
            .map(|(pod, (value, patched))| DeletionCost {
                pod,
                value,
                patched,
            })
            .collect();
    }

    // status
    let mut requeue = Requeue(None);
    let critical = if ws.spec.schedule_strategy.type_ == "Adaptive" {
        ws.spec
            .schedule_strategy
            .adaptive
            .as_ref()
            .and_then(|a| a.reschedule_critical_seconds)
            .unwrap_or(0)
    } else {
        0
    };
    let ctx = StatusCtx {
        ws,
        pods: &pods,
        replicas,
        now,
        critical,
    };
    // The reference lists a subset's pods version group after version group, in Go's (random)
    // map order; kruise-core takes the versions in sorted order, each group in input order. The
    // order shows in `missingReplicas` when deleting pods meet a full subset.
    let mut all: Vec<usize> = (0..pods.len()).collect();
    all.sort_by(|&a, &b| pods[a].version.cmp(&pods[b].version));
    let (overall, failed) = ctx.statuses(
        ws.status.subset_statuses.as_deref().unwrap_or_default(),
        &all,
        &assigned,
        &mut requeue,
    );
    let mut versioned = BTreeMap::new();
    for version in &versions {
        let members: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&k| &pods[k].version == version)
            .collect();
        let old = ws
            .status
            .versioned_subset_statuses
            .get(version)
            .and_then(Option::as_deref)
            .unwrap_or_default();
        let (l, _) = ctx.statuses(old, &members, &assigned, &mut requeue);
        versioned.insert(version.clone(), l);
    }
    for (version, old) in &ws.status.versioned_subset_statuses {
        if versions.contains(version) {
            continue;
        }
        let (l, _) = ctx.statuses(
            old.as_deref().unwrap_or_default(),
            &[],
            &assigned,
            &mut requeue,
        );
        let empty = l.as_ref().is_none_or(|l| {
            l.iter()
                .map(|s| {
                    i64::from(s.replicas)
                        + s.creating_pods.len() as i64
                        + s.deleting_pods.len() as i64
                })
                .sum::<i64>()
                == 0
        });
        if !empty {
            versioned.insert(version.clone(), l);
        }
    }
    out.pods_to_delete = failed;
    out.status = Some(WsStatus {
        observed_generation: Some(ws.metadata.generation.unwrap_or(0)),
        subset_statuses: overall,
        versioned_subset_statuses: versioned,
    });
    out.requeue_after_nanos = requeue.0;
    Ok(out)
}

/// `getAndUpdateSuitableSubsetName` without the patch: the index of the subset a pod created
/// before the WorkloadSpread is taken over by.
fn takeover_subset(
    ws: &WorkloadSpread,
    pod: &PodState,
    nodes: &BTreeMap<&str, &WsNode>,
    missing: &BTreeMap<&str, i64>,
) -> Result<Option<usize>> {
    if pod.node.is_empty() {
        return Ok(None);
    }
    let Some(node) = nodes.get(pod.node.as_str()) else {
        return Ok(None);
    };
    let mut best: Option<usize> = None;
    let mut best_score = -1i64;
    for (si, s) in ws.spec.subsets.iter().enumerate() {
        if !required_and_tolerated(pod, node, s) {
            continue;
        }
        let node_score = node_score(s, si, node)?;
        let pod_score = match &s.patch {
            None | Some(Value::Null) => 0,
            Some(p) => pod_preferred_score(p, pod, si)?,
        };
        let quota = i64::from(missing.get(s.name.as_str()).copied().unwrap_or(0) > 0);
        let score = node_score * 100 + pod_score * 10 + quota;
        if score > best_score {
            best = Some(si);
            best_score = score;
        }
    }
    Ok(best)
}

/// The weight of `s`'s preferred terms the node matches; `invalid_input` for a term that does not
/// parse (the reference then scores with a nil term list and panics).
fn node_score(s: &Subset, si: usize, node: &WsNode) -> Result<i64> {
    if s.preferred_node_selector_terms.is_empty() {
        return Ok(0);
    }
    preferred_score(
        &s.preferred_node_selector_terms,
        &node.metadata.name,
        &node.metadata.labels,
    )
    .map_err(|e| {
        Error::invalid_input(
            format!("workloadSpread.spec.subsets[{si}].preferredNodeSelectorTerms"),
            format_args!("{e} (the reference fails on this term)"),
        )
    })
}

/// Fails as the reference does when a pod to take over reaches a subset whose preferred terms do
/// not parse. Run before any takeover so that this failure wins over an `unsupported` patch met
/// earlier (the reference evaluates every patch; kruise-core only some).
fn check_takeover_terms(
    ws: &WorkloadSpread,
    pods: &[PodState],
    nodes: &BTreeMap<&str, &WsNode>,
) -> Result<()> {
    for pod in pods {
        if matched_subset(inject_of(&pod.annotations).as_ref(), &ws.metadata.name).is_some() {
            continue;
        }
        let Some(node) = nodes
            .get(pod.node.as_str())
            .filter(|_| !pod.node.is_empty())
        else {
            continue;
        };
        for (si, s) in ws.spec.subsets.iter().enumerate() {
            if required_and_tolerated(pod, node, s) {
                node_score(s, si, node)?;
            }
        }
    }
    Ok(())
}

fn required_and_tolerated(pod: &PodState, node: &WsNode, s: &Subset) -> bool {
    let mut tolerations = pod.tolerations.clone();
    tolerations.extend(s.tolerations.iter().cloned());
    if untolerated_taint(&node.spec.taints, &tolerations, |_| true).is_some() {
        return false;
    }
    let Some(req) = &s.required_node_selector_term else {
        return true;
    };
    let mut terms = pod.affinity_terms.clone().unwrap_or_default();
    if terms.is_empty() {
        terms = vec![req.clone()];
    } else {
        for t in &mut terms {
            t.match_expressions
                .extend(req.match_expressions.iter().cloned());
            t.match_fields.extend(req.match_fields.iter().cloned());
        }
    }
    match_terms(&terms, &node.metadata.name, &node.metadata.labels).unwrap_or(false)
}

/// `podPreferredScore` for patches of pod labels (and annotations, which it ignores): 1 when the
/// patch leaves the pod's labels unchanged. Other patches are `unsupported`.
fn pod_preferred_score(patch: &Value, pod: &PodState, si: usize) -> Result<i64> {
    let field = format!("workloadSpread.spec.subsets[{si}].patch");
    let unsupported = |what: &str| {
        Error::at(
            UNSUPPORTED,
            field.clone(),
            format!(
                "{what}: only metadata.labels and metadata.annotations patches are evaluated when taking over a pod"
            ),
        )
    };
    let Value::Object(o) = patch else {
        return Ok(0);
    };
    let mut same = true;
    for (k, v) in o {
        if k != "metadata" {
            return Err(unsupported(k));
        }
        let Value::Object(meta) = v else {
            return Err(unsupported("metadata"));
        };
        for (mk, mv) in meta {
            match (mk.as_str(), mv) {
                ("annotations", _) => {}
                ("labels", Value::Object(labels)) => {
                    if pod.labels.is_empty() {
                        same = false;
                    }
                    for (lk, lv) in labels {
                        match lv {
                            Value::Null => same &= !pod.labels.contains_key(lk),
                            Value::String(s) => same &= pod.labels.get(lk) == Some(s),
                            _ => return Err(unsupported("metadata.labels")),
                        }
                    }
                }
                ("labels", Value::Null) => same &= pod.labels.is_empty(),
                _ => return Err(unsupported(&format!("metadata.{mk}"))),
            }
        }
    }
    Ok(i64::from(same))
}

/// The `metadata` of the takeover patch (`patchFavoriteSubsetMetadataToPod`).
fn takeover_patch(ws: &WorkloadSpread, s: &Subset, si: usize, ignore: bool) -> Result<Value> {
    let mut meta = Map::new();
    if let Some(Value::Object(p)) = s.patch.as_ref().filter(|_| !ignore)
        && let Some(Value::Object(m)) = p.get("metadata")
    {
        meta = m.clone();
        for (k, v) in &meta {
            let ok = match (k.as_str(), v) {
                ("labels" | "annotations", Value::Null) => true,
                ("labels" | "annotations", Value::Object(m)) => {
                    m.values().all(|v| v.is_string() || v.is_null())
                }
                _ => false,
            };
            if !ok {
                return Err(Error::at(
                    UNSUPPORTED,
                    format!("workloadSpread.spec.subsets[{si}].patch.metadata.{k}"),
                    "only string labels and annotations are written to a taken-over pod",
                ));
            }
        }
    }
    let inject = go_json(&serde_json::json!({"name": ws.metadata.name, "subset": s.name}));
    match meta.get_mut("annotations") {
        Some(Value::Object(a)) => {
            a.insert(MATCHED_ANNOTATION.into(), Value::String(inject));
        }
        _ => {
            let mut a = Map::new();
            a.insert(MATCHED_ANNOTATION.into(), Value::String(inject));
            meta.insert("annotations".into(), Value::Object(a));
        }
    }
    Ok(Value::Object(meta))
}

fn apply_annotations(annotations: &mut BTreeMap<String, String>, metadata: &Value) {
    if let Some(Value::Object(a)) = metadata.get("annotations") {
        for (k, v) in a {
            match v {
                Value::String(s) => {
                    annotations.insert(k.clone(), s.clone());
                }
                _ => {
                    annotations.remove(k);
                }
            }
        }
    }
}

struct StatusCtx<'a> {
    ws: &'a WorkloadSpread,
    pods: &'a [PodState],
    replicas: i64,
    now: i128,
    critical: i32,
}

fn get_cond(s: Option<&SubsetStatus>) -> Option<&SubsetCondition> {
    s?.conditions.iter().find(|c| c.type_ == "Schedulable")
}

/// `setWorkloadSpreadSubsetCondition`.
fn set_cond(st: &mut SubsetStatus, mut c: SubsetCondition) {
    if let Some(cur) = st.conditions.iter().find(|x| x.type_ == c.type_) {
        if cur.status == c.status && cur.reason == c.reason {
            return;
        }
        if cur.status == c.status {
            c.last_transition_time.clone_from(&cur.last_transition_time);
        }
    }
    st.conditions.retain(|x| x.type_ != c.type_);
    st.conditions.push(c);
}

impl StatusCtx<'_> {
    fn new_cond(&self, status: &str) -> SubsetCondition {
        SubsetCondition {
            type_: "Schedulable".into(),
            status: status.into(),
            last_transition_time: Some(format_ns(self.now)),
            reason: String::new(),
            message: String::new(),
        }
    }

    /// `calculateWorkloadSpreadSubsetStatuses` over the pods `members` (their subsets in
    /// `assigned`): the statuses (None when a maxReplicas does not scale) and the pods to delete.
    fn statuses(
        &self,
        old: &[SubsetStatus],
        members: &[usize],
        assigned: &[String],
        requeue: &mut Requeue,
    ) -> (Option<Vec<SubsetStatus>>, Vec<String>) {
        let mut old_map: BTreeMap<&str, &SubsetStatus> = BTreeMap::new();
        for s in old {
            old_map.insert(s.name.as_str(), s);
        }
        let subsets = &self.ws.spec.subsets;
        let mut out = Vec::with_capacity(subsets.len());
        let mut failed = Vec::new();
        for (idx, s) in subsets.iter().enumerate() {
            let in_subset: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&k| assigned[k] == s.name)
                .collect();
            let old_s = old_map.get(s.name.as_str()).copied();
            let Some(mut st) = self.subset_status(s, old_s, &in_subset, requeue) else {
                return (None, Vec::new());
            };
            if self.critical > 0 {
                if idx + 1 != subsets.len() {
                    failed.extend(self.reschedule(&in_subset, &mut st, old_s, requeue));
                } else {
                    if let Some(c) = get_cond(old_s) {
                        set_cond(&mut st, norm_cond(c));
                    }
                    set_cond(&mut st, self.new_cond("True"));
                }
            } else {
                st.conditions.clear();
            }
            out.push(st);
        }
        (Some(out), failed)
    }

    fn subset_status(
        &self,
        s: &Subset,
        old: Option<&SubsetStatus>,
        in_subset: &[usize],
        requeue: &mut Requeue,
    ) -> Option<SubsetStatus> {
        let max: i64 = match &s.max_replicas {
            None => -1,
            Some(m) => match m.scale(self.replicas, true, Flavour::Scaled) {
                Ok(v) if v >= 0 => v,
                _ => return None,
            },
        };
        let max32 = max as i32;
        let mut st = SubsetStatus {
            name: s.name.clone(),
            missing_replicas: max32,
            ..SubsetStatus::default()
        };
        let mut creating: BTreeMap<String, String> =
            old.map(|o| o.creating_pods.clone()).unwrap_or_default();
        let deleting = old.map(|o| &o.deleting_pods);
        let mut active = 0i32;
        for &k in in_subset {
            let p = &self.pods[k];
            match inject_of(&p.annotations) {
                Some(i) if !i.uid.is_empty() => creating.remove(&i.uid),
                _ => creating.remove(&p.name),
            };
            if !p.active {
                continue;
            }
            active = active.wrapping_add(1);
            if st.missing_replicas > 0 {
                st.missing_replicas -= 1;
            }
            if let Some(t) = deleting.and_then(|d| d.get(&p.name)) {
                let at = time_ns(Some(t), "").unwrap_or(ZERO_TIME_NS);
                let expected = at + DELETE_TIMEOUT_NS;
                if expected >= self.now {
                    st.deleting_pods.insert(p.name.clone(), format_ns(at));
                    if st.missing_replicas < max32 {
                        st.missing_replicas += 1;
                    }
                    requeue.push(sub(expected, self.now));
                }
            }
        }
        st.replicas = active;
        for (id, t) in creating {
            let at = time_ns(Some(&t), "").unwrap_or(ZERO_TIME_NS);
            let expected = at + CREATE_TIMEOUT_NS;
            if expected >= self.now {
                st.creating_pods.insert(id, format_ns(at));
                if st.missing_replicas > 0 {
                    st.missing_replicas -= 1;
                }
                requeue.push(sub(expected, self.now));
            }
        }
        Some(st)
    }

    /// `rescheduleSubset`: the pods to delete; sets the subset's `Schedulable` condition.
    fn reschedule(
        &self,
        in_subset: &[usize],
        st: &mut SubsetStatus,
        old: Option<&SubsetStatus>,
        requeue: &mut Requeue,
    ) -> Vec<String> {
        let timeout = i128::from(self.critical) * 1_000_000_000;
        let mut failed = Vec::new();
        for &k in in_subset {
            let p = &self.pods[k];
            if let Some(created) = p.unschedulable_since {
                let expect = created + timeout;
                if expect < self.now {
                    failed.push(p.name.clone());
                } else {
                    requeue.push(sub(expect, self.now));
                }
            }
        }
        let unschedulable = !failed.is_empty();
        let Some(old_c) = get_cond(old) else {
            set_cond(
                st,
                self.new_cond(if unschedulable { "False" } else { "True" }),
            );
            return failed;
        };
        set_cond(st, norm_cond(old_c));
        if unschedulable {
            set_cond(st, self.new_cond("False"));
        } else if old_c.status == "False" {
            let since = time_ns(old_c.last_transition_time.as_deref(), "").unwrap_or(ZERO_TIME_NS);
            let expect = since + UNSCHEDULABLE_KEEP_NS;
            if expect < self.now {
                set_cond(st, self.new_cond("True"));
            } else {
                requeue.push(sub(expect, self.now));
            }
        }
        failed
    }
}
