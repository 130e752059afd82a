//! The per-pod in-place or recreate lines of `explain cloneset --pods FILE --revisions FILE`:
//! each pod not on the update revision, in update order, through `rollout.inplace_update`
//! (`kruise_core::rollout::inplace`) with the CloneSet's update type.

use super::manifest::{REVISION_LABEL, at};
use crate::CliError;
use crate::report;
use kruise_core::rollout::inplace::{self, InplaceAction, InplaceUpdateInput, Revision};
use kruise_core::rollout::inplace_patch::{self, InplacePodPatchInput, PodPatchSpec};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;

/// OpenKruise's `GetShortHash`: the part after the last `-`.
fn short(s: &str) -> &str {
    s.rsplit('-').next().unwrap_or(s)
}

/// The CloneSet revision adapter's `EqualToRevisionHash`: the pod's revision label equals the
/// revision name, or their short hashes do.
fn pod_on(pod: &Value, revision: &str) -> bool {
    let label = at(pod, "metadata.labels")
        .and_then(|l| l.get(REVISION_LABEL))
        .and_then(Value::as_str)
        .unwrap_or("");
    label == revision || short(label) == short(revision)
}

fn revision_of(r: &Value) -> Revision {
    let annotations = at(r, "metadata.annotations")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        });
    Revision {
        name: at(r, "metadata.name")
            .and_then(Value::as_str)
            .map(str::to_string),
        annotations,
        data: Some(r.get("data").cloned().unwrap_or(Value::Object(Map::new()))),
        template: None,
    }
}

fn name_of(v: &Value) -> &str {
    at(v, "metadata.name").and_then(Value::as_str).unwrap_or("")
}

/// ", later batch (launch priority): ..." when `rollout.inplace_pod_patch` leaves some of the
/// containers to change for a later batch (empty otherwise, or when it refuses the pod).
fn later_batches(pod: &Value, d: &inplace::InplaceUpdateOutput, revision: &str) -> String {
    let input = InplacePodPatchInput {
        pod: pod.clone(),
        spec: PodPatchSpec {
            container_images: d.container_images.clone(),
            container_resources: d.container_resources.clone(),
            container_ref_metadata: d.container_ref_metadata.clone(),
            update_env_from_metadata: d.update_env_from_metadata,
            metadata_patch: d.metadata_patch.clone(),
        },
        revision: revision.to_string(),
        // the timestamps written are not shown
        now: "1970-01-01T00:00:00Z".into(),
        ..Default::default()
    };
    let Ok(p) = inplace_patch::decide(&input) else {
        return String::new();
    };
    let state: Value = serde_json::from_str(&p.state).unwrap_or_default();
    let mut names: Vec<&str> = [
        "nextContainerImages",
        "nextContainerRefMetadata",
        "nextContainerResources",
    ]
    .iter()
    .filter_map(|k| state.get(*k).and_then(Value::as_object))
    .flat_map(|m| m.keys().map(String::as_str))
    .collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return String::new();
    }
    format!(
        ", first batch {}, later batches (launch priority) {}",
        p.containers.join(", "),
        names.join(", ")
    )
}

/// Writes one line per pod in `order` that is not on `update_revision`.
pub fn explain(
    out: &mut String,
    update_type: &str,
    update_revision: &str,
    order: &[String],
    pods: &[Value],
    revisions: &[Value],
) -> Result<(), CliError> {
    let _ = writeln!(
        out,
        "In place or recreate (updateStrategy {update_type:?}, pods in update order):"
    );
    let Some(new_rev) = revisions.iter().find(|r| name_of(r) == update_revision) else {
        let _ = writeln!(
            out,
            "  the update revision {update_revision:?} is not among the --revisions"
        );
        return Ok(());
    };
    let mut decisions = Map::new();
    for name in order {
        let Some(pod) = pods.iter().find(|p| name_of(p) == name) else {
            continue;
        };
        if pod_on(pod, update_revision) {
            continue;
        }
        let old = revisions
            .iter()
            .find(|r| pod_on(pod, name_of(r)))
            .map(revision_of);
        let input = InplaceUpdateInput {
            old_revision: old,
            new_revision: revision_of(new_rev),
            update_type: Some(update_type.to_string()),
            pod: Some(pod.clone()),
            ..Default::default()
        };
        let d = inplace::decide(&input).map_err(|e| CliError::input(format!("pod {name}"), e))?;
        let what = match d.action {
            InplaceAction::InPlace => {
                let mut parts: Vec<String> = d
                    .container_images
                    .iter()
                    .map(|(c, i)| format!("{c} image {i}"))
                    .collect();
                parts.extend(d.container_resources.iter().map(|(c, r)| {
                    format!(
                        "{c} resources limits {:?} requests {:?}",
                        r.limits, r.requests
                    )
                }));
                parts.extend(
                    d.container_ref_metadata
                        .keys()
                        .map(|c| format!("{c} env from metadata")),
                );
                if d.metadata_patch.is_some() {
                    parts.push("labels/annotations patched".into());
                }
                format!(
                    "in place ({}){}",
                    parts.join("; "),
                    later_batches(pod, &d, update_revision)
                )
            }
            InplaceAction::Recreate if d.can_in_place => {
                "recreate (updateStrategy ReCreate; the change could be made in place)".into()
            }
            InplaceAction::Recreate => format!(
                "recreate: {}",
                d.reason.as_deref().unwrap_or("cannot update in place")
            ),
            InplaceAction::Blocked => format!(
                "blocked (InPlaceOnly, the controller reports an error): {}",
                d.reason.as_deref().unwrap_or("cannot update in place")
            ),
        };
        let _ = writeln!(out, "  {name}: {what}");
        decisions.insert(name.clone(), json!(d.action));
    }
    if decisions.is_empty() {
        let _ = writeln!(out, "  every pod runs the update revision");
    }
    report::result("inPlace", Value::Object(decisions));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_batches_name_the_lower_launch_priority() {
        let env = |p: &str| json!([{"name": "KRUISE_CONTAINER_BARRIER", "valueFrom": {"configMapKeyRef": {"name": "b", "key": p}}}]);
        let tmpl = |img: &str| json!({"spec": {"containers": [{"name": "a", "image": img}, {"name": "b", "image": img}]}});
        let d = inplace::decide(&InplaceUpdateInput {
            old_revision: Some(Revision {
                template: Some(tmpl("x:1")),
                ..Default::default()
            }),
            new_revision: Revision {
                template: Some(tmpl("x:2")),
                ..Default::default()
            },
            update_type: Some("InPlaceIfPossible".into()),
            ..Default::default()
        })
        .unwrap();
        let pod = json!({"spec": {"containers": [
            {"name": "a", "image": "x:1", "env": env("p_2")},
            {"name": "b", "image": "x:1", "env": env("p_1")}]}});
        assert_eq!(
            later_batches(&pod, &d, "r-1"),
            ", first batch a, later batches (launch priority) b"
        );
        let flat = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        assert_eq!(later_batches(&flat, &d, "r-1"), "");
    }
}
