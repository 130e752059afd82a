use super::status::{Action, image_name_tag, status};
use super::*;
use serde_json::{Value, json};

fn run(v: Value) -> StatusOutput {
    status(&serde_json::from_value(v).unwrap()).unwrap()
}

fn node(name: &str, uid: &str, version: i64, phase: Option<&str>) -> Value {
    let mut n = json!({"metadata": {"name": name},
        "spec": {"images": {"nginx": {"tags": [{"tag": "1.25", "version": version,
            "ownerReferences": [{"uid": uid}]}]}}}});
    if let Some(p) = phase {
        n["status"] = json!({"imageStatuses": {"nginx": {"tags": [
            {"tag": "1.25", "version": version, "phase": p}]}}});
    }
    n
}

#[test]
fn names_and_tags_normalize() {
    let nt = |s: &str| image_name_tag(s);
    assert_eq!(nt("nginx"), Some(("nginx".into(), "latest".into())));
    assert_eq!(
        nt("docker.io/library/nginx:1.25"),
        Some(("nginx".into(), "1.25".into()))
    );
    assert_eq!(
        nt("ghcr.io/org/app:v1"),
        Some(("ghcr.io/org/app".into(), "v1".into()))
    );
    assert_eq!(nt("org/app"), Some(("org/app".into(), "latest".into())));
    let d = format!("sha256:{}", "a".repeat(64));
    assert_eq!(nt(&format!("nginx:1@{d}")), Some(("nginx".into(), d)));
    assert_eq!(nt("Nginx"), None);
}

#[test]
fn progress_and_completion() {
    let job = json!({"metadata": {"uid": "u1"}, "spec": {"image": "nginx:1.25",
        "completionPolicy": {"type": "Always"}}, "status": {"startTime": "2024-05-01T00:00:00Z"}});
    let out = run(
        json!({"imagePullJob": job, "now": "2024-05-01T00:01:00Z", "nodeImages": [
        node("a", "u1", 1, Some("Succeeded")), node("b", "u1", 1, Some("Pulling")),
        node("c", "u2", 1, None), node("d", "u1", 2, Some("Failed"))]}),
    );
    assert_eq!(out.action, Action::UpdateStatus);
    assert_eq!(out.status.desired, 4);
    assert_eq!(out.status.active, 1);
    assert_eq!(out.status.succeeded, 1);
    assert_eq!(out.status.failed, 1);
    assert_eq!(out.status.failed_nodes, vec!["d".to_string()]);
    assert_eq!(out.status.message, "job is running, progress 50.0%");
    assert_eq!(out.not_synced_nodes, vec!["c".to_string()]);
    assert!(out.nodes_to_sync.is_empty(), "parallelism 1 is used by b");
    assert!(!out.completed);
}

#[test]
fn never_keeps_running_and_deadline_fails_the_rest() {
    let base = |ty: &str| {
        json!({"imagePullJob": {"metadata": {"uid": "u1"}, "spec": {"image": "nginx:1.25",
        "completionPolicy": {"type": ty, "activeDeadlineSeconds": 60}},
        "status": {"startTime": "2024-05-01T00:00:00Z"}},
        "now": "2024-05-01T00:02:00Z", "nodeImages": [node("a", "u1", 1, Some("Succeeded")),
        node("b", "u1", 1, Some("Pulling"))]})
    };
    let never = run(base("Never"));
    assert!(!never.completed);
    assert_eq!(never.status.active, 1);
    assert_eq!(never.pull_policy.active_deadline_seconds, Some(1800));
    assert_eq!(never.pull_policy.ttl_seconds_after_finished_min, 85_800);
    let always = run(base("Always"));
    assert!(always.completed);
    assert_eq!(always.status.failed_nodes, vec!["b".to_string()]);
    assert_eq!(always.status.message, "job exceeds activeDeadlineSeconds");
    assert_eq!(
        always.status.completion_time.as_deref(),
        Some("2024-05-01T00:02:00Z")
    );
}

#[test]
fn ttl_after_completion() {
    let v = |now: &str| {
        json!({"imagePullJob": {"spec": {"image": "nginx",
        "completionPolicy": {"ttlSecondsAfterFinished": 100}},
        "status": {"startTime": "2024-05-01T00:00:00Z", "completionTime": "2024-05-01T00:01:00Z"}},
        "now": now})
    };
    let keep = run(v("2024-05-01T00:01:30Z"));
    assert_eq!(keep.action, Action::Keep);
    assert_eq!(keep.requeue_after_seconds, Some(70.0));
    assert_eq!(run(v("2024-05-01T00:02:40Z")).action, Action::Delete);
}

#[test]
fn errors() {
    let err = |v: Value| {
        status(&serde_json::from_value(v).unwrap())
            .unwrap_err()
            .kind
    };
    assert_eq!(
        err(
            json!({"imagePullJob": {"spec": {"image": "nginx", "podSelector": {}}}, "now": "2024-05-01T00:00:00Z"})
        ),
        "unsupported"
    );
    assert_eq!(
        err(
            json!({"imagePullJob": {"spec": {"image": "nginx", "selector": {"matchExpressions": [{"key": "a", "operator": "Gt"}]}}}, "now": "2024-05-01T00:00:00Z"})
        ),
        "invalid_selector"
    );
    assert_eq!(
        err(json!({"imagePullJob": {"spec": {"image": "UPPER"}}, "now": "2024-05-01T00:00:00Z"})),
        "invalid_image"
    );
    assert_eq!(
        err(json!({"imagePullJob": {"spec": {"image": "nginx"}}, "now": "yesterday"})),
        "invalid_input"
    );
}
