//! `sidecarset` in the demo: the v1.9 SidecarSet with `shareVolumeDevicePolicy` injected into a
//! pod by `sidecarset.inject` (OpenKruise v1.9 `pkg/webhook/pod/mutating/sidecarset.go`).

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
    Ok(s)
}
