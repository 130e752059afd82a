//! Reading CloneSet / Advanced DaemonSet manifests and pods (as kubectl prints them) into the
//! typed inputs of `kruise_core::rollout`.

use crate::CliError;
use jiff::Timestamp;
use kruise_core::intstr::IntOrPercent;
use kruise_core::rollout::active_pods::{self, SortKey};
use kruise_core::rollout::cloneset_budget::BudgetSpec;
use kruise_core::rollout::pods::{LifecycleState, PodView};
use kruise_core::rollout::progress::{Condition, ProgressSpec, ProgressStatus};
use serde_json::Value;

/// Label holding a pod's lifecycle state.
pub const LIFECYCLE_LABEL: &str = "lifecycle.apps.kruise.io/state";
/// Label marking a pod for deletion.
pub const SPECIFIED_DELETE_LABEL: &str = "apps.kruise.io/specified-delete";
/// Label carrying a pod's revision.
pub const REVISION_LABEL: &str = "controller-revision-hash";
/// CloneSet label switching scaling to exclude `PreparingDelete` pods.
pub const EXCLUDE_PREPARING_DELETE_LABEL: &str =
    "apps.kruise.io/cloneset-scaling-exclude-preparing-delete";

/// `a.b.c` lookup in a JSON object.
pub fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(v, |v, k| v.get(k))
        .filter(|v| !v.is_null())
}

fn int_at(v: &Value, path: &str) -> Result<Option<i32>, CliError> {
    match at(v, path) {
        None => Ok(None),
        Some(x) => x
            .as_i64()
            .and_then(|i| i32::try_from(i).ok())
            .map(Some)
            .ok_or_else(|| CliError::input(path, format_args!("expected an int32, got {x}"))),
    }
}

fn iop(v: Option<&Value>, path: &str) -> Result<Option<IntOrPercent>, CliError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(x) => serde_json::from_value(x.clone()).map(Some).map_err(|_| {
            CliError::input(path, format_args!("expected an int32 or a string, got {x}"))
        }),
    }
}

fn str_at<'a>(v: &'a Value, path: &str) -> &'a str {
    at(v, path).and_then(Value::as_str).unwrap_or("")
}

/// A rollout field of a CloneSet: v1beta1 keeps it under `updateStrategy.rollingUpdate`,
/// v1alpha1 directly under `updateStrategy`.
fn strategy_field<'a>(doc: &'a Value, name: &str) -> (Option<&'a Value>, String) {
    let beta = format!("spec.updateStrategy.rollingUpdate.{name}");
    match at(doc, &beta) {
        Some(v) => (Some(v), beta),
        None => {
            let alpha = format!("spec.updateStrategy.{name}");
            (at(doc, &alpha), alpha)
        }
    }
}

/// What `explain cloneset` and the demo need from a CloneSet manifest.
#[derive(Debug, Clone)]
pub struct CloneSet {
    /// `namespace/name`.
    pub name: String,
    /// Budget inputs (revision flags filled from the status).
    pub budget: BudgetSpec,
    /// `spec.updateStrategy.type`.
    pub update_type: String,
    /// `spec.minReadySeconds`.
    pub min_ready_seconds: i32,
    /// `spec.progressDeadlineSeconds`.
    pub progress_deadline_seconds: Option<i32>,
    /// `spec.scaleStrategy.podsToDelete`.
    pub pods_to_delete: Vec<String>,
    /// The status counters as the manifest carries them.
    pub status: ProgressStatus,
    /// The Progressing condition the object carries.
    pub condition: Option<Condition>,
}

impl CloneSet {
    /// Reads a CloneSet document.
    pub fn read(doc: &Value) -> Result<CloneSet, CliError> {
        kruise_core::api::served::check(doc, "CloneSet", "", false)?;
        let ns = str_at(doc, "metadata.namespace");
        let name = format!(
            "{}/{}",
            if ns.is_empty() { "default" } else { ns },
            str_at(doc, "metadata.name")
        );
        let replicas = int_at(doc, "spec.replicas")?.unwrap_or(1);
        let field = |n: &str| {
            let (v, path) = strategy_field(doc, n);
            iop(v, &path)
        };
        let paused = strategy_field(doc, "paused")
            .0
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let current = str_at(doc, "status.currentRevision").to_string();
        let update = str_at(doc, "status.updateRevision").to_string();
        let exclude = at(doc, "spec.scaleStrategy.excludePreparingDelete")
            .and_then(Value::as_bool)
            .unwrap_or(false)
            || at(doc, "metadata.labels")
                .and_then(|l| l.get(EXCLUDE_PREPARING_DELETE_LABEL))
                .and_then(Value::as_str)
                == Some("true");
        let budget = BudgetSpec {
            replicas,
            partition: field("partition")?,
            max_unavailable: field("maxUnavailable")?,
            max_surge: field("maxSurge")?,
            scale_max_unavailable: iop(
                at(doc, "spec.scaleStrategy.maxUnavailable"),
                "spec.scaleStrategy.maxUnavailable",
            )?,
            paused,
            revision_consistent: current == update,
            partition_rollback: false,
            preparing_update_as_update: false,
            scaling_exclude_preparing_delete: exclude,
        };
        let status = ProgressStatus {
            replicas: int_at(doc, "status.replicas")?.unwrap_or(0),
            updated_replicas: int_at(doc, "status.updatedReplicas")?.unwrap_or(0),
            updated_available_replicas: int_at(doc, "status.updatedAvailableReplicas")?
                .unwrap_or(0),
            expected_updated_replicas: int_at(doc, "status.expectedUpdatedReplicas")?.unwrap_or(0),
            current_revision: current,
            update_revision: update,
        };
        let condition = match at(doc, "status.conditions").and_then(Value::as_array) {
            None => None,
            Some(list) => match list
                .iter()
                .find(|c| c.get("type").and_then(Value::as_str) == Some("Progressing"))
            {
                None => None,
                Some(c) => Some(Condition {
                    status: str_at(c, "status").to_string(),
                    reason: str_at(c, "reason").to_string(),
                    message: str_at(c, "message").to_string(),
                    last_update_time: time_at(c, "lastUpdateTime")?,
                    last_transition_time: time_at(c, "lastTransitionTime")?,
                }),
            },
        };
        let pods_to_delete = at(doc, "spec.scaleStrategy.podsToDelete")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        Ok(CloneSet {
            name,
            budget,
            update_type: strategy_str(doc, "type"),
            min_ready_seconds: int_at(doc, "spec.minReadySeconds")?.unwrap_or(0),
            progress_deadline_seconds: int_at(doc, "spec.progressDeadlineSeconds")?,
            pods_to_delete,
            status,
            condition,
        })
    }

    /// The spec part of the progress decision.
    pub fn progress_spec(&self) -> ProgressSpec {
        ProgressSpec {
            replicas: self.budget.replicas,
            progress_deadline_seconds: self.progress_deadline_seconds,
            paused: self.budget.paused,
        }
    }
}

fn strategy_str(doc: &Value, name: &str) -> String {
    at(doc, &format!("spec.updateStrategy.{name}"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn time_at(v: &Value, key: &str) -> Result<Timestamp, CliError> {
    let s = str_at(v, key);
    kruise_core::time::parse_rfc3339(s).ok_or_else(|| {
        CliError::input(
            format!("status.conditions.{key}"),
            format_args!("{s:?} is not an RFC 3339 time"),
        )
    })
}

/// A pod read from a manifest, with what the ordering and the budget need.
#[derive(Debug, Clone)]
pub struct Pod {
    /// `metadata.name`.
    pub name: String,
    /// The budget's view of it.
    pub view: PodView,
    /// Its key in Kubernetes' `ActivePods` order (computed by `kruise_core`).
    order_key: SortKey,
}

/// Whether a pod's revision label names `update_revision` (full name, or the hash suffix).
fn on_revision(pod: &Value, update_revision: &str) -> bool {
    let Some(hash) = at(pod, "metadata.labels")
        .and_then(|l| l.get(REVISION_LABEL))
        .and_then(Value::as_str)
    else {
        return false;
    };
    !update_revision.is_empty()
        && (hash == update_revision
            || update_revision
                .rsplit_once('-')
                .is_some_and(|(_, h)| h == hash))
}

/// Reads the active pods (not terminating, not Succeeded/Failed) of `cs`; `now` decides
/// whether a ready pod has been ready for `minReadySeconds`.
pub fn read_pods(items: &[Value], cs: &CloneSet, now: Timestamp) -> Result<Vec<Pod>, CliError> {
    let mut out = Vec::new();
    for p in items {
        let phase = str_at(p, "status.phase");
        if at(p, "metadata.deletionTimestamp").is_some() || matches!(phase, "Succeeded" | "Failed")
        {
            continue;
        }
        let name = str_at(p, "metadata.name").to_string();
        let labels = at(p, "metadata.labels");
        let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
        let state: LifecycleState = match label(LIFECYCLE_LABEL) {
            None => LifecycleState::None,
            Some(s) => serde_json::from_value(Value::from(s)).map_err(|_| {
                CliError::input(
                    format!("pod {name}: metadata.labels"),
                    format_args!("unknown lifecycle state {s:?}"),
                )
            })?,
        };
        let ready_cond = at(p, "status.conditions")
            .and_then(Value::as_array)
            .and_then(|cs| {
                cs.iter()
                    .find(|c| c.get("type").and_then(Value::as_str) == Some("Ready"))
            });
        let ready = ready_cond.is_some_and(|c| str_at(c, "status") == "True");
        let ready_since = ready_cond
            .and_then(|c| kruise_core::time::parse_rfc3339(str_at(c, "lastTransitionTime")));
        let min_ready = jiff::SignedDuration::from_secs(i64::from(cs.min_ready_seconds));
        let available = phase == "Running"
            && ready
            && (cs.min_ready_seconds == 0
                || ready_since.is_some_and(|t| t.checked_add(min_ready).is_ok_and(|d| d <= now)));
        let order_key = serde_json::from_value::<active_pods::Pod>(p.clone())
            .map_err(|e| CliError::input(format!("pod {name}"), e))?
            .key()
            .map_err(|e| CliError::input(format!("pod {name}"), e))?;
        out.push(Pod {
            view: PodView {
                updated: on_revision(p, &cs.status.update_revision),
                lifecycle_state: state,
                available,
                specified_delete: label(SPECIFIED_DELETE_LABEL).is_some()
                    || cs.pods_to_delete.contains(&name),
            },
            name,
            order_key,
        });
    }
    Ok(out)
}

/// Kubernetes' `ActivePods` order (`kruise_core::rollout::active_pods`, the function behind
/// `rollout.active_pods_order`), then `PreparingUpdate` pods moved to the front.
pub fn sort_candidates(pods: &mut Vec<Pod>) {
    let keys: Vec<SortKey> = pods.iter().map(|p| p.order_key).collect();
    let mut slots: Vec<Option<Pod>> = std::mem::take(pods).into_iter().map(Some).collect();
    pods.extend(
        active_pods::order(&keys)
            .into_iter()
            .filter_map(|i| slots[i].take()),
    );
    pods.sort_by_key(|p| p.view.lifecycle_state != LifecycleState::PreparingUpdate);
}

/// Synthesises pod views from a CloneSet's status counters when no pods are given: updated pods
/// first, then old pods with the unavailable ones first (as the active-pods order puts them).
pub fn pods_from_status(doc: &Value) -> Result<Vec<PodView>, CliError> {
    let n = |p: &str| int_at(doc, p).map(|v| i64::from(v.unwrap_or(0)).max(0));
    let (total, updated, upd_avail, avail) = (
        n("status.replicas")?,
        n("status.updatedReplicas")?,
        n("status.updatedAvailableReplicas")?,
        n("status.availableReplicas")?,
    );
    let mut out = Vec::new();
    let old_avail = (avail - upd_avail).max(0);
    for i in 0..total {
        let (updated_pod, available) = if i < updated {
            (true, i < upd_avail)
        } else {
            (false, i - updated >= (total - updated) - old_avail)
        };
        out.push(PodView {
            updated: updated_pod,
            lifecycle_state: LifecycleState::None,
            available,
            specified_delete: false,
        });
    }
    Ok(out)
}
