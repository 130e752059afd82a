//! `api.delete_protection`: the `policy.kruise.io/delete-protection` admission decision
//! (`pkg/webhook/util/deletionprotection/deletion_protection.go`).
//!
//! A denial is reported as an error whose kind says why (`deletion_forbidden_*`,
//! `crd_cascading_gate_disabled`); the message is the webhook's 403 text.

use super::json::{as_obj, bool_at, get, int_at, list_at, obj_at, str_at};
use crate::error::{Error, Result};
use serde_json::{Map, Value, json};

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

/// Registry handler: input `{"kind", "object", "dependents"?, "featureGates"?, "operation"?,
/// "subResource"?}`; output `{"allowed": true}` or a denial error.
pub fn handle(input: &Value) -> Result<Value> {
    let inp = as_obj(input, "input")?;
    let kind = str_at(inp, "kind", "")?.ok_or_else(|| Error::invalid_input("kind", "missing"))?;
    let object = as_obj(
        get(inp, "object").ok_or_else(|| Error::invalid_input("object", "missing"))?,
        "object",
    )?;
    let deps = obj_at(inp, "dependents", "")?;
    let gates = match obj_at(inp, "featureGates", "")? {
        Some(g) => Gates {
            resources_deletion_protection: bool_at(
                g,
                "ResourcesDeletionProtection",
                "featureGates",
            )?
            .unwrap_or(false),
            crd_cascading: bool_at(g, "DeletionProtectionForCRDCascadingGate", "featureGates")?
                .unwrap_or(false),
        },
        None => Gates::default(),
    };
    let op = str_at(inp, "operation", "")?.unwrap_or("DELETE");
    let sub = str_at(inp, "subResource", "")?.unwrap_or("");
    if op == "DELETE" && sub.is_empty() {
        check(kind, object, deps, gates)?;
    }
    Ok(json!({"allowed": true}))
}

#[cfg(test)]
mod tests {
    use super::*;

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
