//! The `rollout` decision family: partitions, maxUnavailable/maxSurge budgets and CloneSet
//! progress accounting of OpenKruise v1.9.
//!
//! - [`partition`]: CloneSet / Advanced DaemonSet / Advanced StatefulSet partitions;
//! - [`active_pods`]: Kubernetes' `ActivePods` deletion-preference order of pods;
//! - [`pods`], [`cloneset_budget`], [`update_count`]: the CloneSet scale/update budget;
//! - [`daemonset`]: Advanced DaemonSet budget and node selection;
//! - [`progress`]: the `Progressing` condition and `progressDeadlineSeconds`;
//! - [`validate`]: webhook checks;
//! - [`statefulset`]: Advanced StatefulSet maxUnavailable resolution;
//! - [`rounding`]: the per-field rounding table generated for `docs/rounding.md`.
//!
//! Int-or-percent parsing is the one shared parser of [`crate::intstr`]
//! (`rollout.scale_int_or_percent` is registered there).

pub mod active_pods;
pub mod cloneset_budget;
pub mod daemonset;
pub mod partition;
pub mod pods;
pub mod progress;
pub mod rounding;
pub mod statefulset;
pub mod update_count;
pub mod validate;

use crate::error::{Error, Result};
use crate::intstr::IntOrPercent;
use crate::registry::{Entry, decode, encode};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Decodes a handler's own input (its structs deny unknown members).
pub(crate) fn decode_input<T: DeserializeOwned>(input: &Value) -> Result<T> {
    decode(input)
}

/// Decodes the member `v` found at `path` of the input (null reads as `{}`, Go's zero value); a
/// shape error names the full path (`spec.updateStrategy.partition`).
pub(crate) fn decode_member<T: DeserializeOwned>(v: &Value, path: &str) -> Result<T> {
    let empty = Value::Object(serde_json::Map::new());
    let v = if v.is_null() { &empty } else { v };
    decode(v).map_err(|e| {
        let inner = e.field.as_deref().filter(|f| *f != "input");
        let field = inner.map_or_else(|| path.to_string(), |f| format!("{path}.{f}"));
        let detail = match inner {
            Some(f) => e.message.strip_prefix(&format!("{f}: ")).unwrap_or(&e.message).to_string(),
            None => e.message.strip_prefix("input: ").unwrap_or(&e.message).to_string(),
        };
        Error::invalid_input(field, detail)
    })
}

/// `rollout.cloneset_update_budget` input: the CloneSet fields and controller switches of
/// [`cloneset_budget::BudgetSpec`], `type` (`spec.updateStrategy.type`) and the candidate pods.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct BudgetInput {
    replicas: i32,
    #[serde(default)]
    partition: Option<IntOrPercent>,
    #[serde(default)]
    max_unavailable: Option<IntOrPercent>,
    #[serde(default)]
    max_surge: Option<IntOrPercent>,
    #[serde(default)]
    scale_max_unavailable: Option<IntOrPercent>,
    #[serde(default)]
    paused: bool,
    #[serde(default)]
    revision_consistent: bool,
    #[serde(default)]
    partition_rollback: bool,
    #[serde(default)]
    preparing_update_as_update: bool,
    #[serde(default)]
    scaling_exclude_preparing_delete: bool,
    #[serde(default, rename = "type")]
    update_type: String,
    /// `null` reads as no pods, as Go decodes a nil slice.
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    pods: Vec<pods::PodView>,
}

fn budget_handler(input: &Value) -> Result<Value> {
    let i: BudgetInput = decode_input(input)?;
    let spec = cloneset_budget::BudgetSpec {
        replicas: i.replicas,
        partition: i.partition,
        max_unavailable: i.max_unavailable,
        max_surge: i.max_surge,
        scale_max_unavailable: i.scale_max_unavailable,
        paused: i.paused,
        revision_consistent: i.revision_consistent,
        partition_rollback: i.partition_rollback,
        preparing_update_as_update: i.preparing_update_as_update,
        scaling_exclude_preparing_delete: i.scaling_exclude_preparing_delete,
    };
    encode(&cloneset_budget::budget_for_type(&i.update_type, &spec, &i.pods))
}

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::new(
        "rollout.partition",
        "Resolved partition and max pods on the update revision for CloneSet/DaemonSet/StatefulSet (kruise pkg/util/tools.go CalculatePartitionReplicas, daemonset_update.go, stateful_update_utils.go)",
        partition::handler,
    ),
    Entry::new(
        "rollout.cloneset_update_budget",
        "CloneSet scale/update diffs and pods updated now (kruise cloneset_sync_utils.go calculateDiffsWithExpectation, cloneset_update.go limitUpdateIndexes)",
        budget_handler,
    ),
    Entry::new(
        "rollout.progress",
        "CloneSet Progressing condition, change flag and requeue seconds (kruise cloneset_status.go calculateProgressingStatus)",
        progress::handler,
    ),
    Entry::new(
        "rollout.validate",
        "Webhook checks on CloneSet/Advanced DaemonSet/Advanced StatefulSet rollout fields (kruise pkg/webhook/*/validating)",
        validate::handler,
    ),
    Entry::new(
        "rollout.daemonset_budget",
        "Advanced DaemonSet maxSurge/maxUnavailable in nodes (kruise daemonset_update.go updatedDesiredNodeCounts)",
        daemonset::budget_handler,
    ),
    Entry::new(
        "rollout.daemonset_nodes_needing_pods",
        "Nodes that get a daemon pod under partitioned scaling (kruise daemonset_util.go GetNodesNeedingPods)",
        daemonset::needing_handler,
    ),
    Entry::new(
        "rollout.daemonset_update_nodes",
        "Ordered nodes eligible for a DaemonSet rolling update (kruise daemonset_update.go filterDaemonPodsNodeToUpdate)",
        daemonset::update_nodes_handler,
    ),
    Entry::new(
        "rollout.active_pods_order",
        "Pod names in Kubernetes' ActivePods order, deletion preference first (k8s pkg/controller/controller_utils.go ActivePods.Less)",
        active_pods::handler,
    ),
];
