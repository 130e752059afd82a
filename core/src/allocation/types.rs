//! Input shapes of the allocation family, as the API server serves them (camelCase JSON).
//!
//! Mirrors the fields of `apis/apps/v1alpha1/uniteddeployment_types.go` (v1.9.0; identical JSON names
//! in `apis/apps/v1beta1`) that subset allocation reads, plus the parts of `core/v1` `Pod` it looks
//! at. Unknown fields are ignored, so whole manifests and `kubectl get -o json` pods decode as-is.

use crate::intstr::IntOrPercent;
use jiff::Timestamp;
use schemars::JsonSchema;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Label marking a reserved pod (`"true"` = reserved).
pub const RESERVED_POD_LABEL: &str = "apps.kruise.io/united-deployment-reserved-pod";
/// Label holding a pod's revision (absent reads as `""`).
pub const REVISION_LABEL: &str = "apps.kruise.io/controller-revision-hash";
/// Subset condition type.
pub const SCHEDULABLE: &str = "Schedulable";
/// UnitedDeployment condition type used by the reserved check.
pub const UNITED_DEPLOYMENT_UPDATED: &str = "UnitedDeploymentUpdated";
/// Default `rescheduleCriticalSeconds`.
pub const DEFAULT_RESCHEDULE_CRITICAL_SECONDS: i32 = 30;
/// Default `unschedulableDuration` (seconds).
pub const DEFAULT_UNSCHEDULABLE_DURATION: i32 = 300;

/// `spec` of a UnitedDeployment (only the fields allocation and its webhook rules read).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UdSpec {
    /// Total desired pods (int32); `None` = unset (absent or null).
    #[serde(default)]
    pub replicas: Option<i32>,
    /// Workload templates (absent or null = none); only which of them are present is checked.
    #[serde(default)]
    pub template: Option<Template>,
    /// Subsets and schedule strategy (absent or null = no subsets, Fixed).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Topology>")]
    pub topology: Topology,
    /// Update strategy (absent or null = none; manual partitions are validated against subset names).
    #[serde(default)]
    pub update_strategy: Option<UpdateStrategy>,
}

/// `spec.template`: exactly one of the four should be present. Each is carried verbatim (any
/// JSON); only whether it is present counts (absent or null = not present).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    /// apps/v1 StatefulSet template (verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stateful_set_template: Option<serde_json::Value>,
    /// Advanced StatefulSet template (verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advanced_stateful_set_template: Option<serde_json::Value>,
    /// CloneSet template (verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clone_set_template: Option<serde_json::Value>,
    /// apps/v1 Deployment template (verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_template: Option<serde_json::Value>,
}

/// `spec.topology`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Topology {
    /// Subsets, in priority order (absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Subset>>")]
    pub subsets: Vec<Subset>,
    /// Schedule strategy (absent or null = Fixed).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ScheduleStrategy>")]
    pub schedule_strategy: ScheduleStrategy,
}

/// One `spec.topology.subsets[]` entry. Replica fields are int-or-percent (`3` or `"30%"`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subset {
    /// Subset name (a DNS label; absent or null reads as `""`, as Go decodes it).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// Fixed replicas of this subset: an int32 or a percentage of `spec.replicas` (absent or
    /// null = unset).
    #[serde(
        default,
        deserialize_with = "de_int_or_percent",
        skip_serializing_if = "Option::is_none"
    )]
    pub replicas: Option<IntOrPercent>,
    /// Lower bound (elastic allocation): an int32 or a percentage (absent or null = 0).
    #[serde(
        default,
        deserialize_with = "de_int_or_percent",
        skip_serializing_if = "Option::is_none"
    )]
    pub min_replicas: Option<IntOrPercent>,
    /// Upper bound (elastic allocation): an int32 or a percentage (absent or null = unlimited).
    #[serde(
        default,
        deserialize_with = "de_int_or_percent",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_replicas: Option<IntOrPercent>,
}

/// `spec.topology.scheduleStrategy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleStrategy {
    /// `"Adaptive"`, `"Fixed"` or `""` (absent, null or `""` = Fixed).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// Adaptive options (absent or null = the defaults, no reservation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveStrategy>,
}

/// `scheduleStrategy.adaptive`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdaptiveStrategy {
    /// Seconds a pod may stay unschedulable-pending before it counts as timed out (int32;
    /// absent or null = 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reschedule_critical_seconds: Option<i32>,
    /// Seconds a subset stays marked unschedulable (int32; absent or null = 300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unschedulable_duration: Option<i32>,
    /// Keep unschedulable pods in place and create temporary replicas elsewhere (v1.9; absent or
    /// null = false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve_unschedulable_pods: Option<bool>,
}

impl ScheduleStrategy {
    /// Type is exactly `"Adaptive"`.
    pub fn is_adaptive(&self) -> bool {
        self.type_.as_deref() == Some("Adaptive")
    }
    /// Reservation is effective: Adaptive, `adaptive` present, `reserveUnschedulablePods: true`.
    pub fn reserves(&self) -> bool {
        self.is_adaptive()
            && self
                .adaptive
                .as_ref()
                .and_then(|a| a.reserve_unschedulable_pods)
                == Some(true)
    }
    /// `rescheduleCriticalSeconds` with its default, in seconds (no range check, like the reference).
    pub fn reschedule_critical_seconds(&self) -> i64 {
        i64::from(
            self.adaptive
                .as_ref()
                .and_then(|a| a.reschedule_critical_seconds)
                .unwrap_or(DEFAULT_RESCHEDULE_CRITICAL_SECONDS),
        )
    }
    /// `unschedulableDuration` with its default, in seconds.
    pub fn unschedulable_duration(&self) -> i64 {
        i64::from(
            self.adaptive
                .as_ref()
                .and_then(|a| a.unschedulable_duration)
                .unwrap_or(DEFAULT_UNSCHEDULABLE_DURATION),
        )
    }
}

/// `spec.updateStrategy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateStrategy {
    /// Manual update partitions (absent or null = none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manual_update: Option<ManualUpdate>,
}

/// `spec.updateStrategy.manualUpdate`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManualUpdate {
    /// Subset name -> partition (int32; absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, i32>>")]
    pub partitions: BTreeMap<String, i32>,
}

/// An existing subset workload (StatefulSet/CloneSet/Deployment) and its pods.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    /// Workload spec (absent or null = `replicas` 0).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<WorkloadSpec>")]
    pub spec: WorkloadSpec,
    /// Workload status (absent or null = all 0).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<WorkloadStatus>")]
    pub status: WorkloadStatus,
    /// The workload's pods, in the order the controller lists them (absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Pod>>")]
    pub pods: Vec<Pod>,
    /// Precomputed adaptive status (read by `allocation.next_replicas`; ignored and recomputed by
    /// `allocation.allocate`; absent or null = all false/0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unschedulable_status: Option<UnschedulableStatus>,
}

/// `spec` of a subset workload.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpec {
    /// Desired replicas (int32; absent or null = 0).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub replicas: i32,
}

/// `status` of a subset workload.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadStatus {
    /// Current replicas (int32; absent or null = 0).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub replicas: i32,
    /// Ready replicas (int32; absent or null = 0).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub ready_replicas: i32,
}

/// The controller's in-memory per-subset record (`Subset.Status.UnschedulableStatus`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnschedulableStatus {
    /// The subset cannot take new pods now (default false).
    #[serde(default)]
    pub unschedulable: bool,
    /// The subset's Schedulable condition was "False" before this reconcile (reservation mode;
    /// default false).
    #[serde(default)]
    pub marked_as_unschedulable: bool,
    /// Pods pending past `rescheduleCriticalSeconds` (default adaptive mode; default 0).
    #[serde(default)]
    pub pending_pods: i32,
    /// Reserved pods (reservation mode; default 0).
    #[serde(default)]
    pub reserved_pods: i32,
    /// Old-revision pods reserved because the rollout took too long (reservation mode; default 0).
    #[serde(default)]
    pub update_timeout_pods: i32,
}

/// A Pod as `kubectl get -o json` prints it (fields read by this family).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    /// Metadata (required).
    pub metadata: PodMeta,
    /// Spec (`nodeName`; absent or null = not bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<PodSpec>,
    /// Status (`phase`, `conditions`; absent or null = no phase, no conditions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PodStatus>,
}

/// Pod metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodMeta {
    /// Pod name (required).
    pub name: String,
    /// Creation time, RFC 3339 (pending time is measured from it; absent or null = unknown, which
    /// is `invalid_input` where a check needs it).
    #[serde(
        default,
        deserialize_with = "de_time",
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_time"
    )]
    #[schemars(with = "Option<String>")]
    pub creation_timestamp: Option<Timestamp>,
    /// Deletion time, RFC 3339: set when the pod is terminating (absent or null = not terminating).
    #[serde(
        default,
        deserialize_with = "de_time",
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_time"
    )]
    #[schemars(with = "Option<String>")]
    pub deletion_timestamp: Option<Timestamp>,
    /// Labels (absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
}

/// Pod spec.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    /// Node the pod is bound to (absent, null or `""` = not bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_name: Option<String>,
}

/// Pod status.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    /// Phase (`Pending`, `Running`, ...; absent or null = `""`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// Conditions (absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Condition>>")]
    pub conditions: Vec<Condition>,
}

/// A condition (pod, subset or UnitedDeployment): type, status, reason, transition time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// Condition type (required).
    #[serde(rename = "type")]
    pub type_: String,
    /// `"True"`, `"False"` or `"Unknown"` (absent = `""`).
    #[serde(default)]
    pub status: String,
    /// Reason (absent or null = `""`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub reason: String,
    /// Free-text message (absent or null = `""`; not read).
    #[serde(
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "String::is_empty"
    )]
    #[schemars(with = "Option<String>")]
    pub message: String,
    /// Last transition time, RFC 3339 (absent or null reads as Go's zero time,
    /// 0001-01-01T00:00:00Z).
    #[serde(
        default,
        deserialize_with = "de_time",
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_time"
    )]
    #[schemars(with = "Option<String>")]
    pub last_transition_time: Option<Timestamp>,
}

/// `status.subsetStatuses[]` entry (name and conditions).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubsetStatus {
    /// Subset name (required).
    pub name: String,
    /// Conditions (only `Schedulable` is used; absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Condition>>")]
    pub conditions: Vec<Condition>,
}

impl SubsetStatus {
    /// The `Schedulable` condition, if any.
    pub fn schedulable(&self) -> Option<&Condition> {
        self.conditions.iter().find(|c| c.type_ == SCHEDULABLE)
    }

    /// Sets the `Schedulable` condition: unchanged when status and reason already match, otherwise
    /// replaced with `lastTransitionTime = now` (appended when missing).
    pub fn set_schedulable(&mut self, status: &str, reason: &str, message: &str, now: Timestamp) {
        let new = Condition {
            type_: SCHEDULABLE.into(),
            status: status.into(),
            reason: reason.into(),
            message: message.into(),
            last_transition_time: Some(now),
        };
        match self.conditions.iter_mut().find(|c| c.type_ == SCHEDULABLE) {
            Some(c) if c.status == status && c.reason == reason => {}
            Some(c) => *c = new,
            None => self.conditions.push(new),
        }
    }
}

/// `status` of a UnitedDeployment (the parts allocation touches).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UdStatus {
    /// Per-subset statuses (absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<SubsetStatus>>")]
    pub subset_statuses: Vec<SubsetStatus>,
    /// UnitedDeployment conditions (`UnitedDeploymentUpdated` is read; absent or null = none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Condition>>")]
    pub conditions: Vec<Condition>,
}

impl Pod {
    /// The pod's revision label (`""` when absent).
    pub fn revision(&self) -> &str {
        self.metadata
            .labels
            .get(REVISION_LABEL)
            .map_or("", String::as_str)
    }
    /// The reserved label: `(value == "true", label present)`.
    pub fn reserved_label(&self) -> (bool, bool) {
        match self.metadata.labels.get(RESERVED_POD_LABEL) {
            Some(v) => (v == "true", true),
            None => (false, false),
        }
    }
    /// Phase (`""` when absent).
    pub fn phase(&self) -> &str {
        self.status
            .as_ref()
            .and_then(|s| s.phase.as_deref())
            .unwrap_or("")
    }
    /// The first condition of `type_`.
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        self.status
            .as_ref()
            .and_then(|s| s.conditions.iter().find(|c| c.type_ == type_))
    }
    /// `spec.nodeName` is set (non-empty).
    pub fn has_node(&self) -> bool {
        self.spec
            .as_ref()
            .and_then(|s| s.node_name.as_deref())
            .is_some_and(|n| !n.is_empty())
    }
}

/// Go's zero `time.Time` (0001-01-01T00:00:00Z), what a missing condition time reads as.
pub fn go_zero_time() -> Timestamp {
    // -62135596800 s is 0001-01-01T00:00:00Z, well inside jiff's range.
    Timestamp::from_second(-62_135_596_800).unwrap_or(Timestamp::MIN)
}

pub use crate::time::parse_time;

/// Formats a time as RFC 3339 UTC (`2026-06-21T10:00:00Z`; fractional seconds only when present).
pub fn format_time(t: Timestamp) -> String {
    t.to_string()
}

pub(crate) use crate::k8s::null_as_default;

pub(crate) fn de_time<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(s) => crate::time::parse_rfc3339(&s)
            .map(Some)
            .ok_or_else(|| de::Error::custom(format!("{s:?} is not an RFC 3339 time"))),
    }
}

fn ser_time<S: serde::Serializer>(t: &Option<Timestamp>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(&format_time(*t)),
        None => s.serialize_none(),
    }
}

/// Deserializes an optional int-or-percent, naming int32 overflow and wrong types clearly.
pub(crate) fn de_int_or_percent<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<IntOrPercent>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<IntOrPercent>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an int32 or a percentage string such as \"50%\"")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            d.deserialize_any(self)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            i32::try_from(v)
                .map(|v| Some(IntOrPercent::Int(v)))
                .map_err(|_| E::custom(format!("replicas overflow: {v} does not fit in int32")))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            i32::try_from(v)
                .map(|v| Some(IntOrPercent::Int(v)))
                .map_err(|_| E::custom(format!("replicas overflow: {v} does not fit in int32")))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            if v.fract() == 0.0 && v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX) {
                Ok(Some(IntOrPercent::Int(v as i32)))
            } else {
                Err(E::custom(format!("{v} is not an int32")))
            }
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(IntOrPercent::String(v.to_string())))
        }
    }
    d.deserialize_option(V)
}

/// A whole UnitedDeployment manifest (`apps.kruise.io/v1alpha1` as in v1.9.0, or `v1beta1` as on
/// OpenKruise master; the allocation fields are the same in both).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnitedDeployment {
    /// `apps.kruise.io/v1alpha1` or `apps.kruise.io/v1beta1`.
    #[serde(default)]
    pub api_version: String,
    /// `UnitedDeployment`.
    #[serde(default)]
    pub kind: String,
    /// Spec.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<UdSpec>")]
    pub spec: UdSpec,
    /// Status (absent for a manifest that was never applied).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<UdStatus>")]
    pub status: UdStatus,
}

impl UnitedDeployment {
    /// Decodes a manifest, checking `apiVersion` and `kind`.
    ///
    /// Errors: `invalid_input` naming `apiVersion`, `kind` or the malformed field.
    pub fn from_manifest(v: &serde_json::Value) -> crate::Result<UnitedDeployment> {
        let ud: UnitedDeployment = crate::registry::decode(v)?;
        if ud.api_version != "apps.kruise.io/v1alpha1" && ud.api_version != "apps.kruise.io/v1beta1"
        {
            return Err(crate::Error::invalid_input(
                "apiVersion",
                format_args!(
                    "{:?} is not apps.kruise.io/v1alpha1 or apps.kruise.io/v1beta1",
                    ud.api_version
                ),
            ));
        }
        if ud.kind != "UnitedDeployment" {
            return Err(crate::Error::invalid_input(
                "kind",
                format_args!("{:?} is not UnitedDeployment", ud.kind),
            ));
        }
        Ok(ud)
    }
}
