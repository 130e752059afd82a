//! The condition view the families share: one `status.conditions[]` entry of a Kubernetes object
//! (`corev1.PodCondition`, `batchv1.JobCondition`, `metav1.Condition`): the PUB pod checks and the
//! ActivePods order read `Ready`, the AdvancedCronJob child states `Complete` / `Failed`, the
//! CloneSet status the pod's `Ready` time.
//!
//! Not this type: the CloneSet's own `Progressing` condition (`lastUpdateTime`, written back by
//! `rollout.cloneset_status`), allocation's conditions (times parsed on reading, `type`
//! required) and ResourceDistribution's (`failedNamespace`, a `null` time written): their JSON
//! shapes differ (see `docs/design.md`).

use crate::k8s::null_as_default;
use serde::{Deserialize, Serialize};

/// One status condition. Absent or `null` members read as Go's zero values (`""`, no time);
/// other members (`lastProbeTime`, `observedGeneration`) are ignored. Written back, the empty
/// `reason` / `message` and the absent time are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// `type`, e.g. `Ready`, `Complete`, `Failed`; null or absent: `""`.
    #[serde(rename = "type", default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `status`: `"True"`, `"False"` or `"Unknown"`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub status: String,
    /// `reason`; null or absent: `""`.
    #[serde(
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "String::is_empty"
    )]
    #[schemars(with = "Option<String>")]
    pub reason: String,
    /// `message`; null or absent: `""`.
    #[serde(
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "String::is_empty"
    )]
    #[schemars(with = "Option<String>")]
    pub message: String,
    /// `lastTransitionTime` (RFC 3339, parsed only by the fns that read it); null or absent: the
    /// zero time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<String>,
}
