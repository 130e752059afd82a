//! Kubernetes' `ActivePods` order (`ActivePods.Less` in `pkg/controller/controller_utils.go`,
//! k8s.io/kubernetes v1.32.10, the version OpenKruise v1.9.0 builds with): the order in which
//! controllers prefer pods for deletion or update, earliest first. Rules, first difference wins:
//!
//! 1. a pod not bound to a node (`spec.nodeName` empty) before a bound one;
//! 2. phase `Pending` < `Unknown` < `Running` (any other phase, `""` included, ranks as `Pending`);
//! 3. not ready before ready (`Ready` condition with status `True`; the first `Ready` condition
//!    counts);
//! 4. both ready: the one ready more recently first; a zero (absent) ready time first of all;
//! 5. the higher maximum restart count of the regular containers first; if equal, the higher
//!    maximum restart count of the sidecars (init containers with `restartPolicy: Always`);
//! 6. a zero (absent) `creationTimestamp` first, then the newer pod first.
//!
//! Pods equal under every rule keep their input order here (Go's `sort.Sort` leaves their order
//! unspecified).

use crate::error::{Error, Result};
use jiff::Timestamp;
use serde::Deserialize;
use std::cmp::Ordering;

/// The pod view ActivePods reads: the shared [`crate::k8s::pod::Pod`] (absent or null members
/// read as Go's zero values; members not listed are ignored), under this module's old names.
pub use crate::k8s::pod::{Condition, ContainerStatus, Pod};
/// `metadata`: the shared [`crate::k8s::meta::ObjectMeta`].
pub type Meta = crate::k8s::meta::ObjectMeta;
/// `spec`: the shared [`crate::k8s::pod::PodSpec`].
pub type Spec = crate::k8s::pod::PodSpec;
/// One `spec.initContainers[]` entry: the shared [`crate::k8s::pod::Container`].
pub type InitContainer = crate::k8s::pod::Container;
/// `status`: the shared [`crate::k8s::pod::PodStatus`].
pub type Status = crate::k8s::pod::PodStatus;

use crate::k8s::null_as_default as null_default;

/// What `ActivePods.Less` compares, resolved once per pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortKey {
    /// `spec.nodeName` is set.
    pub assigned: bool,
    /// `Pending`/other 0, `Unknown` 1, `Running` 2.
    pub phase: u8,
    /// `IsPodReady`.
    pub ready: bool,
    /// `podReadyTime` (`None` = the zero time), read only when ready.
    pub ready_time: Option<Timestamp>,
    /// Highest `restartCount` of the regular containers (at least 0).
    pub restarts: i64,
    /// Highest `restartCount` of the sidecar init containers (at least 0).
    pub sidecar_restarts: i64,
    /// `metadata.creationTimestamp` (`None` = the zero time).
    pub created: Option<Timestamp>,
}

/// Go's zero `time.Time` (0001-01-01T00:00:00Z) is "no time".
pub(crate) fn time_of(s: Option<&str>, field: &str) -> Result<Option<Timestamp>> {
    let Some(s) = s else { return Ok(None) };
    let t = crate::time::parse_time(s, field)?;
    Ok((t.as_second() != -62_135_596_800 || t.subsec_nanosecond() != 0).then_some(t))
}

impl Pod {
    /// The sort key. Errors: `invalid_input` naming the time field (relative to the pod) that is
    /// not an RFC 3339 time (Go's `metav1.Time` rejects it when decoding).
    pub fn key(&self) -> Result<SortKey> {
        let st = &self.status;
        let ready_cond = st.conditions.iter().find(|c| c.type_ == "Ready");
        let ready = ready_cond.is_some_and(|c| c.status == "True");
        let mut ready_time = None;
        for (i, c) in st.conditions.iter().enumerate() {
            // every condition's time is decoded, as Go decodes the whole pod
            let t = time_of(
                c.last_transition_time.as_deref(),
                &format!("status.conditions[{i}].lastTransitionTime"),
            )?;
            if ready && ready_time.is_none() && c.type_ == "Ready" && c.status == "True" {
                ready_time = Some(t);
            }
        }
        let max = |it: &mut dyn Iterator<Item = i32>| it.fold(0i64, |m, r| m.max(i64::from(r)));
        let sidecars: Vec<&str> = self
            .spec
            .init_containers
            .iter()
            .filter(|c| c.restart_policy.as_deref() == Some("Always"))
            .map(|c| c.name.as_str())
            .collect();
        Ok(SortKey {
            assigned: !self.spec.node_name.is_empty(),
            phase: match st.phase.as_str() {
                "Unknown" => 1,
                "Running" => 2,
                _ => 0,
            },
            ready,
            ready_time: ready_time.flatten(),
            restarts: max(&mut st.container_statuses.iter().map(|c| c.restart_count)),
            sidecar_restarts: max(&mut st
                .init_container_statuses
                .iter()
                .filter(|c| sidecars.contains(&c.name.as_str()))
                .map(|c| c.restart_count)),
            created: time_of(
                self.metadata.creation_timestamp.as_deref(),
                "metadata.creationTimestamp",
            )?,
        })
    }
}

/// `afterOrZero(t1, t2)` as an ordering: a zero time first, then the later time first.
fn after_or_zero(a: Option<Timestamp>, b: Option<Timestamp>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => b.cmp(&a),
    }
}

/// `ActivePods.Less` as a total order: `Less` when `a` goes before `b`.
pub fn compare(a: &SortKey, b: &SortKey) -> Ordering {
    a.assigned
        .cmp(&b.assigned)
        .then(a.phase.cmp(&b.phase))
        .then(a.ready.cmp(&b.ready))
        .then_with(|| {
            if a.ready && b.ready {
                after_or_zero(a.ready_time, b.ready_time)
            } else {
                Ordering::Equal
            }
        })
        .then(b.restarts.cmp(&a.restarts))
        .then(b.sidecar_restarts.cmp(&a.sidecar_restarts))
        .then_with(|| after_or_zero(a.created, b.created))
}

/// The indices of `keys` in `ActivePods` order (ties keep their input order).
pub fn order(keys: &[SortKey]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by(|&i, &j| compare(&keys[i], &keys[j]));
    idx
}

/// Input of `rollout.active_pods_order`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActivePodsOrderInput {
    /// The pods; absent or null: none.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<Pod>>")]
    pub pods: Vec<Pod>,
}

/// `rollout.active_pods_order` on typed input: the pod names (`metadata.name`) in `ActivePods`
/// order. Errors: `invalid_input` naming a time that is not RFC 3339 (`pods[1].metadata.creationTimestamp`).
pub fn active_pods_order(i: &ActivePodsOrderInput) -> Result<Vec<String>> {
    let keys = i
        .pods
        .iter()
        .enumerate()
        .map(|(n, p)| {
            p.key().map_err(|e| {
                let f = format!("pods[{n}].{}", e.field.as_deref().unwrap_or(""));
                Error::invalid_input(f, "not an RFC 3339 time")
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(order(&keys)
        .into_iter()
        .map(|n| i.pods[n].metadata.name.clone())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn handler(input: &Value) -> Result<Value> {
        crate::call("rollout.active_pods_order", input)
    }

    fn names(pods: Value) -> Vec<String> {
        serde_json::from_value(handler(&json!({ "pods": pods })).unwrap()).unwrap()
    }

    #[test]
    fn restarts_take_the_maximum_not_the_sum() {
        // a: 3+3 = 6 restarts in total but a maximum of 3; b: one container with 5
        let pods = json!([
            {"metadata": {"name": "a"}, "spec": {"nodeName": "n"}, "status": {"phase": "Running",
             "containerStatuses": [{"restartCount": 3}, {"restartCount": 3}]}},
            {"metadata": {"name": "b"}, "spec": {"nodeName": "n"}, "status": {"phase": "Running",
             "containerStatuses": [{"restartCount": 5}]}},
        ]);
        assert_eq!(names(pods), ["b", "a"]);
    }

    #[test]
    fn missing_times_go_first() {
        let pods = json!([
            {"metadata": {"name": "old", "creationTimestamp": "2026-01-01T00:00:00Z"}},
            {"metadata": {"name": "new", "creationTimestamp": "2026-02-01T00:00:00Z"}},
            {"metadata": {"name": "none"}},
            {"metadata": {"name": "zero", "creationTimestamp": "0001-01-01T00:00:00Z"}},
        ]);
        assert_eq!(names(pods), ["none", "zero", "new", "old"]);
        let ready = |n: &str, t: Option<&str>| {
            json!({"metadata": {"name": n}, "spec": {"nodeName": "x"}, "status": {"phase": "Running",
                   "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": t}]}})
        };
        let pods = json!([
            ready("early", Some("2026-01-01T00:00:00Z")),
            ready("late", Some("2026-01-02T00:00:00Z")),
            ready("never", None)
        ]);
        assert_eq!(names(pods), ["never", "late", "early"]);
    }

    #[test]
    fn first_rules() {
        let pods = json!([
            {"metadata": {"name": "running-ready"}, "spec": {"nodeName": "n"}, "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
            {"metadata": {"name": "running"}, "spec": {"nodeName": "n"}, "status": {"phase": "Running"}},
            {"metadata": {"name": "unknown"}, "spec": {"nodeName": "n"}, "status": {"phase": "Unknown"}},
            {"metadata": {"name": "succeeded"}, "spec": {"nodeName": "n"}, "status": {"phase": "Succeeded"}},
            {"metadata": {"name": "unbound-running"}, "status": {"phase": "Running"}},
        ]);
        assert_eq!(
            names(pods),
            [
                "unbound-running",
                "succeeded",
                "unknown",
                "running",
                "running-ready"
            ]
        );
    }

    #[test]
    fn sidecar_restarts_break_ties() {
        let pod = |n: &str, policy: &str| {
            json!({"metadata": {"name": n}, "spec": {"initContainers": [{"name": "s", "restartPolicy": policy}]},
                   "status": {"initContainerStatuses": [{"name": "s", "restartCount": 4}]}})
        };
        assert_eq!(
            names(json!([
                pod("plain-init", "Never"),
                pod("sidecar", "Always")
            ])),
            ["sidecar", "plain-init"]
        );
    }

    #[test]
    fn bad_time_names_the_field() {
        let e = handler(&json!({"pods": [{}, {"metadata": {"creationTimestamp": "yesterday"}}]}))
            .unwrap_err();
        assert_eq!(
            e.field.as_deref(),
            Some("pods[1].metadata.creationTimestamp")
        );
        let e = handler(&json!({"pods": [], "pod": []})).unwrap_err();
        assert_eq!((e.kind, e.field.as_deref()), ("invalid_input", Some("pod")));
    }
}
