//! `rollout.health`: the rollout-status answer for an OpenKruise workload object as
//! `kubectl get -o yaml` prints it: healthy, progressing, degraded or suspended, a message, and
//! whether the rollout is done (nothing more happens without a change to the object).
//!
//! The rules follow `kubectl kruise rollout status` (openkruise/kruise-tools
//! `pkg/internal/polymorphichelpers/rollout_status.go`, the CloneSet and Advanced StatefulSet
//! status viewers) and Argo CD's health checks for `apps.kruise.io`
//! (`resource_customizations/apps.kruise.io/<Kind>/health.lua`), with the partition resolved as
//! the controllers resolve it (int or percent, [`super::partition`]). Where and why they differ
//! from those tools: `docs/rollout.md`, "Health".

use super::decode_member;
use super::partition::{cloneset_partition, daemonset_partition, statefulset};
use crate::error::{Error, Result};
use crate::intstr::IntOrPercent;
use crate::k8s::null_as_default as null_default;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Error kind: an object that is not a CloneSet, Advanced StatefulSet, Advanced DaemonSet,
/// BroadcastJob or AdvancedCronJob of `apps.kruise.io` (names `kind` or `apiVersion`).
pub const UNKNOWN_KIND: &str = "unknown_kind";

/// The health verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Health {
    /// Rolled out: every pod the spec asks for is updated and available (or the job completed).
    Healthy,
    /// Still moving toward the spec.
    Progressing,
    /// Failed: the progress deadline passed, or the job failed.
    Degraded,
    /// Held on purpose: paused, or a partition keeps pods on the old revision.
    Suspended,
}

/// Input of `rollout.health`: the workload object itself (`kind` decides how it is read; members
/// not listed are ignored, as in any Kubernetes object).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthInput {
    /// `apiVersion`: `apps.kruise.io/v1alpha1` or `apps.kruise.io/v1beta1`; absent: not checked.
    #[serde(default)]
    pub api_version: Option<String>,
    /// `kind`: `CloneSet`, `StatefulSet` (Advanced), `DaemonSet` (Advanced), `BroadcastJob` or
    /// `AdvancedCronJob`.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub kind: String,
    /// `metadata`: name, generation, deletionTimestamp, finalizers are read.
    #[serde(default)]
    pub metadata: Value,
    /// `spec`: replicas, updateStrategy (type, partition, paused), paused.
    #[serde(default)]
    pub spec: Value,
    /// `status`; absent or null: not yet observed by the controller.
    #[serde(default)]
    pub status: Value,
}

/// Output of `rollout.health`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HealthOutput {
    /// The verdict.
    pub status: Health,
    /// What the verdict rests on, for people.
    pub message: String,
    /// The rollout has reached what the spec asks: `rollout status` would stop waiting. True for
    /// healthy, for a rollout held by its partition and for a finished job.
    pub done: bool,
}

fn out(status: Health, done: bool, message: impl Into<String>) -> HealthOutput {
    HealthOutput {
        status,
        message: message.into(),
        done,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Meta {
    #[serde(deserialize_with = "null_default")]
    name: String,
    #[serde(deserialize_with = "null_default")]
    generation: i64,
    deletion_timestamp: Option<String>,
    #[serde(deserialize_with = "null_default")]
    finalizers: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Strategy {
    #[serde(rename = "type", deserialize_with = "null_default")]
    type_: String,
    partition: Option<IntOrPercent>,
    #[serde(deserialize_with = "null_default")]
    paused: bool,
    rolling_update: Option<RollingUpdate>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RollingUpdate {
    partition: Option<IntOrPercent>,
    #[serde(deserialize_with = "null_default")]
    paused: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Spec {
    replicas: Option<i32>,
    #[serde(deserialize_with = "null_default")]
    update_strategy: Strategy,
    #[serde(deserialize_with = "null_default")]
    paused: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Condition {
    #[serde(rename = "type", deserialize_with = "null_default")]
    type_: String,
    #[serde(deserialize_with = "null_default")]
    status: String,
    #[serde(deserialize_with = "null_default")]
    reason: String,
    #[serde(deserialize_with = "null_default")]
    message: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Status {
    #[serde(deserialize_with = "null_default")]
    observed_generation: i64,
    #[serde(deserialize_with = "null_default")]
    replicas: i32,
    #[serde(deserialize_with = "null_default")]
    ready_replicas: i32,
    #[serde(deserialize_with = "null_default")]
    available_replicas: i32,
    #[serde(deserialize_with = "null_default")]
    updated_replicas: i32,
    #[serde(deserialize_with = "null_default")]
    updated_available_replicas: i32,
    #[serde(deserialize_with = "null_default")]
    update_revision: String,
    #[serde(deserialize_with = "null_default")]
    current_revision: String,
    // DaemonSet
    #[serde(deserialize_with = "null_default")]
    desired_number_scheduled: i32,
    #[serde(deserialize_with = "null_default")]
    updated_number_scheduled: i32,
    #[serde(deserialize_with = "null_default")]
    current_number_scheduled: i32,
    #[serde(deserialize_with = "null_default")]
    number_available: i32,
    // BroadcastJob
    #[serde(deserialize_with = "null_default")]
    phase: String,
    #[serde(deserialize_with = "null_default")]
    active: Value,
    #[serde(deserialize_with = "null_default")]
    succeeded: i32,
    #[serde(deserialize_with = "null_default")]
    failed: i32,
    #[serde(deserialize_with = "null_default")]
    desired: i32,
    // AdvancedCronJob
    last_schedule_time: Option<String>,
    #[serde(deserialize_with = "null_default")]
    conditions: Vec<Condition>,
}

/// The replica-counting view shared by the three workloads.
struct Rollout<'a> {
    what: &'a str,
    /// Pods (nodes) the spec asks for.
    desired: i64,
    /// Of them, the number the partition lets onto the update revision.
    target: i64,
    partition: i64,
    paused: bool,
    updated: i64,
    updated_available: i64,
    available: i64,
    /// Pods beyond `desired` still running (scale-down or surge).
    surplus: i64,
    revision: &'a str,
}

fn rollout(r: &Rollout) -> HealthOutput {
    use Health::*;
    let w = r.what;
    if r.updated < r.target {
        let m = format!(
            "{} out of {} new pods have been updated",
            r.updated, r.target
        );
        return if r.paused {
            out(Suspended, false, format!("{w} is paused: {m}"))
        } else {
            out(
                Progressing,
                false,
                format!("waiting for {w} rollout to finish: {m}"),
            )
        };
    }
    if r.surplus > 0 {
        return out(
            Progressing,
            false,
            format!(
                "waiting for {w} rollout to finish: {} old pods are pending termination",
                r.surplus
            ),
        );
    }
    if r.updated_available < r.target {
        return out(
            Progressing,
            false,
            format!(
                "waiting for {w} rollout to finish: {} of {} updated pods are available",
                r.updated_available, r.target
            ),
        );
    }
    if r.available < r.desired {
        return out(
            Progressing,
            false,
            format!(
                "waiting for {w} rollout to finish: {} of {} pods are available",
                r.available, r.desired
            ),
        );
    }
    if r.target < r.desired && r.updated < r.desired {
        return out(
            Suspended,
            true,
            format!(
                "partitioned roll out complete: {} of {} pods updated, partition {} keeps the rest",
                r.target, r.desired, r.partition
            ),
        );
    }
    let at = if r.revision.is_empty() {
        String::new()
    } else {
        format!(" at revision {}", r.revision)
    };
    out(
        Healthy,
        true,
        format!("{w} rolled out: {} pods{at}", r.desired),
    )
}

fn at_spec(e: Error, field: &str) -> Error {
    Error::at(e.kind, field, e.message.trim_start_matches("partition: "))
}

/// `rollout.health` on the input.
pub fn health(i: &HealthInput) -> Result<HealthOutput> {
    if let Some(v) = i.api_version.as_deref()
        && !matches!(v, "apps.kruise.io/v1alpha1" | "apps.kruise.io/v1beta1")
    {
        return Err(Error::at(
            UNKNOWN_KIND,
            "apiVersion",
            format_args!("{v:?} is not apps.kruise.io/v1alpha1 or v1beta1"),
        ));
    }
    let kind = i.kind.as_str();
    if !matches!(
        kind,
        "CloneSet" | "StatefulSet" | "DaemonSet" | "BroadcastJob" | "AdvancedCronJob"
    ) {
        return Err(Error::at(
            UNKNOWN_KIND,
            "kind",
            format_args!(
                "{kind:?} is not one of CloneSet, StatefulSet, DaemonSet, BroadcastJob, AdvancedCronJob"
            ),
        ));
    }
    let meta: Meta = decode_member(&i.metadata, "metadata")?;
    let spec: Spec = decode_member(&i.spec, "spec")?;
    let observed = !i.status.is_null();
    let st: Status = decode_member(&i.status, "status")?;
    if meta.deletion_timestamp.is_some() {
        let mut m = "pending deletion".to_string();
        if !meta.finalizers.is_empty() {
            m += &format!("; blocked by finalizers: {}", meta.finalizers.join(", "));
        }
        return Ok(out(Health::Progressing, false, m));
    }
    match kind {
        "BroadcastJob" => return Ok(broadcast_job(&spec, &st)),
        "AdvancedCronJob" => return Ok(cron_job(&spec, &st)),
        _ => {}
    }
    let what = match kind {
        "CloneSet" => "CloneSet",
        "StatefulSet" => "Advanced StatefulSet",
        _ => "Advanced DaemonSet",
    };
    if !observed || st.observed_generation == 0 || st.observed_generation < meta.generation {
        return Ok(out(
            Health::Progressing,
            false,
            format!(
                "waiting for {what} spec update to be observed (generation {}, observed {})",
                meta.generation, st.observed_generation
            ),
        ));
    }
    let us = &spec.update_strategy;
    let ru = us.rolling_update.as_ref();
    let paused = us.paused || ru.is_some_and(|r| r.paused);
    let partition_v = ru
        .and_then(|r| r.partition.as_ref())
        .or(us.partition.as_ref());
    let pfield = if ru.is_some_and(|r| r.partition.is_some()) {
        "spec.updateStrategy.rollingUpdate.partition"
    } else {
        "spec.updateStrategy.partition"
    };
    Ok(match kind {
        "CloneSet" => {
            if let Some(c) = st
                .conditions
                .iter()
                .find(|c| c.type_ == "Progressing" && c.reason == "ProgressDeadlineExceeded")
            {
                let m = if c.message.is_empty() {
                    "progress deadline exceeded".to_string()
                } else {
                    c.message.clone()
                };
                return Ok(out(Health::Degraded, false, m));
            }
            let r = spec.replicas.unwrap_or(1);
            let p = cloneset_partition(partition_v, Some(r)).map_err(|e| at_spec(e, pfield))?;
            rollout(&replicas_rollout(what, i64::from(r), p, paused, &st))
        }
        "StatefulSet" => {
            let r = spec.replicas.unwrap_or(1);
            let desired = i64::from(r);
            if us.type_ == "OnDelete" {
                return Ok(on_delete(what, desired, &st));
            }
            let p = statefulset(partition_v, r).map_err(|e| at_spec(e, pfield))?;
            let kept = desired - p.max_updated.min(desired);
            rollout(&replicas_rollout(what, desired, kept, paused, &st))
        }
        _ => {
            let desired = i64::from(st.desired_number_scheduled);
            if us.type_ == "OnDelete" {
                let s = Status {
                    replicas: st.current_number_scheduled,
                    updated_replicas: st.updated_number_scheduled,
                    available_replicas: st.number_available,
                    update_revision: st.update_revision.clone(),
                    ..Default::default()
                };
                return Ok(on_delete(what, desired, &s));
            }
            let p = daemonset_partition(partition_v, desired)
                .map_err(|e| at_spec(e, pfield))?
                .clamp(0, desired.max(0));
            rollout(&Rollout {
                what,
                desired,
                target: desired - p,
                partition: p,
                paused,
                updated: st.updated_number_scheduled.into(),
                // the DaemonSet status has no updated-available count
                updated_available: i64::from(st.updated_number_scheduled)
                    .min(st.number_available.into()),
                available: st.number_available.into(),
                surplus: 0,
                revision: &st.update_revision,
            })
        }
    })
}

/// The view of a workload counted in replicas (CloneSet, Advanced StatefulSet) with `partition`
/// pods kept on the old revision.
fn replicas_rollout<'a>(
    what: &'a str,
    desired: i64,
    partition: i64,
    paused: bool,
    st: &'a Status,
) -> Rollout<'a> {
    Rollout {
        what,
        desired,
        target: desired - partition,
        partition,
        paused,
        updated: st.updated_replicas.into(),
        updated_available: st.updated_available_replicas.into(),
        available: st.available_replicas.into(),
        surplus: (i64::from(st.replicas) - desired).max(0),
        revision: &st.update_revision,
    }
}

fn on_delete(what: &str, desired: i64, st: &Status) -> HealthOutput {
    if i64::from(st.available_replicas) < desired {
        return out(
            Health::Progressing,
            false,
            format!(
                "waiting for {what}: {} of {desired} pods are available",
                st.available_replicas
            ),
        );
    }
    out(
        Health::Healthy,
        true,
        format!(
            "{what} uses OnDelete: {} of {desired} pods updated, the rest update when deleted",
            st.updated_replicas
        ),
    )
}

fn broadcast_job(spec: &Spec, st: &Status) -> HealthOutput {
    let cond = |t: &str| {
        st.conditions
            .iter()
            .find(|c| c.type_ == t && c.status == "True")
    };
    let counts = format!(
        "{} succeeded, {} failed, {} active of {} desired",
        st.succeeded,
        st.failed,
        st.active.as_i64().unwrap_or(0),
        st.desired
    );
    if let Some(c) = cond("Failed") {
        let why = if c.message.is_empty() {
            &c.reason
        } else {
            &c.message
        };
        return out(
            Health::Degraded,
            true,
            format!("BroadcastJob failed: {why} ({counts})"),
        );
    }
    if st.phase == "failed" {
        return out(
            Health::Degraded,
            true,
            format!("BroadcastJob failed ({counts})"),
        );
    }
    if cond("Complete").is_some() || st.phase == "completed" {
        return out(
            Health::Healthy,
            true,
            format!("BroadcastJob completed ({counts})"),
        );
    }
    if spec.paused || st.phase == "paused" {
        return out(
            Health::Suspended,
            false,
            format!("BroadcastJob is paused ({counts})"),
        );
    }
    out(
        Health::Progressing,
        false,
        format!("BroadcastJob is running ({counts})"),
    )
}

fn cron_job(spec: &Spec, st: &Status) -> HealthOutput {
    let active = st.active.as_array().map_or(0, Vec::len);
    if active > 0 {
        return out(
            Health::Progressing,
            false,
            format!("AdvancedCronJob has {active} active jobs"),
        );
    }
    if spec.paused {
        return out(Health::Suspended, true, "AdvancedCronJob is paused");
    }
    match &st.last_schedule_time {
        Some(t) => out(
            Health::Healthy,
            true,
            format!("AdvancedCronJob last scheduled at {t}"),
        ),
        None => out(
            Health::Healthy,
            true,
            "AdvancedCronJob has not been scheduled yet",
        ),
    }
}

/// `rollout.health`: the rollout status of a kruise workload object.
pub struct RolloutHealth;

impl crate::registry::Decision for RolloutHealth {
    const ID: &'static str = "rollout.health";
    const DOC: &'static str = "Rollout health (healthy/progressing/degraded/suspended, message, done) of a CloneSet, Advanced StatefulSet/DaemonSet, BroadcastJob or AdvancedCronJob object (kubectl-kruise rollout status, Argo CD apps.kruise.io health checks, partitions resolved as the controllers do)";
    const SOURCE: &'static str = "openkruise/kruise-tools pkg/internal/polymorphichelpers/rollout_status.go CloneSetStatusViewer, AdvancedStatefulSetStatusViewer; \
        argoproj/argo-cd resource_customizations/apps.kruise.io/*/health.lua; \
        kruise pkg/util/tools.go CalculatePartitionReplicas; pkg/controller/daemonset/daemonset_update.go filterDaemonPodsNodeToUpdate";
    const ERRORS: &'static [&'static str] = &[
        UNKNOWN_KIND,
        crate::intstr::NOT_A_PERCENTAGE,
        crate::intstr::INVALID_NUMBER,
        super::partition::NOT_AN_INTEGER,
        super::partition::NEGATIVE_PARTITION,
    ];
    type Input = HealthInput;
    type Output = HealthOutput;

    fn decide(input: HealthInput) -> Result<HealthOutput> {
        health(&input)
    }
}
