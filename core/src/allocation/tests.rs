//! Unit tests of the allocation family beyond the shared vectors.

use super::*;
use serde_json::json;

fn call(id: &str, v: serde_json::Value) -> crate::Result<serde_json::Value> {
    crate::call(id, &v)
}

fn spec(v: serde_json::Value) -> UdSpec {
    serde_json::from_value(v).unwrap()
}

#[test]
fn specific_leftovers_go_to_biggest_then_larger_name() {
    let s = spec(
        json!({"replicas": 5, "topology": {"subsets": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}}),
    );
    let a = next_replicas_with(&s, |_| None).unwrap();
    assert_eq!(
        a.replicas,
        vec![("a".into(), 1), ("b".into(), 2), ("c".into(), 2)]
    );
    let s = spec(json!({"replicas": 1, "topology": {"subsets": [{"name": "a"}, {"name": "b"}]}}));
    let a = next_replicas_with(&s, |_| None).unwrap();
    assert_eq!((a.get("a"), a.get("b")), (0, 1));
    // current size wins over the name: "a" is bigger now, so it takes the extra replica
    let a = next_replicas_with(&s, |n| {
        (n == "a").then_some(SubsetView {
            spec_replicas: 3,
            ..Default::default()
        })
    })
    .unwrap();
    assert_eq!((a.get("a"), a.get("b")), (1, 0));
}

#[test]
fn elastic_fill_serves_minimums_then_maximums_in_order() {
    let s = spec(json!({"replicas": 14, "topology": {"subsets": [
        {"name": "s0", "minReplicas": 2, "maxReplicas": 5}, {"name": "s1", "minReplicas": 2, "maxReplicas": 5},
        {"name": "s2", "minReplicas": 2, "maxReplicas": 5}, {"name": "s3", "minReplicas": 2, "maxReplicas": 5},
        {"name": "s4", "minReplicas": 2}]}}));
    let a = next_replicas_with(&s, |_| None).unwrap();
    assert_eq!(a.allocator, AllocatorKind::MinMax);
    assert_eq!(
        a.replicas.iter().map(|r| r.1).collect::<Vec<_>>(),
        vec![5, 3, 2, 2, 2]
    );
    // every subset capped below the total: the rest is not allocated
    let s = spec(
        json!({"replicas": 10, "topology": {"subsets": [{"name": "a", "maxReplicas": 3}, {"name": "b", "maxReplicas": "40%"}]}}),
    );
    assert_eq!(next_replicas_with(&s, |_| None).unwrap().total(), 7);
}

#[test]
fn reservation_substitutes_reserved_pods_in_later_subsets() {
    let s = spec(
        json!({"replicas": 4, "topology": {"subsets": [{"name": "ecs"}, {"name": "vk"}],
        "scheduleStrategy": {"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true}}}}),
    );
    let ecs = SubsetView {
        spec_replicas: 4,
        ready_replicas: 1,
        status: UnschedulableStatus {
            unschedulable: true,
            marked_as_unschedulable: true,
            reserved_pods: 3,
            ..Default::default()
        },
    };
    let a = next_replicas_with(&s, |n| (n == "ecs").then_some(ecs)).unwrap();
    assert_eq!(
        (a.get("ecs"), a.get("vk"), a.temporary_replicas),
        (4, 3, Some(3))
    );
    // Fixed ignores the flag
    let s = spec(
        json!({"replicas": 4, "topology": {"subsets": [{"name": "ecs"}, {"name": "vk"}],
        "scheduleStrategy": {"type": "Fixed", "adaptive": {"reserveUnschedulablePods": true}}}}),
    );
    assert_eq!(AllocatorKind::for_spec(&s), AllocatorKind::Specific);
}

#[test]
fn bad_input_names_the_field() {
    let e = call(
        "allocation.next_replicas",
        json!({"spec": {"replicas": 2, "topology": {"subsets": [{"name": "a"}, {"name": "a"}]}}}),
    )
    .unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        (
            "duplicate_subset_name",
            Some("spec.topology.subsets[1].name")
        )
    );
    let e = call("allocation.next_replicas", json!({"spec": {"replicas": 5, "topology": {"subsets": [{"name": "a"}, {"name": "b", "minReplicas": 4, "maxReplicas": 3}]}}})).unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        (
            "min_greater_than_max",
            Some("spec.topology.subsets[1].minReplicas")
        )
    );
    let e = call(
        "allocation.next_replicas",
        json!({"spec": {"replicas": 3000000000u64, "topology": {"subsets": []}}}),
    )
    .unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        ("invalid_input", Some("spec.replicas"))
    );
    let e = call("allocation.next_replicas", json!({"spec": {"replicas": 3, "topology": {"subsets": [{"name": "a", "replicas": 2147483648u64}]}}})).unwrap_err();
    assert_eq!(
        e.field.as_deref(),
        Some("spec.topology.subsets[0].replicas")
    );
    assert!(e.message.contains("overflow"), "{}", e.message);
    // a subset without a name is the subset named "" (Go's zero value), not a shape error
    let e = call(
        "allocation.next_replicas",
        json!({"spec": {"replicas": 3, "topology": {"subsets": [{"replicas": 1}]}}}),
    )
    .unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        ("specified_less_than_total", Some("spec.topology.subsets"))
    );
    let e = call(
        "allocation.parse_replicas",
        json!({"replicas": 10, "value": "150%"}),
    )
    .unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        ("percent_out_of_range", Some("value"))
    );
    let e = call("allocation.pending_timeout", json!({"pod": {"metadata": {"name": "p"}, "status": {"phase": "Pending",
        "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}}, "timeoutSeconds": 1, "now": "2026-06-21T10:00:00Z"})).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("metadata.creationTimestamp"));
    let e = call(
        "allocation.pending_timeout",
        json!({"pod": {"metadata": {"name": "p"}}, "timeoutSeconds": 1, "now": "yesterday"}),
    )
    .unwrap_err();
    assert_eq!((e.kind, e.field.as_deref()), ("invalid_input", Some("now")));
}

#[test]
fn pending_deadline_is_strict_and_subsecond_delays_are_fractional() {
    let pod = |created: &str| {
        json!({"metadata": {"name": "p", "creationTimestamp": created}, "status": {"phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}})
    };
    let out = call("allocation.pending_timeout", json!({"pod": pod("2026-06-21T09:59:30Z"), "timeoutSeconds": 30, "now": "2026-06-21T10:00:00Z"})).unwrap();
    assert_eq!(out, json!({"timedOut": false, "nextCheckAfterSeconds": 0}));
    let out = call("allocation.pending_timeout", json!({"pod": pod("2026-06-21T09:59:30.5Z"), "timeoutSeconds": 30, "now": "2026-06-21T10:00:00Z"})).unwrap();
    assert_eq!(
        out,
        json!({"timedOut": false, "nextCheckAfterSeconds": 0.5})
    );
    // bound to a node: never pending-timed-out
    let mut p = pod("2026-06-21T09:00:00Z");
    p["spec"] = json!({"nodeName": "n1"});
    let out = call(
        "allocation.pending_timeout",
        json!({"pod": p, "timeoutSeconds": 30, "now": "2026-06-21T10:00:00Z"}),
    )
    .unwrap();
    assert_eq!(
        out,
        json!({"timedOut": false, "nextCheckAfterSeconds": null})
    );
}

#[test]
fn old_revision_pod_becomes_reserved_after_long_rollout() {
    let base = json!({"pod": {"metadata": {"name": "p", "creationTimestamp": "2026-06-21T09:00:00Z",
        "labels": {REVISION_LABEL: "old"}}, "status": {"phase": "Running"}},
        "updatedRevision": "new", "pendingTimeoutSeconds": 30, "minReadySeconds": 300, "now": "2026-06-21T10:00:00Z"});
    let mut v = base.clone();
    v["updatedConditionLastTransitionTime"] = json!("2026-06-21T09:59:00Z");
    assert_eq!(
        call("allocation.pod_reserved", v).unwrap(),
        json!({"reserved": true, "nextCheckAfterSeconds": 300, "updateTimeout": true})
    );
    let e = call("allocation.pod_reserved", base).unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        ("invalid_input", Some("updatedConditionLastTransitionTime"))
    );
}

#[test]
fn reservation_marked_subset_reserves_new_pods_and_quirky_requeue() {
    // marked subset, first pod unlabeled -> reserved outright, no requeue of its own
    let v = json!({"scheduleStrategy": {"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true, "unschedulableDuration": 60}},
        "subsetStatus": {"name": "a", "conditions": [{"type": "Schedulable", "status": "False", "reason": "created", "lastTransitionTime": "2026-06-21T09:00:00Z"}]},
        "subset": {"pods": [
            {"metadata": {"name": "p0", "creationTimestamp": "2026-06-21T09:59:55Z", "labels": {RESERVED_POD_LABEL: "false"}},
             "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}},
            {"metadata": {"name": "p1", "creationTimestamp": "2026-06-21T09:59:59Z"}, "status": {"phase": "Pending"}}]},
        "now": "2026-06-21T10:00:00Z"});
    let out = call("allocation.subset_status", v).unwrap();
    // p0 asked for a 25 s re-check; p1 (unlabelled in a marked subset) raised it to 60 s
    assert_eq!(out["requeueAfterSeconds"], json!(60));
    assert_eq!(
        out["podsToPatch"],
        json!([{"name": "p1", "reserved": true}])
    );
    assert_eq!(out["unschedulableStatus"]["reservedPods"], json!(1));
    assert_eq!(
        out["schedulableCondition"],
        json!({"status": "False", "reason": "reschedule", "lastTransitionTime": "2026-06-21T10:00:00Z"})
    );
}

#[test]
fn allocate_adds_created_status_for_new_subset_in_reservation_mode() {
    let v = json!({"spec": {"replicas": 2, "topology": {"subsets": [{"name": "a"}, {"name": "b"}],
            "scheduleStrategy": {"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true}}}},
        "status": {"subsetStatuses": [{"name": "a", "conditions": [{"type": "Schedulable", "status": "True", "reason": "reschedule", "lastTransitionTime": "2026-06-21T09:00:00Z"}]}]},
        "currentRevision": "r1", "updatedRevision": "r1", "subsets": {"a": {"spec": {"replicas": 2}, "status": {"replicas": 2, "readyReplicas": 2}}},
        "now": "2026-06-21T10:00:00Z"});
    let out = call("allocation.allocate", v).unwrap();
    assert_eq!(
        out["subsetConditions"]["b"],
        json!({"status": "False", "reason": "created", "lastTransitionTime": "2026-06-21T10:00:00Z"})
    );
    assert_eq!(out["replicas"], json!({"a": 2, "b": 0}));
    assert_eq!(out["temporaryReplicas"], json!(0));
}

#[test]
fn allocate_remarks_recovered_subset_that_scales_up() {
    // a was marked, its reserved pod is now healthy (recovered) and it gets scaled up: re-marked
    let v = json!({"spec": {"replicas": 2, "topology": {"subsets": [{"name": "a"}, {"name": "b"}],
            "scheduleStrategy": {"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true, "unschedulableDuration": 30}}}},
        "status": {"subsetStatuses": [
            {"name": "a", "conditions": [{"type": "Schedulable", "status": "False", "reason": "reschedule", "lastTransitionTime": "2026-06-21T09:00:00Z"}]},
            {"name": "b", "conditions": [{"type": "Schedulable", "status": "True", "reason": "reschedule", "lastTransitionTime": "2026-06-21T09:00:00Z"}]}]},
        "currentRevision": "r1", "updatedRevision": "r1",
        "subsets": {
            "a": {"spec": {"replicas": 1}, "status": {"replicas": 1, "readyReplicas": 1}, "pods": [
                {"metadata": {"name": "a-0", "creationTimestamp": "2026-06-21T09:00:00Z", "labels": {REVISION_LABEL: "r1", RESERVED_POD_LABEL: "true"}},
                 "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-06-21T09:50:00Z"}]}}]},
            "b": {"spec": {"replicas": 1}, "status": {"replicas": 1, "readyReplicas": 1}}},
        "now": "2026-06-21T10:00:00Z"});
    let out = call("allocation.allocate", v).unwrap();
    // a is filled up (2) but only its current size (1) counts, so b keeps a stand-in
    assert_eq!(out["replicas"], json!({"a": 2, "b": 1}));
    assert_eq!(out["temporaryReplicas"], json!(1));
    assert_eq!(out["subsets"]["a"]["unschedulable"], json!(false));
    assert_eq!(
        out["subsetConditions"]["a"],
        json!({"status": "False", "reason": "reschedule", "lastTransitionTime": "2026-06-21T10:00:00Z"})
    );
    assert_eq!(out["podReservedLabels"], json!({"a-0": false}));
}

#[test]
fn validate_reports_fields_and_double_empty_name() {
    let s = spec(
        json!({"replicas": 2, "template": {"cloneSetTemplate": {}}, "topology": {"subsets": [{"name": ""}, {"name": "b"}]}}),
    );
    let v = validate(&s);
    let kinds: Vec<_> = v.iter().map(|x| (x.kind, x.field.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            ("subset_name_required", "spec.topology.subsets[0].name"),
            ("invalid_subset_name", "spec.topology.subsets[0].name")
        ]
    );
    let s = spec(
        json!({"replicas": 5, "template": {"cloneSetTemplate": {}}, "topology": {"subsets": [{"name": "a", "minReplicas": 1000001}, {"name": "b"}]}}),
    );
    let kinds: Vec<_> = validate(&s).iter().map(|x| x.kind).collect();
    assert_eq!(kinds, vec!["min_greater_than_max"]);
    assert!(
        validate::is_dns_label("a-1")
            && !validate::is_dns_label("-a")
            && !validate::is_dns_label(&"a".repeat(64))
    );
}

#[test]
fn manifests_of_both_api_versions_decode() {
    for v in ["apps.kruise.io/v1alpha1", "apps.kruise.io/v1beta1"] {
        let m = json!({"apiVersion": v, "kind": "UnitedDeployment", "metadata": {"name": "x"},
            "spec": {"replicas": 3, "topology": {"subsets": [{"name": "a", "nodeSelectorTerm": {}, "replicas": "50%"}]}}});
        let ud = UnitedDeployment::from_manifest(&m).unwrap();
        assert_eq!(
            ud.spec.topology.subsets[0].replicas,
            Some(crate::intstr::IntOrPercent::String("50%".into()))
        );
    }
    let e = UnitedDeployment::from_manifest(
        &json!({"apiVersion": "apps/v1", "kind": "UnitedDeployment"}),
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("apiVersion"));
}

#[test]
fn nulls_read_as_unset() {
    let out = call(
        "allocation.next_replicas",
        json!({"spec": {"replicas": null, "topology": null}, "subsets": null}),
    )
    .unwrap();
    assert_eq!(out, json!({"allocator": "specific", "replicas": {}}));
    // zero subsets and a positive total: the reference's "less than total" error
    let e = call(
        "allocation.next_replicas",
        json!({"spec": {"replicas": 2, "topology": null}}),
    )
    .unwrap_err();
    assert_eq!(e.kind, "specified_less_than_total");
    let out = call(
        "allocation.validate",
        json!({"spec": {"replicas": null, "template": null, "topology": {"subsets": null}}}),
    )
    .unwrap();
    assert_eq!(out, json!(["template_required"]));
}

/// The decisions called with typed values (no JSON), and the typed outputs' JSON forms.
#[test]
fn typed_decisions_without_json() {
    use super::fns::*;
    let created = crate::time::parse_rfc3339("2026-06-21T09:59:30.5Z");
    let pod = Pod {
        metadata: PodMeta {
            name: "p".into(),
            creation_timestamp: created,
            ..Default::default()
        },
        spec: None,
        status: Some(PodStatus {
            phase: Some("Pending".into()),
            conditions: vec![Condition {
                type_: "PodScheduled".into(),
                status: "False".into(),
                reason: "Unschedulable".into(),
                ..Default::default()
            }],
        }),
    };
    let input = PendingTimeoutInput {
        pod: pod.clone(),
        timeout_seconds: 30,
        now: "2026-06-21T10:00:00Z".into(),
    };
    let out = crate::decide::<PendingTimeout>(input).unwrap();
    assert_eq!(
        out,
        PendingTimeoutOutput {
            timed_out: false,
            next_check_after_seconds: Some(Seconds(500_000_000)),
        }
    );
    // a fraction of a second is a float, a whole number of seconds an integer, none is null
    assert_eq!(
        crate::registry::encode(&out).unwrap(),
        json!({"timedOut": false, "nextCheckAfterSeconds": 0.5})
    );
    assert_eq!(
        crate::registry::encode(&Seconds(15_000_000_000))
            .unwrap()
            .to_string(),
        "15"
    );
    // an old-revision pod needs the UnitedDeploymentUpdated time: the error names the input field
    let mut old = pod;
    old.metadata
        .labels
        .insert(REVISION_LABEL.into(), "rev-0".into());
    let e = crate::decide::<PodReserved>(PodReservedInput {
        pod: old,
        updated_revision: "rev-1".into(),
        updated_condition_last_transition_time: None,
        pending_timeout_seconds: 10,
        min_ready_seconds: 5,
        now: "2026-06-21T10:00:00Z".into(),
    })
    .unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        ("invalid_input", Some("updatedConditionLastTransitionTime"))
    );
    let v = crate::decide::<Validate>(ValidateInput::default()).unwrap();
    assert_eq!(v, vec!["template_required".to_string()]);
    let r = crate::decide::<RemarkRecovered>(RemarkRecoveredInput {
        unschedulable: false,
        marked_as_unschedulable: true,
        current_replicas: 2,
        next_replicas: 3,
    })
    .unwrap();
    assert!(r.mark_unschedulable);
}
