//! The condition view the families share: one `status.conditions[]` entry of a Kubernetes object
//! (`metav1.Condition`, `corev1.PodCondition`, `batchv1.JobCondition`) reduced to `type` and
//! `status`, which is all the PUB pod checks (`Ready`) and the AdvancedCronJob child states
//! (`Complete`, `Failed`) read.

use serde::{Deserialize, Serialize};

/// One status condition (`type`, `status`); other members are ignored. An absent member reads as
/// `""`; a `null` one is refused (`invalid_input` naming it), as these families always did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Condition {
    /// `type`, e.g. `Ready`, `Complete`, `Failed`; absent: `""`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `status`: `"True"`, `"False"` or `"Unknown"`; absent: `""`.
    pub status: String,
}
