//! `resources` in the demo and in `explain`: a SidecarSet's `resourcesPolicy` applied to a pod
//! (OpenKruise v1.9 `pkg/webhook/pod/mutating/sidecarset_resources.go`), with the derivation.

use super::{DemoArgs, ExplainArgs};
use crate::CliError;
use crate::input::{read_items_of, read_kind};
use crate::report;
use kruise_core::resources::{self, PodContainers, SidecarContainer};
use serde_json::{Value, json};
use std::fmt::Write;

const SEED_SIDECARSET: &str = include_str!("../../examples/resources/sidecarset.yaml");
const SEED_POD: &str = include_str!("../../examples/resources/pod.yaml");

/// Demo section: the seed SidecarSet against the embedded pod (or `--sidecarset` / `--pod`).
pub fn demo(args: &DemoArgs) -> Result<String, CliError> {
    let (set, pod) = super::demo_sidecarset_and_pod(args, SEED_SIDECARSET, SEED_POD)?;
    kruise_core::api::served::check(&pod, "Pod", "", false)?;
    explain_pod(&set, &pod)
}

/// `kruise-core explain sidecarset FILE --pods PODS`: every policy of the SidecarSet against
/// every pod.
pub fn explain(args: &ExplainArgs) -> Result<String, CliError> {
    let pods_path = args
        .pods
        .as_ref()
        .ok_or_else(|| CliError::Usage("explain sidecarset needs --pods FILE".into()))?;
    let set = read_kind(args.manifest(), "SidecarSet")?;
    let mut out = String::new();
    for pod in read_items_of(pods_path, "Pod")? {
        out.push_str(&explain_pod(&set, &pod)?);
    }
    Ok(out)
}

/// The notes on v1.9 answers that surprise, for one evaluated field.
fn step_notes(s: &resources::policy::Step) -> Vec<String> {
    let mut notes = Vec::new();
    if s.field.ends_with("memory") && s.variable == "cpu" && s.expr.contains("cpu") {
        notes.push(format!(
            "{}: v1.9 evaluates this memory expression with the variable named `cpu` (it names the variable \
             `memory` only when that word occurs in the expression), so `cpu` here is the memory aggregate",
            s.field
        ));
    }
    if let Some(r) = &s.result
        && s.field.ends_with("memory")
        && r.to_string().ends_with('m')
    {
        notes.push(format!(
            "{}: {r} is a fractional number of bytes (milli-bytes), as v1.9 writes it; the API server keeps it",
            s.field
        ));
    }
    notes
}

/// The sidecar containers of a SidecarSet (`spec.containers` then `spec.initContainers`).
fn sidecars(set: &Value) -> Result<Vec<(bool, SidecarContainer)>, CliError> {
    let mut out = Vec::new();
    for (list, init) in [("containers", false), ("initContainers", true)] {
        if let Some(items) = set
            .pointer(&format!("/spec/{list}"))
            .and_then(Value::as_array)
        {
            for (i, c) in items.iter().enumerate() {
                let sc: SidecarContainer = serde_json::from_value(c.clone())
                    .map_err(|e| CliError::input(format!("spec.{list}[{i}]"), e))?;
                out.push((init, sc));
            }
        }
    }
    Ok(out)
}

fn explain_pod(set: &Value, pod: &Value) -> Result<String, CliError> {
    let spec = pod.get("spec").cloned().unwrap_or(Value::Null);
    let containers: PodContainers =
        serde_json::from_value(spec).map_err(|e| CliError::input("pod.spec", e))?;
    let (set_name, pod_name) = (super::manifest_name(set), super::manifest_name(pod));
    let sidecars = sidecars(set)?;
    let names: Vec<String> = sidecars.iter().map(|(_, c)| c.name.clone()).collect();
    let mut out = String::new();
    let _ = writeln!(out, "SidecarSet {set_name} -> Pod {pod_name}");
    let pod_list: Vec<String> = containers
        .init_containers
        .iter()
        .map(|c| {
            format!(
                "{} (init{})",
                c.name,
                if c.restart_policy.as_deref() == Some("Always") {
                    ", native sidecar"
                } else {
                    ""
                }
            )
        })
        .chain(containers.containers.iter().map(|c| c.name.clone()))
        .collect();
    let _ = writeln!(out, "  pod containers: {}", pod_list.join(", "));
    for (init, sc) in &sidecars {
        let Some(policy) = &sc.resources_policy else {
            continue;
        };
        let _ = writeln!(
            out,
            "  sidecar {}{}:",
            sc.name,
            if *init { " (init container)" } else { "" }
        );
        let findings = resources::validate(sc, *init);
        if findings.is_empty() {
            let _ = writeln!(out, "    webhook validation: accepted");
        } else {
            for f in &findings {
                let _ = writeln!(
                    out,
                    "    webhook validation: {} {} ({}) {}",
                    f.field, f.kind, f.cause, f.detail
                );
            }
        }
        let _ = writeln!(
            out,
            "    mode {}, regex {:?} (excluding SidecarSet containers: {})",
            policy.target_containers_mode,
            policy.target_containers_name_regex,
            names.join(", ")
        );
        let mut entry = json!({
            "sidecarSet": set_name, "pod": pod_name, "sidecar": sc.name, "initContainer": init,
            "validation": findings.iter().map(|f| json!({"field": f.field, "kind": f.kind, "cause": f.cause, "detail": f.detail})).collect::<Vec<_>>(),
        });
        match resources::apply(policy, &containers, &names) {
            Err(e) => {
                let _ = writeln!(out, "    error [{}]: {}", e.kind, e.message);
                entry["error"] = e.to_json()["error"].clone();
                report::error(&e);
            }
            Ok(a) => {
                let _ = writeln!(out, "    targets: {}", a.targets.join(", "));
                let show = |l: &resources::ResourceList| {
                    let f = |q: &Option<kruise_core::quantity::Quantity<'static>>| {
                        q.as_ref()
                            .map(|q| q.to_string())
                            .unwrap_or_else(|| "-".into())
                    };
                    format!("cpu {}, memory {}", f(&l.cpu), f(&l.memory))
                };
                let _ = writeln!(
                    out,
                    "    aggregate ({}): limits {}; requests {}",
                    policy.target_containers_mode,
                    show(&a.aggregate.limits),
                    show(&a.aggregate.requests)
                );
                let mut steps = Vec::new();
                for s in &a.steps {
                    let input = s
                        .input
                        .as_ref()
                        .map(|q| q.to_string())
                        .unwrap_or_else(|| "absent".into());
                    steps.push(json!({
                        "field": s.field, "expr": s.expr, "variable": s.variable,
                        "input": s.input.as_ref().map(|q| q.to_string()),
                        "result": s.result.as_ref().map(|q| q.to_string()),
                    }));
                    match &s.result {
                        Some(r) => {
                            let _ = writeln!(
                                out,
                                "    {:<16} {:<24} with {} = {:<8} -> {}",
                                s.field, s.expr, s.variable, input, r
                            );
                        }
                        None => {
                            let _ = writeln!(
                                out,
                                "    {:<16} {:<24} skipped: some target has no {} limit (unlimited)",
                                s.field,
                                s.expr,
                                &s.field[7..]
                            );
                        }
                    }
                    for n in step_notes(s) {
                        let _ = writeln!(out, "      note: {}", report::note(n));
                    }
                }
                let _ = writeln!(out, "    result: resources: {}", a.to_json());
                entry["targets"] = json!(a.targets);
                entry["steps"] = Value::Array(steps);
                entry["resources"] = a.to_json();
            }
        }
        report::push("sidecars", entry);
    }
    Ok(out)
}
