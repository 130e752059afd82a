//! The pod view the families share: one `corev1.Pod` reduced to the members any family reads
//! (metadata, the spec's node, restart policy, containers, affinity, tolerations and readiness
//! gates, the status's phase, conditions and container statuses), with kube's `IsPodActive`, `metav1.GetControllerOf` and `IsPodReady` on
//! it. A whole Pod may be passed; other members are ignored. Absent and `null` members read as
//! Go's zero values and a `null` list item as the zero item, as encoding/json decodes a Pod; where
//! a family reads a zero value in its own way, that is in the family's decide code.
//!
//! Used by `pub.match`, `sidecarset.match` / `sidecarset.inject` (matching), the rollout pod
//! readers (`rollout.active_pods_order`, `rollout.cloneset_status`, `rollout.statefulset_status`,
//! `rollout.daemonset_status`, the CloneSet pod orders), `sidecarset.next_upgrade`,
//! `workloadspread.reconcile` and `jobsidecar.decide`. PUB's admission and allocation keep their own Pod types: PUB writes
//! the pod back member for member (its `spec` kept verbatim) and allocation parses times and
//! requires `metadata.name` on reading (see `docs/design.md`).

pub use crate::k8s::condition::Condition;
pub use crate::k8s::meta::{ObjectMeta, OwnerReference, null_items};
use crate::k8s::null_as_default;
use crate::k8s::scheduling::{Affinity, Toleration};
use serde::{Deserialize, Serialize};

/// A Pod, reduced to the members the families read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    /// `metadata`; absent or null: the zero metadata.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ObjectMeta>")]
    pub metadata: ObjectMeta,
    /// `spec`; absent or null: the zero spec.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<PodSpec>")]
    pub spec: PodSpec,
    /// `status`; absent or null: the zero status (phase `""`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<PodStatus>")]
    pub status: PodStatus,
}

/// Pod `spec` members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    /// `nodeName`; null or absent: `""` (not bound to a node).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub node_name: String,
    /// `restartPolicy` (`Always`, `OnFailure`, `Never`); null or absent: `""` (the API server
    /// defaults it to `Always`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub restart_policy: String,
    /// `initContainers`, in order; null or absent: none.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<Container>>>")]
    pub init_containers: Vec<Container>,
    /// `containers`, in order; null or absent: none.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<Container>>>")]
    pub containers: Vec<Container>,
    /// `affinity` (its node affinity is what the families read); null or absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Affinity>,
    /// `tolerations`, in order; null or absent: none.
    #[serde(
        default,
        deserialize_with = "null_items",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schemars(with = "Option<Vec<Option<Toleration>>>")]
    pub tolerations: Vec<Toleration>,
    /// `readinessGates`: condition types that must be `True` besides the containers' readiness
    /// (kube counts them in `Ready`); null or absent: none.
    #[serde(
        default,
        deserialize_with = "null_items",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schemars(with = "Option<Vec<Option<ReadinessGate>>>")]
    pub readiness_gates: Vec<ReadinessGate>,
}

/// One `spec.readinessGates[]` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadinessGate {
    /// `conditionType`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub condition_type: String,
}

/// One `spec.containers[]` / `spec.initContainers[]` entry, the members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    /// `name`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `image`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image: String,
    /// `env`, in order; null or absent: none. Only `name` and the literal `value` are read
    /// (`valueFrom` counts as the value `""`).
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<EnvVar>>>")]
    pub env: Vec<EnvVar>,
    /// `restartPolicy` of an init container (`Always` makes it a sidecar); null or absent: none.
    #[serde(default)]
    pub restart_policy: Option<String>,
}

/// One `env` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    /// `name`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `value`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
}

/// Pod `status` members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    /// `phase` (`Pending`, `Running`, `Succeeded`, `Failed`, `Unknown`); null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub phase: String,
    /// `conditions`, in order; null or absent: none.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<Condition>>>")]
    pub conditions: Vec<Condition>,
    /// `containerStatuses`, in order; null or absent: none.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<ContainerStatus>>>")]
    pub container_statuses: Vec<ContainerStatus>,
    /// `initContainerStatuses`, in order; null or absent: none.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<ContainerStatus>>>")]
    pub init_container_statuses: Vec<ContainerStatus>,
}

/// One `status.containerStatuses[]` / `status.initContainerStatuses[]` entry, the members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    /// `name`: the container it describes; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `restartCount` (int32); null or absent: 0.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub restart_count: i32,
    /// `image`: the image the container runs; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image: String,
    /// `imageID`: the image's resolved ID (`docker-pullable://…@sha256:…`); null or absent: `""`.
    #[serde(default, rename = "imageID", deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image_id: String,
    /// `ready`; null or absent: false.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub ready: bool,
    /// `state`; null or absent: no state (not terminated).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ContainerState>")]
    pub state: ContainerState,
}

/// A container status's `state`; only `terminated` is read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerState {
    /// `terminated`; null or absent: the container has not terminated.
    #[serde(default)]
    pub terminated: Option<ContainerStateTerminated>,
}

/// `state.terminated`, the members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateTerminated {
    /// `exitCode` (int32); null or absent: 0.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub exit_code: i32,
}

/// The pod view's old name (matching decisions).
pub type MatchPod = Pod;
/// The pod metadata view's old name.
pub type MatchPodMeta = ObjectMeta;
/// The pod status view's old name.
pub type MatchPodStatus = PodStatus;
/// The owner reference's old name.
pub type MatchOwnerReference = OwnerReference;

impl Pod {
    /// kube `IsPodActive` (`pkg/controller/controller_utils.go`), which OpenKruise's
    /// `sidecarcontrol.IsActivePod` calls: not `Succeeded`, not `Failed`, no deletion timestamp.
    pub fn is_active(&self) -> bool {
        self.status.phase != "Succeeded"
            && self.status.phase != "Failed"
            && self.metadata.deletion_timestamp.is_none()
    }

    /// `metav1.GetControllerOf`: the first owner reference with `controller: true`.
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.metadata.controller_ref()
    }

    /// The first condition of type `t` (kube `GetPodConditionFromList`).
    pub fn condition(&self, t: &str) -> Option<&Condition> {
        self.status.conditions.iter().find(|c| c.type_ == t)
    }

    /// kube `IsPodReady`: the first `Ready` condition has status `True`.
    pub fn is_ready(&self) -> bool {
        self.condition("Ready").is_some_and(|c| c.status == "True")
    }
}
