use super::reconcile::*;
use serde_json::json;

fn run(v: serde_json::Value) -> crate::error::Result<ReconcileOutput> {
    let i: ReconcileInput = serde_json::from_value(v).expect("input");
    reconcile(&i)
}

#[test]
fn no_target_ref_does_nothing() {
    let o =
        run(json!({"workloadSpread": {"metadata": {"name": "ws"}}, "now": "2024-01-01T00:00:00Z"}))
            .unwrap();
    assert_eq!(o, ReconcileOutput::default());
}

fn pod(name: &str, subset: Option<&str>, node: &str, hash: &str) -> serde_json::Value {
    let mut p = json!({
        "metadata": {"name": name, "creationTimestamp": "2024-01-01T00:00:00Z",
                     "labels": {"pod-template-hash": hash},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "w", "controller": true}]},
        "spec": {"nodeName": node},
        "status": {"phase": "Running"}
    });
    if let Some(s) = subset {
        p["metadata"]["annotations"] = json!({
            "apps.kruise.io/matched-workloadspread": format!(r#"{{"name":"ws","subset":"{s}"}}"#)
        });
    }
    p
}

fn costs(o: &ReconcileOutput) -> Vec<(&str, &str, bool)> {
    o.deletion_costs
        .iter()
        .map(|c| (c.pod.as_str(), c.value.as_str(), c.patched))
        .collect()
}

#[test]
fn surplus_pod_gets_the_negative_cost_and_unmatched_the_lowest() {
    let o = run(json!({
        "workloadSpread": {"metadata": {"name": "ws"}, "spec": {
            "targetRef": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "w"},
            "subsets": [{"name": "a", "maxReplicas": 1}, {"name": "b"}]}},
        "workloadReplicas": 3, "latestVersion": "v1",
        "pods": [pod("p0", Some("a"), "", "v1"), pod("p1", Some("a"), "n1", "v1"), pod("p2", None, "", "v1")],
        "now": "2024-01-01T00:10:00Z"
    }))
    .unwrap();
    // p0 is unscheduled, so it goes first among a's two pods; p2 matches no subset
    assert_eq!(
        costs(&o),
        [
            ("p0", "-100", true),
            ("p1", "200", true),
            ("p2", "-300", true)
        ]
    );
    assert_eq!(o.unmatched_pods, ["p2"]);
    let st = o.status.unwrap().subset_statuses.unwrap();
    assert_eq!((st[0].replicas, st[0].missing_replicas), (2, 0));
    assert_eq!((st[1].replicas, st[1].missing_replicas), (0, -1));
}

#[test]
fn duplicate_subset_names_compare_with_the_listed_cost() {
    let mut p0 = pod("p0", Some("b"), "n1", "v1");
    p0["metadata"]["annotations"]["controller.kubernetes.io/pod-deletion-cost"] = json!("200");
    let o = run(json!({
        "workloadSpread": {"metadata": {"name": "ws"}, "spec": {
            "targetRef": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "w"},
            "subsets": [{"name": "a"}, {"name": "b"}, {"name": "b"}]}},
        "latestVersion": "v1",
        "pods": [p0],
        "now": "2024-01-01T00:10:00Z"
    }))
    .unwrap();
    // costed 200 (subset 1: unchanged) then 100 (subset 2: patched)
    assert_eq!(costs(&o), [("p0", "100", true)]);
}

#[test]
fn takeover_by_node_zone_with_the_subset_patch() {
    let o = run(json!({
        "workloadSpread": {"metadata": {"name": "ws"}, "spec": {
            "targetRef": {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "w"},
            "subsets": [
                {"name": "a", "requiredNodeSelectorTerm": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}},
                {"name": "b", "requiredNodeSelectorTerm": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]},
                 "patch": {"metadata": {"labels": {"zone": "b"}}}}]}},
        "pods": [pod("p0", None, "n-b", "v1")],
        "nodes": [{"metadata": {"name": "n-a", "labels": {"zone": "a"}}}, {"metadata": {"name": "n-b", "labels": {"zone": "b"}}}],
        "now": "2024-01-01T00:10:00Z"
    }))
    .unwrap();
    assert_eq!(o.takeovers.len(), 1);
    assert_eq!(o.takeovers[0].subset, "b");
    assert_eq!(
        o.takeovers[0].metadata,
        json!({"labels": {"zone": "b"},
               "annotations": {"apps.kruise.io/matched-workloadspread": r#"{"name":"ws","subset":"b"}"#}})
    );
    assert!(o.deletion_costs.is_empty(), "no costs for a StatefulSet");
}

#[test]
fn a_bad_preferred_term_fails_before_an_unsupported_patch() {
    let e = run(json!({
        "workloadSpread": {"metadata": {"name": "ws"}, "spec": {
            "targetRef": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "w"},
            "subsets": [
                {"name": "a", "patch": {"spec": {"priorityClassName": "x"}}},
                {"name": "b", "preferredNodeSelectorTerms": [{"weight": 1, "preference":
                    {"matchExpressions": [{"key": "zone", "operator": "Near"}]}}]}]}},
        "pods": [pod("p0", None, "n1", "v1")],
        "nodes": [{"metadata": {"name": "n1"}}],
        "now": "2024-01-01T00:10:00Z"
    }))
    .unwrap_err();
    assert_eq!(e.kind, "invalid_input");
    assert_eq!(
        e.field.as_deref(),
        Some("workloadSpread.spec.subsets[1].preferredNodeSelectorTerms")
    );
}
