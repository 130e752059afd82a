//! `kruise-core demo`: the ImagePullJob section (`imagepull.status`) on the seed job of the v1.6
//! `imagePullPolicy: Always` / `completionPolicy: Never` pair, over six NodeImages; then the same
//! job with `completionPolicy: Always` and an active deadline.

use super::DemoArgs;
use crate::CliError;
use crate::input;
use serde_json::{Value, json};
use std::fmt::Write as _;

const SEED: &str = include_str!("../../examples/imagepull/imagepulljob.yaml");
const SEED_NAME: &str = "cli/examples/imagepull/imagepulljob.yaml";

/// A NodeImage of the pool `pool`; with `phase`, it holds the job's tag `stable` of `nginx`
/// (round 1) in that phase.
fn node_image(name: &str, pool: &str, uid: &str, phase: Option<&str>) -> Value {
    let mut n = json!({"metadata": {"name": name, "labels": {"pool": pool}}});
    if let Some(phase) = phase {
        n["spec"] = json!({"images": {"nginx": {"tags": [
            {"tag": "stable", "version": 1, "ownerReferences": [{"uid": uid}]}]}}});
        n["status"] = json!({"imageStatuses": {"nginx": {"tags": [
            {"tag": "stable", "phase": phase, "version": 1}]}}});
    }
    n
}

fn list(v: &Value) -> String {
    let names: Vec<&str> = v
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

fn seconds(v: &Value) -> String {
    if v.is_null() {
        "none".into()
    } else {
        format!("{v} s")
    }
}

/// Writes one pass's answer.
fn show(out: &mut String, o: &Value) {
    let st = &o["status"];
    let _ = writeln!(
        out,
        "  status ({}): desired {}, active {}, succeeded {}, failed {} [{}]: {:?}",
        o["action"].as_str().unwrap_or(""),
        st["desired"],
        st["active"],
        st["succeeded"],
        st["failed"],
        list(&st["failedNodes"]),
        st["message"].as_str().unwrap_or("")
    );
    let _ = writeln!(
        out,
        "  completed: {}",
        match st["completionTime"].as_str() {
            Some(t) => format!("yes, at {t}"),
            None => "no".into(),
        }
    );
    let _ = writeln!(out, "  not synced: {}", list(&o["notSyncedNodes"]));
    let _ = writeln!(out, "  NodeImages updated now: {}", list(&o["nodesToSync"]));
    let p = &o["pullPolicy"];
    let _ = writeln!(
        out,
        "  tag pull policy: timeout {}, backoff {}, activeDeadlineSeconds {}, ttlSecondsAfterFinished {}..{} s",
        seconds(&p["timeoutSeconds"]),
        p["backoffLimit"],
        seconds(&p["activeDeadlineSeconds"]),
        p["ttlSecondsAfterFinishedMin"],
        p["ttlSecondsAfterFinishedMax"]
    );
}

/// The demo: one controller pass over the seed job, then the `Always` variant past its deadline.
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let job = input::parse_one(SEED, SEED_NAME)?;
    let uid = job
        .pointer("/metadata/uid")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let nodes = json!([
        node_image("web-1", "web", &uid, Some("Succeeded")),
        node_image("web-2", "web", &uid, Some("Pulling")),
        node_image("web-3", "web", &uid, Some("Failed")),
        node_image("web-4", "web", &uid, None),
        node_image("web-5", "web", &uid, None),
        node_image("batch-1", "batch", &uid, None),
    ]);
    let now = "2026-06-21T09:40:00Z";
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ImagePullJob {}/{} ({SEED_NAME}), image {}, imagePullPolicy {}, completionPolicy {}, parallelism {}",
        job.pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or(""),
        super::manifest_name(&job),
        job["spec"]["image"].as_str().unwrap_or(""),
        job["spec"]["imagePullPolicy"].as_str().unwrap_or(""),
        job["spec"]["completionPolicy"]["type"]
            .as_str()
            .unwrap_or(""),
        job["spec"]["parallelism"]
    );
    let _ = writeln!(
        out,
        "NodeImages: web-1 pulled, web-2 pulling, web-3 failed, web-4 and web-5 not asked yet, batch-1 outside the pool."
    );
    let o = kruise_core::call(
        "imagepull.status",
        &json!({"imagePullJob": job, "nodeImages": nodes, "now": now}),
    )?;
    let _ = writeln!(
        out,
        "Pass at {now} (imagepull.status): NodeImage key {}:{}, targets {}",
        o["imageName"].as_str().unwrap_or(""),
        o["imageTag"].as_str().unwrap_or(""),
        list(&o["targetNodes"])
    );
    show(&mut out, &o);
    let _ = writeln!(
        out,
        "  Never: the job does not complete even when every node answered; the tags get a one-day TTL and\n  \
         a 1800 s pull deadline. imagePullPolicy {:?} is copied onto the tags it writes.",
        job["spec"]["imagePullPolicy"].as_str().unwrap_or("")
    );

    let mut always = job.clone();
    always["spec"]["completionPolicy"] = json!({"type": "Always", "activeDeadlineSeconds": 1800});
    let o = kruise_core::call(
        "imagepull.status",
        &json!({"imagePullJob": always, "nodeImages": nodes, "now": now}),
    )?;
    let _ = writeln!(
        out,
        "The same job with completionPolicy Always, activeDeadlineSeconds 1800 (started 09:00, now 09:40):"
    );
    show(&mut out, &o);
    Ok(out)
}
