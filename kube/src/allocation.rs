//! UnitedDeployment allocation over k8s-openapi `Pod`s.
//!
//! Converts `k8s_openapi::api::core::v1::Pod` into the core's [`kruise_core::allocation::Pod`]
//! (only the fields allocation reads: name, creation/deletion time, labels, nodeName, phase,
//! conditions) and runs one reconcile's allocation
//! ([`kruise_core::allocation::allocate()`], OpenKruise v1.9 `uniteddeployment_controller.go`).
//!
//! Like every k8s-openapi library, this crate compiles when the final build selects a Kubernetes
//! version feature (`k8s-openapi/v1_32` is enabled for this crate's tests); the conversion only
//! uses fields that are identical in every supported version.

use k8s_openapi::api::core::v1 as corev1;
use kruise_core::allocation::{
    self as alloc, AllocateOutcome, Timestamp, UdSpec, UdStatus, Workload, WorkloadSpec,
    WorkloadStatus,
};
use std::collections::BTreeMap;

fn time(t: &k8s_openapi::apimachinery::pkg::apis::meta::v1::Time) -> Option<Timestamp> {
    crate::core_time(t.0, "time").ok()
}

/// Converts a k8s-openapi Pod into the core's pod input (a missing name becomes `""`).
pub fn pod_from_k8s(pod: &corev1::Pod) -> alloc::Pod {
    let m = &pod.metadata;
    alloc::Pod {
        metadata: alloc::PodMeta {
            name: m.name.clone().unwrap_or_default(),
            creation_timestamp: m.creation_timestamp.as_ref().and_then(time),
            deletion_timestamp: m.deletion_timestamp.as_ref().and_then(time),
            labels: m.labels.clone().unwrap_or_default(),
        },
        spec: pod.spec.as_ref().map(|s| alloc::PodSpec {
            node_name: s.node_name.clone(),
        }),
        status: pod.status.as_ref().map(|s| alloc::PodStatus {
            phase: s.phase.clone(),
            conditions: s
                .conditions
                .iter()
                .flatten()
                .map(|c| alloc::Condition {
                    type_: c.type_.clone(),
                    status: c.status.clone(),
                    reason: c.reason.clone().unwrap_or_default(),
                    message: c.message.clone().unwrap_or_default(),
                    last_transition_time: c.last_transition_time.as_ref().and_then(time),
                })
                .collect(),
        }),
    }
}

/// The core's subset workload ([`Workload`]) for a workload's `spec` (`replicas`), `status`
/// (`replicas`, `readyReplicas`) and its k8s-openapi pods, converted by [`pod_from_k8s`].
pub fn workload_from_k8s(
    spec: WorkloadSpec,
    status: WorkloadStatus,
    pods: &[corev1::Pod],
) -> Workload {
    Workload {
        spec,
        status,
        pods: pods.iter().map(pod_from_k8s).collect(),
        ..Default::default()
    }
}

/// Runs one reconcile's allocation (statuses, allocator) for `spec`/`status` and the
/// existing subset workloads (keyed by subset name; see [`workload_from_k8s`]) at `now`
/// (k8s-openapi's jiff, e.g. `k8s_openapi::jiff::Timestamp::now()`).
///
/// Errors: the core's allocation errors (`min_greater_than_max`, `specified_exceeds_total`, ...,
/// `duplicate_subset_name`) and `invalid_input` for a pod without `creationTimestamp` where the
/// pending check needs it.
pub fn allocate(
    spec: &UdSpec,
    status: &UdStatus,
    current_revision: &str,
    updated_revision: &str,
    subsets: &BTreeMap<String, Workload>,
    now: k8s_openapi::jiff::Timestamp,
) -> kruise_core::Result<AllocateOutcome> {
    let now = crate::core_time(now, "now")?;
    alloc::allocate(
        spec,
        status,
        current_revision,
        updated_revision,
        subsets,
        now,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

    fn ts(s: &str) -> Time {
        Time(s.parse().unwrap())
    }

    fn pod(name: &str, created: &str, running: bool) -> corev1::Pod {
        let cond = |t: &str, s: &str, r: Option<&str>| corev1::PodCondition {
            type_: t.into(),
            status: s.into(),
            reason: r.map(Into::into),
            last_transition_time: Some(ts(created)),
            ..Default::default()
        };
        corev1::Pod {
            metadata: ObjectMeta {
                name: Some(name.into()),
                creation_timestamp: Some(ts(created)),
                labels: Some(BTreeMap::from([(
                    alloc::REVISION_LABEL.to_string(),
                    "rev-1".to_string(),
                )])),
                ..Default::default()
            },
            spec: running.then(|| corev1::PodSpec {
                node_name: Some("ecs-node-1".into()),
                ..Default::default()
            }),
            status: Some(corev1::PodStatus {
                phase: Some(if running { "Running" } else { "Pending" }.into()),
                conditions: Some(if running {
                    vec![
                        cond("PodScheduled", "True", None),
                        cond("Ready", "True", None),
                    ]
                } else {
                    vec![cond("PodScheduled", "False", Some("Unschedulable"))]
                }),
                ..Default::default()
            }),
        }
    }

    #[test]
    fn converts_every_field_allocation_reads() {
        let p = pod("ecs-0", "2026-06-21T09:59:00.25Z", true);
        let c = pod_from_k8s(&p);
        assert_eq!(c.metadata.name, "ecs-0");
        assert_eq!(
            c.metadata
                .creation_timestamp
                .map(alloc::format_time)
                .as_deref(),
            Some("2026-06-21T09:59:00.25Z")
        );
        assert_eq!(c.revision(), "rev-1");
        assert!(c.has_node());
        assert_eq!(c.phase(), "Running");
        assert_eq!(
            c.condition("Ready").map(|c| c.status.as_str()),
            Some("True")
        );
    }

    #[test]
    fn pods_pending_past_the_critical_seconds_get_stand_ins() {
        let spec: UdSpec = serde_json::from_value(serde_json::json!({
            "replicas": 3,
            "topology": {"subsets": [{"name": "ecs"}, {"name": "vk"}],
                "scheduleStrategy": {"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true, "rescheduleCriticalSeconds": 30}}}
        }))
        .unwrap();
        let status: UdStatus = serde_json::from_value(
            serde_json::json!({"subsetStatuses": [{"name": "ecs"}, {"name": "vk"}]}),
        )
        .unwrap();
        let ecs = workload_from_k8s(
            WorkloadSpec { replicas: 3 },
            WorkloadStatus {
                replicas: 3,
                ready_replicas: 1,
            },
            &[
                pod("ecs-0", "2026-06-21T09:00:00Z", true),
                pod("ecs-1", "2026-06-21T09:59:00Z", false),
                pod("ecs-2", "2026-06-21T09:59:45Z", false),
            ],
        );
        let subsets = BTreeMap::from([("ecs".to_string(), ecs)]);
        let now: k8s_openapi::jiff::Timestamp = "2026-06-21T10:00:00Z".parse().unwrap();
        let o = allocate(&spec, &status, "rev-1", "rev-1", &subsets, now).unwrap();
        // ecs-1 pended 60 s > 30 s: reserved; ecs-2 only 15 s: not yet (re-check in 15 s)
        assert_eq!(
            o.allocation.replicas,
            vec![("ecs".to_string(), 3), ("vk".to_string(), 1)]
        );
        assert_eq!(o.allocation.temporary_replicas, Some(1));
        let rep = o.adaptive.unwrap();
        assert_eq!(rep.subsets.get("ecs").map(|s| s.reserved_pods), Some(1));
        let labels = rep.pod_reserved_labels.unwrap();
        assert_eq!(labels.get("ecs-1"), Some(&true));
        assert_eq!(labels.get("ecs-2"), Some(&false));
        assert_eq!(rep.requeue.nanos(), Some(15_000_000_000));
    }
}
