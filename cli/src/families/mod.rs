//! Per-family demo, explain and convert commands. Each family keeps its part in its own file
//! (`resources.rs`, `allocation.rs`, ...) and is wired here with one line per hook.

mod allocation;
mod api;
mod cron;
mod distribution;
mod imagepull;
mod pub_budget;
mod resources;
mod rollout;
mod sidecarset;
mod workloadspread;

use crate::CliError;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `kruise-core demo` arguments.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// A SidecarSet manifest (YAML or JSON) to use instead of the embedded seed.
    #[arg(long)]
    pub sidecarset: Option<PathBuf>,
    /// A Pod manifest (YAML or JSON, as kubectl prints it) to use instead of the embedded one.
    #[arg(long)]
    pub pod: Option<PathBuf>,
}

/// What `explain` can explain.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ExplainKind {
    /// A SidecarSet's resourcesPolicy against a pod (`--pods` holds the pod).
    Sidecarset,
    /// UnitedDeployment subset allocation.
    Uniteddeployment,
    /// CloneSet rollout: partition, budgets, progress.
    Cloneset,
    /// AdvancedCronJob schedule and reconcile decision.
    Advancedcronjob,
    /// PodUnavailableBudget status and admission.
    Pub,
}

/// `explain`'s output format.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// The explanation for people (default).
    #[default]
    Text,
    /// The structured results as JSON, for scripts.
    Json,
    /// The structured results as YAML.
    Yaml,
}

impl ExplainKind {
    /// The manifest kind this mode reads.
    pub fn manifest_kind(self) -> &'static str {
        match self {
            ExplainKind::Sidecarset => "SidecarSet",
            ExplainKind::Uniteddeployment => "UnitedDeployment",
            ExplainKind::Cloneset => "CloneSet",
            ExplainKind::Advancedcronjob => "AdvancedCronJob",
            ExplainKind::Pub => "PodUnavailableBudget",
        }
    }
}

/// `kruise-core explain` arguments.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The kind of manifest; the manifest must be that kind at an apiVersion OpenKruise v1.9.0
    /// serves (else the error `wrong_kind` / `unsupported_version`, exit 1).
    pub kind: ExplainKind,
    /// The manifest (YAML or JSON, as `kubectl get -o yaml` prints it); `-` reads stdin.
    #[arg(
        value_name = "FILE",
        required_unless_present = "filename",
        conflicts_with = "filename"
    )]
    pub file: Option<PathBuf>,
    /// The manifest, kubectl style (`-f -` reads stdin).
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    pub filename: Option<PathBuf>,
    /// Pods (a kubectl List, an array, or several documents; `-` reads stdin).
    #[arg(long, value_name = "FILE")]
    pub pods: Option<PathBuf>,
    /// Jobs (for advancedcronjob; `-` reads stdin).
    #[arg(long, value_name = "FILE")]
    pub jobs: Option<PathBuf>,
    /// ControllerRevisions (for cloneset, with --pods: each pod's in-place or recreate
    /// decision; `kubectl get controllerrevisions -o yaml`).
    #[arg(long, value_name = "FILE")]
    pub revisions: Option<PathBuf>,
    /// "Now" as RFC 3339 (default: the wall clock; pass a fixed time for reproducible output).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Output format: text, or json / yaml for scripts.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Output::Text)]
    pub output: Output,
}

impl ExplainArgs {
    /// The manifest file (the positional argument or `-f`).
    pub fn manifest(&self) -> &std::path::Path {
        self.file
            .as_deref()
            .or(self.filename.as_deref())
            .unwrap_or(std::path::Path::new("-"))
    }
}

/// `kruise-core convert` arguments.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The manifest file (YAML or JSON, multi-document YAML and kubectl Lists too); `-` reads stdin.
    #[arg(
        value_name = "FILE",
        required_unless_present = "filename",
        conflicts_with = "filename"
    )]
    pub file: Option<PathBuf>,
    /// The manifest, kubectl style (`-f -` reads stdin).
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    pub filename: Option<PathBuf>,
    /// Target apiVersion, e.g. apps.kruise.io/v1beta1.
    #[arg(long)]
    pub to: String,
}

impl ConvertArgs {
    /// The manifest file (the positional argument or `-f`).
    pub fn manifest(&self) -> &std::path::Path {
        self.file
            .as_deref()
            .or(self.filename.as_deref())
            .unwrap_or(std::path::Path::new("-"))
    }
}

/// One demo section: a title and the function producing its text.
type Section = (&'static str, fn(&DemoArgs) -> Result<String, CliError>);

/// `metadata.name` of a manifest, `<unnamed>` without one.
fn manifest_name(doc: &serde_json::Value) -> &str {
    doc.pointer("/metadata/name")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("<unnamed>")
}

/// The SidecarSet and the Pod of a SidecarSet demo section: `--sidecarset` / `--pod` when given,
/// else the section's embedded seeds.
fn demo_sidecarset_and_pod(
    args: &DemoArgs,
    seed_set: &str,
    seed_pod: &str,
) -> Result<(serde_json::Value, serde_json::Value), CliError> {
    let set = match &args.sidecarset {
        Some(p) => crate::input::read_kind(p, "SidecarSet")?,
        None => crate::input::parse_one(seed_set, "embedded sidecarset.yaml")?,
    };
    let pod = match &args.pod {
        Some(p) => crate::input::read_one(p)?,
        None => crate::input::parse_one(seed_pod, "embedded pod.yaml")?,
    };
    Ok((set, pod))
}

const SECTIONS: &[Section] = &[
    ("SidecarSet resourcesPolicy", resources::demo),
    ("SidecarSet injection", sidecarset::demo),
    ("UnitedDeployment allocation", allocation::demo),
    ("CloneSet / Advanced DaemonSet rollout", rollout::demo),
    ("CloneSet status and health", crate::status::demo),
    ("AdvancedCronJob schedule", cron::demo),
    ("PodUnavailableBudget", pub_budget::demo),
    ("v1alpha1 -> v1beta1 conversion", api::demo),
    ("ResourceDistribution targets", distribution::demo),
    ("ImagePullJob", imagepull::demo),
    ("WorkloadSpread controller", workloadspread::demo),
];

/// Runs every demo section in order.
pub fn demo(args: &DemoArgs) -> Result<String, CliError> {
    let mut out = String::new();
    for (title, f) in SECTIONS {
        let body = f(args)?;
        if body.is_empty() {
            continue;
        }
        out.push_str(&format!("== {title} ==\n{body}\n"));
    }
    Ok(out)
}

/// Dispatches `explain` by kind.
pub fn explain(args: &ExplainArgs) -> Result<String, CliError> {
    match args.kind {
        ExplainKind::Sidecarset => resources::explain(args),
        ExplainKind::Uniteddeployment => allocation::explain(args),
        ExplainKind::Cloneset => rollout::explain(args),
        ExplainKind::Advancedcronjob => cron::explain(args),
        ExplainKind::Pub => pub_budget::explain(args),
    }
}

/// The document `explain -o json|yaml` prints: what was explained, the structured results, the
/// notes on surprising v1.9 answers and the decision errors met.
pub fn structured(args: &ExplainArgs, c: &crate::report::Collected) -> serde_json::Value {
    let errors: Vec<serde_json::Value> = c
        .errors
        .iter()
        .map(|e| e.to_json()["error"].clone())
        .collect();
    serde_json::json!({
        "kind": args.kind.manifest_kind(),
        "file": crate::input::name(args.manifest()),
        "results": c.results,
        "notes": c.notes,
        "errors": errors,
    })
}

/// Runs `convert`.
pub fn convert(args: &ConvertArgs) -> Result<String, CliError> {
    api::convert(args)
}
