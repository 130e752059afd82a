//! `api.delete_protection`: the `policy.kruise.io/delete-protection` admission decision
//! (`pkg/webhook/util/deletionprotection/deletion_protection.go`).
//!
//! A denial is reported as an error whose kind says why (`deletion_forbidden_*`,
//! `crd_cascading_gate_disabled`); the message is the webhook's 403 text.

use super::json::{as_obj, get, int_at, list_at, obj_at, str_at};
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The protection label.
pub const LABEL: &str = "policy.kruise.io/delete-protection";
/// Denied: label `Always`.
pub const FORBIDDEN_ALWAYS: &str = "deletion_forbidden_always";
/// Denied: `Cascading` workload with replicas > 0.
pub const FORBIDDEN_REPLICAS: &str = "deletion_forbidden_replicas";
/// Denied: `Cascading` Namespace with active pods.
pub const FORBIDDEN_ACTIVE_PODS: &str = "deletion_forbidden_active_pods";
/// Denied: `Cascading` Namespace with Bound PVCs.
pub const FORBIDDEN_BOUND_PVCS: &str = "deletion_forbidden_bound_pvcs";
/// Denied: `Cascading` CRD with live custom resources.
pub const FORBIDDEN_ACTIVE_CRS: &str = "deletion_forbidden_active_crs";
/// Denied: `Cascading` CRD while gate `DeletionProtectionForCRDCascadingGate` is off.
pub const CRD_GATE_DISABLED: &str = "crd_cascading_gate_disabled";

/// Feature gates consulted (both default off in v1.9.0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gates {
    /// `ResourcesDeletionProtection`.
    pub resources_deletion_protection: bool,
    /// `DeletionProtectionForCRDCascadingGate`.
    pub crd_cascading: bool,
}

fn deny(kind: &'static str, value: &str, extra: String) -> Error {
    Error::at(
        kind,
        format!("object.metadata.labels.{LABEL}"),
        format!("forbidden by ResourcesProtectionDeletion for {LABEL}={value}{extra}"),
    )
}

fn terminating(obj: &Map<String, Value>, path: &str) -> Result<bool> {
    Ok(match obj_at(obj, "metadata", path)? {
        Some(m) => get(m, "deletionTimestamp").is_some(),
        None => false,
    })
}

fn phase<'a>(obj: &'a Map<String, Value>, path: &str) -> Result<&'a str> {
    Ok(match obj_at(obj, "status", path)? {
        Some(s) => str_at(s, "phase", &format!("{path}.status"))?.unwrap_or(""),
        None => "",
    })
}

/// Counts dependents (`dependents.<key>`) satisfying `pred(object, path)`.
fn count(
    deps: Option<&Map<String, Value>>,
    key: &str,
    pred: impl Fn(&Map<String, Value>, &str) -> Result<bool>,
) -> Result<usize> {
    let Some(deps) = deps else { return Ok(0) };
    let mut n = 0;
    for (i, d) in list_at(deps, key, "dependents")?.iter().enumerate() {
        let p = format!("dependents.{key}[{i}]");
        if pred(as_obj(d, &p)?, &p)? {
            n += 1;
        }
    }
    Ok(n)
}

/// Decides a DELETE of `object` (the stored object) of `kind`; `Ok(())` = allowed.
///
/// `dependents` holds `pods`, `persistentVolumeClaims` (Namespace) and `customResources` (CRD).
/// Errors: the denial kinds above, `invalid_input` for wrongly typed members.
pub fn check(
    kind: &str,
    object: &Map<String, Value>,
    dependents: Option<&Map<String, Value>>,
    gates: Gates,
) -> Result<()> {
    if !gates.resources_deletion_protection || terminating(object, "object")? {
        return Ok(());
    }
    let value = match obj_at(object, "metadata", "object")? {
        Some(m) => match obj_at(m, "labels", "object.metadata")? {
            Some(l) => str_at(l, LABEL, "object.metadata.labels")?.unwrap_or(""),
            None => "",
        },
        None => "",
    };
    let cascading = match value {
        "Always" => false,
        "Cascading" => true,
        _ => return Ok(()),
    };
    let protected = matches!(
        kind,
        "Deployment"
            | "ReplicaSet"
            | "StatefulSet"
            | "CloneSet"
            | "UnitedDeployment"
            | "Namespace"
            | "CustomResourceDefinition"
            | "Service"
            | "Ingress"
    );
    if !protected {
        return Ok(());
    }
    if !cascading {
        return Err(deny(FORBIDDEN_ALWAYS, value, String::new()));
    }
    match kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" | "CloneSet" | "UnitedDeployment" => {
            let replicas = match obj_at(object, "spec", "object")? {
                Some(s) => int_at(s, "replicas", "object.spec")?,
                None => None,
            };
            match replicas {
                Some(n) if n > 0 => Err(deny(
                    FORBIDDEN_REPLICAS,
                    value,
                    format!(" and replicas {n}>0"),
                )),
                _ => Ok(()),
            }
        }
        "Namespace" => {
            let pods = count(dependents, "pods", |p, path| {
                Ok(!terminating(p, path)? && !matches!(phase(p, path)?, "Succeeded" | "Failed"))
            })?;
            if pods > 0 {
                return Err(deny(
                    FORBIDDEN_ACTIVE_PODS,
                    value,
                    format!(" and active pods {pods}>0"),
                ));
            }
            let pvcs = count(dependents, "persistentVolumeClaims", |p, path| {
                Ok(!terminating(p, path)? && phase(p, path)? == "Bound")
            })?;
            if pvcs > 0 {
                return Err(deny(
                    FORBIDDEN_BOUND_PVCS,
                    value,
                    format!(" and \"Bound\" status pvc {pvcs}>0"),
                ));
            }
            Ok(())
        }
        "CustomResourceDefinition" => {
            if !gates.crd_cascading {
                return Err(Error::at(
                    CRD_GATE_DISABLED,
                    format!("object.metadata.labels.{LABEL}"),
                    "feature-gate DeletionProtectionForCRDCascadingGate is not enabled",
                ));
            }
            let crs = count(dependents, "customResources", |c, path| {
                Ok(!terminating(c, path)?)
            })?;
            if crs > 0 {
                return Err(deny(
                    FORBIDDEN_ACTIVE_CRS,
                    value,
                    format!(" and active CRs {crs}>0"),
                ));
            }
            Ok(())
        }
        _ => Ok(()), // Service, Ingress: Cascading is not supported
    }
}

/// Input of `api.delete_protection`: the admission request of a deletion.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteProtectionInput {
    /// The kind of the object (`Deployment`, `ReplicaSet`, `StatefulSet`, `CloneSet`,
    /// `UnitedDeployment`, `Namespace`, `CustomResourceDefinition`, `Service`, `Ingress` are
    /// protected; any other kind is allowed). Required.
    pub kind: String,
    /// The stored object, as JSON: the webhook reads only `metadata.deletionTimestamp`, the
    /// `policy.kruise.io/delete-protection` label and (workloads) `spec.replicas` (absent or
    /// `null` members read as Go zero values, other members are ignored, a member read with the
    /// wrong JSON type is `invalid_input` naming it). Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub object: Value,
    /// What the webhook lists for a `Cascading` Namespace or CRD (absent or `null`: nothing).
    #[serde(default)]
    pub dependents: Option<Dependents>,
    /// The feature gates the webhook reads (absent or `null`: both off, the v1.9.0 defaults).
    #[serde(default)]
    pub feature_gates: Option<DeleteProtectionFeatureGates>,
    /// The admission operation (absent or `null`: `DELETE`); any other operation is allowed.
    #[serde(default)]
    pub operation: Option<String>,
    /// The admission sub-resource (absent or `null`: none); a sub-resource is allowed.
    #[serde(default)]
    pub sub_resource: Option<String>,
}

/// The objects a `Cascading` deletion is checked against, each list as JSON (read only when the
/// check needs it: `metadata.deletionTimestamp` and `status.phase` of each element; other members
/// of this object are ignored). Absent or `null` lists are empty.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dependents {
    /// The Namespace's pods (active: not terminating, phase not `Succeeded`/`Failed`).
    #[serde(default)]
    #[schemars(with = "Option<Vec<serde_json::Map<String, Value>>>")]
    pub pods: Option<Value>,
    /// The Namespace's PersistentVolumeClaims (counted: not terminating, phase `Bound`).
    #[serde(default)]
    #[schemars(with = "Option<Vec<serde_json::Map<String, Value>>>")]
    pub persistent_volume_claims: Option<Value>,
    /// The CRD's custom resources (counted: not terminating).
    #[serde(default)]
    #[schemars(with = "Option<Vec<serde_json::Map<String, Value>>>")]
    pub custom_resources: Option<Value>,
}

/// The feature gates `api.delete_protection` reads (others are ignored).
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
pub struct DeleteProtectionFeatureGates {
    /// `ResourcesDeletionProtection` (absent or `null`: off): without it nothing is protected.
    #[serde(default, rename = "ResourcesDeletionProtection")]
    pub resources_deletion_protection: Option<bool>,
    /// `DeletionProtectionForCRDCascadingGate` (absent or `null`: off).
    #[serde(default, rename = "DeletionProtectionForCRDCascadingGate")]
    pub deletion_protection_for_crd_cascading_gate: Option<bool>,
}

/// Output of `api.delete_protection`: the deletion is allowed (a denial is an error whose kind
/// says why).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DeleteProtectionOutput {
    /// Always `true`.
    pub allowed: bool,
}

/// Decides `api.delete_protection` on a typed input.
pub(crate) fn decide_typed(i: DeleteProtectionInput) -> Result<DeleteProtectionOutput> {
    let object = as_obj(&i.object, "object")?;
    let deps = i.dependents.map(|d| {
        let mut m = Map::new();
        for (k, v) in [
            ("pods", d.pods),
            ("persistentVolumeClaims", d.persistent_volume_claims),
            ("customResources", d.custom_resources),
        ] {
            if let Some(v) = v {
                m.insert(k.to_owned(), v);
            }
        }
        m
    });
    let g = i.feature_gates.unwrap_or_default();
    let gates = Gates {
        resources_deletion_protection: g.resources_deletion_protection.unwrap_or(false),
        crd_cascading: g
            .deletion_protection_for_crd_cascading_gate
            .unwrap_or(false),
    };
    let op = i.operation.as_deref().unwrap_or("DELETE");
    let sub = i.sub_resource.as_deref().unwrap_or("");
    if op == "DELETE" && sub.is_empty() {
        check(&i.kind, object, deps.as_ref(), gates)?;
    }
    Ok(DeleteProtectionOutput { allowed: true })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ON: Gates = Gates {
        resources_deletion_protection: true,
        crd_cascading: false,
    };

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn crd_gate_off_denies_cascading_and_messages_name_counts() {
        let o = obj(json!({"metadata": {"labels": {LABEL: "Cascading"}}}));
        assert_eq!(
            check("CustomResourceDefinition", &o, None, ON)
                .unwrap_err()
                .kind,
            CRD_GATE_DISABLED
        );
        let o = obj(json!({"metadata": {"labels": {LABEL: "Cascading"}}, "spec": {"replicas": 4}}));
        let e = check("CloneSet", &o, None, ON).unwrap_err();
        assert!(
            e.message
                .ends_with("policy.kruise.io/delete-protection=Cascading and replicas 4>0"),
            "{}",
            e.message
        );
    }

    #[test]
    fn terminating_dependents_do_not_count() {
        let o = obj(json!({"metadata": {"labels": {LABEL: "Cascading"}}}));
        let d = obj(
            json!({"pods": [{"metadata": {"deletionTimestamp": "2026-01-01T00:00:00Z"}, "status": {"phase": "Running"}}],
            "persistentVolumeClaims": [{"metadata": {"deletionTimestamp": "x"}, "status": {"phase": "Bound"}}]}),
        );
        assert!(check("Namespace", &o, Some(&d), ON).is_ok());
        assert!(
            check(
                "DaemonSet",
                &obj(json!({"metadata": {"labels": {LABEL: "Always"}}})),
                None,
                ON
            )
            .is_ok()
        );
        assert!(check("Service", &o, None, ON).is_ok());
    }

    #[test]
    fn wrong_replicas_type_is_invalid_input() {
        let o =
            obj(json!({"metadata": {"labels": {LABEL: "Cascading"}}, "spec": {"replicas": "3"}}));
        assert_eq!(
            check("Deployment", &o, None, ON)
                .unwrap_err()
                .field
                .as_deref(),
            Some("object.spec.replicas")
        );
    }
}
