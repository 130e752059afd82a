//! The `allocation` decision family: UnitedDeployment subset replica allocation as OpenKruise v1.9
//! does it (`pkg/controller/uniteddeployment/`). Fixed, elastic min/max, Adaptive and the v1.9
//! `reserveUnschedulablePods` reservation allocators, the per-subset adaptive status, pending and
//! reserved pod checks, and the webhook's allocation rules.
//!
//! Typed entry points: [`parse_subset_replicas`], [`next_replicas_with`], [`allocate()`],
//! [`subset_status()`], [`pending_timeout()`], [`pod_reserved()`], [`remark_recovered()`],
//! [`validate()`]. The JSON handlers in [`ENTRIES`] are thin wrappers over them.

pub mod allocate;
pub mod allocator;
pub mod elastic;
pub mod pending;
pub mod replicas;
pub mod reservation;
pub mod reserved;
pub mod specific;
pub mod subset_status;
pub mod types;
pub mod validate;

pub use allocate::{AdaptiveReport, AllocateOutcome, allocate};
pub use allocator::{Allocation, AllocatorKind, SubsetView, next_replicas_with};
/// The time type of this family's inputs (jiff 1), re-exported for adapters.
pub use jiff::Timestamp;
pub use pending::{PendingCheck, Requeue, pending_timeout};
pub use replicas::parse_subset_replicas;
pub use reserved::{ReservedCheck, pod_reserved};
pub use subset_status::{StatusContext, SubsetOutcome, remark_recovered, subset_status};
pub use types::*;
pub use validate::{Violation, validate};

use crate::error::{Error, Result};
use crate::intstr::IntOrPercent;
use crate::registry::{Entry, decode, encode};
use pending::seconds_json;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Registry entries of this family (input/output shapes: `docs/allocation.md`).
pub const ENTRIES: &[Entry] = &[
    Entry::new(
        "allocation.parse_replicas",
        "Resolve a subset int-or-percent against spec.replicas (ParseSubsetReplicas, uniteddeployment_controller_utils.go)",
        parse_replicas_handler,
    ),
    Entry::new(
        "allocation.next_replicas",
        "Run the specific/minMax/adaptive/reservation allocator (allocator.go)",
        next_replicas_handler,
    ),
    Entry::new(
        "allocation.allocate",
        "One reconcile's allocation steps 1-5 (uniteddeployment_controller.go Reconcile)",
        allocate_handler,
    ),
    Entry::new(
        "allocation.subset_status",
        "Per-subset adaptive status and Schedulable condition (calculateSubsetsStatusFor*AdaptiveStrategy)",
        subset_status_handler,
    ),
    Entry::new(
        "allocation.pending_timeout",
        "Pending-pod timeout (GetTimeBeforePendingTimeout, pkg/controller/util/pod_condition_utils.go)",
        pending_timeout_handler,
    ),
    Entry::new(
        "allocation.pod_reserved",
        "Reserved-pod check (CheckPodReallyInReservedStatus, subset.go)",
        pod_reserved_handler,
    ),
    Entry::new(
        "allocation.remark_recovered",
        "Re-mark a just-recovered subset that scales up (postProcessSubsetStatusForReservedAdaptiveStrategy)",
        remark_recovered_handler,
    ),
    Entry::new(
        "allocation.validate",
        "Webhook allocation rules (validateUnitedDeploymentSpec)",
        validate_handler,
    ),
];

fn now_of(s: &str) -> Result<jiff::Timestamp> {
    parse_time(s, "now")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParseIn {
    #[serde(default)]
    replicas: Option<i32>,
    #[serde(default, deserialize_with = "types::de_int_or_percent")]
    value: Option<IntOrPercent>,
}

fn parse_replicas_handler(input: &Value) -> Result<Value> {
    let i: ParseIn = decode(input)?;
    let v = i
        .value
        .ok_or_else(|| Error::invalid_input("value", "a subset replicas value is required"))?;
    parse_subset_replicas(i.replicas.map_or(-1, i64::from), &v, "value").map(Value::from)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NextIn {
    spec: UdSpec,
    #[serde(default, deserialize_with = "types::null_as_default")]
    subsets: BTreeMap<String, Workload>,
}

/// The allocation as JSON: `{"allocator", "replicas": {name: n}, "temporaryReplicas"?}`.
pub fn allocation_json(a: &Allocation) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(
        "allocator".into(),
        serde_json::to_value(a.allocator).unwrap_or(Value::Null),
    );
    let reps: Map<String, Value> = a
        .replicas
        .iter()
        .map(|(n, r)| (n.clone(), Value::from(*r)))
        .collect();
    m.insert("replicas".into(), Value::Object(reps));
    if let Some(t) = a.temporary_replicas {
        m.insert("temporaryReplicas".into(), Value::from(t));
    }
    m
}

fn next_replicas_handler(input: &Value) -> Result<Value> {
    let i: NextIn = decode(input)?;
    let a = next_replicas_with(&i.spec, |name| {
        i.subsets.get(name).map(|w| SubsetView {
            spec_replicas: i64::from(w.spec.replicas),
            ready_replicas: i64::from(w.status.ready_replicas),
            status: w.unschedulable_status.unwrap_or_default(),
        })
    })?;
    Ok(Value::Object(allocation_json(&a)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AllocateIn {
    spec: UdSpec,
    #[serde(default)]
    status: Option<UdStatus>,
    #[serde(default)]
    current_revision: String,
    #[serde(default)]
    updated_revision: String,
    #[serde(default, deserialize_with = "types::null_as_default")]
    subsets: BTreeMap<String, Workload>,
    now: String,
}

/// A condition as `CondOut` JSON: `{"status", "reason", "lastTransitionTime": str|null}`.
pub fn cond_out(c: Option<&Condition>) -> Value {
    match c {
        None => Value::Null,
        Some(c) => json!({
            "status": c.status,
            "reason": c.reason,
            "lastTransitionTime": c.last_transition_time.map(format_time),
        }),
    }
}

/// An [`AllocateOutcome`] as the `allocation.allocate` JSON shape.
pub fn outcome_json(o: &AllocateOutcome) -> Result<Value> {
    let mut m = allocation_json(&o.allocation);
    if let Some(rep) = &o.adaptive {
        m.insert("subsets".into(), encode(&rep.subsets)?);
        let conds: Map<String, Value> = o
            .status
            .subset_statuses
            .iter()
            .map(|s| (s.name.clone(), cond_out(s.schedulable())))
            .collect();
        m.insert("subsetConditions".into(), Value::Object(conds));
        m.insert(
            "requeueAfterSeconds".into(),
            rep.requeue.nanos().map_or(Value::from(0), seconds_json),
        );
        if let Some(l) = &rep.pod_reserved_labels {
            m.insert("podReservedLabels".into(), encode(l)?);
        }
    }
    Ok(Value::Object(m))
}

fn allocate_handler(input: &Value) -> Result<Value> {
    let i: AllocateIn = decode(input)?;
    let now = now_of(&i.now)?;
    let o = allocate(
        &i.spec,
        &i.status.unwrap_or_default(),
        &i.current_revision,
        &i.updated_revision,
        &i.subsets,
        now,
    )?;
    outcome_json(&o)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SubsetStatusIn {
    #[serde(default)]
    schedule_strategy: ScheduleStrategy,
    #[serde(default)]
    subset_status: Option<SubsetStatus>,
    #[serde(default, deserialize_with = "types::null_as_default")]
    subset: Workload,
    #[serde(default)]
    updated_revision: String,
    #[serde(default)]
    updated_condition: Option<Condition>,
    now: String,
}

fn subset_status_handler(input: &Value) -> Result<Value> {
    let i: SubsetStatusIn = decode(input)?;
    let now = now_of(&i.now)?;
    let mut st = i.subset_status;
    let ctx = StatusContext {
        strategy: &i.schedule_strategy,
        updated_revision: &i.updated_revision,
        updated_since: i
            .updated_condition
            .as_ref()
            .map(|c| c.last_transition_time.unwrap_or_else(go_zero_time)),
        now,
    };
    let out = subset_status(&ctx, st.as_mut(), &i.subset)?;
    let pods: Vec<Value> = out
        .pods_to_patch
        .iter()
        .map(|(n, r)| json!({"name": n, "reserved": r}))
        .collect();
    Ok(json!({
        "unschedulableStatus": encode(&out.status)?,
        "schedulableCondition": cond_out(st.as_ref().and_then(|s| s.schedulable())),
        "podsToPatch": pods,
        "requeueAfterSeconds": out.requeue.nanos().map_or(Value::from(0), seconds_json),
    }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PendingIn {
    pod: Pod,
    timeout_seconds: i64,
    now: String,
}

fn pending_timeout_handler(input: &Value) -> Result<Value> {
    let i: PendingIn = decode(input)?;
    let p = pending_timeout(&i.pod, i.timeout_seconds, now_of(&i.now)?)?;
    Ok(
        json!({"timedOut": p.timed_out, "nextCheckAfterSeconds": p.check_after_nanos.map(seconds_json)}),
    )
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReservedIn {
    pod: Pod,
    #[serde(default)]
    updated_revision: String,
    #[serde(default)]
    updated_condition_last_transition_time: Option<String>,
    pending_timeout_seconds: i64,
    min_ready_seconds: i64,
    now: String,
}

fn pod_reserved_handler(input: &Value) -> Result<Value> {
    let i: ReservedIn = decode(input)?;
    let since = i
        .updated_condition_last_transition_time
        .as_deref()
        .map(|s| parse_time(s, "updatedConditionLastTransitionTime"))
        .transpose()?;
    let r = pod_reserved(
        &i.pod,
        &i.updated_revision,
        since,
        i.pending_timeout_seconds,
        i.min_ready_seconds,
        now_of(&i.now)?,
    )
    .map_err(|e| {
        if e.field.as_deref() == Some("updatedCondition") {
            Error {
                field: Some("updatedConditionLastTransitionTime".into()),
                ..e
            }
        } else {
            e
        }
    })?;
    Ok(json!({
        "reserved": r.reserved,
        "nextCheckAfterSeconds": r.check_after_nanos.map(seconds_json),
        "updateTimeout": r.update_timeout,
    }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RemarkIn {
    #[serde(default)]
    unschedulable: bool,
    #[serde(default)]
    marked_as_unschedulable: bool,
    current_replicas: i64,
    next_replicas: i64,
}

fn remark_recovered_handler(input: &Value) -> Result<Value> {
    let i: RemarkIn = decode(input)?;
    let st = UnschedulableStatus {
        unschedulable: i.unschedulable,
        marked_as_unschedulable: i.marked_as_unschedulable,
        ..Default::default()
    };
    Ok(json!({"markUnschedulable": remark_recovered(&st, i.current_replicas, i.next_replicas)}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidateIn {
    #[serde(default, deserialize_with = "types::null_as_default")]
    spec: UdSpec,
}

fn validate_handler(input: &Value) -> Result<Value> {
    let i: ValidateIn = decode(input)?;
    Ok(Value::from(
        validate(&i.spec).iter().map(|v| v.kind).collect::<Vec<_>>(),
    ))
}

#[cfg(test)]
mod tests;
