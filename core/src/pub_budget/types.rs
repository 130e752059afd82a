//! Typed shapes the PUB decisions read: pods as `kubectl get -o json` prints them and
//! PodUnavailableBudget objects (`policy.kruise.io/v1alpha1`, `v1beta1` accepted).
//!
//! Only the fields the decisions read are typed; everything else of a pod spec is kept verbatim
//! (`rest`) so the update classification can compare whole specs (`pkg/control/pubcontrol`).
//! Every map is a `BTreeMap` so iteration order (and so every result) is deterministic.

use crate::error::{Error, Result};
use crate::intstr::IntOrPercent;
use jiff::Timestamp;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// String map (labels, annotations, resource lists).
pub type StrMap = BTreeMap<String, String>;

/// A Kubernetes Pod, reduced to what the PUB decisions read; unknown fields are ignored
/// (spec fields are kept in [`PodSpec::rest`] / [`Container::rest`]).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default)]
#[schemars(rename = "PubPod")]
pub struct Pod {
    /// `metadata`.
    pub metadata: PodMeta,
    /// `spec`.
    pub spec: PodSpec,
    /// `status`.
    pub status: PodStatus,
}

/// Pod `metadata`: name, labels, annotations, deletionTimestamp.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct PodMeta {
    /// `metadata.name` (the key of the PUB record maps).
    pub name: String,
    /// `metadata.namespace`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `metadata.labels` (`null` = none).
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<StrMap>")]
    pub labels: StrMap,
    /// `metadata.annotations` (`null` = none).
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<StrMap>")]
    pub annotations: StrMap,
    /// `metadata.deletionTimestamp`, RFC 3339; only its presence matters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
}

/// Pod `spec`: the containers typed, every other member kept verbatim in `rest`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "PubPodSpec")]
pub struct PodSpec {
    /// `spec.containers` (`None` = absent, distinct from `[]` for the deep comparison).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containers: Option<Vec<Container>>,
    /// `spec.initContainers`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_containers: Option<Vec<Container>>,
    /// Every other `spec` member, verbatim.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

impl PodSpec {
    /// The app containers (empty when absent).
    pub fn containers(&self) -> &[Container] {
        self.containers.as_deref().unwrap_or(&[])
    }
    /// The init containers (empty when absent).
    pub fn init_containers(&self) -> &[Container] {
        self.init_containers.as_deref().unwrap_or(&[])
    }
}

/// One container: name, image, env, resources, resizePolicy typed; the rest verbatim.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "PubContainer")]
pub struct Container {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `image` (absent = `""`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
    /// `env`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<Vec<EnvVar>>,
    /// `resources`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
    /// `resizePolicy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resize_policy: Option<Vec<ResizePolicy>>,
    /// Every other member, verbatim.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

impl Container {
    /// The value of the first env entry called `name` (`""` when it uses `valueFrom`), as
    /// OpenKruise `util.GetContainerEnvValue`.
    pub fn env_value(&self, name: &str) -> Option<&str> {
        self.env
            .as_deref()?
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.value.as_str())
    }
}

/// One `env` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "PubEnvVar")]
pub struct EnvVar {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `value` (absent = `""`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// Every other member (`valueFrom`), verbatim.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// `resources`: requests and limits as quantity strings, the rest (`claims`) verbatim.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
pub struct Resources {
    /// `limits`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<StrMap>,
    /// `requests`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<StrMap>,
    /// Every other member, verbatim.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// One `resizePolicy` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResizePolicy {
    /// `resourceName` (`cpu`, `memory`).
    #[serde(default)]
    pub resource_name: String,
    /// `restartPolicy` (`NotRequired`, `RestartContainer`; absent = `""`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub restart_policy: String,
}

/// Pod `status`: phase, conditions, container statuses.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "PubPodStatus")]
pub struct PodStatus {
    /// `status.phase` (`Running`, `Pending`, `Succeeded`, `Failed`, ...; absent = `""`).
    pub phase: String,
    /// `status.conditions` (`null` = none).
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<Vec<PodCondition>>")]
    pub conditions: Vec<PodCondition>,
    /// `status.containerStatuses` (`null` = none).
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<Vec<ContainerStatus>>")]
    pub container_statuses: Vec<ContainerStatus>,
}

/// One pod condition: the shared [`crate::k8s::condition::Condition`], under the name this
/// module gave it.
pub use crate::k8s::condition::Condition as PodCondition;

/// One container status.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "PubContainerStatus")]
pub struct ContainerStatus {
    /// `name`.
    pub name: String,
    /// `image` as the kubelet reports it.
    pub image: String,
    /// `imageID`, e.g. `docker-pullable://nginx@sha256:...`.
    #[serde(rename = "imageID")]
    pub image_id: String,
}

/// A record time: the instant plus the exact text it was given as (outputs echo the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordTime {
    /// The instant.
    pub at: Timestamp,
    /// The RFC 3339 text as given.
    pub text: String,
}

impl RecordTime {
    /// Parses an RFC 3339 time; error `invalid_input` naming `field`.
    pub fn parse(text: &str, field: &str) -> Result<Self> {
        let at = crate::time::parse_time(text, field)?;
        Ok(RecordTime {
            at,
            text: text.to_owned(),
        })
    }

    /// A record time for an instant, printed in RFC 3339 UTC.
    pub fn from_timestamp(at: Timestamp) -> Self {
        RecordTime {
            at,
            text: at.to_string(),
        }
    }
}

impl<'de> Deserialize<'de> for RecordTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let at = crate::time::parse_rfc3339(&text).ok_or_else(|| {
            serde::de::Error::custom(format_args!("{text:?} is not an RFC 3339 time"))
        })?;
        Ok(RecordTime { at, text })
    }
}

impl JsonSchema for RecordTime {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RecordTime".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "date-time",
            "description": "An RFC 3339 time (Go time.RFC3339 rules); written back exactly as given."
        })
    }
}

impl Serialize for RecordTime {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// A PUB record map: pod name -> time (`status.disruptedPods`, `status.unavailablePods`).
pub type Records = BTreeMap<String, RecordTime>;

/// A PodUnavailableBudget object (`policy.kruise.io/v1alpha1`; `v1beta1` accepted, see
/// [`Pub::protect_operations_value`]).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct Pub {
    /// `apiVersion` (absent accepted; else `policy.kruise.io/v1alpha1` or `/v1beta1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// `kind`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `metadata`.
    pub metadata: PubMeta,
    /// `spec`.
    pub spec: PubSpec,
    /// `status` (`null`/absent = zero status).
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<PubStatus>")]
    pub status: PubStatus,
}

/// PUB `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct PubMeta {
    /// `metadata.name` (used in denial reasons).
    pub name: String,
    /// `metadata.namespace`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `metadata.generation` (int64).
    pub generation: i64,
    /// `metadata.annotations`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<StrMap>")]
    pub annotations: StrMap,
}

/// PUB `spec`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct PubSpec {
    /// `spec.selector` (label selector).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// `spec.targetRef` (wins over the selector).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<TargetRef>,
    /// `spec.maxUnavailable` (wins over minAvailable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrPercent>,
    /// `spec.minAvailable`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrPercent>,
    /// v1beta1 only: `spec.protectOperations` (wins over the annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protect_operations: Option<Vec<String>>,
    /// v1beta1 only: `spec.protectTotalReplicas` (wins over the annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protect_total_replicas: Option<i32>,
}

/// The PUB's label selector is the one of [`crate::k8s::selector`] (absent or null key and
/// operator read as `""`, as Go decodes them), re-exported under the names this module gave it.
pub use crate::k8s::selector::{LabelSelector, Requirement as LabelRequirement};

/// `spec.targetRef`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct TargetRef {
    /// `apiVersion`, e.g. `apps.kruise.io/v1alpha1`.
    pub api_version: String,
    /// `kind`, e.g. `CloneSet`.
    pub kind: String,
    /// `name`.
    pub name: String,
}

/// PUB `status`. Record maps absent and empty are the same; they are always printed.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct PubStatus {
    /// `status.observedGeneration` (int64).
    pub observed_generation: i64,
    /// `status.disruptedPods`: pods admitted for DELETE / EVICT / RESIZE, kept 20 s.
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<Records>")]
    pub disrupted_pods: Records,
    /// `status.unavailablePods`: pods admitted for UPDATE, kept 10 s.
    #[serde(deserialize_with = "null_default")]
    #[schemars(schema_with = "null_on_read::<Records>")]
    pub unavailable_pods: Records,
    /// `status.unavailableAllowed` (int32).
    pub unavailable_allowed: i32,
    /// `status.currentAvailable` (int32).
    pub current_available: i32,
    /// `status.desiredAvailable` (int32).
    pub desired_available: i32,
    /// `status.totalReplicas` (int32).
    pub total_replicas: i32,
}

/// Accepted PUB apiVersions.
pub const API_V1ALPHA1: &str = "policy.kruise.io/v1alpha1";
/// The later typed API (main branch after v1.9.0), accepted and read as v1alpha1 (see docs/pub.md).
pub const API_V1BETA1: &str = "policy.kruise.io/v1beta1";

impl Pub {
    /// Checks `apiVersion`/`kind` when present: `invalid_input` naming `<field>.apiVersion` for any
    /// other group/version.
    pub fn check_api(&self, field: &str) -> Result<()> {
        if let Some(v) = self.api_version.as_deref()
            && v != API_V1ALPHA1
            && v != API_V1BETA1
        {
            return Err(Error::invalid_input(
                format!("{field}.apiVersion"),
                format_args!("{v:?} is not {API_V1ALPHA1} or {API_V1BETA1}"),
            ));
        }
        if let Some(k) = self.kind.as_deref()
            && k != "PodUnavailableBudget"
        {
            return Err(Error::invalid_input(
                format!("{field}.kind"),
                format_args!("{k:?} is not PodUnavailableBudget"),
            ));
        }
        Ok(())
    }

    /// Whether the object is the v1beta1 form.
    pub fn is_v1beta1(&self) -> bool {
        self.api_version.as_deref() == Some(API_V1BETA1)
    }
}

/// Feature gates the PUB decisions consult (`pkg/features/kruise_features.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(default)]
pub struct FeatureGates {
    /// `PodUnavailableBudgetDeleteGate` (default on): DELETE and eviction are checked.
    #[serde(rename = "PodUnavailableBudgetDeleteGate")]
    pub delete_gate: bool,
    /// `PodUnavailableBudgetUpdateGate` (default off): UPDATE is checked.
    #[serde(rename = "PodUnavailableBudgetUpdateGate")]
    pub update_gate: bool,
    /// `InPlacePodVerticalScaling` (default off): when off, protecting UPDATE implies RESIZE.
    #[serde(rename = "InPlacePodVerticalScaling")]
    pub in_place_pod_vertical_scaling: bool,
    /// `PodWebhook` (default on): when off both PUB gates are forced off.
    #[serde(rename = "PodWebhook")]
    pub pod_webhook: bool,
}

impl Default for FeatureGates {
    fn default() -> Self {
        FeatureGates {
            delete_gate: true,
            update_gate: false,
            in_place_pod_vertical_scaling: false,
            pod_webhook: true,
        }
    }
}

impl FeatureGates {
    /// The effective delete gate (forced off without `PodWebhook`).
    pub fn delete_checked(&self) -> bool {
        self.pod_webhook && self.delete_gate
    }
    /// The effective update gate (forced off without `PodWebhook`).
    pub fn update_checked(&self) -> bool {
        self.pod_webhook && self.update_gate
    }
}

/// The schema of a [`null_default`] member: `T` or `null` when read (null reads as the default),
/// `T` when written.
fn null_on_read<T: JsonSchema>(g: &mut SchemaGenerator) -> Schema {
    if g.contract().is_deserialize() {
        g.subschema_for::<Option<T>>()
    } else {
        g.subschema_for::<T>()
    }
}

/// `null` -> `Default`, anything else as usual (Kubernetes prints `null` for empty maps/lists).
pub(crate) fn null_default<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// Annotation: comma-separated protected operations (on the PUB).
pub const ANN_PROTECT_OPERATIONS: &str = "kruise.io/pub-protect-operations";
/// Annotation: expected replica override (on the PUB).
pub const ANN_PROTECT_TOTAL_REPLICAS: &str = "pub.kruise.io/protect-total-replicas";
/// Annotation: the PUB guarding the pod.
pub const ANN_RELATED_PUB: &str = "kruise.io/related-pub";
/// Annotation: `"true"` exempts the pod.
pub const ANN_NO_PROTECT: &str = "pub.kruise.io/no-protect";
/// Label-key prefix marking a pod unavailable.
pub const LABEL_UNAVAILABLE_PREFIX: &str = "unavailable-pod.kruise.io/";

/// Whether a label map carries an `unavailable-pod.kruise.io/` key (`appspub.HasUnavailableLabel`).
pub fn has_unavailable_label(labels: &StrMap) -> bool {
    // keys are sorted: the first key >= the prefix is the only candidate
    labels
        .range::<str, _>((
            std::ops::Bound::Included(LABEL_UNAVAILABLE_PREFIX),
            std::ops::Bound::Unbounded,
        ))
        .next()
        .is_some_and(|(k, _)| k.starts_with(LABEL_UNAVAILABLE_PREFIX))
}
