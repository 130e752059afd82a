//! `kruise-core explain cloneset` orders pods with kruise-core's `ActivePods` order and honours
//! `updateStrategy.type: OnDelete`.

use serde_json::json;
use std::process::Command;

fn explain(name: &str, cloneset: serde_json::Value, pods: serde_json::Value) -> String {
    let dir =
        std::env::temp_dir().join(format!("kruise-core-explain-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cs = dir.join("cloneset.json");
    let ps = dir.join("pods.json");
    std::fs::write(&cs, cloneset.to_string()).expect("write");
    std::fs::write(
        &ps,
        json!({"apiVersion": "v1", "kind": "List", "items": pods}).to_string(),
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .args(["explain", "cloneset"])
        .arg(&cs)
        .arg("--pods")
        .arg(&ps)
        .args(["--now", "2026-06-21T10:00:00Z"])
        .output()
        .expect("binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn cloneset(update_type: &str) -> serde_json::Value {
    json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": {"name": "cs"},
           "spec": {"replicas": 4, "updateStrategy": {"type": update_type, "maxUnavailable": 4}},
           "status": {"currentRevision": "cs-old", "updateRevision": "cs-new"}})
}

fn pod(name: &str, created: Option<&str>, restarts: &[i32]) -> serde_json::Value {
    let statuses: Vec<_> = restarts
        .iter()
        .map(|r| json!({"name": "c", "restartCount": r}))
        .collect();
    json!({"metadata": {"name": name, "labels": {"controller-revision-hash": "old"}, "creationTimestamp": created},
           "spec": {"nodeName": "node-1"},
           "status": {"phase": "Running", "containerStatuses": statuses,
                      "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-06-01T00:00:00Z"}]}})
}

#[test]
fn pods_are_ordered_by_max_restarts_and_missing_times_first() {
    let pods = json!([
        // 3 + 3 = 6 restarts in total, but a maximum of 3
        pod("two-containers", Some("2026-01-01T00:00:00Z"), &[3, 3]),
        pod("one-container", Some("2026-01-01T00:00:00Z"), &[5]),
        pod("older", Some("2026-01-01T00:00:00Z"), &[]),
        pod("no-creation-time", None, &[]),
    ]);
    let text = explain("order", cloneset("ReCreate"), pods);
    assert!(
        text.contains("In order: one-container, two-containers, no-creation-time, older\n"),
        "{text}"
    );
}

#[test]
fn on_delete_updates_no_pod() {
    let pods = json!([pod("a", Some("2026-01-01T00:00:00Z"), &[])]);
    let text = explain("ondelete", cloneset("OnDelete"), pods);
    assert!(
        text.contains("updateStrategy.type is OnDelete: the controller updates no pod"),
        "{text}"
    );
    assert!(!text.contains("In order:"), "{text}");
}
