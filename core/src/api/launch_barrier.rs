//! `api.launch_barrier_next`: which launch priority the barrier controller releases next
//! (`pkg/controller/containerlaunchpriority/container_launch_priority_controller.go`).
//!
//! Priorities are released from the highest number downwards, one level per reconcile, as the
//! containers of higher levels become ready.

use super::json::{as_obj, bool_at, list_at, obj_at, str_at};
use super::launch_priority::{BARRIER_ENV, COMPLETED_ANNOTATION, key};
use crate::error::{Error, Result};
use crate::intstr::atoi;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Error kind: a barrier env lacks `valueFrom.configMapKeyRef` or its key is shorter than 2 bytes.
pub const MALFORMED_BARRIER_ENV: &str = "malformed_barrier_env";

/// The controller's answer for one pod (the output of `api.launch_barrier_next`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "LaunchBarrierNextOutput")]
pub struct Next {
    /// Priorities of containers with a barrier env that are not yet ready, ascending
    /// (duplicates kept).
    pub next_priorities: Vec<i64>,
    /// The event filter's verdict: the pod is enqueued for a reconcile.
    pub should_enqueue: bool,
    /// The barrier ConfigMap is missing and gets created (nothing else happens).
    pub create_barrier: bool,
    /// The key added to the barrier ConfigMap (value `"true"`); `null`: none.
    pub add_key: Option<String>,
    /// The `apps.kruise.io/container-launch-priority-completed` annotation is written.
    pub mark_completed: bool,
}

/// Input of `api.launch_barrier_next`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LaunchBarrierNextInput {
    /// The pod, as JSON: the controller reads only `spec.containers[].name` and their
    /// `KRUISE_CONTAINER_BARRIER` env (`valueFrom.configMapKeyRef.key`),
    /// `status.containerStatuses[].name`/`ready`, the `ContainersReady` condition and the
    /// completion annotation (absent or `null` members read as Go zero values, other members are
    /// ignored, a member read with the wrong JSON type is `invalid_input` naming it). Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub pod: Value,
    /// The barrier ConfigMap; absent or `null`: it does not exist.
    #[serde(default)]
    pub barrier: Option<Barrier>,
}

/// The barrier ConfigMap of a pod (only its `data` keys are read; other members are ignored).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct Barrier {
    /// The ConfigMap's data: the keys `p_<priority>` already released (values are not read).
    /// Absent or `null`: empty.
    #[serde(default)]
    pub data: Option<Map<String, Value>>,
}

/// Decides `api.launch_barrier_next` on a typed input.
pub(crate) fn decide_typed(i: LaunchBarrierNextInput) -> Result<Next> {
    let pod = as_obj(&i.pod, "pod")?;
    let empty = Map::new();
    let barrier = i
        .barrier
        .as_ref()
        .map(|b| b.data.as_ref().unwrap_or(&empty));
    decide(pod, barrier)
}

/// The priority of a container from its first barrier env: Go `strconv.Atoi(key[2:])` with the
/// error ignored (unparsable -> 0, overflow -> clamped). `None` without a barrier env.
pub fn container_priority(c: &Map<String, Value>, path: &str) -> Result<Option<i64>> {
    for (j, e) in list_at(c, "env", path)?.iter().enumerate() {
        let ep = format!("{path}.env[{j}]");
        let e = as_obj(e, &ep)?;
        if str_at(e, "name", &ep)? != Some(BARRIER_ENV) {
            continue;
        }
        let malformed = || {
            Error::at(
                MALFORMED_BARRIER_ENV,
                format!("{ep}.valueFrom.configMapKeyRef.key"),
                "barrier env needs valueFrom.configMapKeyRef with a key of at least 2 characters",
            )
        };
        let k = obj_at(e, "valueFrom", &ep)?
            .and_then(|vf| vf.get("configMapKeyRef"))
            .and_then(Value::as_object)
            .and_then(|r| r.get("key"))
            .and_then(Value::as_str)
            .ok_or_else(malformed)?;
        let rest = k.as_bytes().get(2..).ok_or_else(malformed)?;
        return Ok(Some(go_atoi_ignoring_error(rest)));
    }
    Ok(None)
}

/// Go `strconv.Atoi` (64-bit int) with its error dropped: syntax errors give 0, range errors the
/// clamped bound. Also what `intstr.IntOrString.IntValue()` returns for a string.
pub fn go_atoi_ignoring_error(b: &[u8]) -> i64 {
    if let Some(v) = atoi(b.iter().copied()) {
        return v;
    }
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    // Atoi's fast path (fewer than 19 bytes) returns 0 on any error; longer all-digit strings
    // that overflow come back clamped from ParseInt.
    if b.len() >= 19 && !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        if neg { i64::MIN } else { i64::MAX }
    } else {
        0
    }
}

/// Decides for `pod` (containers with barrier envs, container statuses, conditions, annotations)
/// and the barrier ConfigMap's `data` (`None` = the ConfigMap does not exist).
///
/// Errors: `malformed_barrier_env` naming the env; `invalid_input` for wrongly typed members.
pub fn decide(pod: &Map<String, Value>, barrier: Option<&Map<String, Value>>) -> Result<Next> {
    let status = obj_at(pod, "status", "pod")?;
    let mut ready = Vec::new();
    let mut containers_ready = false;
    if let Some(st) = status {
        for (i, cs) in list_at(st, "containerStatuses", "pod.status")?
            .iter()
            .enumerate()
        {
            let p = format!("pod.status.containerStatuses[{i}]");
            let cs = as_obj(cs, &p)?;
            if bool_at(cs, "ready", &p)? == Some(true) {
                ready.push(str_at(cs, "name", &p)?.unwrap_or(""));
            }
        }
        for (i, c) in list_at(st, "conditions", "pod.status")?.iter().enumerate() {
            let p = format!("pod.status.conditions[{i}]");
            let c = as_obj(c, &p)?;
            if str_at(c, "type", &p)? == Some("ContainersReady")
                && str_at(c, "status", &p)? == Some("True")
            {
                containers_ready = true;
            }
        }
    }
    let mut next = Vec::new();
    if let Some(spec) = obj_at(pod, "spec", "pod")? {
        for (i, c) in list_at(spec, "containers", "pod.spec")?.iter().enumerate() {
            let p = format!("pod.spec.containers[{i}]");
            let c = as_obj(c, &p)?;
            if let Some(prio) = container_priority(c, &p)? {
                let name = str_at(c, "name", &p)?.unwrap_or("");
                if !ready.contains(&name) {
                    next.push(prio);
                }
            }
        }
    }
    next.sort_unstable();
    let completed = match obj_at(pod, "metadata", "pod")? {
        Some(m) => match obj_at(m, "annotations", "pod.metadata")? {
            Some(a) => str_at(a, COMPLETED_ANNOTATION, "pod.metadata.annotations")? == Some("true"),
            None => false,
        },
        None => false,
    };
    let has = |p: i64| barrier.is_some_and(|d| d.contains_key(&key(p)));
    let (lowest, highest) = (next.first().copied(), next.last().copied());
    let should_enqueue = !completed
        && !containers_ready
        && match highest {
            None => false,
            Some(h) => barrier.is_none() || !has(h),
        };
    let (create_barrier, add_key, mark_completed) = match (barrier, lowest, highest) {
        (None, _, _) => (true, None, false),
        (Some(_), Some(lo), Some(hi)) if !has(lo) => {
            ((false), (!has(hi)).then(|| key(hi)), hi == lo)
        }
        (Some(_), _, _) => (false, None, true),
    };
    Ok(Next {
        next_priorities: next,
        should_enqueue,
        create_barrier,
        add_key,
        mark_completed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(k: &str) -> Map<String, Value> {
        json!({"name": "a", "env": [{"name": BARRIER_ENV, "valueFrom": {"configMapKeyRef": {"key": k}}}]})
            .as_object()
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn key_parsing_skips_two_bytes_unchecked() {
        assert_eq!(container_priority(&env("x_5"), "c").unwrap(), Some(5));
        assert_eq!(container_priority(&env("p_abc"), "c").unwrap(), Some(0));
        assert_eq!(container_priority(&env("p_"), "c").unwrap(), Some(0));
        assert_eq!(
            container_priority(&env("p_99999999999999999999"), "c").unwrap(),
            Some(i64::MAX)
        );
        assert_eq!(
            container_priority(&env("p_-99999999999999999999"), "c").unwrap(),
            Some(i64::MIN)
        );
        let e = container_priority(&env("p"), "c").unwrap_err();
        assert_eq!(e.kind, MALFORMED_BARRIER_ENV);
        let no_ref = json!({"env": [{"name": BARRIER_ENV, "value": "p_1"}]})
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert_eq!(
            container_priority(&no_ref, "c").unwrap_err().kind,
            MALFORMED_BARRIER_ENV
        );
    }

    #[test]
    fn completed_annotation_stops_enqueue() {
        let pod = json!({"metadata": {"annotations": {COMPLETED_ANNOTATION: "true"}},
            "spec": {"containers": [env("p_1")]}});
        let n = decide(pod.as_object().unwrap_or(&Map::new()), Some(&Map::new())).unwrap();
        assert!(!n.should_enqueue);
        assert_eq!(n.add_key.as_deref(), Some("p_1"));
    }
}
