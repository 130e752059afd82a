//! The ResourceDistribution object (apps.kruise.io/v1alpha1) and the Namespace members the
//! decisions read, and the reading of `spec.resource` (`DeserializeResource`).

use crate::error::{Error, Result};
use crate::k8s::null_as_default;
use crate::k8s::selector::LabelSelector;
use crate::sidecarset::pod::null_items;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Error kind of a `spec.resource` the controller cannot read (absent, null, not an object,
/// without `kind`, or a list).
pub const INVALID_RESOURCE: &str = "invalid_resource";
/// Error kind of a namespace selector the controller's selector conversion refuses.
pub const INVALID_LABEL_SELECTOR: &str = "invalid_label_selector";
/// Error kind of an old status the controller cannot compare (1 to 5 conditions).
pub const INVALID_STATUS: &str = "invalid_status";

/// `apiVersion` the v1.9.0 controller reads ResourceDistributions at, and the owner reference of
/// the copies it makes names.
pub const API_VERSION: &str = "apps.kruise.io/v1alpha1";
/// The kind.
pub const KIND: &str = "ResourceDistribution";

/// A ResourceDistribution object.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceDistribution {
    /// `metadata`; absent or null: the zero metadata.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<DistributionMeta>")]
    pub metadata: DistributionMeta,
    /// `spec`; absent or null: the zero spec (no resource).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<DistributionSpec>")]
    pub spec: DistributionSpec,
    /// `status`: the previous status (its conditions' statuses and transition times carry over).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<DistributionStatus>")]
    pub status: DistributionStatus,
}

/// ResourceDistribution `metadata`: the shared [`crate::k8s::meta::ObjectMeta`] (read here:
/// `name`, which the copies' controller owner reference names; `generation`, which becomes
/// `status.observedGeneration`).
pub type DistributionMeta = crate::k8s::meta::ObjectMeta;

/// ResourceDistribution `spec`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DistributionSpec {
    /// `spec.resource`: the Secret or ConfigMap to distribute, a whole object with `apiVersion`,
    /// `kind` and `metadata.name`. Null or absent: none.
    #[serde(default)]
    pub resource: Option<Value>,
    /// `spec.targets`; absent or null: no target.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<TargetsSpec>")]
    pub targets: TargetsSpec,
}

/// `spec.targets`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetsSpec {
    /// `allNamespaces`: every existing namespace (less `excludedNamespaces`); null or absent:
    /// false.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub all_namespaces: bool,
    /// `excludedNamespaces.list`: never targeted.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<TargetNamespaces>")]
    pub excluded_namespaces: TargetNamespaces,
    /// `includedNamespaces.list`: targeted, whether they exist or not.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<TargetNamespaces>")]
    pub included_namespaces: TargetNamespaces,
    /// `namespaceLabelSelector` (a value, not a pointer: null, absent and `{}` all select
    /// nothing here); existing namespaces whose labels it matches are targeted.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<LabelSelector>")]
    pub namespace_label_selector: LabelSelector,
}

/// `includedNamespaces` / `excludedNamespaces`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetNamespaces {
    /// `list`; null: none. A null entry is the namespace `""`.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<TargetNamespace>>>")]
    pub list: Vec<TargetNamespace>,
}

/// One `list` entry.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetNamespace {
    /// `name`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
}

/// ResourceDistribution `status`: only the conditions are read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DistributionStatus {
    /// `status.conditions`: none, or the six the controller writes (in its order); null: none.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<Condition>>>")]
    pub conditions: Vec<Condition>,
}

/// One status condition, as read and as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// `type`: `GetResourceFailed`, `CreateResourceFailed`, `UpdateResourceFailed`,
    /// `DeleteResourceFailed`, `ConflictOccurred`, `NamespaceNotExists` (in that order).
    #[serde(rename = "type", default, deserialize_with = "null_as_default")]
    #[schemars(with = "String")]
    pub condition_type: String,
    /// `status`: `True` when some namespace failed this way, else `False`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "String")]
    pub status: String,
    /// `lastTransitionTime` (RFC 3339): carried over while `status` stays the same, else the
    /// input's `now`; null when it changed and no `now` was given.
    #[serde(default)]
    pub last_transition_time: Option<String>,
    /// `reason`: `Succeeded`, or the failure's message.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "String")]
    pub reason: String,
    /// `failedNamespace` (the CRD's JSON name): the namespaces that failed this way, sorted by
    /// name (the reference appends them as its goroutines finish).
    #[serde(
        rename = "failedNamespace",
        default,
        deserialize_with = "null_as_default"
    )]
    #[schemars(with = "Vec<String>")]
    pub failed_namespaces: Vec<String>,
}

/// A Namespace object: the shared [`crate::k8s::namespace::Namespace`] (read here: `metadata.name` (must not be empty), `labels`, and `deletionTimestamp` (only its presence matters: a terminating namespace gets no copy (`NamespaceNotExists`) and loses none)).
pub use crate::k8s::namespace::Namespace as NamespaceObject;
/// Namespace `metadata`: the shared [`crate::k8s::meta::ObjectMeta`].
pub type NamespaceMeta = crate::k8s::meta::ObjectMeta;

/// The distributed resource as the controller reads it (`DeserializeResource`).
pub struct Resource<'a> {
    /// The object.
    pub object: &'a Map<String, Value>,
    /// `apiVersion` (`""` when absent).
    pub api_version: &'a str,
    /// `kind` (never empty).
    pub kind: &'a str,
    /// `metadata.name` (`""` when absent).
    pub name: &'a str,
}

/// Reads `spec.resource` as `unstructured.UnstructuredJSONScheme.Decode` does: an object with a
/// non-empty string `kind`; a non-null `items` member makes it a list, which the controller
/// cannot distribute. `apiVersion`, `kind` and `metadata.name` of another JSON type read as `""`.
pub fn read_resource<'a>(resource: Option<&'a Value>) -> Result<Resource<'a>> {
    const FIELD: &str = "resourceDistribution.spec.resource";
    let bad = |m: &str| Error::at(INVALID_RESOURCE, FIELD, m);
    let object = match resource {
        None | Some(Value::Null) => return Err(bad("empty resource is not allowed")),
        Some(Value::Object(o)) => o,
        Some(_) => return Err(bad("not a JSON object")),
    };
    if object.get("items").is_some_and(|v| !v.is_null()) {
        return Err(bad("a list cannot be distributed"));
    }
    // unstructured's accessors read a member of another JSON type as "".
    let string = |v: Option<&'a Value>| v.and_then(Value::as_str).unwrap_or("");
    let kind = string(object.get("kind"));
    if kind.is_empty() {
        return Err(Error::at(
            INVALID_RESOURCE,
            format!("{FIELD}.kind"),
            "Object 'Kind' is missing",
        ));
    }
    let api_version = string(object.get("apiVersion"));
    let name = string(object.get("metadata").and_then(|m| m.get("name")));
    Ok(Resource {
        object,
        api_version,
        kind,
        name,
    })
}
