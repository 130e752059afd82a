//! Per-family demo, explain and convert commands. Each family keeps its part in its own file
//! (`resources.rs`, `allocation.rs`, ...) and is wired here with one line per hook.

mod allocation;
mod api;
mod cron;
mod pub_budget;
mod resources;
mod rollout;

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

/// `kruise-core explain` arguments.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The kind of manifest.
    pub kind: ExplainKind,
    /// The manifest (YAML or JSON).
    pub file: PathBuf,
    /// Pods (a kubectl List, an array, or several documents).
    #[arg(long)]
    pub pods: Option<PathBuf>,
    /// Jobs (for advancedcronjob).
    #[arg(long)]
    pub jobs: Option<PathBuf>,
    /// "Now" as RFC 3339 UTC (default: a fixed time, so output is reproducible).
    #[arg(long)]
    pub now: Option<String>,
}

/// `kruise-core convert` arguments.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The manifest file (YAML or JSON, multi-document YAML too).
    pub file: PathBuf,
    /// Target apiVersion, e.g. apps.kruise.io/v1beta1.
    #[arg(long)]
    pub to: String,
}

/// One demo section: a title and the function producing its text.
type Section = (&'static str, fn(&DemoArgs) -> Result<String, CliError>);

const SECTIONS: &[Section] = &[
    ("SidecarSet resourcesPolicy", resources::demo),
    ("UnitedDeployment allocation", allocation::demo),
    ("CloneSet / Advanced DaemonSet rollout", rollout::demo),
    ("AdvancedCronJob schedule", cron::demo),
    ("PodUnavailableBudget", pub_budget::demo),
    ("v1alpha1 -> v1beta1 conversion", api::demo),
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

/// Runs `convert`.
pub fn convert(args: &ConvertArgs) -> Result<String, CliError> {
    api::convert(args)
}
