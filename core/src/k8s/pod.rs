//! The pod view the families share: the pod metadata and status the matching decisions read
//! (`sidecarset.match`, `pub.match`): namespace, labels, owner references, deletion timestamp and
//! phase, with kube's `IsPodActive` and `metav1.GetControllerOf` on it. A whole Pod may be passed;
//! other members are ignored. Absent and `null` members read as Go's zero values.

use crate::k8s::null_as_default;
use serde::Deserialize;
use std::collections::BTreeMap;

/// A Pod, reduced to the members the matching decisions read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchPod {
    /// `metadata`; absent or null: the zero metadata.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<MatchPodMeta>")]
    pub metadata: MatchPodMeta,
    /// `status`; absent or null: the zero status (phase `""`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<MatchPodStatus>")]
    pub status: MatchPodStatus,
}

/// Pod `metadata` members the matching decisions read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchPodMeta {
    /// `metadata.name`; null or absent: `""`. Only reported, never compared.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `metadata.namespace`; null or absent: `""` (see each fn for how `""` is read).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub namespace: String,
    /// `metadata.labels`; null or absent: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
    /// `metadata.ownerReferences`, in order; null or absent: none. A null entry is the zero
    /// reference (not a controller reference).
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<MatchOwnerReference>>>")]
    pub owner_references: Vec<MatchOwnerReference>,
    /// `metadata.deletionTimestamp` (RFC 3339); only its presence matters: a pod that has one is
    /// terminating, not active. Null or absent: none.
    #[serde(default)]
    pub deletion_timestamp: Option<String>,
}

/// Pod `status` members the matching decisions read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchPodStatus {
    /// `status.phase` (`Pending`, `Running`, `Succeeded`, `Failed`, `Unknown`); null or absent:
    /// `""`. `Succeeded` and `Failed` pods are not active.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub phase: String,
}

/// One `metadata.ownerReferences` entry; other members (`uid`, `blockOwnerDeletion`) are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchOwnerReference {
    /// `apiVersion` of the owner, e.g. `apps.kruise.io/v1alpha1`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub api_version: String,
    /// `kind` of the owner, e.g. `CloneSet`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub kind: String,
    /// `name` of the owner; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `controller`: the first reference with `true` is the controller reference
    /// (`metav1.GetControllerOf`); null or absent: not a controller reference.
    #[serde(default)]
    pub controller: Option<bool>,
}

/// A list as Go reads a `[]T` of structs: `null` is empty and a `null` item the zero value.
pub(crate) fn null_items<'de, D, T>(d: D) -> std::result::Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    let items = <Option<Vec<Option<T>>>>::deserialize(d)?.unwrap_or_default();
    Ok(items.into_iter().map(Option::unwrap_or_default).collect())
}

impl MatchPod {
    /// kube `IsPodActive` (`pkg/controller/controller_utils.go`), which OpenKruise's
    /// `sidecarcontrol.IsActivePod` calls: not `Succeeded`, not `Failed`, no deletion timestamp.
    pub fn is_active(&self) -> bool {
        self.status.phase != "Succeeded"
            && self.status.phase != "Failed"
            && self.metadata.deletion_timestamp.is_none()
    }

    /// `metav1.GetControllerOf`: the first owner reference with `controller: true`.
    pub fn controller_ref(&self) -> Option<&MatchOwnerReference> {
        self.metadata
            .owner_references
            .iter()
            .find(|r| r.controller == Some(true))
    }
}
