//! One pass of OpenKruise v1.9.0's ResourceDistribution controller (`doReconcile`): the target
//! namespaces, what happens to each namespace's copy, and the new status.
//!
//! 1. `spec.resource` is read (`DeserializeResource`); an unreadable one stops the pass.
//! 2. `listNamespacesForDistributor`: matched = every existing namespace (`allNamespaces`), or
//!    the `includedNamespaces` (existing or not) plus, when the selector has any requirement, the
//!    existing namespaces whose labels it matches; minus `excludedNamespaces`. Unmatched = the
//!    existing namespaces not matched. Both sorted by name.
//! 3. `distributeResource`, per matched namespace: a missing or terminating namespace fails with
//!    `NamespaceNotExists`; no copy: create; a copy whose controller is not this distribution:
//!    `ConflictOccurred`; a copy that differs from the resource outside `metadata` and `status`
//!    (`needToUpdate`): update; else unchanged.
//! 4. `cleanResource`, per unmatched namespace: a copy controlled by this distribution in a
//!    namespace that is not terminating is deleted.
//! 5. `calculateNewStatus`: desired = matched, succeeded = matched without failure, failed = the
//!    rest, `observedGeneration`, and the six conditions.

use super::types::{
    API_VERSION, Condition, INVALID_LABEL_SELECTOR, INVALID_STATUS, KIND, NamespaceObject,
    Resource, ResourceDistribution, read_resource,
};
use crate::error::{Error, Result};
use crate::k8s::null_as_default;
use crate::k8s::selector_match::Selector;
use crate::sidecarset::pod::null_items;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The condition types, in the controller's order.
pub const CONDITION_TYPES: [&str; 6] = [
    "GetResourceFailed",
    "CreateResourceFailed",
    "UpdateResourceFailed",
    "DeleteResourceFailed",
    "ConflictOccurred",
    "NamespaceNotExists",
];
const CONFLICT: usize = 4;
const NOT_EXISTS: usize = 5;
/// The `reason` of a condition without failures.
pub const REASON_SUCCEEDED: &str = "Succeeded";
/// The `reason` of `ConflictOccurred`.
pub const REASON_CONFLICT: &str =
    "conflict with existing resources because of the same namespace, group, version, kind and name";
/// The `reason` of `NamespaceNotExists`.
pub const REASON_NOT_EXISTS: &str = "namespace not found or is terminating";

/// `distribution.targets` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TargetsInput {
    /// The ResourceDistribution (a whole object may be passed): `metadata.name`,
    /// `metadata.generation`, `spec.resource`, `spec.targets`, `status.conditions`.
    pub resource_distribution: ResourceDistribution,
    /// Every Namespace of the cluster (whole objects may be passed): `metadata.name`,
    /// `metadata.labels`, `metadata.deletionTimestamp`. Null: none. Names must be unique and
    /// non-empty.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<NamespaceObject>>>")]
    pub namespaces: Vec<NamespaceObject>,
    /// The existing objects with the resource's `apiVersion`, `kind` and `metadata.name`, as read
    /// from the API server (whole objects; `metadata.namespace` says where each is, and is
    /// unique). Objects of another apiVersion, kind or name are ignored. Null: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Map<String, Value>>>")]
    pub copies: Vec<Map<String, Value>>,
    /// The time written as `lastTransitionTime` of a condition whose status changes (RFC 3339).
    /// Null or absent: such a condition's `lastTransitionTime` is null.
    #[serde(default)]
    pub now: Option<String>,
}

/// What the pass does with one namespace's copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Matched, no copy yet: the copy is created.
    Create,
    /// Matched, the copy differs from the resource outside `metadata` and `status`: it is
    /// replaced (labels, annotations and finalizers of the old copy are kept).
    Update,
    /// Matched, the copy already equals the resource.
    Unchanged,
    /// Matched, but an object of that name exists and is not controlled by this distribution
    /// (`ConflictOccurred`).
    Conflict,
    /// Matched, but the namespace does not exist or is terminating (`NamespaceNotExists`).
    NamespaceNotFound,
    /// Unmatched, and its copy is controlled by this distribution: the copy is deleted.
    Delete,
    /// Unmatched, and nothing to delete (no copy, another owner, or a terminating namespace).
    None,
}

/// One namespace and its action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NamespaceAction {
    /// The namespace.
    pub namespace: String,
    /// What happens to its copy.
    pub action: Action,
}

/// The status the pass computes (written when it differs from the old one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusOut {
    /// `desired`: the number of matched namespaces.
    pub desired: i64,
    /// `succeeded`: matched namespaces without failure.
    pub succeeded: i64,
    /// `failed`: `desired - succeeded`.
    pub failed: i64,
    /// `observedGeneration`: `metadata.generation`.
    pub observed_generation: i64,
    /// The six conditions, in the order of [`CONDITION_TYPES`].
    pub conditions: Vec<Condition>,
}

/// `distribution.targets` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetsOutput {
    /// The matched namespaces, sorted.
    pub matched_namespaces: Vec<String>,
    /// The existing namespaces not matched, sorted.
    pub unmatched_namespaces: Vec<String>,
    /// Every matched namespace and then every unmatched one, with its action.
    pub namespaces: Vec<NamespaceAction>,
    /// The new status.
    pub status: StatusOut,
}

/// `isControlledByDistributor`: the copy's controller reference names this distribution
/// (apiVersion `apps.kruise.io/v1alpha1`, kind, name).
fn controlled(copy: &Map<String, Value>, name: &str) -> bool {
    let owners = copy
        .get("metadata")
        .and_then(|m| m.get("ownerReferences"))
        .and_then(Value::as_array);
    let controller = owners
        .into_iter()
        .flatten()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true));
    let s = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    controller.is_some_and(|r| {
        s(r, "apiVersion") == API_VERSION && s(r, "kind") == KIND && s(r, "name") == name
    })
}

/// `needToUpdate`: the objects differ outside `metadata` and `status`.
fn need_to_update(copy: &Map<String, Value>, resource: &Map<String, Value>) -> bool {
    let strip = |m: &Map<String, Value>| -> BTreeMap<String, Value> {
        m.iter()
            .filter(|(k, _)| *k != "metadata" && *k != "status")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    strip(copy) != strip(resource)
}

fn str_at<'a>(o: &'a Map<String, Value>, path: &[&str]) -> &'a str {
    let mut v = path.first().and_then(|k| o.get(*k));
    for k in &path[1..] {
        v = v.and_then(|x| x.get(*k));
    }
    v.and_then(Value::as_str).unwrap_or("")
}

/// The copies by namespace, those of the resource's apiVersion, kind and name.
fn index_copies<'a>(
    copies: &'a [Map<String, Value>],
    res: &Resource,
) -> Result<BTreeMap<&'a str, &'a Map<String, Value>>> {
    let mut by_ns = BTreeMap::new();
    for (i, c) in copies.iter().enumerate() {
        let same = str_at(c, &["apiVersion"]) == res.api_version
            && str_at(c, &["kind"]) == res.kind
            && str_at(c, &["metadata", "name"]) == res.name;
        if !same {
            continue;
        }
        let ns = str_at(c, &["metadata", "namespace"]);
        let field = || format!("copies[{i}].metadata.namespace");
        if ns.is_empty() {
            return Err(Error::invalid_input(field(), "a copy needs its namespace"));
        }
        if by_ns.insert(ns, c).is_some() {
            return Err(Error::invalid_input(
                field(),
                format!("a second copy in {ns:?}"),
            ));
        }
    }
    Ok(by_ns)
}

/// `listNamespacesForDistributor`: (matched, unmatched), sorted.
fn list_namespaces(
    rd: &ResourceDistribution,
    existing: &BTreeMap<&str, &NamespaceObject>,
) -> Result<(BTreeSet<String>, BTreeSet<String>)> {
    let t = &rd.spec.targets;
    let mut matched: BTreeSet<String> = if t.all_namespaces {
        existing.keys().map(|s| s.to_string()).collect()
    } else {
        t.included_namespaces
            .list
            .iter()
            .map(|n| n.name.clone())
            .collect()
    };
    if !t.all_namespaces && !t.namespace_label_selector.is_empty() {
        let sel = Selector::from_option(Some(&t.namespace_label_selector)).map_err(|e| {
            Error::at(
                INVALID_LABEL_SELECTOR,
                format!(
                    "resourceDistribution.spec.targets.namespaceLabelSelector.{}",
                    e.field
                ),
                e.detail,
            )
        })?;
        for (name, ns) in existing {
            if sel.matches(&ns.metadata.labels) {
                matched.insert(name.to_string());
            }
        }
    }
    for n in &t.excluded_namespaces.list {
        matched.remove(&n.name);
    }
    let unmatched = existing
        .keys()
        .filter(|n| !matched.contains(**n))
        .map(|s| s.to_string())
        .collect();
    Ok((matched, unmatched))
}

/// `distribution.targets`: one `doReconcile` pass.
pub fn targets(input: &TargetsInput) -> Result<TargetsOutput> {
    let rd = &input.resource_distribution;
    let res = read_resource(rd.spec.resource.as_ref())?;
    for (i, n) in rd.spec.targets.included_namespaces.list.iter().enumerate() {
        if n.name.is_empty() {
            return Err(Error::invalid_input(
                format!("resourceDistribution.spec.targets.includedNamespaces.list[{i}].name"),
                "empty namespace name",
            ));
        }
    }
    let mut existing = BTreeMap::new();
    for (i, ns) in input.namespaces.iter().enumerate() {
        let name = ns.metadata.name.as_str();
        let field = || format!("namespaces[{i}].metadata.name");
        if name.is_empty() {
            return Err(Error::invalid_input(field(), "empty namespace name"));
        }
        if existing.insert(name, ns).is_some() {
            return Err(Error::invalid_input(
                field(),
                format!("{name:?} listed twice"),
            ));
        }
    }
    let copies = index_copies(&input.copies, &res)?;
    let (matched, unmatched) = list_namespaces(rd, &existing)?;
    let old = &rd.status.conditions;
    if !old.is_empty() && old.len() < CONDITION_TYPES.len() {
        return Err(Error::at(
            INVALID_STATUS,
            "resourceDistribution.status.conditions",
            format!(
                "{} conditions: the controller compares them by index with its six",
                old.len()
            ),
        ));
    }

    let live = |n: &str| {
        existing
            .get(n)
            .filter(|ns| ns.metadata.deletion_timestamp.is_none())
    };
    let mut failed: [Vec<String>; 6] = Default::default();
    let mut namespaces = Vec::new();
    for n in &matched {
        let action = match (live(n), copies.get(n.as_str())) {
            (None, _) => Action::NamespaceNotFound,
            (Some(_), None) => Action::Create,
            (Some(_), Some(c)) if !controlled(c, &rd.metadata.name) => Action::Conflict,
            (Some(_), Some(c)) if need_to_update(c, res.object) => Action::Update,
            _ => Action::Unchanged,
        };
        match action {
            Action::NamespaceNotFound => failed[NOT_EXISTS].push(n.clone()),
            Action::Conflict => failed[CONFLICT].push(n.clone()),
            _ => {}
        }
        namespaces.push(NamespaceAction {
            namespace: n.clone(),
            action,
        });
    }
    for n in &unmatched {
        let delete = live(n).is_some()
            && copies
                .get(n.as_str())
                .is_some_and(|c| controlled(c, &rd.metadata.name));
        namespaces.push(NamespaceAction {
            namespace: n.clone(),
            action: if delete { Action::Delete } else { Action::None },
        });
    }

    let desired = matched.len() as i64;
    let failures = (failed[CONFLICT].len() + failed[NOT_EXISTS].len()) as i64;
    let conditions = CONDITION_TYPES
        .iter()
        .zip(failed)
        .enumerate()
        .map(|(i, (ty, failed_namespaces))| {
            let (status, reason) = match (failed_namespaces.is_empty(), i) {
                (true, _) => ("False", REASON_SUCCEEDED),
                (false, CONFLICT) => ("True", REASON_CONFLICT),
                (false, _) => ("True", REASON_NOT_EXISTS),
            };
            let last_transition_time = match old.get(i) {
                Some(o) if o.status == status => o.last_transition_time.clone(),
                _ => input.now.clone(),
            };
            Condition {
                condition_type: ty.to_string(),
                status: status.to_string(),
                last_transition_time,
                reason: reason.to_string(),
                failed_namespaces,
            }
        })
        .collect();
    Ok(TargetsOutput {
        matched_namespaces: matched.into_iter().collect(),
        unmatched_namespaces: unmatched.into_iter().collect(),
        namespaces,
        status: StatusOut {
            desired,
            succeeded: desired - failures,
            failed: failures,
            observed_generation: rd.metadata.generation,
            conditions,
        },
    })
}
