//! `api.workloadspread_subset`: which WorkloadSpread subset a pod is counted against at create,
//! delete and eviction (`pkg/util/workloadspread/workloadspread.go`, `utils.go`), including the
//! per-revision ("versioned") status accounting released in v1.6 (#1197) that keeps subset ratios
//! right during rolling updates with maxSurge.

use super::json::{as_obj, get, int_at, list_at, obj_at, str_at};
use super::launch_barrier::go_atoi_ignoring_error;
use crate::error::{Error, Result};
use crate::intstr::{Flavour, IntOrPercent, atoi};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The version used when versioned accounting is off for a pod.
pub const VERSION_IGNORED: &str = "versionIgnored";
/// Pod annotation naming the WorkloadSpread and subset a pod was injected with.
pub const MATCHED_ANNOTATION: &str = "apps.kruise.io/matched-workloadspread";
/// Placeholder key written for a pod without a name (the reference generates a UUID).
pub const GENERATED_UID: &str = "<generated-uid>";

/// The admission operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[schemars(rename = "WorkloadSpreadOperation")]
pub enum Operation {
    /// Pod creation.
    Create,
    /// Pod deletion.
    Delete,
    /// Pod eviction.
    Eviction,
}

/// One subset status entry, reduced to what the decision reads and writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubsetStatus {
    /// Subset name.
    pub name: String,
    /// Remaining quota; -1 = unlimited.
    pub missing_replicas: i64,
    /// Whether a `Schedulable=False` condition is present.
    pub unschedulable: bool,
    /// Pods recorded as being created.
    pub creating: BTreeSet<String>,
    /// Pods recorded as being deleted.
    pub deleting: BTreeSet<String>,
}

/// The decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The chosen / consulted subset.
    pub subset: Option<String>,
    /// `version(pod)`.
    pub version: String,
    /// Whether the list under `version` is written back.
    pub status_changed: bool,
    /// Whether a UUID key was generated for a nameless pod.
    pub generated_uid: bool,
    /// The full list persisted under `version` (when `status_changed`).
    pub subset_statuses: Option<Vec<SubsetStatus>>,
}

fn parse_status(v: &Value, path: &str) -> Result<SubsetStatus> {
    let o = as_obj(v, path)?;
    let mut unschedulable = false;
    for (i, c) in list_at(o, "conditions", path)?.iter().enumerate() {
        let p = format!("{path}.conditions[{i}]");
        let c = as_obj(c, &p)?;
        if str_at(c, "type", &p)? == Some("Schedulable")
            && str_at(c, "status", &p)? == Some("False")
        {
            unschedulable = true;
        }
    }
    let keys = |k: &str| -> Result<BTreeSet<String>> {
        Ok(obj_at(o, k, path)?
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default())
    };
    Ok(SubsetStatus {
        name: str_at(o, "name", path)?.unwrap_or("").to_owned(),
        missing_replicas: int_at(o, "missingReplicas", path)?.unwrap_or(0),
        unschedulable,
        creating: keys("creatingPods")?,
        deleting: keys("deletingPods")?,
    })
}

fn parse_statuses(list: &[Value], path: &str) -> Result<Vec<SubsetStatus>> {
    list.iter()
        .enumerate()
        .map(|(i, v)| parse_status(v, &format!("{path}[{i}]")))
        .collect()
}

/// The pod's controller owner reference (first with `controller: true`).
fn controller(meta: Option<&Map<String, Value>>) -> Result<Option<&Map<String, Value>>> {
    let Some(meta) = meta else { return Ok(None) };
    for (i, r) in list_at(meta, "ownerReferences", "pod.metadata")?
        .iter()
        .enumerate()
    {
        let p = format!("pod.metadata.ownerReferences[{i}]");
        let r = as_obj(r, &p)?;
        if get(r, "controller").and_then(Value::as_bool) == Some(true) {
            return Ok(Some(r));
        }
    }
    Ok(None)
}

/// `version(pod)`: the pod-template-hash label, else the part of controller-revision-hash after its
/// last `-`, when the controller owner's lower-cased kind is in `kinds` (`deployment` implies
/// `replicaset`); otherwise [`VERSION_IGNORED`].
pub fn pod_version(
    labels: Option<&Map<String, Value>>,
    owner_kind: Option<&str>,
    kinds: &[&str],
) -> String {
    let Some(kind) = owner_kind.map(str::to_ascii_lowercase) else {
        return VERSION_IGNORED.into();
    };
    let enabled =
        kinds.contains(&kind.as_str()) || (kind == "replicaset" && kinds.contains(&"deployment"));
    if !enabled {
        return VERSION_IGNORED.into();
    }
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    if let Some(h) = label("pod-template-hash") {
        return h.to_owned();
    }
    if let Some(h) = label("controller-revision-hash") {
        return h.rsplit('-').next().unwrap_or(h).to_owned();
    }
    VERSION_IGNORED.into()
}

/// The trailing ordinal of a StatefulSet pod name (`(.*)-([0-9]+)$` as int32), or -1.
pub fn ordinal(name: &str) -> i64 {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (head, tail) = name.split_at(name.len() - digits);
    if digits == 0 || !head.ends_with('-') {
        return -1;
    }
    match atoi(tail.bytes()) {
        Some(n) if n <= i64::from(i32::MAX) => n,
        _ => -1,
    }
}

/// Reads the `apps.kruise.io/matched-workloadspread` annotation: `(name, subset)` with keys
/// matched case-insensitively; `None` when absent, empty or not a JSON object.
fn matched(annotations: Option<&Map<String, Value>>) -> Option<(String, Option<String>)> {
    let raw = annotations?.get(MATCHED_ANNOTATION)?.as_str()?;
    let v: Value = serde_json::from_str(raw).ok()?;
    let o = v.as_object()?;
    let field = |want: &str| {
        o.iter()
            .rfind(|(k, _)| k.eq_ignore_ascii_case(want))
            .and_then(|(_, v)| v.as_str().map(str::to_owned))
    };
    Some((field("name").unwrap_or_default(), field("subset")))
}

/// Decides for one pod. `ws` is the WorkloadSpread JSON, `pod` the pod JSON.
///
/// Errors: `invalid_input` naming the field for wrongly typed members.
pub fn decide(
    ws: &Map<String, Value>,
    pod: &Map<String, Value>,
    op: Operation,
    workload_replicas: i64,
    kinds: &[&str],
) -> Result<Outcome> {
    let meta = obj_at(pod, "metadata", "pod")?;
    let labels = meta
        .map(|m| obj_at(m, "labels", "pod.metadata"))
        .transpose()?
        .flatten();
    let annotations = meta
        .map(|m| obj_at(m, "annotations", "pod.metadata"))
        .transpose()?
        .flatten();
    let owner = controller(meta)?;
    let owner_kind = owner
        .map(|o| str_at(o, "kind", "pod.metadata.ownerReferences"))
        .transpose()?
        .flatten();
    let version = pod_version(labels, owner_kind, kinds);
    let nothing = |version: String| Outcome {
        subset: None,
        version,
        status_changed: false,
        generated_uid: false,
        subset_statuses: None,
    };

    // 7.1 preconditions
    let terminating = meta.is_some_and(|m| get(m, "deletionTimestamp").is_some());
    let phase = match obj_at(pod, "status", "pod")? {
        Some(s) => str_at(s, "phase", "pod.status")?.unwrap_or(""),
        None => "",
    };
    if terminating || matches!(phase, "Succeeded" | "Failed") || owner.is_none() {
        return Ok(nothing(version));
    }
    let ws_meta = obj_at(ws, "metadata", "workloadSpread")?;
    let ws_name = ws_meta
        .map(|m| str_at(m, "name", "workloadSpread.metadata"))
        .transpose()?
        .flatten()
        .unwrap_or("");
    let mut delete_subset = None;
    match op {
        Operation::Create => {
            let api_version = owner
                .and_then(|o| o.get("apiVersion"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let group = api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
            let supported = matches!(
                (owner_kind.unwrap_or(""), group),
                ("Deployment", "apps")
                    | ("ReplicaSet", "apps")
                    | ("CloneSet", "apps.kruise.io")
                    | ("Job", "batch")
                    | ("StatefulSet", "apps")
                    | ("StatefulSet", "apps.kruise.io")
            );
            if !supported {
                return Ok(nothing(version));
            }
        }
        Operation::Delete | Operation::Eviction => match matched(annotations) {
            // an absent "subset" key reads as "" (Go zero value) and is looked up as such
            Some((name, subset)) if name == ws_name => {
                delete_subset = Some(subset.unwrap_or_default())
            }
            _ => return Ok(nothing(version)),
        },
    }

    let spec = obj_at(ws, "spec", "workloadSpread")?;
    let subsets = match spec {
        Some(s) => list_at(s, "subsets", "workloadSpread.spec")?,
        None => &[],
    };
    let mut spec_subsets = Vec::with_capacity(subsets.len());
    for (i, s) in subsets.iter().enumerate() {
        let p = format!("workloadSpread.spec.subsets[{i}]");
        let s = as_obj(s, &p)?;
        let max: Option<IntOrPercent> = match get(s, "maxReplicas") {
            None => None,
            Some(v) => Some(crate::registry::decode(v).map_err(|_| {
                Error::invalid_input(
                    format!("{p}.maxReplicas"),
                    "expected an integer or a string",
                )
            })?),
        };
        spec_subsets.push((str_at(s, "name", &p)?.unwrap_or("").to_owned(), max));
    }
    let status = obj_at(ws, "status", "workloadSpread")?;

    // 7.3.1 single unlimited subset
    if let [(name, None)] = spec_subsets.as_slice() {
        return Ok(Outcome {
            subset: Some(name.clone()),
            ..nothing(version)
        });
    }
    // 7.3.2 StatefulSet ordinals
    let target_kind = spec
        .map(|s| obj_at(s, "targetRef", "workloadSpread.spec"))
        .transpose()?
        .flatten()
        .map(|t| str_at(t, "kind", "workloadSpread.spec.targetRef"))
        .transpose()?
        .flatten();
    if target_kind == Some("StatefulSet") {
        let plain = match status {
            Some(s) => parse_statuses(
                list_at(s, "subsetStatuses", "workloadSpread.status")?,
                "workloadSpread.status.subsetStatuses",
            )?,
            None => Vec::new(),
        };
        let name = meta
            .map(|m| str_at(m, "name", "pod.metadata"))
            .transpose()?
            .flatten()
            .unwrap_or("");
        let ord = ordinal(name);
        let mut threshold = 0i64;
        for (sname, max) in &spec_subsets {
            if plain.iter().any(|st| st.name == *sname && st.unschedulable) {
                continue;
            }
            // Go: an int64 sum of Go ints; a string's IntValue() is Atoi's result, errors ignored
            threshold = threshold.wrapping_add(match max {
                None => i64::from(i32::MAX),
                Some(IntOrPercent::Int(n)) => i64::from(*n),
                Some(IntOrPercent::String(s)) => go_atoi_ignoring_error(s.as_bytes()),
            });
            if ord < threshold {
                return Ok(Outcome {
                    subset: Some(sname.clone()),
                    ..nothing(version)
                });
            }
        }
        return Ok(nothing(version));
    }

    // 7.3.3 versioned accounting
    let versioned = match status {
        Some(s) => obj_at(s, "versionedSubsetStatuses", "workloadSpread.status")?,
        None => None,
    };
    let vpath = format!("workloadSpread.status.versionedSubsetStatuses.{version}");
    let mut list = match versioned {
        Some(m) => parse_statuses(
            list_at(m, &version, "workloadSpread.status.versionedSubsetStatuses")?,
            &vpath,
        )?,
        None => Vec::new(),
    };
    if list.is_empty() {
        list = spec_subsets
            .iter()
            .map(|(name, max)| SubsetStatus {
                name: name.clone(),
                missing_replicas: match max {
                    None => -1,
                    Some(m) => m
                        .scale(workload_replicas, true, Flavour::Scaled)
                        .unwrap_or(0),
                },
                unschedulable: false,
                creating: BTreeSet::new(),
                deleting: BTreeSet::new(),
            })
            .collect();
    }
    let pod_name = meta
        .map(|m| str_at(m, "name", "pod.metadata"))
        .transpose()?
        .flatten()
        .unwrap_or("");
    let recorded = |l: &[SubsetStatus]| {
        l.iter()
            .position(|s| s.creating.contains(pod_name) || s.deleting.contains(pod_name))
    };
    match op {
        Operation::Create => {
            if !pod_name.is_empty()
                && let Some(i) = recorded(&list)
            {
                return Ok(Outcome {
                    subset: Some(list[i].name.clone()),
                    ..nothing(version)
                });
            }
            let Some(i) = list.iter().position(|s| {
                !s.unschedulable && (s.missing_replicas > 0 || s.missing_replicas == -1)
            }) else {
                return Ok(nothing(version));
            };
            let subset = list[i].name.clone();
            if list[i].missing_replicas == -1 {
                return Ok(Outcome {
                    subset: Some(subset),
                    ..nothing(version)
                });
            }
            let generated = pod_name.is_empty();
            let key = if generated { GENERATED_UID } else { pod_name };
            list[i].creating.insert(key.to_owned());
            list[i].missing_replicas -= 1;
            Ok(Outcome {
                subset: Some(subset),
                version,
                status_changed: true,
                generated_uid: generated,
                subset_statuses: Some(list),
            })
        }
        Operation::Delete | Operation::Eviction => {
            if recorded(&list).is_some() {
                return Ok(nothing(version));
            }
            let Some(want) = delete_subset else {
                return Ok(nothing(version));
            };
            let Some(i) = list.iter().position(|s| s.name == want) else {
                return Ok(nothing(version));
            };
            if list[i].missing_replicas == -1 {
                return Ok(Outcome {
                    subset: Some(want),
                    ..nothing(version)
                });
            }
            list[i].deleting.insert(pod_name.to_owned());
            if list[i].missing_replicas >= 0 {
                list[i].missing_replicas += 1;
            }
            Ok(Outcome {
                subset: Some(want),
                version,
                status_changed: true,
                generated_uid: false,
                subset_statuses: Some(list),
            })
        }
    }
}

/// Input of `api.workloadspread_subset`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WorkloadspreadSubsetInput {
    /// The WorkloadSpread, as JSON: the handler reads `metadata.name`, `spec.targetRef.kind`,
    /// `spec.subsets[].name`/`maxReplicas` and the subset statuses (`status.subsetStatuses`,
    /// `status.versionedSubsetStatuses`); absent or `null` members read as Go zero values, other
    /// members are ignored, a member read with the wrong JSON type is `invalid_input` naming it.
    /// Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub workload_spread: Value,
    /// The pod, as JSON: its name, labels, annotations, controller owner reference,
    /// `deletionTimestamp` and `status.phase` are read, as for `workloadSpread`. Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub pod: Value,
    /// The admission operation. Required.
    pub operation: Operation,
    /// The workload's replicas, what percentage `maxReplicas` are taken of (absent or `null`: 0).
    #[serde(default)]
    pub workload_replicas: Option<i64>,
    /// Lower-case workload kinds whose pods are accounted per revision (absent or `null`:
    /// `["deployment", "replicaset"]`, v1.9.0's; `deployment` implies `replicaset`).
    #[serde(default)]
    pub versioned_status_kinds: Option<Vec<String>>,
    /// The request's namespace and the pod webhooks' `namespaceSelector`
    /// ([`crate::k8s::webhook_namespace`]); when the selector excludes the namespace the webhooks
    /// are not called: no subset, nothing written (`webhookExcluded`). Absent or null: called.
    #[serde(default)]
    pub webhook_namespace: Option<crate::k8s::webhook_namespace::WebhookNamespace>,
}

/// Output of `api.workloadspread_subset`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadspreadSubsetOutput {
    /// The subset chosen (Create) or consulted (Delete, Eviction); `null`: none.
    pub subset: Option<String>,
    /// The pod's version, the key of the versioned status list (`versionIgnored` when per-revision
    /// accounting is off for the pod).
    pub version: String,
    /// Whether the status list under `version` is written back.
    pub status_changed: bool,
    /// Whether a UUID key was generated for a nameless pod (written as `<generated-uid>`).
    pub generated_uid: bool,
    /// The whole list persisted under `version`; absent unless `statusChanged`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subset_statuses: Option<Vec<SubsetStatusRecord>>,
    /// `true` when `webhookNamespace` excludes the namespace (then `subset` is null, `version`
    /// `""` and nothing is written); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub webhook_excluded: bool,
}

/// One subset status entry as written back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubsetStatusRecord {
    /// Subset name.
    pub name: String,
    /// Remaining quota; -1 = unlimited.
    pub missing_replicas: i64,
    /// Pods recorded as being created (names, sorted).
    pub creating_pods: BTreeSet<String>,
    /// Pods recorded as being deleted (names, sorted).
    pub deleting_pods: BTreeSet<String>,
}

/// Decides `api.workloadspread_subset` on a typed input.
pub(crate) fn decide_typed(i: WorkloadspreadSubsetInput) -> Result<WorkloadspreadSubsetOutput> {
    if crate::k8s::webhook_namespace::excluded(i.webhook_namespace.as_ref(), "webhookNamespace")? {
        return Ok(WorkloadspreadSubsetOutput {
            subset: None,
            version: String::new(),
            status_changed: false,
            generated_uid: false,
            subset_statuses: None,
            webhook_excluded: true,
        });
    }
    let ws = as_obj(&i.workload_spread, "workloadSpread")?;
    let pod = as_obj(&i.pod, "pod")?;
    let kinds: Vec<&str> = match &i.versioned_status_kinds {
        None => vec!["deployment", "replicaset"],
        Some(k) => k.iter().map(String::as_str).collect(),
    };
    let o = decide(
        ws,
        pod,
        i.operation,
        i.workload_replicas.unwrap_or(0),
        &kinds,
    )?;
    Ok(WorkloadspreadSubsetOutput {
        subset: o.subset,
        version: o.version,
        status_changed: o.status_changed,
        generated_uid: o.generated_uid,
        webhook_excluded: false,
        subset_statuses: o.subset_statuses.map(|l| {
            l.into_iter()
                .map(|s| SubsetStatusRecord {
                    name: s.name,
                    missing_replicas: s.missing_replicas,
                    creating_pods: s.creating,
                    deleting_pods: s.deleting,
                })
                .collect()
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ordinals() {
        assert_eq!(ordinal("sts-4"), 4);
        assert_eq!(ordinal("sts-a"), -1);
        assert_eq!(ordinal("sts4"), -1);
        assert_eq!(ordinal("sts-2147483648"), -1);
        assert_eq!(ordinal("a-b-007"), 7);
    }

    #[test]
    fn statefulset_string_limits_use_go_atoi() {
        let ws = json!({"metadata": {"name": "w"}, "spec": {"targetRef": {"kind": "StatefulSet"},
            "subsets": [{"name": "a", "maxReplicas": "50%"}, {"name": "b", "maxReplicas": "3000000000"}, {"name": "c"}]}});
        let ws = ws.as_object().cloned().unwrap_or_default();
        let pick = |n: &str| {
            let p = json!({"metadata": {"name": n, "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "controller": true}]}});
            let p = p.as_object().cloned().unwrap_or_default();
            decide(&ws, &p, Operation::Create, 0, &[]).unwrap().subset
        };
        // "50%" counts as 0; "3000000000" is a valid 64-bit Go int
        assert_eq!(pick("s-0").as_deref(), Some("b"));
        assert_eq!(pick("s-2147483647").as_deref(), Some("b"));
    }

    #[test]
    fn delete_below_minus_one_records_without_increment() {
        let ws = json!({"metadata": {"name": "w"}, "spec": {"targetRef": {"kind": "CloneSet"},
            "subsets": [{"name": "a", "maxReplicas": 1}, {"name": "b"}]},
            "status": {"versionedSubsetStatuses": {"versionIgnored": [{"name": "a", "missingReplicas": -3}, {"name": "b", "missingReplicas": -1}]}}});
        let pod = json!({"metadata": {"name": "p", "ownerReferences": [{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "controller": true}],
            "annotations": {MATCHED_ANNOTATION: "{\"name\":\"w\",\"subset\":\"a\"}"}}});
        let (ws, pod) = (
            ws.as_object().cloned().unwrap_or_default(),
            pod.as_object().cloned().unwrap_or_default(),
        );
        let o = decide(&ws, &pod, Operation::Delete, 0, &[]).unwrap();
        assert!(o.status_changed);
        let list = o.subset_statuses.unwrap_or_default();
        assert_eq!(list[0].missing_replicas, -3);
        assert!(list[0].deleting.contains("p"));
    }

    #[test]
    fn versions() {
        let l = json!({"controller-revision-hash": "a-b-c"});
        let l = l.as_object();
        assert_eq!(pod_version(l, Some("ReplicaSet"), &["deployment"]), "c");
        assert_eq!(
            pod_version(l, Some("CloneSet"), &["deployment"]),
            VERSION_IGNORED
        );
        assert_eq!(pod_version(l, Some("CloneSet"), &["cloneset"]), "c");
        assert_eq!(
            pod_version(None, Some("ReplicaSet"), &["replicaset"]),
            VERSION_IGNORED
        );
    }

    #[test]
    fn percent_quota_initialised_from_workload_replicas() {
        let ws = json!({"metadata": {"name": "w"}, "spec": {"targetRef": {"kind": "Deployment"},
            "subsets": [{"name": "a", "maxReplicas": "50%"}, {"name": "b"}]}});
        let pod = json!({"metadata": {"name": "p", "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "controller": true}],
            "labels": {"pod-template-hash": "h"}}});
        let (ws, pod) = (
            ws.as_object().cloned().unwrap_or_default(),
            pod.as_object().cloned().unwrap_or_default(),
        );
        let o = decide(&ws, &pod, Operation::Create, 5, &["deployment"]).unwrap();
        assert_eq!(o.subset.as_deref(), Some("a"));
        assert_eq!(o.version, "h");
        let list = o.subset_statuses.unwrap_or_default();
        assert_eq!(list[0].missing_replicas, 2); // ceil(2.5) - 1
        assert_eq!(list[1].missing_replicas, -1);
    }
}
