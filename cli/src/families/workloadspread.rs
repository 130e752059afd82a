//! `kruise-core demo`: the WorkloadSpread controller section (`workloadspread.reconcile`).

use super::DemoArgs;
use crate::CliError;
use serde_json::{Value, json};

/// One pod of the demo Deployment's ReplicaSet `web-7d9f`.
fn pod(name: &str, subset: Option<&str>, node: &str, minute: u32, ready: bool) -> Value {
    let mut metadata = json!({
        "name": name,
        "labels": {"app": "web", "pod-template-hash": "7d9f"},
        "creationTimestamp": format!("2026-06-21T09:{minute:02}:00Z"),
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f", "controller": true}]
    });
    if let Some(s) = subset {
        metadata["annotations"] = json!({
            "apps.kruise.io/matched-workloadspread": format!(r#"{{"name":"web-spread","subset":"{s}"}}"#)
        });
    }
    json!({
        "metadata": metadata,
        "spec": {"nodeName": node},
        "status": {"phase": "Running", "conditions": [
            {"type": "Ready", "status": if ready { "True" } else { "False" }, "lastTransitionTime": "2026-06-21T09:50:00Z"}
        ]}
    })
}

/// The demo: two zones, a third pod over zone-a's maximum and a pod older than the WorkloadSpread.
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let zone = |z: &str| json!({"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": [z]}]});
    let node = |n: &str, z: &str| json!({"metadata": {"name": n, "labels": {"topology.kubernetes.io/zone": z}}});
    let input = json!({
        "workloadSpread": {
            "metadata": {"name": "web-spread", "generation": 2},
            "spec": {
                "targetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                "subsets": [
                    {"name": "zone-a", "maxReplicas": 2, "requiredNodeSelectorTerm": zone("zone-a")},
                    {"name": "zone-b", "requiredNodeSelectorTerm": zone("zone-b"),
                     "patch": {"metadata": {"labels": {"zone": "b"}}}}
                ]
            },
            "status": {"subsetStatuses": [
                {"name": "zone-a", "missingReplicas": 0, "replicas": 2,
                 "creatingPods": {"web-7d9f-new": "2026-06-21T09:59:50Z"}}
            ]}
        },
        "workloadReplicas": 4,
        "latestVersion": "7d9f",
        "pods": [
            pod("web-7d9f-a1", Some("zone-a"), "node-a1", 10, true),
            pod("web-7d9f-a2", Some("zone-a"), "node-a2", 20, true),
            pod("web-7d9f-a3", Some("zone-a"), "node-a1", 30, false),
            pod("web-7d9f-old", None, "node-b1", 0, true)
        ],
        "nodes": [node("node-a1", "zone-a"), node("node-a2", "zone-a"), node("node-b1", "zone-b")],
        "now": "2026-06-21T10:00:00Z"
    });
    let out = kruise_core::call("workloadspread.reconcile", &input)?;
    let mut text = String::from(
        "web-spread over Deployment web (4 replicas): zone-a holds at most 2, zone-b the rest;\n\
         web-7d9f-a3 is a third, unready zone-a pod, web-7d9f-old predates the WorkloadSpread.\n",
    );
    let subset_of = |pod: &str| -> String {
        out["subsets"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| {
                s["pods"]
                    .as_array()
                    .is_some_and(|p| p.iter().any(|p| p == pod))
            })
            .and_then(|s| s["name"].as_str())
            .unwrap_or("(none)")
            .to_owned()
    };
    let taken: Vec<&str> = out["takeovers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["pod"].as_str())
        .collect();
    for c in out["deletionCosts"].as_array().into_iter().flatten() {
        let pod = c["pod"].as_str().unwrap_or("");
        text.push_str(&format!(
            "  {pod:<13} {:<7} deletion cost {}{}\n",
            subset_of(pod),
            c["value"].as_str().unwrap_or(""),
            if taken.contains(&pod) {
                " (taken over)"
            } else {
                ""
            }
        ));
    }
    for s in out["status"]["subsetStatuses"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let creating: Vec<&str> = s["creatingPods"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k.as_str())
            .collect();
        text.push_str(&format!(
            "  {}: replicas {}, missingReplicas {}{}\n",
            s["name"].as_str().unwrap_or(""),
            s["replicas"],
            s["missingReplicas"],
            if creating.is_empty() {
                String::new()
            } else {
                format!(", creating {}", creating.join(", "))
            }
        ));
    }
    if let Some(n) = out["requeueAfterNanos"].as_i64() {
        text.push_str(&format!("  requeue in {}s\n", n / 1_000_000_000));
    }
    Ok(text)
}
