//! Scheduling predicates a controller evaluates for a pod template against a node, as Kubernetes
//! v1.32 writes them:
//!
//! - the required node affinity (`component-helpers` `scheduling/corev1/nodeaffinity`
//!   `GetRequiredNodeAffinity(pod).Match(node)`): every `spec.nodeSelector` pair equal to a node
//!   label, and, when `requiredDuringSchedulingIgnoredDuringExecution` is set, one of its non-empty
//!   terms matching (a term that does not parse never matches; a selector without non-empty
//!   terms matches no node);
//! - taints and tolerations (`k8s.io/api` `Toleration.ToleratesTaint`,
//!   `pkg/apis/core/v1/helper` `FindMatchingUntoleratedTaint`);
//! - the tolerations every daemon pod gets (`pkg/controller/daemon/util`
//!   `AddOrUpdateDaemonPodTolerations`);
//! - `MatchNodeSelectorTerms` with its lazy error (`LazyErrorNodeSelector`: a term that does not
//!   parse is reported only when no other term matched) and the score of preferred terms
//!   (`NewPreferredSchedulingTerms(...).Score`), which `workloadspread.reconcile` uses to place
//!   existing pods.
//!
//! Parsing a term, as the reference does: operators `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`,
//! `Lt` on labels (`labels.NewRequirement`: a qualified key, valid label values, a non-empty value
//! set for `In`/`NotIn`, none for `Exists`/`DoesNotExist`, one 64-bit integer for `Gt`/`Lt`);
//! `In`/`NotIn` with exactly one value on fields.

use super::null_as_default as null_default;
use super::strconv::atoi;
use super::validation::{is_qualified_name, is_valid_label_value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One `NodeSelectorRequirement` (`matchExpressions[]` / `matchFields[]` entry).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct NodeSelectorRequirement {
    /// The label key (`matchExpressions`) or field name (`matchFields`, only `metadata.name` is
    /// known; another field reads as `""`).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt` (`matchFields`: `In`, `NotIn` only);
    /// another operator makes the term unparsable.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub operator: String,
    /// The values; absent or null: none.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<String>>")]
    pub values: Vec<String>,
}

/// One `NodeSelectorTerm`: its requirements are ANDed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    /// Requirements on node labels; absent or null: none.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<NodeSelectorRequirement>>")]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    /// Requirements on node fields (`metadata.name`); absent or null: none.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<NodeSelectorRequirement>>")]
    pub match_fields: Vec<NodeSelectorRequirement>,
}

/// A `NodeSelector`: its non-empty terms are ORed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelector {
    /// The terms; absent, null or only empty terms: no node matches.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<NodeSelectorTerm>>")]
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

/// `spec.affinity.nodeAffinity` (the required part; other members ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeAffinity {
    /// Absent or null: no node-affinity constraint.
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
}

/// `spec.affinity` (only `nodeAffinity` is read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct Affinity {
    /// Absent or null: no node-affinity constraint.
    pub node_affinity: Option<NodeAffinity>,
}

/// One node taint (`spec.taints[]`; `timeAdded` ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Taint {
    /// The taint key.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// The taint value; absent: `""`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
    /// `NoSchedule`, `PreferNoSchedule` or `NoExecute`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub effect: String,
}

/// One pod toleration (`spec.tolerations[]`; `tolerationSeconds` ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Toleration {
    /// The taint key tolerated; empty: every key.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `Equal` (also `""`) or `Exists`; another operator tolerates nothing.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub operator: String,
    /// The value `Equal` compares.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
    /// The effect tolerated; empty: every effect.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub effect: String,
}

impl Toleration {
    /// `Toleration.ToleratesTaint`.
    pub fn tolerates(&self, t: &Taint) -> bool {
        if !self.effect.is_empty() && self.effect != t.effect {
            return false;
        }
        if !self.key.is_empty() && self.key != t.key {
            return false;
        }
        match self.operator.as_str() {
            "" | "Equal" => self.value == t.value,
            "Exists" => true,
            _ => false,
        }
    }
}

/// `FindMatchingUntoleratedTaint`: the first taint passing `filter` that no toleration tolerates.
pub fn untolerated_taint<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    filter: impl Fn(&Taint) -> bool,
) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|t| filter(t))
        .find(|t| !tolerations.iter().any(|tol| tol.tolerates(t)))
}

/// `AddOrUpdateDaemonPodTolerations`: `tolerations` plus `Exists` tolerations of
/// `node.kubernetes.io/not-ready` and `unreachable` (`NoExecute`), `disk-pressure`,
/// `memory-pressure`, `pid-pressure`, `unschedulable` (`NoSchedule`) and, with host networking,
/// `network-unavailable` (`NoSchedule`). An identical toleration is not added twice.
pub fn daemon_pod_tolerations(tolerations: &[Toleration], host_network: bool) -> Vec<Toleration> {
    let mut out = tolerations.to_vec();
    let mut add = |key: &str, effect: &str| {
        let t = Toleration {
            key: format!("node.kubernetes.io/{key}"),
            operator: "Exists".into(),
            value: String::new(),
            effect: effect.into(),
        };
        if !out.contains(&t) {
            out.push(t);
        }
    };
    add("not-ready", "NoExecute");
    add("unreachable", "NoExecute");
    for k in [
        "disk-pressure",
        "memory-pressure",
        "pid-pressure",
        "unschedulable",
    ] {
        add(k, "NoSchedule");
    }
    if host_network {
        add("network-unavailable", "NoSchedule");
    }
    out
}

/// Go's `strconv.ParseInt(s, 10, 64)` succeeds.
fn parse_int(s: &str) -> Option<i64> {
    atoi(s).ok()
}

/// Checks one label requirement as `nodeSelectorRequirementsAsSelector` /
/// `labels.NewRequirement` do; the reason on failure.
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
            return Err("values: for 'In', 'NotIn' operators, values set can't be empty".into());
        }
        "Exists" | "DoesNotExist" if !r.values.is_empty() => {
            return Err("values: must be empty for 'Exists' and 'DoesNotExist'".into());
        }
        "Gt" | "Lt" => {
            if r.values.len() != 1 {
                return Err(
                    "values: for 'Gt', 'Lt' operators, exactly one value is required".into(),
                );
            }
            if parse_int(&r.values[0]).is_none() {
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

/// Checks one field requirement (`metadata.name` style); the reason on failure.
fn check_field(r: &NodeSelectorRequirement) -> Result<(), String> {
    match r.operator.as_str() {
        "In" | "NotIn" if r.values.len() != 1 => Err("values: must have one element".into()),
        "In" | "NotIn" => Ok(()),
        other => Err(format!("operator: unsupported value {other:?}")),
    }
}

/// Checks every requirement of a term; the first reason on failure.
fn check_term(term: &NodeSelectorTerm) -> Result<(), String> {
    term.match_expressions
        .iter()
        .try_for_each(check_expression)?;
    term.match_fields.iter().try_for_each(check_field)
}

/// `labels.Requirement.Matches` on a parsed requirement.
fn label_requirement_matches(
    r: &NodeSelectorRequirement,
    labels: &BTreeMap<String, String>,
) -> bool {
    let v = labels.get(&r.key);
    match r.operator.as_str() {
        "In" => v.is_some_and(|v| r.values.contains(v)),
        "NotIn" => v.is_none_or(|v| !r.values.contains(v)),
        "Exists" => v.is_some(),
        "DoesNotExist" => v.is_none(),
        "Gt" | "Lt" => {
            let (Some(l), Some(rv)) = (v.and_then(|v| parse_int(v)), parse_int(&r.values[0]))
            else {
                return false;
            };
            if r.operator == "Gt" { l > rv } else { l < rv }
        }
        _ => false,
    }
}

/// Whether a term has no requirement (such a term is skipped by selectors and preferred terms).
pub fn is_empty_term(term: &NodeSelectorTerm) -> bool {
    term.match_expressions.is_empty() && term.match_fields.is_empty()
}

/// One term against a node (`name`, `labels`): `Err` with the reason when it does not parse.
pub fn term_matches(
    term: &NodeSelectorTerm,
    name: &str,
    labels: &BTreeMap<String, String>,
) -> Result<bool, String> {
    check_term(term)?;
    let labels_ok = term
        .match_expressions
        .iter()
        .all(|r| label_requirement_matches(r, labels));
    if !labels_ok {
        return Ok(false);
    }
    // Fields are only checked when the node has a name (its one known field).
    if !term.match_fields.is_empty() && !name.is_empty() {
        let fields_ok = term.match_fields.iter().all(|r| {
            let f = if r.key == "metadata.name" { name } else { "" };
            (r.operator == "In") == (f == r.values[0])
        });
        return Ok(fields_ok);
    }
    Ok(true)
}

/// `MatchNodeSelectorTerms` (`LazyErrorNodeSelector.Match`): whether a non-empty term matches;
/// `Err` (the first term's parse failure) when none matched and some term did not parse.
pub fn match_terms(
    terms: &[NodeSelectorTerm],
    name: &str,
    labels: &BTreeMap<String, String>,
) -> Result<bool, String> {
    let mut first_err = None;
    for term in terms.iter().filter(|t| !is_empty_term(t)) {
        match term_matches(term, name, labels) {
            Ok(true) => return Ok(true),
            Ok(false) => {}
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    first_err.map_or(Ok(false), Err)
}

/// A weighted preferred term (`preferredDuringSchedulingIgnoredDuringExecution[]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct PreferredSchedulingTerm {
    /// `weight`; a term of weight 0 is skipped.
    pub weight: i32,
    /// `preference`; absent or null: the empty term (skipped).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<NodeSelectorTerm>")]
    pub preference: NodeSelectorTerm,
}

/// `NewPreferredSchedulingTerms(terms).Score(node)`: the sum of the weights of the matching terms
/// (weight 0 and empty terms skipped); `Err` when any such term does not parse.
pub fn preferred_score(
    terms: &[PreferredSchedulingTerm],
    name: &str,
    labels: &BTreeMap<String, String>,
) -> Result<i64, String> {
    let live: Vec<&PreferredSchedulingTerm> = terms
        .iter()
        .filter(|t| t.weight != 0 && !is_empty_term(&t.preference))
        .collect();
    for t in &live {
        check_term(&t.preference)?;
    }
    let mut score = 0i64;
    for t in live {
        if term_matches(&t.preference, name, labels)? {
            score += i64::from(t.weight);
        }
    }
    Ok(score)
}

/// `NodeSelector.Match`: one non-empty, parsable term matches the node (`name`, `labels`).
pub fn node_selector_matches(
    ns: &NodeSelector,
    name: &str,
    labels: &BTreeMap<String, String>,
) -> bool {
    ns.node_selector_terms
        .iter()
        .filter(|t| !is_empty_term(t))
        .any(|t| term_matches(t, name, labels) == Ok(true))
}

/// `GetRequiredNodeAffinity(pod).Match(node)`: every `node_selector` pair is a node label, and the
/// required node-affinity selector (if any) matches.
pub fn required_node_affinity_matches(
    node_selector: &BTreeMap<String, String>,
    affinity: Option<&Affinity>,
    name: &str,
    labels: &BTreeMap<String, String>,
) -> bool {
    if !node_selector.iter().all(|(k, v)| labels.get(k) == Some(v)) {
        return false;
    }
    match affinity
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        }) {
        None => true,
        Some(ns) => node_selector_matches(ns, name, labels),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn labels(v: serde_json::Value) -> BTreeMap<String, String> {
        serde_json::from_value(v).unwrap()
    }

    fn ns(v: serde_json::Value) -> NodeSelector {
        serde_json::from_value(json!({ "nodeSelectorTerms": v })).unwrap()
    }

    #[test]
    fn terms() {
        let l = labels(json!({"zone": "a", "n": "5"}));
        assert!(node_selector_matches(
            &ns(
                json!([{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}]}])
            ),
            "n1",
            &l
        ));
        assert!(!node_selector_matches(&ns(json!([])), "n1", &l));
        assert!(!node_selector_matches(&ns(json!([{}])), "n1", &l));
        assert!(node_selector_matches(
            &ns(json!([{"matchExpressions": [{"key": "n", "operator": "Gt", "values": ["4"]}]}])),
            "n1",
            &l
        ));
        assert!(!node_selector_matches(
            &ns(json!([{"matchExpressions": [{"key": "n", "operator": "Lt", "values": ["4"]}]}])),
            "n1",
            &l
        ));
        // an unparsable term never matches, another term still can
        assert!(node_selector_matches(
            &ns(json!([
                {"matchExpressions": [{"key": "zone", "operator": "Bad"}]},
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}
            ])),
            "n1",
            &l
        ));
        assert!(!node_selector_matches(
            &ns(
                json!([{"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}]}])
            ),
            "n1",
            &l
        ));
        // a node without name skips field checks
        assert!(node_selector_matches(
            &ns(
                json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}])
            ),
            "",
            &l
        ));
    }

    #[test]
    fn taints() {
        let taint = Taint {
            key: "k".into(),
            value: "v".into(),
            effect: "NoSchedule".into(),
        };
        let eq = Toleration {
            key: "k".into(),
            value: "v".into(),
            ..Default::default()
        };
        assert!(eq.tolerates(&taint));
        let wrong = Toleration {
            effect: "NoExecute".into(),
            ..eq.clone()
        };
        assert!(!wrong.tolerates(&taint));
        let all = Toleration {
            operator: "Exists".into(),
            ..Default::default()
        };
        assert!(all.tolerates(&taint));
        let taints = vec![taint];
        assert!(untolerated_taint(&taints, &[], |_| true).is_some());
        assert!(untolerated_taint(&taints, &[], |t| t.effect == "NoExecute").is_none());
        let d = daemon_pod_tolerations(&[], true);
        assert_eq!(d.len(), 7);
        assert_eq!(daemon_pod_tolerations(&d, true), d);
    }

    #[test]
    fn lazy_error_and_preferred_scores() {
        let l = labels(json!({"zone": "a", "n": "5"}));
        let terms = |v: serde_json::Value| ns(v).node_selector_terms;
        let bad = json!({"matchExpressions": [{"key": "zone", "operator": "Foo"}]});
        assert!(match_terms(&terms(json!([bad.clone()])), "n1", &l).is_err());
        assert_eq!(
            match_terms(
                &terms(json!([bad, {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}])),
                "n1",
                &l
            ),
            Ok(true)
        );
        assert_eq!(match_terms(&terms(json!([{}])), "n1", &l), Ok(false));
        let gt_bad = json!({"matchExpressions": [{"key": "n", "operator": "Gt", "values": ["x"]}]});
        assert!(match_terms(&terms(json!([gt_bad])), "n1", &l).is_err());
        let pref: Vec<PreferredSchedulingTerm> = serde_json::from_value(json!([
            {"weight": 3, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}},
            {"weight": 5, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]}},
            {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "Bad"}]}},
            {"weight": 7, "preference": null}
        ]))
        .unwrap();
        assert_eq!(preferred_score(&pref, "n1", &l), Ok(3));
        let pref_bad: Vec<PreferredSchedulingTerm> = serde_json::from_value(json!([
            {"weight": 3, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}},
            {"weight": 1, "preference": {"matchFields": [{"key": "metadata.name", "operator": "In"}]}}
        ]))
        .unwrap();
        assert!(preferred_score(&pref_bad, "n1", &l).is_err());
    }
}
