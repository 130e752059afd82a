//! `kruise-core status FILE`: the rollout health of every kruise workload in a file (YAML or JSON,
//! several documents, a List; `-` for stdin), exit 3 when one is degraded.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("binary ends")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const HELD: &str = r#"
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: web, generation: 3}
spec:
  replicas: 4
  updateStrategy: {partition: "50%"}
status:
  observedGeneration: 3
  replicas: 4
  availableReplicas: 4
  updatedReplicas: 2
  updatedAvailableReplicas: 2
  updateRevision: web-r2
"#;

const TIMED_OUT: &str = r#"
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: stuck, generation: 2}
spec: {replicas: 2, progressDeadlineSeconds: 600}
status:
  observedGeneration: 2
  replicas: 2
  updatedReplicas: 1
  conditions:
  - type: Progressing
    status: "False"
    reason: ProgressDeadlineExceeded
    message: CloneSet revision stuck-r2 has timed out progressing
"#;

#[test]
fn percent_partition_hold_is_suspended_and_done() {
    let o = run(&["status", "-"], HELD);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        text(&o),
        "CloneSet/web: suspended (done): partitioned roll out complete: 2 of 4 pods updated, partition 2 keeps the rest\n"
    );
}

#[test]
fn degraded_object_exits_3_after_printing_all() {
    let file = format!("{HELD}---{TIMED_OUT}");
    let o = run(&["status", "-"], &file);
    assert_eq!(o.status.code(), Some(3));
    let out = text(&o);
    assert!(out.starts_with("CloneSet/web: suspended"), "{out}");
    assert!(
        out.contains(
            "CloneSet/stuck: degraded: CloneSet revision stuck-r2 has timed out progressing\n"
        ),
        "{out}"
    );
}

#[test]
fn json_list_and_json_output() {
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob", "metadata": {"name": "warm"},
         "status": {"phase": "completed", "desired": 2, "succeeded": 2}},
        {"apiVersion": "apps.kruise.io/v1beta1", "kind": "AdvancedCronJob", "metadata": {"name": "nightly"},
         "spec": {"paused": true}, "status": {}}]});
    let o = run(&["status", "-", "-o", "json"], &list.to_string());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    assert_eq!(v[0]["object"], "BroadcastJob/warm");
    assert_eq!(v[0]["status"], "healthy");
    assert_eq!(v[1]["status"], "suspended");
    assert_eq!(v[1]["done"], true);
}

#[test]
fn unknown_kind_is_an_error_naming_the_item() {
    let o = run(
        &["status", "-"],
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error [unknown_kind]: Deployment/d: items[0].apiVersion"),
        "{err}"
    );
}

#[test]
fn malformed_partition_names_the_field() {
    let o = run(
        &["status", "-"],
        "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: c}\nspec: {updateStrategy: {partition: \"x%\"}}\nstatus: {observedGeneration: 1}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("items[0].spec.updateStrategy.partition"),
        "{err}"
    );
}

#[test]
fn file_argument_and_missing_file() {
    let dir = std::env::temp_dir().join(format!("kruise-core-status-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("cs.yaml");
    std::fs::write(&f, HELD).expect("write");
    let o = run(&["status", f.to_str().expect("utf-8 path")], "");
    assert_eq!(o.status.code(), Some(0));
    let missing = dir.join("none.yaml");
    let o = run(&["status", missing.to_str().expect("utf-8 path")], "");
    assert_eq!(o.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
    // no file at all is a usage error
    assert_eq!(run(&["status"], "").status.code(), Some(2));
}
