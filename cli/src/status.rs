//! `kruise-core status FILE`: the rollout health (`rollout.health`) of every kruise workload in a
//! manifest file as `kubectl get -o yaml|json` prints it (one object, several YAML documents, a
//! `List` or a JSON array; `-` reads stdin). Exit codes: 0 when no object is degraded,
//! [`EXIT_DEGRADED`] when one is, 1 for an object kruise-core cannot read (an unknown kind, a
//! malformed partition), 2 for misuse.
//!
//! The demo section (`kruise-core demo`) walks the seed CloneSet through a rollout: its status
//! from the pods at each step (`rollout.cloneset_status`) and the health of the result.

use crate::families::{DemoArgs, Output};
use crate::{CliError, input};
use kruise_core::registry::decide;
use kruise_core::rollout::fns::{
    ClonesetStatus, ClonesetStatusInput, HealthInput, HealthOutput, RolloutHealth,
};
use kruise_core::rollout::health::Health;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Exit code of `status` when an object is degraded.
pub const EXIT_DEGRADED: u8 = 3;

/// `kruise-core status FILE`.
#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// The manifest file (YAML or JSON; several documents, a `List` or an array); `-`: stdin.
    pub file: PathBuf,
    /// Output format: one line per object (default), or the results as JSON or YAML.
    #[arg(short = 'o', long, value_enum, default_value_t = Output::Text)]
    pub output: Output,
}

/// One object's answer.
pub struct Line {
    /// `Kind/name`.
    pub object: String,
    /// The health, or the error that stopped it.
    pub result: Result<HealthOutput, kruise_core::Error>,
}

/// Reads the file and decides every object's health.
pub fn status(args: &StatusArgs) -> Result<Vec<Line>, CliError> {
    let docs = input::read_items(&args.file)?;
    if docs.is_empty() {
        return Err(CliError::input(
            input::name(&args.file),
            "no object in the file",
        ));
    }
    Ok(docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let kind = d["kind"].as_str().unwrap_or("?");
            let name = d["metadata"]["name"].as_str().unwrap_or("?");
            let result = serde_json::from_value::<HealthInput>(d.clone())
                .map_err(|e| kruise_core::Error::invalid_input(format!("items[{i}]"), e))
                .and_then(decide::<RolloutHealth>)
                .map_err(|e| match &e.field {
                    Some(f) if !f.starts_with("items[") => {
                        let detail = e
                            .message
                            .strip_prefix(&format!("{f}: "))
                            .unwrap_or(&e.message);
                        kruise_core::Error::at(e.kind, format!("items[{i}].{f}"), detail)
                    }
                    _ => e,
                });
            Line {
                object: format!("{kind}/{name}"),
                result,
            }
        })
        .collect())
}

fn word(h: Health) -> &'static str {
    match h {
        Health::Healthy => "healthy",
        Health::Progressing => "progressing",
        Health::Degraded => "degraded",
        Health::Suspended => "suspended",
    }
}

/// Prints the lines in the chosen format and answers the exit code.
pub fn print(args: &StatusArgs, lines: &[Line]) -> Result<u8, CliError> {
    let mut text = String::new();
    let mut docs = Vec::new();
    let mut code = 0;
    for l in lines {
        match &l.result {
            Ok(h) => {
                if h.status == Health::Degraded && code == 0 {
                    code = EXIT_DEGRADED;
                }
                let done = if h.done { " (done)" } else { "" };
                let _ = writeln!(
                    text,
                    "{}: {}{done}: {}",
                    l.object,
                    word(h.status),
                    h.message
                );
                docs.push(json!({"object": l.object, "status": word(h.status), "message": h.message, "done": h.done}));
            }
            Err(e) => {
                code = crate::EXIT_ERROR;
                eprintln!("error [{}]: {}: {}", e.kind, l.object, e.message);
                docs.push(json!({"object": l.object, "error": e.to_json()["error"]}));
            }
        }
    }
    let out = match args.output {
        Output::Text => text,
        Output::Json => {
            serde_json::to_string_pretty(&Value::Array(docs)).unwrap_or_default() + "\n"
        }
        Output::Yaml => serde_saphyr::to_string(&Value::Array(docs))
            .map_err(|e| CliError::Usage(format!("cannot print the result: {e}")))?,
    };
    print!("{out}");
    Ok(code)
}

const CLONESET: &str = include_str!("../examples/rollout/cloneset.yaml");

fn pod(name: &str, rev: &str, ready: bool) -> Value {
    json!({"metadata": {"name": name, "labels": {"controller-revision-hash": rev}},
           "status": {"phase": "Running", "conditions": [
               {"type": "Ready", "status": if ready { "True" } else { "False" },
                "lastTransitionTime": "2026-06-21T09:00:00Z"}]}})
}

/// The demo: the seed CloneSet (10 replicas) updated from `sample-r1` to `sample-r2` with
/// partition 30%: its status after each step, and its health.
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let mut cs = input::parse_one(CLONESET, "cli/examples/rollout/cloneset.yaml")?;
    cs["metadata"]["generation"] = json!(2);
    cs["spec"]["updateStrategy"]["partition"] = json!("30%");
    cs["status"] = json!({"observedGeneration": 1, "currentRevision": "sample-r1", "updateRevision": "sample-r2"});
    let mut out = String::from(
        "The seed CloneSet (10 replicas, partition \"30%\") moves from revision sample-r1 to sample-r2:\n",
    );
    for (step, (updated, ready)) in [(0, 0), (4, 2), (7, 7)].into_iter().enumerate() {
        let pods: Vec<Value> = (0..10)
            .map(|i| {
                let rev = if i < updated {
                    "sample-r2"
                } else {
                    "sample-r1"
                };
                pod(&format!("sample-{i}"), rev, i >= updated || i < ready)
            })
            .collect();
        let input: ClonesetStatusInput = serde_json::from_value(json!({
            "cloneSet": cs, "pods": pods, "now": "2026-06-21T10:00:00Z"}))
        .map_err(|e| CliError::input("demo", e))?;
        let s = decide::<ClonesetStatus>(input)?;
        let st = &s.status;
        let _ = writeln!(
            out,
            "  step {}: {updated} pods on sample-r2, {ready} of them ready -> replicas {} ready {} updated {} updatedReady {} expectedUpdated {} current {}",
            step + 1,
            st.replicas,
            st.ready_replicas,
            st.updated_replicas,
            st.updated_ready_replicas,
            st.expected_updated_replicas,
            st.current_revision
        );
        let mut obj = cs.clone();
        obj["status"] = serde_json::to_value(st).unwrap_or_default();
        let h = decide::<RolloutHealth>(
            serde_json::from_value(obj).map_err(|e| CliError::input("demo", e))?,
        )?;
        let done = if h.done { ", done" } else { "" };
        let _ = writeln!(
            out,
            "          health: {}{done}: {}",
            word(h.status),
            h.message
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_ends_held_by_the_partition() {
        let out = demo(&DemoArgs {
            sidecarset: None,
            pod: None,
        })
        .unwrap();
        let last = out.lines().last().unwrap();
        assert!(last.contains("health: suspended, done"), "{out}");
        assert!(out.contains("expectedUpdated 7"), "{out}");
    }
}
