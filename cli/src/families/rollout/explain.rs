//! `kruise-core explain cloneset FILE [--pods FILE] [--now TIME]`: how many pods update next and
//! why, plus the Progressing condition the next reconcile writes.

use super::manifest::{self, CloneSet};
use super::show_condition;
use crate::CliError;
use crate::families::ExplainArgs;
use crate::input::{parse_now, read_items_of, read_kind};
use crate::report;
use kruise_core::intstr::IntOrPercent;
use kruise_core::rollout::cloneset_budget::{self, Budget, Params};
use kruise_core::rollout::pods::{Counts, PodView};
use kruise_core::rollout::progress::{self, ProgressStatus};
use serde_json::json;
use std::fmt::Write as _;

fn shown(v: Option<&IntOrPercent>) -> String {
    match v {
        None => "unset".into(),
        Some(IntOrPercent::Int(i)) => i.to_string(),
        Some(IntOrPercent::String(s)) => format!("\"{s}\""),
    }
}

/// Runs the explanation.
pub fn cloneset(args: &ExplainArgs) -> Result<String, CliError> {
    let now_s = parse_now(args.now.as_deref())?;
    let now: jiff::Timestamp = now_s
        .parse()
        .map_err(|e| CliError::Usage(format!("--now: {e}")))?;
    let doc = read_kind(args.manifest(), "CloneSet")?;
    let cs = CloneSet::read(&doc)?;
    report::result("name", json!(cs.name));
    report::result("now", json!(now_s));
    let mut raw_pods = Vec::new();
    let (pods, names, source): (Vec<PodView>, Vec<String>, String) = match &args.pods {
        Some(path) => {
            let items = read_items_of(path, "Pod")?;
            raw_pods.clone_from(&items);
            let mut pods = manifest::read_pods(&items, &cs, now)?;
            manifest::sort_candidates(&mut pods);
            let names = pods.iter().map(|p| p.name.clone()).collect();
            (
                pods.iter().map(|p| p.view).collect(),
                names,
                format!(
                    "{} active pods from {}",
                    pods.len(),
                    crate::input::name(path)
                ),
            )
        }
        None => (
            manifest::pods_from_status(&doc)?,
            Vec::new(),
            "no --pods: pods synthesised from the status counters".into(),
        ),
    };
    let spec = &cs.budget;
    let params = Params::resolve(spec);
    let b = cloneset_budget::budget_for_type(&cs.update_type, spec, &pods);
    let mut out = String::new();
    let r = spec.replicas;
    let _ = writeln!(
        out,
        "CloneSet {} (replicas {r}, updateStrategy {:?}), now {now_s}",
        cs.name, cs.update_type
    );
    let _ = writeln!(out, "  {source}");
    let _ = writeln!(out, "Resolved budget:");
    let _ = writeln!(
        out,
        "  partition {} -> {} pod(s) stay on the current revision (float parser, rounded up, clamped to [0, {r}])",
        shown(spec.partition.as_ref()),
        params.partition
    );
    let surge_note = if spec.paused && spec.max_surge.is_some() {
        ", forced to 0 while paused"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "  maxSurge {} -> {} (legacy parser, rounded up{surge_note})",
        shown(spec.max_surge.as_ref()),
        params.max_surge
    );
    let mu = match &spec.max_unavailable {
        None => format!("unset = \"{}\"", cloneset_budget::DEFAULT_MAX_UNAVAILABLE),
        v => shown(v.as_ref()),
    };
    let rounding = if params.max_surge == 0 {
        "rounded up because maxSurge is 0"
    } else {
        "rounded DOWN because maxSurge > 0"
    };
    let _ = writeln!(
        out,
        "  maxUnavailable {mu} -> {} (legacy parser, {rounding})",
        params.max_unavailable
    );
    let c = Counts::of(&pods, false);
    let _ = writeln!(
        out,
        "Pods: {} on the update revision ({} active, {} unavailable, {} to delete, {} preparing delete), {} on the \
         current revision ({} active, {} unavailable, {} to delete, {} preparing delete)",
        c.new.count,
        c.new.active,
        c.new.unavailable,
        c.new.to_delete,
        c.new.pre_deleting,
        c.old.count,
        c.old.active,
        c.old.unavailable,
        c.old.to_delete,
        c.old.pre_deleting
    );
    explain_update(
        &mut out,
        spec.paused,
        &cs.update_type,
        &params,
        &b,
        &pods,
        &names,
    );
    match (&args.revisions, args.pods.is_some()) {
        (Some(path), true) => super::inplace::explain(
            &mut out,
            &cs.update_type,
            &cs.status.update_revision,
            &names,
            &raw_pods,
            &crate::input::read_items(path)?,
        )?,
        (Some(_), false) => {
            let _ = writeln!(
                out,
                "In place or recreate: --revisions needs --pods (the decision is per pod)."
            );
        }
        (None, _) => {}
    }
    if args.pods.is_some() {
        super::order::explain(&mut out, &doc, &raw_pods, &now_s)?;
    }
    explain_scale(&mut out, &b);
    explain_progress(&mut out, &cs, &pods, now);
    Ok(out)
}

fn explain_update(
    out: &mut String,
    paused: bool,
    update_type: &str,
    params: &Params,
    b: &Budget,
    pods: &[PodView],
    names: &[String],
) {
    let d = &b.diffs;
    let _ = writeln!(out, "Update:");
    if update_type == cloneset_budget::ON_DELETE {
        let _ = writeln!(
            out,
            "  updateStrategy.type is OnDelete: the controller updates no pod; a pod moves to the update revision \
             only when it is deleted and recreated."
        );
        return;
    }
    if paused {
        let _ = writeln!(
            out,
            "  updateStrategy.paused is true: 0 pods will update next."
        );
        return;
    }
    if d.update_num == 0 {
        let _ = writeln!(
            out,
            "  nothing to update: the current revision holds {} pod(s) = partition, the rest are updated.",
            params.partition
        );
        return;
    }
    let dir = if d.update_num > 0 {
        "to the update revision"
    } else {
        "back to the current revision (rollback)"
    };
    let _ = writeln!(out, "  {} pod(s) should move {dir}.", d.update_num.abs());
    let unavailable = pods.iter().filter(|p| !p.is_available()).count();
    let _ = writeln!(
        out,
        "  unavailability budget = maxUnavailable {} + (pods {} - replicas {}) = {}; {unavailable} pod(s) are unavailable now.",
        params.max_unavailable,
        pods.len(),
        params.replicas,
        d.update_max_unavailable
    );
    let _ = writeln!(
        out,
        "  => {} pod(s) will update next.",
        b.pods_to_update_now
    );
    report::result("podsToUpdateNow", json!(b.pods_to_update_now));
    if b.pods_to_update_now == 0 {
        let _ = writeln!(
            out,
            "  Why 0: the unavailable pods already use the whole budget (unavailable candidates still pass only while \
             the unavailable pods already on the target revision stay under it)."
        );
    } else if b.pods_to_update_now < d.update_num.abs() {
        let _ = writeln!(
            out,
            "  Why not {}: each available pod taken becomes unavailable, and the budget of {} stops the rest.",
            d.update_num.abs(),
            d.update_max_unavailable
        );
    }
    if b.pods_to_update_now > 0 && !names.is_empty() {
        let to_new = d.update_num > 0;
        let picked: Vec<&str> = pods
            .iter()
            .zip(names)
            .filter(|(p, _)| {
                p.updated != to_new
                    && p.lifecycle_state
                        != kruise_core::rollout::pods::LifecycleState::PreparingDelete
            })
            .take(usize::try_from(b.pods_to_update_now).unwrap_or(0))
            .map(|(_, n)| n.as_str())
            .collect();
        let _ = writeln!(out, "  In order: {}", picked.join(", "));
        report::result("updateOrder", json!(picked));
    }
}

fn explain_scale(out: &mut String, b: &Budget) {
    let d = &b.diffs;
    if d.scale_up_num > 0 {
        let _ = writeln!(
            out,
            "Scale: create {} pod(s) ({} on the current revision), at most {} now (scaleStrategy.maxUnavailable); surge in use {}.",
            d.scale_up_num, d.scale_up_num_old_revision, d.scale_up_limit, d.use_surge
        );
    }
    if d.scale_down_num > 0 {
        let _ = writeln!(
            out,
            "Scale: delete {} pod(s) ({} on the current revision); ready pods deletable now {}.",
            d.scale_down_num, d.scale_down_num_old_revision, d.delete_ready_limit
        );
    }
}

fn explain_progress(out: &mut String, cs: &CloneSet, pods: &[PodView], now: jiff::Timestamp) {
    let Some(pds) = cs.progress_deadline_seconds else {
        let _ = writeln!(
            out,
            "Progress: progressDeadlineSeconds unset, no Progressing condition is kept."
        );
        return;
    };
    let c = Counts::of(pods, false);
    let replicas = cs.budget.replicas;
    let partition = Params::resolve(&cs.budget).partition;
    let to_i32 = |v: i64| i32::try_from(v).unwrap_or(i32::MAX);
    let updated_available = pods
        .iter()
        .filter(|p| p.updated && p.is_available())
        .count();
    let mut status = ProgressStatus {
        replicas: to_i32(c.new.count + c.old.count),
        updated_replicas: to_i32(c.new.count),
        updated_available_replicas: to_i32(i64::try_from(updated_available).unwrap_or(0)),
        expected_updated_replicas: replicas - to_i32(partition),
        ..cs.status.clone()
    };
    if status.updated_replicas == replicas && status.replicas == replicas {
        status.current_revision = status.update_revision.clone();
    }
    let p = progress::evaluate(&cs.progress_spec(), &status, cs.condition.as_ref(), now);
    report::result(
        "progress",
        json!({
            "condition": p.condition.as_ref().map(|c| json!({"status": c.status, "reason": c.reason, "message": c.message})),
            "changed": p.changed,
            "requeueAfterSeconds": p.requeue_after_seconds,
        }),
    );
    let _ = writeln!(out, "Progress (progressDeadlineSeconds {pds}):");
    let _ = writeln!(out, "  now: {}", show_condition(cs.condition.as_ref()));
    let _ = writeln!(
        out,
        "  next reconcile: {}{}{}",
        show_condition(p.condition.as_ref()),
        if p.changed {
            " (status written)"
        } else {
            " (unchanged)"
        },
        p.requeue_after_seconds
            .map(|r| format!(", requeue in {r} s"))
            .unwrap_or_default()
    );
    if let Some(c) = p
        .condition
        .as_ref()
        .filter(|c| c.reason == progress::REASON_UPDATED)
    {
        let deadline = c
            .last_update_time
            .checked_add(jiff::SignedDuration::from_secs(i64::from(pds)))
            .ok();
        if let Some(d) = deadline {
            let _ = writeln!(
                out,
                "  deadline: {} (lastUpdateTime + {pds} s); ProgressDeadlineExceeded after that unless the CloneSet becomes \
                 available, is paused or its partition is reached.",
                progress::format_time(d)
            );
        }
    }
}
