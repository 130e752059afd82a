//! `metav1.LabelSelector` and its validation: apimachinery v0.32.10
//! `pkg/apis/meta/v1/validation/validation.go` (`ValidateLabelSelector`,
//! `ValidateLabelSelectorRequirement`, `ValidateLabels`, `ValidateLabelName`) with the default
//! options (`AllowInvalidLabelValueInSelector: false`), which accepts exactly the selectors that
//! `metav1.LabelSelectorAsSelector` (`pkg/apis/meta/v1/helpers.go`, via `labels.NewRequirement`)
//! converts without error.
//!
//! This is the one label-selector validator of kruise-core; each family maps a non-empty result
//! to its own error code (`selector_invalid`, `invalid_label_selector`, ...).

use super::validation::{is_qualified_name, is_valid_label_value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A label selector as the API server serves it. `None` is absent (or null), `Some(empty)` is
/// present and empty: Go's `reflect.DeepEqual` tells those apart. Unknown members are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// `matchLabels`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_labels: Option<BTreeMap<String, String>>,
    /// `matchExpressions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_expressions: Option<Vec<Requirement>>,
}

/// One `matchExpressions` entry; absent or null members read as Go's zero values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Requirement {
    /// `key`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_empty")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `operator`: `In`, `NotIn`, `Exists` or `DoesNotExist`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_empty")]
    #[schemars(with = "Option<String>")]
    pub operator: String,
    /// `values`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
}

use super::null_as_default as null_as_empty;

/// One problem found by [`validate_parts`]: the member path relative to the selector
/// (`matchLabels`, `matchExpressions[0].operator`, ...) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError {
    /// Path relative to the selector.
    pub field: String,
    /// Human-readable detail.
    pub detail: String,
}

/// `ValidateLabelSelector` over borrowed parts, so that families with their own selector types
/// share this one rule set. Problems come in the reference's order: match labels (Go iterates a
/// map, so their relative order is not fixed there; here it is the iteration order given), then
/// each expression's operator/values rule, its key, and its values.
pub fn validate_parts<'a, L, E>(labels: L, expressions: E) -> Vec<SelectorError>
where
    L: IntoIterator<Item = (&'a str, &'a str)>,
    E: IntoIterator<Item = (&'a str, &'a str, &'a [String])>,
{
    let mut out = Vec::new();
    let mut err = |field: String, detail: String| out.push(SelectorError { field, detail });
    for (k, v) in labels {
        if !is_qualified_name(k) {
            err(
                "matchLabels".into(),
                format!("label key {k:?} is not a qualified name"),
            );
        }
        if !is_valid_label_value(v) {
            err(
                "matchLabels".into(),
                format!("label value {v:?} of {k:?} is not a valid label value"),
            );
        }
    }
    for (i, (key, op, values)) in expressions.into_iter().enumerate() {
        let base = format!("matchExpressions[{i}]");
        match op {
            "In" | "NotIn" if values.is_empty() => {
                err(
                    format!("{base}.values"),
                    format!("must be specified when `operator` is {op:?}"),
                );
            }
            "Exists" | "DoesNotExist" if !values.is_empty() => {
                err(
                    format!("{base}.values"),
                    format!("may not be specified when `operator` is {op:?}"),
                );
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            _ => err(
                format!("{base}.operator"),
                format!("{op:?} is not a valid selector operator"),
            ),
        }
        if !is_qualified_name(key) {
            err(
                format!("{base}.key"),
                format!("{key:?} is not a qualified name"),
            );
        }
        for (j, v) in values.iter().enumerate() {
            if !is_valid_label_value(v) {
                err(
                    format!("{base}.values[{j}]"),
                    format!("{v:?} is not a valid label value"),
                );
            }
        }
    }
    out
}

impl LabelSelector {
    /// `ValidateLabelSelector` (see [`validate_parts`]); empty = valid, which is also exactly when
    /// `LabelSelectorAsSelector` succeeds.
    ///
    /// ```
    /// use kruise_core::k8s::selector::LabelSelector;
    /// let sel: LabelSelector = serde_json::from_value(serde_json::json!(
    ///     {"matchLabels": {format!("{}.com/app", "a".repeat(64)): "web"}})).unwrap();
    /// assert!(sel.validate().is_empty());
    /// let sel: LabelSelector = serde_json::from_value(serde_json::json!(
    ///     {"matchExpressions": [{"key": "app", "operator": "In"}]})).unwrap();
    /// assert_eq!(sel.validate()[0].field, "matchExpressions[0].values");
    /// ```
    pub fn validate(&self) -> Vec<SelectorError> {
        validate_parts(
            self.match_labels
                .iter()
                .flatten()
                .map(|(k, v)| (k.as_str(), v.as_str())),
            self.match_expressions.iter().flatten().map(|r| {
                (
                    r.key.as_str(),
                    r.operator.as_str(),
                    r.values.as_deref().unwrap_or_default(),
                )
            }),
        )
    }

    /// Whether [`LabelSelector::validate`] finds nothing.
    pub fn is_valid(&self) -> bool {
        self.validate().is_empty()
    }

    /// `len(matchLabels) + len(matchExpressions)`: 0 is the empty selector.
    pub fn len(&self) -> usize {
        self.match_labels.as_ref().map_or(0, BTreeMap::len)
            + self.match_expressions.as_ref().map_or(0, Vec::len)
    }

    /// No labels and no expressions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sel(v: serde_json::Value) -> LabelSelector {
        serde_json::from_value(v).unwrap()
    }

    fn fields(s: &LabelSelector) -> Vec<String> {
        s.validate().into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn prefix_is_a_subdomain_without_a_label_limit() {
        let long = format!("{}.com/app", "a".repeat(64));
        assert!(sel(json!({"matchLabels": {long.clone(): "x"}})).is_valid());
        assert!(sel(json!({"matchExpressions": [{"key": long, "operator": "Exists"}]})).is_valid());
        let too_long = format!("{}/app", "a".repeat(254));
        assert_eq!(
            fields(&sel(json!({"matchLabels": {too_long: "x"}}))),
            ["matchLabels"]
        );
    }

    #[test]
    fn expression_rules_in_reference_order() {
        let s = sel(json!({"matchExpressions": [
            {"key": "a", "operator": "In"},
            {"key": "b", "operator": "Exists", "values": ["x"]},
            {"key": "-c", "operator": "Gt", "values": ["-bad-"]},
            {"operator": "DoesNotExist"},
            {"key": null, "operator": null},
        ]}));
        assert_eq!(
            fields(&s),
            [
                "matchExpressions[0].values",
                "matchExpressions[1].values",
                "matchExpressions[2].operator",
                "matchExpressions[2].key",
                "matchExpressions[2].values[0]",
                "matchExpressions[3].key",
                "matchExpressions[4].operator",
                "matchExpressions[4].key",
            ]
        );
        assert!(sel(json!({})).is_valid());
        assert!(sel(json!({"matchLabels": {"a": ""}})).is_valid());
        assert!(!sel(json!({"matchLabels": {"a": "b c"}})).is_valid());
        assert_eq!(
            sel(json!({"matchLabels": {}, "matchExpressions": []})).len(),
            0
        );
    }
}
