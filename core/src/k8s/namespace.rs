//! The Namespace view the families share (SidecarSet matching, ResourceDistribution targets): a
//! Namespace object is its [`ObjectMeta`] (name, labels, deletion timestamp are what is read).

use crate::k8s::meta::ObjectMeta;
use crate::k8s::null_as_default;
use serde::{Deserialize, Serialize};

/// A Namespace object; members other than `metadata` are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Namespace {
    /// `metadata`; absent or null: the zero metadata.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ObjectMeta>")]
    pub metadata: ObjectMeta,
}
