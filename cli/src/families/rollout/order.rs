//! The "Update order" and "Scale step" sections of `explain cloneset --pods FILE`: the pods the
//! next reconcile updates, in the controller's order, and why the others wait
//! (`rollout.cloneset_pods_to_update`), and the pods its scale step deletes
//! (`rollout.cloneset_pods_to_delete`), both from `kruise_core::rollout::cloneset_pods`.

use super::manifest::at;
use crate::CliError;
use crate::report;
use kruise_core::rollout::cloneset_pods::{
    self, ClonesetPodsInput, PodAction, ScaleStep, WaitReason,
};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;

/// The CloneSet in the v1alpha1 layout the fns read: a v1beta1 manifest keeps the rollout fields
/// under `updateStrategy.rollingUpdate` and the in-place choice in `podUpdatePolicy`.
fn alpha_layout(doc: &Value) -> Value {
    let mut doc = doc.clone();
    let Some(us) = doc
        .pointer_mut("/spec/updateStrategy")
        .and_then(Value::as_object_mut)
    else {
        return doc;
    };
    if let Some(Value::Object(ru)) = us.remove("rollingUpdate") {
        for (k, v) in ru {
            match k.as_str() {
                "podUpdatePolicy" if us.get("type").and_then(Value::as_str) != Some("OnDelete") => {
                    us.insert("type".into(), v);
                }
                "partition" | "maxUnavailable" | "maxSurge" | "paused" | "priorityStrategy"
                | "scatterStrategy" => {
                    us.insert(k, v);
                }
                _ => {}
            }
        }
    }
    doc
}

fn reason_text(r: WaitReason) -> &'static str {
    match r {
        WaitReason::OnDelete => "updateStrategy.type OnDelete",
        WaitReason::Paused => "updateStrategy.paused",
        WaitReason::NoUpdateNeeded => "no update needed (partition reached)",
        WaitReason::OnTargetRevision => "already on the target revision",
        WaitReason::PreparingDelete => "lifecycle state PreparingDelete",
        WaitReason::InPlaceUpdateGrace => "in-place update grace period",
        WaitReason::UpdateNumReached => "beyond the pods to update",
        WaitReason::MaxUnavailable => "maxUnavailable budget used up",
    }
}

fn action_text(a: PodAction) -> &'static str {
    match a {
        PodAction::Delete => "delete",
        PodAction::PreparingDelete => "to PreparingDelete (preDelete hook)",
        PodAction::CancelDelete => "back to PreparingNormal",
        PodAction::Keep => "stays in PreparingDelete (hook holds it)",
    }
}

/// Writes both sections for the CloneSet `doc` and its `pods` at `now`.
pub fn explain(out: &mut String, doc: &Value, pods: &[Value], now: &str) -> Result<(), CliError> {
    let mut input = Map::new();
    input.insert("cloneSet".into(), alpha_layout(doc));
    input.insert("pods".into(), Value::Array(pods.to_vec()));
    input.insert("now".into(), json!(now));
    let input: ClonesetPodsInput = serde_json::from_value(Value::Object(input))
        .map_err(|e| CliError::input("pods", format_args!("{e}")))?;
    let name = at(doc, "metadata.name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let up = cloneset_pods::pods_to_update(&input)
        .map_err(|e| CliError::input(format!("CloneSet {name}"), e))?;
    let _ = writeln!(out, "Update order (rollout.cloneset_pods_to_update):");
    if up.update_order.is_empty() {
        let why = up
            .waiting
            .first()
            .map_or("no pods", |w| reason_text(w.reason));
        let _ = writeln!(out, "  no candidate: {why}");
    } else {
        let _ = writeln!(
            out,
            "  target revision {} (updateNum {}, budget {}):",
            up.target_revision, up.update_num, up.update_max_unavailable
        );
        for (k, n) in up.update_order.iter().enumerate() {
            let what = match up.waiting.iter().find(|w| &w.name == n) {
                Some(w) => format!("waits: {}", reason_text(w.reason)),
                None => "updates now".into(),
            };
            let _ = writeln!(out, "  {}. {n}: {what}", k + 1);
        }
    }
    let others: Vec<String> = up
        .waiting
        .iter()
        .filter(|w| !up.update_order.contains(&w.name))
        .filter(|w| w.reason != WaitReason::OnTargetRevision || up.update_order.is_empty())
        .map(|w| format!("{} ({})", w.name, reason_text(w.reason)))
        .collect();
    if !others.is_empty() && !up.update_order.is_empty() {
        let _ = writeln!(out, "  not candidates: {}", others.join(", "));
    }
    report::result("podsToUpdate", json!(up.pods_to_update));
    report::result("fullUpdateOrder", json!(up.update_order));

    let del = cloneset_pods::pods_to_delete(&input)
        .map_err(|e| CliError::input(format!("CloneSet {name}"), e))?;
    let step = match del.step {
        ScaleStep::None => "nothing to create or delete".to_string(),
        ScaleStep::CancelPreparingDelete => "take PreparingDelete pods back".into(),
        ScaleStep::ScaleUp => format!(
            "create {} pod(s) ({} on the current revision)",
            del.create, del.create_current_revision
        ),
        ScaleStep::DeletePreparingDelete => "delete PreparingDelete pods whose hook is gone".into(),
        ScaleStep::SpecifiedDelete => "delete the pods specified for deletion".into(),
        ScaleStep::ScaleDown => format!(
            "scale down {} excess pod(s) (old-revision quota {})",
            del.scale_down_num, del.scale_down_num_old_revision
        ),
        ScaleStep::WaitForPlannedDeletions => format!(
            "{} excess pod(s) wait for the planned deletions",
            del.scale_down_num
        ),
    };
    let _ = writeln!(out, "Scale step (rollout.cloneset_pods_to_delete): {step}");
    for p in &del.pods {
        let _ = writeln!(out, "  {}: {}", p.name, action_text(p.action));
    }
    if !del.limited.is_empty() {
        let _ = writeln!(
            out,
            "  held back (ready, deleteReadyLimit used up): {}",
            del.limited.join(", ")
        );
    }
    report::result("scaleStep", json!(del.step));
    report::result("podsToDelete", json!(del.pods));
    Ok(())
}
