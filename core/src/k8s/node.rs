//! The node view the families share: one `corev1.Node` reduced to its metadata (name, labels)
//! and `spec.taints`, the members the scheduling predicates of [`crate::k8s::scheduling`] read
//! (`rollout.daemonset_status`, `workloadspread.reconcile`). A whole Node may be passed; other
//! members are ignored; absent and `null` members read as Go's zero values.

use crate::k8s::meta::{ObjectMeta, null_items};
use crate::k8s::null_as_default;
use crate::k8s::scheduling::Taint;
use serde::{Deserialize, Serialize};

/// A Node, reduced to the members the families read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// `metadata` (`name`, `labels`); absent or null: the zero metadata.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ObjectMeta>")]
    pub metadata: ObjectMeta,
    /// `spec`; absent or null: no taints.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<NodeSpec>")]
    pub spec: NodeSpec,
}

/// Node `spec` members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeSpec {
    /// `taints`, in order; null or absent: none.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<Taint>>>")]
    pub taints: Vec<Taint>,
}
