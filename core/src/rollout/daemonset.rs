//! Advanced DaemonSet rollout arithmetic:
//! the surge/unavailable budget (`updatedDesiredNodeCounts` in
//! `pkg/controller/daemonset/daemonset_update.go`, `unavailableCount`/`surgeCount` in
//! `daemonset_util.go`), the nodes that get a pod under partitioned scaling (`GetNodesNeedingPods`
//! in `daemonset_util.go`) and the eligible-node order of a rolling update
//! (`filterDaemonPodsNodeToUpdate` in `daemonset_update.go`).

use crate::error::{Error, Result};
use crate::intstr::{Flavour, IntOrPercent};
use serde::{Deserialize, Serialize};

/// Error kind: `rollingUpdate.maxUnavailable` failed to scale.
pub const INVALID_MAX_UNAVAILABLE: &str = "invalid_max_unavailable";
/// Error kind: `rollingUpdate.maxSurge` failed to scale.
pub const INVALID_MAX_SURGE: &str = "invalid_max_surge";

/// `spec.updateStrategy.rollingUpdate` fields the budget reads (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "DaemonSetBudgetRollingUpdate")]
pub struct RollingUpdate {
    /// Int-or-percent, scaled (scaled flavour, rounded up) against the nodes that should run the
    /// pod; absent or null is 0.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// Int-or-percent, scaled (scaled flavour, rounded up) against the nodes that should run the
    /// pod; absent or null is 0.
    #[serde(default)]
    pub max_surge: Option<IntOrPercent>,
}

/// `spec.updateStrategy` as the budget reads it (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "DaemonSetBudgetStrategy")]
pub struct UpdateStrategy {
    /// `RollingUpdate`, `OnDelete`, ... (absent: `""`). Only `RollingUpdate` gives a non-trivial
    /// budget.
    #[serde(default, rename = "type")]
    pub kind: String,
    /// The rolling-update block; absent or null: none (both values 0).
    #[serde(default)]
    pub rolling_update: Option<RollingUpdate>,
}

/// The resolved Advanced DaemonSet budget, in nodes (the output of `rollout.daemonset_budget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "DaemonsetBudgetOutput")]
pub struct Budget {
    /// Nodes that may run a surge (second) pod at once.
    pub max_surge: i64,
    /// Nodes that may be unavailable at once.
    pub max_unavailable: i64,
}

/// The surge/unavailable budget over `nodes` (the number of nodes that should run the pod).
///
/// Each value is 0 unless the type is `RollingUpdate` with a rolling-update block and the field set;
/// then it is the scaled flavour rounded up. maxUnavailable is evaluated (and fails) first. If
/// `nodes > 0` and both are 0, maxUnavailable becomes 1 (whatever the type).
/// Errors: `invalid_max_unavailable` / `invalid_max_surge`, naming the field.
pub fn budget(strategy: &UpdateStrategy, nodes: i64) -> Result<Budget> {
    let ru = match (&strategy.rolling_update, strategy.kind.as_str()) {
        (Some(ru), "RollingUpdate") => Some(ru),
        _ => None,
    };
    let scale = |v: Option<&IntOrPercent>, kind: &'static str, field: &str| -> Result<i64> {
        match v {
            None => Ok(0),
            Some(v) => v.scale(nodes, true, Flavour::Scaled).map_err(|e| {
                Error::at(
                    kind,
                    format!("updateStrategy.rollingUpdate.{field}"),
                    format_args!("{} ({})", e.message, e.kind),
                )
            }),
        }
    };
    let mut max_unavailable = scale(
        ru.and_then(|r| r.max_unavailable.as_ref()),
        INVALID_MAX_UNAVAILABLE,
        "maxUnavailable",
    )?;
    let max_surge = scale(
        ru.and_then(|r| r.max_surge.as_ref()),
        INVALID_MAX_SURGE,
        "maxSurge",
    )?;
    if nodes > 0 && max_unavailable == 0 && max_surge == 0 {
        max_unavailable = 1;
    }
    Ok(Budget {
        max_surge,
        max_unavailable,
    })
}

/// `GetNodesNeedingPods`: which of `needing` get a pod created now under partitioned scaling.
///
/// Without progressive scaling every name is returned, sorted by bytes. With it,
/// `p = clamp(partition, 0, desired)` and only the first `min(max(desired − new_pods − p, 0),
/// len)` sorted names are returned. `partition` is already scaled.
pub fn nodes_needing_pods(
    new_pods: i64,
    desired: i64,
    partition: i64,
    progressive: bool,
    needing: &[String],
) -> Vec<String> {
    let mut names: Vec<String> = needing.to_vec();
    names.sort_unstable();
    if progressive {
        let p = partition.min(desired).max(0);
        let max_create = desired.saturating_sub(new_pods).saturating_sub(p).max(0);
        let keep = usize::try_from(max_create)
            .unwrap_or(usize::MAX)
            .min(names.len());
        names.truncate(keep);
    }
    names
}

/// Where a node stands in a rolling update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum NodeState {
    /// A live up-to-date pod, or two or more live old pods (left to the manage loop).
    Updated,
    /// No live old pod (terminating pods ignored; `PreparingDelete` counts as absent).
    Updating,
    /// Exactly one live old pod.
    Old,
}

/// One candidate node of a rolling update (other members are ignored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "UpdateCandidateNode")]
pub struct Node {
    /// Node name (compared by bytes; a name listed twice is one node, its last entry wins).
    pub name: String,
    /// Its rollout state.
    pub state: NodeState,
    /// Whether its labels match `rollingUpdate.selector` (ignored when no selector is set;
    /// absent: false).
    #[serde(default)]
    pub selected: bool,
}

/// `filterDaemonPodsNodeToUpdate`: the ordered node names eligible for update this sync.
///
/// The reference reads its nodes from a map keyed by node name, so a name listed twice is one
/// node: the last entry of that name wins (its state and `selected`, as a later map assignment
/// and node-lister update would), and `nodes` below counts distinct names.
///
/// Walks names from the last (byte order) to the first, bucketing into updated, updating,
/// selected (selector set and matching) and the rest; returns updated ++ updating ++ (selected
/// when a selector is set, else rest), cut to `nodes − partition` (empty when that is ≤ 0).
/// `partition` is the already-scaled value (see [`super::partition::daemonset_partition`]).
pub fn update_nodes(partition: i64, selector: bool, nodes: &[Node]) -> Vec<String> {
    // Reverse byte order of names; a stable sort keeps entries of one name in input order, so the
    // last of them is kept.
    let mut order: Vec<&Node> = nodes.iter().collect();
    order.sort_by(|a, b| b.name.as_bytes().cmp(a.name.as_bytes()));
    let mut order: Vec<&Node> = order
        .iter()
        .enumerate()
        .filter(|(i, n)| order.get(i + 1).is_none_or(|next| next.name != n.name))
        .map(|(_, n)| *n)
        .collect();
    let max_update = i64::try_from(order.len())
        .unwrap_or(i64::MAX)
        .wrapping_sub(partition);
    if max_update <= 0 {
        return Vec::new();
    }
    let bucket = |n: &Node| match n.state {
        NodeState::Updated => 0,
        NodeState::Updating => 1,
        NodeState::Old if selector && n.selected => 2,
        NodeState::Old if selector => 3,
        NodeState::Old => 2,
    };
    // A stable sort by bucket keeps the reverse-name walk order inside each bucket.
    order.sort_by_key(|n| bucket(n));
    order
        .into_iter()
        .filter(|n| bucket(n) < 3)
        .take(usize::try_from(max_update).unwrap_or(usize::MAX))
        .map(|n| n.name.clone())
        .collect()
}

/// Input of `rollout.daemonset_budget`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonsetBudgetInput {
    /// `status.desiredNumberScheduled`: the nodes that should run the pod, what percentages are
    /// taken of.
    pub desired_number_scheduled: i32,
    /// `spec.updateStrategy`; absent: `{}` (both values 0, so 1 unavailable when there are nodes).
    #[serde(default)]
    pub update_strategy: UpdateStrategy,
}

/// Input of `rollout.daemonset_nodes_needing_pods` (`GetNodesNeedingPods`' arguments).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonsetNodesNeedingPodsInput {
    /// Pods already on the update revision.
    pub new_pods_num: i32,
    /// Nodes that should run the pod (`desiredNumberScheduled`).
    pub desired: i32,
    /// The partition, already scaled (clamped to `[0, desired]` here).
    pub partition: i32,
    /// Progressive (partitioned) scaling is on; absent: false (every node gets its pod).
    #[serde(default)]
    pub progressive: bool,
    /// Names of the nodes that need a pod; absent: none (null is refused).
    #[serde(default)]
    pub nodes_needing_pods: Vec<String>,
}

/// Input of `rollout.daemonset_update_nodes`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonsetUpdateNodesInput {
    /// `spec.updateStrategy.rollingUpdate.partition`, int-or-percent (scaled flavour against
    /// `desiredNumberScheduled`, rounded down, kept in an int32); absent or null is 0.
    #[serde(default)]
    pub partition: Option<IntOrPercent>,
    /// `status.desiredNumberScheduled`, what a percentage partition is taken of; absent: 0.
    #[serde(default)]
    pub desired_number_scheduled: i32,
    /// `spec.updateStrategy.rollingUpdate.selector` is set (only selected old nodes are updated);
    /// absent: false.
    #[serde(default)]
    pub selector: bool,
    /// The nodes that run (or should run) a daemon pod; absent or null: none.
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<Vec<Node>>")]
    pub nodes: Vec<Node>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strat(kind: &str, mu: Option<IntOrPercent>, ms: Option<IntOrPercent>) -> UpdateStrategy {
        UpdateStrategy {
            kind: kind.into(),
            rolling_update: Some(RollingUpdate {
                max_unavailable: mu,
                max_surge: ms,
            }),
        }
    }

    #[test]
    fn budget_errors_name_the_field_and_unavailable_goes_first() {
        let bad = Some(IntOrPercent::String("abc".into()));
        let e = budget(&strat("RollingUpdate", bad.clone(), bad.clone()), 5).unwrap_err();
        assert_eq!(e.kind, INVALID_MAX_UNAVAILABLE);
        assert_eq!(
            e.field.as_deref(),
            Some("updateStrategy.rollingUpdate.maxUnavailable")
        );
        let e = budget(&strat("RollingUpdate", Some(IntOrPercent::Int(0)), bad), 5).unwrap_err();
        assert_eq!(e.kind, INVALID_MAX_SURGE);
    }

    #[test]
    fn on_delete_still_gets_one_unavailable() {
        let b = budget(&strat("OnDelete", Some(IntOrPercent::Int(4)), None), 5).unwrap();
        assert_eq!(
            b,
            Budget {
                max_surge: 0,
                max_unavailable: 1
            }
        );
        let b = budget(&strat("OnDelete", None, None), 0).unwrap();
        assert_eq!(
            b,
            Budget {
                max_surge: 0,
                max_unavailable: 0
            }
        );
    }

    #[test]
    fn update_nodes_partition_cuts_the_list() {
        let n = |name: &str, state| Node {
            name: name.into(),
            state,
            selected: false,
        };
        let nodes = [
            n("a", NodeState::Old),
            n("b", NodeState::Old),
            n("c", NodeState::Updated),
        ];
        assert_eq!(update_nodes(0, false, &nodes), ["c", "b", "a"]);
        assert_eq!(update_nodes(2, false, &nodes), ["c"]);
        assert!(update_nodes(3, false, &nodes).is_empty());
        assert_eq!(update_nodes(-5, false, &nodes).len(), 3);
        // with a selector, unmatched old nodes are never updated
        assert_eq!(update_nodes(0, true, &nodes), ["c"]);
    }

    #[test]
    fn update_nodes_counts_a_repeated_name_once_and_the_last_entry_wins() {
        let n = |name: &str, state, selected| Node {
            name: name.into(),
            state,
            selected,
        };
        let nodes = [n("n", NodeState::Old, false), n("n", NodeState::Old, false)];
        assert_eq!(update_nodes(0, false, &nodes), ["n"]);
        // two distinct names remain, so partition 1 leaves one to update
        let nodes = [
            n("a", NodeState::Old, false),
            n("b", NodeState::Updated, false),
            n("a", NodeState::Updating, false),
        ];
        assert_eq!(update_nodes(0, false, &nodes), ["b", "a"]);
        assert_eq!(update_nodes(1, false, &nodes), ["b"]);
        assert!(update_nodes(2, false, &nodes).is_empty());
        // the last entry's selection decides
        let nodes = [n("a", NodeState::Old, true), n("a", NodeState::Old, false)];
        assert!(update_nodes(0, true, &nodes).is_empty());
        let nodes = [n("a", NodeState::Old, false), n("a", NodeState::Old, true)];
        assert_eq!(update_nodes(0, true, &nodes), ["a"]);
    }
}
