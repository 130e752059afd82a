//! Node predicates of the Kubernetes scheduling helpers (`k8s.io/component-helpers`
//! v0.32.10 `scheduling/corev1`, `nodeaffinity`, and `k8s.io/api` `Toleration.ToleratesTaint`):
//! whether a node's taints are tolerated, whether a node matches required node selector terms, and
//! the score of preferred terms. Used by `workloadspread.reconcile` to place existing pods.
//!
//! Rules, as the reference applies them:
//!
//! - a toleration tolerates a taint when its `effect` is empty or equal, its `key` is empty or
//!   equal, and its operator is `Exists`, or `Equal`/empty with equal values (any other operator
//!   tolerates nothing);
//! - a term with neither `matchExpressions` nor `matchFields` is skipped; the remaining terms are
//!   ORed; inside a term every expression and every field requirement must hold. Expressions read
//!   the node labels (`In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt` as labels.Requirement);
//!   fields read only `metadata.name` (`In`/`NotIn` with exactly one value), and are not checked
//!   at all for a node without a name;
//! - a term that does not parse (unknown operator, bad key or value, wrong value count, a `Gt`/`Lt`
//!   value that is not a 64-bit integer) never matches and is reported once no other term matched
//!   (`LazyErrorNodeSelector`).

use crate::k8s::null_as_default;
use crate::k8s::strconv::atoi;
use crate::k8s::validation::{is_qualified_name, is_valid_label_value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A node taint (`spec.taints[]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    /// `key`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `value`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
    /// `effect` (`NoSchedule`, `PreferNoSchedule`, `NoExecute`); null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub effect: String,
}

/// A toleration (`spec.tolerations[]` of a pod, `tolerations[]` of a WorkloadSpread subset).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Toleration {
    /// `key`; empty with `Exists` tolerates every key.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `operator`: `Exists`, `Equal` or empty (= `Equal`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub operator: String,
    /// `value`, compared under `Equal`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
    /// `effect`; empty matches every effect.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub effect: String,
    /// `tolerationSeconds`; not read here.
    #[serde(default)]
    pub toleration_seconds: Option<i64>,
}

/// One node selector requirement (`matchExpressions[]` / `matchFields[]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorRequirement {
    /// `key`: a label key, or for fields `metadata.name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `operator`: `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt` (fields: `In`, `NotIn`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub operator: String,
    /// `values`; null or absent: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<String>>")]
    pub values: Vec<String>,
}

/// A node selector term: every requirement must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    /// `matchExpressions` over node labels; null or absent: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<NodeSelectorRequirement>>")]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    /// `matchFields` over node fields (`metadata.name`); null or absent: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<NodeSelectorRequirement>>")]
    pub match_fields: Vec<NodeSelectorRequirement>,
}

/// A weighted preferred term.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreferredSchedulingTerm {
    /// `weight`; a term of weight 0 is skipped.
    #[serde(default)]
    pub weight: i32,
    /// `preference`; null or absent: the empty term (skipped).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<NodeSelectorTerm>")]
    pub preference: NodeSelectorTerm,
}

/// `Toleration.ToleratesTaint`.
pub fn tolerates(t: &Toleration, taint: &Taint) -> bool {
    if !t.effect.is_empty() && t.effect != taint.effect {
        return false;
    }
    if !t.key.is_empty() && t.key != taint.key {
        return false;
    }
    match t.operator.as_str() {
        "" | "Equal" => t.value == taint.value,
        "Exists" => true,
        _ => false,
    }
}

/// `FindMatchingUntoleratedTaint` with no filter: the first taint no toleration tolerates.
pub fn untolerated_taint<'a>(taints: &'a [Taint], tolerations: &[Toleration]) -> Option<&'a Taint> {
    taints
        .iter()
        .find(|taint| !tolerations.iter().any(|t| tolerates(t, taint)))
}

/// Go's `strconv.ParseInt(s, 10, 64)` as a value.
fn parse_i64(s: &str) -> Option<i64> {
    atoi(s).ok()
}

/// Checks one label requirement the way `labels.NewRequirement` does; the message on failure.
fn check_expression(r: &NodeSelectorRequirement) -> Result<(), String> {
    if !matches!(
        r.operator.as_str(),
        "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt"
    ) {
        return Err(format!("operator: unsupported value {:?}", r.operator));
    }
    if !is_qualified_name(&r.key) {
        return Err(format!("key: invalid label key {:?}", r.key));
    }
    match r.operator.as_str() {
        "In" | "NotIn" if r.values.is_empty() => {
            return Err("values: for 'in', 'notin' operators, values set can't be empty".into());
        }
        "Exists" | "DoesNotExist" if !r.values.is_empty() => {
            return Err("values: values set must be empty for exists and does not exist".into());
        }
        "Gt" | "Lt" => {
            if r.values.len() != 1 {
                return Err(
                    "values: for 'Gt', 'Lt' operators, exactly one value is required".into(),
                );
            }
            if parse_i64(&r.values[0]).is_none() {
                return Err(
                    "values[0]: for 'Gt', 'Lt' operators, the value must be an integer".into(),
                );
            }
        }
        _ => {}
    }
    for (i, v) in r.values.iter().enumerate() {
        if !is_valid_label_value(v) {
            return Err(format!("values[{i}]: invalid label value {v:?}"));
        }
    }
    Ok(())
}

fn expression_matches(r: &NodeSelectorRequirement, labels: &BTreeMap<String, String>) -> bool {
    let v = labels.get(&r.key);
    match r.operator.as_str() {
        "In" => v.is_some_and(|v| r.values.contains(v)),
        "NotIn" => v.is_none_or(|v| !r.values.contains(v)),
        "Exists" => v.is_some(),
        "DoesNotExist" => v.is_none(),
        "Gt" | "Lt" => {
            let (Some(have), Some(want)) = (v.and_then(|v| parse_i64(v)), parse_i64(&r.values[0]))
            else {
                return false;
            };
            if r.operator == "Gt" {
                have > want
            } else {
                have < want
            }
        }
        _ => false,
    }
}

fn check_field(r: &NodeSelectorRequirement) -> Result<(), String> {
    match r.operator.as_str() {
        "In" | "NotIn" if r.values.len() != 1 => Err("values: must have one element".into()),
        "In" | "NotIn" => Ok(()),
        other => Err(format!("operator: unsupported value {other:?}")),
    }
}

/// Whether `term` is empty (skipped by the node selector and by preferred terms).
pub fn is_empty_term(term: &NodeSelectorTerm) -> bool {
    term.match_expressions.is_empty() && term.match_fields.is_empty()
}

/// One non-empty term against a node: `Err` with the parse failure when the term does not parse.
pub fn term_matches(
    term: &NodeSelectorTerm,
    node_name: &str,
    labels: &BTreeMap<String, String>,
) -> Result<bool, String> {
    for r in &term.match_expressions {
        check_expression(r)?;
    }
    for r in &term.match_fields {
        check_field(r)?;
    }
    if !term.match_expressions.is_empty()
        && !term
            .match_expressions
            .iter()
            .all(|r| expression_matches(r, labels))
    {
        return Ok(false);
    }
    if !term.match_fields.is_empty() && !node_name.is_empty() {
        let field = |k: &str| if k == "metadata.name" { node_name } else { "" };
        let ok = term.match_fields.iter().all(|r| {
            let have = field(&r.key);
            if r.operator == "In" {
                have == r.values[0]
            } else {
                have != r.values[0]
            }
        });
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `MatchNodeSelectorTerms`: whether any non-empty term matches; `Err` (the first parse failure)
/// when none matched and some term did not parse.
pub fn match_terms(
    terms: &[NodeSelectorTerm],
    node_name: &str,
    labels: &BTreeMap<String, String>,
) -> Result<bool, String> {
    let mut first_err = None;
    for term in terms.iter().filter(|t| !is_empty_term(t)) {
        match term_matches(term, node_name, labels) {
            Ok(true) => return Ok(true),
            Ok(false) => {}
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    first_err.map_or(Ok(false), Err)
}

/// `NewPreferredSchedulingTerms(...).Score(node)`: the sum of the weights of the matching terms
/// (weight 0 and empty terms skipped); `Err` when any such term does not parse.
pub fn preferred_score(
    terms: &[PreferredSchedulingTerm],
    node_name: &str,
    labels: &BTreeMap<String, String>,
) -> Result<i64, String> {
    let live: Vec<&PreferredSchedulingTerm> = terms
        .iter()
        .filter(|t| t.weight != 0 && !is_empty_term(&t.preference))
        .collect();
    for t in &live {
        for r in &t.preference.match_expressions {
            check_expression(r)?;
        }
        for r in &t.preference.match_fields {
            check_field(r)?;
        }
    }
    let mut score = 0i64;
    for t in live {
        if term_matches(&t.preference, node_name, labels)? {
            score += i64::from(t.weight);
        }
    }
    Ok(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(key: &str, op: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|s| (*s).to_string()).collect(),
        }
    }

    #[test]
    fn tolerations() {
        let taint = Taint {
            key: "k".into(),
            value: "v".into(),
            effect: "NoSchedule".into(),
        };
        let t = |key: &str, op: &str, value: &str, effect: &str| Toleration {
            key: key.into(),
            operator: op.into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        };
        assert!(tolerates(&t("k", "", "v", ""), &taint));
        assert!(tolerates(&t("", "Exists", "", ""), &taint));
        assert!(!tolerates(&t("k", "Equal", "w", ""), &taint));
        assert!(!tolerates(&t("k", "Exists", "", "NoExecute"), &taint));
        assert!(!tolerates(&t("k", "Gt", "v", ""), &taint));
        let taints = [taint.clone()];
        assert!(untolerated_taint(&taints, &[]).is_some());
        assert!(untolerated_taint(&taints, &[t("k", "Exists", "", "")]).is_none());
    }

    #[test]
    fn terms() {
        let labels: BTreeMap<String, String> = [
            ("zone".to_string(), "a".to_string()),
            ("n".to_string(), "5".to_string()),
        ]
        .into();
        let term =
            |e: Vec<NodeSelectorRequirement>, f: Vec<NodeSelectorRequirement>| NodeSelectorTerm {
                match_expressions: e,
                match_fields: f,
            };
        assert_eq!(
            match_terms(
                &[term(vec![req("zone", "In", &["a"])], vec![])],
                "n1",
                &labels
            ),
            Ok(true)
        );
        assert_eq!(
            match_terms(&[term(vec![req("n", "Gt", &["4"])], vec![])], "n1", &labels),
            Ok(true)
        );
        assert_eq!(
            match_terms(&[term(vec![req("n", "Lt", &["4"])], vec![])], "n1", &labels),
            Ok(false)
        );
        assert_eq!(
            match_terms(&[term(vec![], vec![])], "n1", &labels),
            Ok(false)
        );
        assert_eq!(
            match_terms(
                &[term(vec![], vec![req("metadata.name", "In", &["n2"])])],
                "n1",
                &labels
            ),
            Ok(false)
        );
        // fields are not checked for a nameless node
        assert_eq!(
            match_terms(
                &[term(vec![], vec![req("metadata.name", "In", &["n2"])])],
                "",
                &labels
            ),
            Ok(true)
        );
        // a bad term is reported only when nothing matched
        let bad = term(vec![req("zone", "Foo", &[])], vec![]);
        assert!(match_terms(std::slice::from_ref(&bad), "n1", &labels).is_err());
        assert_eq!(
            match_terms(
                &[bad, term(vec![req("zone", "Exists", &[])], vec![])],
                "n1",
                &labels
            ),
            Ok(true)
        );
        let pref = |w: i32, t: NodeSelectorTerm| PreferredSchedulingTerm {
            weight: w,
            preference: t,
        };
        assert_eq!(
            preferred_score(
                &[
                    pref(3, term(vec![req("zone", "In", &["a"])], vec![])),
                    pref(5, term(vec![req("zone", "In", &["b"])], vec![])),
                    pref(0, term(vec![req("zone", "Bad", &[])], vec![]))
                ],
                "n1",
                &labels
            ),
            Ok(3)
        );
    }
}
