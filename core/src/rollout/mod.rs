//! The `rollout` decision family: partitions, maxUnavailable/maxSurge budgets and CloneSet
//! progress accounting of OpenKruise v1.9 (`docs/rollout.md`).
//!
//! - [`partition`]: CloneSet / Advanced DaemonSet / Advanced StatefulSet partitions;
//! - [`pods`], [`cloneset_budget`], [`update_count`]: the CloneSet scale/update budget;
//! - [`daemonset`]: Advanced DaemonSet budget and node selection;
//! - [`progress`]: the `Progressing` condition and `progressDeadlineSeconds`;
//! - [`validate`]: webhook checks;
//! - [`statefulset`]: Advanced StatefulSet maxUnavailable resolution;
//! - [`rounding`]: the per-field rounding table generated for `docs/rounding.md`.
//!
//! Int-or-percent parsing is the one shared parser of [`crate::intstr`]
//! (`rollout.scale_int_or_percent` is registered there).

pub mod cloneset_budget;
pub mod daemonset;
pub mod partition;
pub mod pods;
pub mod progress;
pub mod rounding;
pub mod statefulset;
pub mod update_count;
pub mod validate;

use crate::error::Result;
use crate::registry::{Entry, decode, encode};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct BudgetInput {
    #[serde(flatten)]
    spec: cloneset_budget::BudgetSpec,
    #[serde(default)]
    pods: Vec<pods::PodView>,
}

fn budget_handler(input: &Value) -> Result<Value> {
    let i: BudgetInput = decode(input)?;
    encode(&cloneset_budget::budget(&i.spec, &i.pods))
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
];
