//! `rollout` in the demo and in `explain cloneset`.
//!
//! The demo replays, on the seed manifests (`cli/examples/rollout/`), a CloneSet rollout that
//! stalls until `Progressing=False / ProgressDeadlineExceeded` (and what pausing does), and an
//! Advanced DaemonSet `partition: "50%"` over several node counts. Every number comes from
//! `kruise_core::rollout`.

mod explain;
mod inplace;
mod manifest;
mod order;

use super::{DemoArgs, ExplainArgs};
use crate::CliError;
use crate::input::parse_one;
use jiff::{SignedDuration, Timestamp};
use kruise_core::intstr::IntOrPercent;
use kruise_core::rollout::cloneset_budget::{self, Params};
use kruise_core::rollout::daemonset::{self, Node, NodeState};
use kruise_core::rollout::partition;
use kruise_core::rollout::pods::{LifecycleState, PodView};
use kruise_core::rollout::progress::{self, Condition, Progress, ProgressStatus};
use manifest::CloneSet;
use std::fmt::Write as _;

const CLONESET: &str = include_str!("../../examples/rollout/cloneset.yaml");
const DAEMONSET: &str = include_str!("../../examples/rollout/daemonset.yaml");
const CLONESET_ROLLING: &str = include_str!("../../examples/rollout/cloneset-rolling.yaml");
const PODS: &str = include_str!("../../examples/rollout/pods.yaml");

/// Rollout start time of the demo story.
const T0: &str = "2026-06-21T10:00:00Z";

/// Demo section: the progress-deadline story and the DaemonSet partition table.
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let mut out = String::new();
    cloneset_story(&mut out)?;
    out.push('\n');
    daemonset_story(&mut out)?;
    out.push('\n');
    order_story(&mut out)?;
    Ok(out)
}

/// Demo section: which pods the next reconcile of the rolling example updates, in order, and
/// which it deletes once the CloneSet is scaled down to 3.
fn order_story(out: &mut String) -> Result<(), CliError> {
    let mut cs = parse_one(
        CLONESET_ROLLING,
        "cli/examples/rollout/cloneset-rolling.yaml",
    )?;
    let pods = parse_one(PODS, "cli/examples/rollout/pods.yaml")?;
    let pods = pods
        .get("items")
        .and_then(serde_json::Value::as_array)
        .cloned()
        .unwrap_or_default();
    let now = "2026-06-21T10:12:00Z";
    let _ = writeln!(
        out,
        "CloneSet sample (cli/examples/rollout/cloneset-rolling.yaml) and its pods at {now}:"
    );
    order::explain(out, &cs, &pods, now)?;
    cs["spec"]["replicas"] = serde_json::json!(3);
    let _ = writeln!(out, "The same CloneSet scaled down to 3 replicas:");
    order::explain(out, &cs, &pods, now)?;
    Ok(())
}

/// `kruise-core explain cloneset FILE [--pods FILE] [--now TIME]`.
pub fn explain(args: &ExplainArgs) -> Result<String, CliError> {
    explain::cloneset(args)
}

fn at(t0: Timestamp, secs: i64) -> Timestamp {
    t0.checked_add(SignedDuration::from_secs(secs))
        .unwrap_or(t0)
}

fn clock(t: Timestamp) -> String {
    t.strftime("%H:%M:%S").to_string()
}

/// `True CloneSetUpdated "CloneSet is progressing"`.
pub(crate) fn show_condition(c: Option<&Condition>) -> String {
    match c {
        None => "no Progressing condition".to_string(),
        Some(c) => format!("Progressing={} / {} \"{}\"", c.status, c.reason, c.message),
    }
}

fn show_progress(p: &Progress) -> String {
    let mut s = show_condition(p.condition.as_ref());
    s.push_str(if p.changed {
        " [written]"
    } else {
        " [unchanged]"
    });
    if let Some(r) = p.requeue_after_seconds {
        let _ = write!(s, ", requeue in {r} s");
    }
    s
}

/// A CloneSet of `n` pods: `updated` on the new revision, none of those available, the rest old
/// and available.
fn stalled_pods(n: usize, updated: usize) -> Vec<PodView> {
    (0..n)
        .map(|i| PodView {
            updated: i < updated,
            lifecycle_state: LifecycleState::Normal,
            available: i >= updated,
            specified_delete: false,
        })
        .collect()
}

fn cloneset_story(out: &mut String) -> Result<(), CliError> {
    let cs = CloneSet::read(&parse_one(CLONESET, "cli/examples/rollout/cloneset.yaml")?)?;
    let pds = cs
        .progress_deadline_seconds
        .unwrap_or(progress::NO_DEADLINE);
    let replicas = cs.budget.replicas;
    let n = usize::try_from(replicas).unwrap_or(0);
    let params = Params::resolve(&cs.budget);
    let _ = writeln!(
        out,
        "CloneSet {}: replicas {replicas}, progressDeadlineSeconds {pds}",
        cs.name
    );
    let _ = writeln!(
        out,
        "  partition unset -> {}; maxSurge unset -> {}; maxUnavailable unset = \"{}\" -> {} of {replicas} \
         (legacy parser, rounded up because maxSurge is 0)",
        params.partition,
        params.max_surge,
        cloneset_budget::DEFAULT_MAX_UNAVAILABLE,
        params.max_unavailable
    );
    let _ = writeln!(
        out,
        "  A new template (revision r2) lands at 10:00:00 and its pods never become ready:"
    );

    let t0: Timestamp = T0.parse().map_err(|e| CliError::Usage(format!("{e}")))?;
    let spec = cs.progress_spec();
    let status = |updated: i32| ProgressStatus {
        replicas,
        updated_replicas: updated,
        updated_available_replicas: 0,
        expected_updated_replicas: replicas - i32::try_from(params.partition).unwrap_or(0),
        current_revision: "r1".into(),
        update_revision: "r2".into(),
    };
    let mut budget_spec = cs.budget.clone();
    budget_spec.revision_consistent = false;
    let mut cond: Option<Condition> = None;
    let mut updated = 0usize;
    for secs in [0, 60, 300, 600, 601] {
        let now = at(t0, secs);
        let b = cloneset_budget::budget(&budget_spec, &stalled_pods(n, updated));
        let st = status(i32::try_from(updated).unwrap_or(0));
        let p = progress::evaluate(&spec, &st, cond.as_ref(), now);
        let why = if b.pods_to_update_now == 0 && b.diffs.update_num > 0 {
            format!(
                " (all {} allowed unavailable are the stuck new pods)",
                b.diffs.update_max_unavailable
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {}  updated {updated}/{replicas}, available new 0 -> update {} more now{why}",
            clock(now),
            b.pods_to_update_now
        );
        let _ = writeln!(out, "            {}", show_progress(&p));
        updated += usize::try_from(b.pods_to_update_now).unwrap_or(0);
        cond = p.condition;
    }
    let deadline = at(t0, i64::from(pds));
    let _ = writeln!(
        out,
        "  The deadline is lastUpdateTime + {pds} s = {}; it fires only once that is strictly past. The condition \
         only signals (e.g. to Argo CD / Flux): the controller keeps rolling.",
        clock(deadline)
    );

    let _ = writeln!(out, "  Pausing (updateStrategy.paused: true):");
    let paused_spec = progress::ProgressSpec {
        paused: true,
        ..spec.clone()
    };
    let pause_at = at(t0, 900);
    let p = progress::evaluate(&paused_spec, &status(2), cond.as_ref(), pause_at);
    let mut paused_budget = budget_spec.clone();
    paused_budget.paused = true;
    let b = cloneset_budget::budget(&paused_budget, &stalled_pods(n, 2));
    let _ = writeln!(
        out,
        "  {}  paused -> {}; pods updated now: {} (the deadline check is off while paused)",
        clock(pause_at),
        show_progress(&p),
        b.pods_to_update_now
    );
    let paused_cond = p.condition;
    for (label, secs) in [
        ("resumed 5 min later", 1200),
        ("resumed 25 min later instead", 2400),
    ] {
        let now = at(t0, secs);
        let r = progress::evaluate(&spec, &status(2), paused_cond.as_ref(), now);
        let _ = writeln!(out, "  {}  {label} -> {}", clock(now), show_progress(&r));
    }
    let _ = writeln!(
        out,
        "  Resuming does not restart the clock: the deadline counts from the Paused condition's lastUpdateTime \
         ({}), so a pause longer than {pds} s times out on the first reconcile after resume.",
        clock(pause_at)
    );
    Ok(())
}

fn daemonset_story(out: &mut String) -> Result<(), CliError> {
    let doc = parse_one(DAEMONSET, "cli/examples/rollout/daemonset.yaml")?;
    let raw = manifest::at(&doc, "spec.updateStrategy.rollingUpdate.partition")
        .or_else(|| manifest::at(&doc, "spec.partition"));
    let part: Option<IntOrPercent> = match raw {
        None => None,
        Some(v) => Some(
            serde_json::from_value(v.clone())
                .map_err(|e| CliError::input("spec.updateStrategy.rollingUpdate.partition", e))?,
        ),
    };
    let shown = match &part {
        Some(IntOrPercent::String(s)) => format!("\"{s}\""),
        Some(IntOrPercent::Int(i)) => i.to_string(),
        None => "unset".into(),
    };
    let name = manifest::at(&doc, "metadata.name")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let _ = writeln!(
        out,
        "Advanced DaemonSet {name}: rollingUpdate.partition {shown} (scaled parser, rounded DOWN, of \
         status.desiredNumberScheduled)"
    );
    let _ = writeln!(
        out,
        "  nodes  partition (stay old)  may update  | CloneSet partition {shown} of as many replicas"
    );
    for nodes in [1i64, 2, 3, 5, 10, 11, 100] {
        let ds = partition::daemonset(part.as_ref(), nodes, nodes)?;
        let cs = partition::cloneset(part.as_ref(), i32::try_from(nodes).ok())?;
        let _ = writeln!(
            out,
            "  {nodes:>5}  {:>20}  {:>10}  | keeps {}, updates {}",
            ds.partition, ds.max_updated, cs.partition, cs.max_updated
        );
    }
    let first = partition::daemonset(part.as_ref(), 0, 10)?;
    let _ = writeln!(
        out,
        "  First sync after creation: status.desiredNumberScheduled is still 0, so {shown} -> {} and {} of 10 nodes \
         are eligible at once.",
        first.partition, first.max_updated
    );
    let strategy = daemonset::UpdateStrategy {
        kind: "RollingUpdate".into(),
        rolling_update: Some(daemonset::RollingUpdate::default()),
    };
    let b = daemonset::budget(&strategy, 4)?;
    let nodes: Vec<Node> = ["node-a", "node-b", "node-c", "node-d"]
        .iter()
        .map(|n| Node {
            name: (*n).into(),
            state: NodeState::Old,
            selected: false,
        })
        .collect();
    let p = partition::daemonset_partition(part.as_ref(), 4)?;
    let order = daemonset::update_nodes(p, false, &nodes);
    let _ = writeln!(
        out,
        "  4 old nodes node-a..node-d: partition {p}; eligible in order {:?} (names walked from the end); \
         maxUnavailable/maxSurge unset -> {} / {} node(s) at a time.",
        order, b.max_unavailable, b.max_surge
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::ExplainKind;
    use std::path::PathBuf;

    fn example(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("examples/rollout")
            .join(name)
    }

    #[test]
    fn demo_tells_the_progress_deadline_story() {
        let out = demo(&DemoArgs {
            sidecarset: None,
            pod: None,
        })
        .unwrap();
        let lines: Vec<&str> = out.lines().collect();
        let at = |t: &str| {
            lines
                .iter()
                .position(|l| l.trim_start().starts_with(t))
                .unwrap()
        };
        // at the deadline itself nothing fires; one second later the condition turns False
        assert!(lines[at("10:10:00") + 1].contains("Progressing=True / CloneSetUpdated"));
        assert!(lines[at("10:10:01") + 1].contains(
            "Progressing=False / ProgressDeadlineExceeded \"CloneSet revision r2 has timed out progressing\" [written]"
        ));
        assert!(lines[at("10:15:00")].contains("CloneSetPaused"));
        assert!(
            lines[at("10:20:00")].contains("CloneSetUpdated")
                && lines[at("10:20:00")].contains("requeue in 601 s")
        );
        assert!(lines[at("10:40:00")].contains("ProgressDeadlineExceeded"));
        // "50%" of 5 nodes keeps 2 old on a DaemonSet, 3 on a CloneSet
        let five = lines
            .iter()
            .find(|l| l.trim_start().starts_with("5 "))
            .unwrap();
        assert_eq!(
            five.split_whitespace().take(3).collect::<Vec<_>>(),
            ["5", "2", "3"]
        );
        assert!(five.ends_with("keeps 3, updates 2"));
    }

    /// `explain cloneset` of the rolling example with its pods at 10:12.
    fn rolling_args() -> ExplainArgs {
        ExplainArgs {
            kind: ExplainKind::Cloneset,
            file: Some(example("cloneset-rolling.yaml")),
            filename: None,
            output: Default::default(),
            pods: Some(example("pods.yaml")),
            jobs: None,
            revisions: None,
            now: Some("2026-06-21T10:12:00Z".into()),
        }
    }

    #[test]
    fn explain_counts_the_next_updates() {
        let args = rolling_args();
        let out = explain(&args).unwrap();
        assert!(out.contains("partition \"20%\" -> 1 pod(s)"), "{out}");
        assert!(out.contains("maxUnavailable \"50%\" -> 3"), "{out}");
        assert!(out.contains("=> 2 pod(s) will update next."), "{out}");
        assert!(out.contains("In order: sample-e, sample-d"), "{out}");
        assert!(
            out.contains(
                "  1. sample-e: updates now\n  2. sample-d: updates now\n  3. sample-c: waits: maxUnavailable budget used up\n  4. sample-b: waits: beyond the pods to update\n"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "Scale step (rollout.cloneset_pods_to_delete): nothing to create or delete"
            ),
            "{out}"
        );
        assert!(
            out.contains("next reconcile: Progressing=False / ProgressDeadlineExceeded"),
            "{out}"
        );
        let early = explain(&ExplainArgs {
            now: Some("2026-06-21T10:05:00Z".into()),
            ..args
        })
        .unwrap();
        assert!(early.contains("(unchanged), requeue in 301 s"), "{early}");
    }

    #[test]
    fn explain_says_in_place_or_recreate_per_pod() {
        let args = ExplainArgs {
            revisions: Some(example("revisions.yaml")),
            ..rolling_args()
        };
        let out = explain(&args).unwrap();
        assert!(
            out.contains(
                "  sample-e: in place (main image nginx:does-not-exist)\n  sample-d: in place"
            ),
            "{out}"
        );
        assert!(
            !out.contains("sample-a:"),
            "sample-a runs the update revision: {out}"
        );
        let no_pods = explain(&ExplainArgs { pods: None, ..args }).unwrap();
        assert!(no_pods.contains("--revisions needs --pods"), "{no_pods}");
    }
}
