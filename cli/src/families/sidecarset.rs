//! `sidecarset` in the demo: the v1.9 SidecarSet with `shareVolumeDevicePolicy` injected into a
//! pod by `sidecarset.inject` (OpenKruise v1.9 `pkg/webhook/pod/mutating/sidecarset.go`), then the
//! controller's next upgrade round (`sidecarset.next_upgrade`, `sidecarset_strategy.go`) when the
//! SidecarSet's sidecar image changes over four such pods.

use super::DemoArgs;
use crate::CliError;
use serde_json::{Value, json};
use std::fmt::Write;

const SEED_SIDECARSET: &str = include_str!("../../examples/sidecarset/sidecarset.yaml");
const SEED_POD: &str = include_str!("../../examples/sidecarset/pod.yaml");

/// The time the demo injects at (the records' `updateTimestamp`).
const DEMO_NOW: &str = "2026-06-21T10:00:00Z";

fn names(list: Option<&Value>, key: &str) -> String {
    list.and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .map(|v| v.get(key).and_then(Value::as_str).unwrap_or("").to_string())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// Demo section: the seed SidecarSet injected into the seed pod (or `--sidecarset` / `--pod`).
pub fn demo(args: &DemoArgs) -> Result<String, CliError> {
    let (set, pod) = super::demo_sidecarset_and_pod(args, SEED_SIDECARSET, SEED_POD)?;
    let ns = pod
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
        .unwrap_or("default")
        .to_string();
    let out = kruise_core::call(
        "sidecarset.inject",
        &json!({"pod": pod, "namespace": {"metadata": {"name": ns}},
                "sidecarSets": [set], "now": DEMO_NOW}),
    )?;
    let mut s = String::new();
    let (set_name, pod_name) = (super::manifest_name(&set), super::manifest_name(&pod));
    let _ = writeln!(
        s,
        "SidecarSet {set_name} -> Pod {pod_name} (sidecarset.inject at {DEMO_NOW})"
    );
    if out["changed"] != json!(true) {
        let _ = writeln!(
            s,
            "  not injected (the SidecarSet does not apply to the pod)"
        );
        return Ok(s);
    }
    let spec = &out["pod"]["spec"];
    let _ = writeln!(s, "  containers: {}", names(spec.get("containers"), "name"));
    if spec.get("initContainers").is_some() {
        let _ = writeln!(
            s,
            "  init containers: {}",
            names(spec.get("initContainers"), "name")
        );
    }
    let _ = writeln!(s, "  volumes: {}", names(spec.get("volumes"), "name"));
    for c in spec["containers"].as_array().into_iter().flatten() {
        let injected = c["env"]
            .as_array()
            .is_some_and(|e| e.iter().any(|v| v["name"] == "IS_INJECTED"));
        if !injected {
            continue;
        }
        let _ = writeln!(
            s,
            "  sidecar {}: env [{}], mounts [{}], devices [{}]",
            c["name"].as_str().unwrap_or(""),
            names(c.get("env"), "name"),
            names(c.get("volumeMounts"), "mountPath"),
            names(c.get("volumeDevices"), "devicePath"),
        );
    }
    for (k, v) in out["pod"]["metadata"]["annotations"]
        .as_object()
        .into_iter()
        .flatten()
    {
        if k.starts_with("kruise.io/sidecarset") {
            let _ = writeln!(s, "  {k}: {}", v.as_str().unwrap_or(""));
        }
    }
    upgrade_round(&mut s, &set, &out["pod"])?;
    Ok(s)
}

/// The next upgrade round after the SidecarSet's sidecar image changes: four running copies of
/// the injected pod (the last one not ready), `partition: 1`, `maxUnavailable: 1`.
fn upgrade_round(s: &mut String, set: &Value, injected: &Value) -> Result<(), CliError> {
    let mut set = set.clone();
    set["metadata"]["annotations"]["kruise.io/sidecarset-hash"] = json!("demo-new-revision");
    if let Some(cs) = set
        .pointer_mut("/spec/containers")
        .and_then(Value::as_array_mut)
    {
        for c in cs {
            c["image"] = json!(format!("{}-next", c["image"].as_str().unwrap_or("")));
        }
    }
    set["spec"]["updateStrategy"] = json!({"partition": 1, "maxUnavailable": 1});
    let base = super::manifest_name(injected);
    let pods: Vec<Value> = (0..4)
        .map(|i| {
            let mut p = injected.clone();
            p["metadata"]["name"] = json!(format!("{base}-r{i}"));
            p["metadata"]["creationTimestamp"] = json!(format!("2026-06-21T10:0{i}:00Z"));
            let statuses: Vec<Value> = p["spec"]["containers"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| {
                    json!({"name": c["name"], "image": c["image"],
                           "imageID": format!("id-{}", c["image"].as_str().unwrap_or("")), "ready": true})
                })
                .collect();
            let ready = if i == 3 { "False" } else { "True" };
            p["status"] = json!({"phase": "Running", "containerStatuses": statuses,
                "conditions": [{"type": "Ready", "status": ready, "lastTransitionTime": "2026-06-21T11:00:00Z"}]});
            p
        })
        .collect();
    let out = kruise_core::call(
        "sidecarset.next_upgrade",
        &json!({"sidecarSet": set, "pods": pods}),
    )?;
    let _ = writeln!(
        s,
        "Next upgrade round (sidecarset.next_upgrade) after the sidecar image changes, over {} pods \
         (partition 1, maxUnavailable 1, the newest pod not ready):",
        pods.len()
    );
    let list = |v: &Value| {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        s,
        "  action {}: upgrade now [{}] (limit {}, order [{}])",
        out["action"].as_str().unwrap_or(""),
        list(&out["upgradePods"]),
        out["upgradeLimit"],
        list(&out["candidates"])
    );
    for p in out["pods"].as_array().into_iter().flatten() {
        let _ = writeln!(
            s,
            "  {}: {}",
            p["name"].as_str().unwrap_or(""),
            p["reason"].as_str().unwrap_or("")
        );
    }
    Ok(())
}
