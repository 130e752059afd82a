//! `metav1.ObjectMeta` as the families read it: one view for a pod, a namespace, a workload's own
//! metadata and a child object's. Every member reads an absent or `null` value as Go's zero value
//! (`""`, 0, an empty map or list); a `null` list item is the zero item, as encoding/json decodes
//! a `[]T` of structs. A whole object may be passed; members not listed are ignored.

use crate::k8s::null_as_default;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `metadata` of a Kubernetes object, the members any family reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// `name`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `namespace`; null or absent: `""` (each fn says how it reads `""`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub namespace: String,
    /// `uid`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub uid: String,
    /// `generation` (int64); null or absent: 0.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i64>")]
    pub generation: i64,
    /// `labels`; null or absent: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
    /// `annotations`; null or absent: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub annotations: BTreeMap<String, String>,
    /// `ownerReferences`, in order; null or absent: none. A null entry is the zero reference
    /// (not a controller reference).
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<OwnerReference>>>")]
    pub owner_references: Vec<OwnerReference>,
    /// `creationTimestamp` (RFC 3339, parsed only by the fns that read it); null or absent: the
    /// zero time.
    #[serde(default)]
    pub creation_timestamp: Option<String>,
    /// `deletionTimestamp` (RFC 3339); where read, only its presence matters: the object is
    /// terminating. Null or absent: none.
    #[serde(default)]
    pub deletion_timestamp: Option<String>,
}

/// One `metadata.ownerReferences` entry; `blockOwnerDeletion` is ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
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
    /// `uid` of the owner; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub uid: String,
    /// `controller`: the first reference with `true` is the controller reference
    /// (`metav1.GetControllerOf`); null or absent: not a controller reference.
    #[serde(default)]
    pub controller: Option<bool>,
}

impl ObjectMeta {
    /// `metav1.GetControllerOf`: the first owner reference with `controller: true`.
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.owner_references
            .iter()
            .find(|r| r.controller == Some(true))
    }
}

/// A list as Go reads a `[]T` of structs: `null` is empty and a `null` item the zero value.
pub fn null_items<'de, D, T>(d: D) -> std::result::Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    let items = <Option<Vec<Option<T>>>>::deserialize(d)?.unwrap_or_default();
    Ok(items.into_iter().map(Option::unwrap_or_default).collect())
}
