//! `api.sidecarset_namespace_index`: the namespace index values a SidecarSet is filed under
//! (`pkg/util/fieldindex/register.go`, `IndexSidecarSet` / `IndexSidecarSetV1Beta1`).
//!
//! The pod webhook lists the SidecarSets filed under the pod's namespace plus those filed under
//! [`CLUSTER_SCOPE`], then re-checks the namespace selector.

use super::convert::NAMESPACE_NAME_LABEL;
use super::json::{as_obj, get, list_at, obj_at, str_at};
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

/// The index value of SidecarSets that may target any namespace.
pub const CLUSTER_SCOPE: &str = "clusterScope";

/// Index values of a SidecarSet (v1alpha1 or v1beta1), first rule that applies:
/// 1. (v1alpha1 only) non-empty `spec.namespace` -> `[namespace]`;
/// 2. `namespaceSelector.matchLabels["kubernetes.io/metadata.name"]` -> `[value]`;
/// 3. first `matchExpressions` entry on that key with operator `In` -> its values, in order;
/// 4. otherwise `["clusterScope"]`.
///
/// Errors: `invalid_input` naming the field for a wrongly typed member.
pub fn index(object: &Value) -> Result<Vec<String>> {
    let obj = as_obj(object, "object")?;
    let beta = str_at(obj, "apiVersion", "object")? == Some(super::convert::V1BETA1);
    let Some(spec) = obj_at(obj, "spec", "object")? else {
        return Ok(vec![CLUSTER_SCOPE.into()]);
    };
    if !beta && let Some(ns) = str_at(spec, "namespace", "object.spec")?.filter(|s| !s.is_empty()) {
        return Ok(vec![ns.to_owned()]);
    }
    let path = "object.spec.namespaceSelector";
    let Some(sel) = obj_at(spec, "namespaceSelector", "object.spec")? else {
        return Ok(vec![CLUSTER_SCOPE.into()]);
    };
    if let Some(labels) = obj_at(sel, "matchLabels", path)?
        && let Some(v) = get(labels, NAMESPACE_NAME_LABEL)
    {
        let s = v.as_str().ok_or_else(|| {
            Error::invalid_input(format!("{path}.matchLabels"), "expected string values")
        })?;
        return Ok(vec![s.to_owned()]);
    }
    for (i, e) in list_at(sel, "matchExpressions", path)?.iter().enumerate() {
        let p = format!("{path}.matchExpressions[{i}]");
        let e = as_obj(e, &p)?;
        if str_at(e, "key", &p)? == Some(NAMESPACE_NAME_LABEL)
            && str_at(e, "operator", &p)? == Some("In")
        {
            let p = format!("{p}.values");
            return list_at(e, "values", &p)?
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| Error::invalid_input(&*p, "expected strings"))
                })
                .collect();
        }
    }
    Ok(vec![CLUSTER_SCOPE.into()])
}

/// Input of `api.sidecarset_namespace_index`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SidecarsetNamespaceIndexInput {
    /// The SidecarSet (v1alpha1 or v1beta1), as JSON: the indexer reads only `apiVersion`,
    /// `spec.namespace` (v1alpha1) and `spec.namespaceSelector` (absent or `null` members read as
    /// Go zero values, other members are ignored, a member read with the wrong JSON type is
    /// `invalid_input` naming it). Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub object: Value,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v1beta1_ignores_namespace_field() {
        let o = json!({"apiVersion": "apps.kruise.io/v1beta1", "spec": {"namespace": "x"}});
        assert_eq!(index(&o).unwrap(), vec!["clusterScope"]);
        let o = json!({"apiVersion": "apps.kruise.io/v1alpha1", "spec": {"namespace": "x"}});
        assert_eq!(index(&o).unwrap(), vec!["x"]);
    }

    #[test]
    fn in_expression_gives_all_values() {
        let o = json!({"apiVersion": "apps.kruise.io/v1beta1", "spec": {"namespaceSelector": {"matchExpressions": [
            {"key": "other", "operator": "In", "values": ["q"]},
            {"key": NAMESPACE_NAME_LABEL, "operator": "In", "values": ["a", "b"]}]}}});
        assert_eq!(index(&o).unwrap(), vec!["a", "b"]);
    }

    #[test]
    fn wrong_type_names_field() {
        let e = index(&json!({"spec": {"namespaceSelector": "x"}})).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("object.spec.namespaceSelector"));
    }
}
