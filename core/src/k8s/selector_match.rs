//! Label selector matching with apimachinery v0.32.10's semantics: `metav1.LabelSelectorAsSelector`
//! (`pkg/apis/meta/v1/helpers.go`) turns a [`LabelSelector`] into a `labels.Selector`, and
//! `labels.Selector.Matches` (`pkg/labels/selector.go`, `Requirement.Matches`) tests a label set.
//!
//! - an absent selector (Go `nil`) is `labels.Nothing()`: it matches no label set;
//! - a present selector with no `matchLabels` and no `matchExpressions` is `labels.Everything()`:
//!   it matches every label set (and is the only selector Go calls `Empty()`);
//! - otherwise every requirement must hold: a `matchLabels` entry `k: v` and `In` need the key
//!   present with one of the values, `NotIn` needs the key absent or its value not among the
//!   values, `Exists` needs the key present, `DoesNotExist` absent;
//! - a selector that `LabelSelectorAsSelector` refuses (an unknown operator, `In`/`NotIn`
//!   without values, `Exists`/`DoesNotExist` with values, a key that is not a qualified name, a
//!   value that is not a label value) is an error: the first problem [`LabelSelector::validate`]
//!   reports.
//!
//! This is the one selector matcher of kruise-core.

use super::selector::{LabelSelector, SelectorError};
use std::collections::BTreeMap;

/// A label selector converted as `LabelSelectorAsSelector` converts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selector<'a> {
    /// `labels.Nothing()`: from an absent selector; matches nothing.
    Nothing,
    /// `labels.Everything()`: from an empty selector; matches everything.
    Everything,
    /// The requirements of a valid, non-empty selector.
    Requirements(&'a LabelSelector),
}

impl<'a> Selector<'a> {
    /// `LabelSelectorAsSelector(sel)`: `None` is Nothing, an empty selector Everything; an invalid
    /// selector is refused with its first problem (see [`LabelSelector::validate`]).
    pub fn from_option(sel: Option<&'a LabelSelector>) -> Result<Self, SelectorError> {
        match sel {
            None => Ok(Selector::Nothing),
            Some(s) if s.is_empty() => Ok(Selector::Everything),
            Some(s) => match s.validate().into_iter().next() {
                Some(e) => Err(e),
                None => Ok(Selector::Requirements(s)),
            },
        }
    }

    /// Go's `Selector.Empty()`: true only for Everything.
    pub fn is_everything(&self) -> bool {
        matches!(self, Selector::Everything)
    }

    /// `Selector.Matches(labels.Set(labels))`.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Everything => true,
            Selector::Requirements(s) => {
                let eq = s
                    .match_labels
                    .iter()
                    .flatten()
                    .all(|(k, v)| labels.get(k) == Some(v));
                eq && s.match_expressions.iter().flatten().all(|r| {
                    let values = r.values.as_deref().unwrap_or_default();
                    let has_value = |v: &String| values.iter().any(|x| x == v);
                    match (r.operator.as_str(), labels.get(&r.key)) {
                        ("In", Some(v)) => has_value(v),
                        ("In", None) => false,
                        ("NotIn", Some(v)) => !has_value(v),
                        ("NotIn", None) => true,
                        ("Exists", v) => v.is_some(),
                        ("DoesNotExist", v) => v.is_none(),
                        // validate() refused every other operator.
                        _ => false,
                    }
                })
            }
        }
    }
}

impl LabelSelector {
    /// `LabelSelectorAsSelector(&self)` then `Matches(labels)`: an empty selector matches
    /// everything; an invalid one is an error (its first problem, field relative to the selector).
    ///
    /// ```
    /// use kruise_core::k8s::selector::LabelSelector;
    /// use std::collections::BTreeMap;
    /// let sel: LabelSelector = serde_json::from_value(serde_json::json!({"matchExpressions": [
    ///     {"key": "tier", "operator": "NotIn", "values": ["db"]}]})).unwrap();
    /// let labels = BTreeMap::from([("app".to_string(), "web".to_string())]);
    /// assert_eq!(sel.matches(&labels), Ok(true));
    /// ```
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> Result<bool, SelectorError> {
        Ok(Selector::from_option(Some(self))?.matches(labels))
    }
}

/// `LabelSelectorAsSelector(sel).Matches(labels)` for an optional selector: `None` (Go `nil`)
/// matches nothing.
pub fn matches_option(
    sel: Option<&LabelSelector>,
    labels: &BTreeMap<String, String>,
) -> Result<bool, SelectorError> {
    Ok(Selector::from_option(sel)?.matches(labels))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sel(v: serde_json::Value) -> LabelSelector {
        serde_json::from_value(v).unwrap()
    }

    fn set(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn nil_matches_nothing_empty_everything() {
        assert_eq!(matches_option(None, &set(&[])), Ok(false));
        assert_eq!(matches_option(None, &set(&[("a", "b")])), Ok(false));
        let empty = sel(json!({"matchLabels": {}, "matchExpressions": []}));
        assert_eq!(empty.matches(&set(&[])), Ok(true));
        assert!(Selector::from_option(Some(&empty)).unwrap().is_everything());
        assert!(!Selector::from_option(None).unwrap().is_everything());
    }

    #[test]
    fn operators() {
        let s = sel(json!({"matchLabels": {"app": "web"}, "matchExpressions": [
            {"key": "tier", "operator": "In", "values": ["fe", "be"]},
            {"key": "env", "operator": "NotIn", "values": ["prod"]},
            {"key": "team", "operator": "Exists"},
            {"key": "legacy", "operator": "DoesNotExist"},
        ]}));
        let base = [("app", "web"), ("tier", "fe"), ("team", "x")];
        assert_eq!(s.matches(&set(&base)), Ok(true));
        let mut with = base.to_vec();
        with.push(("env", "dev"));
        assert_eq!(s.matches(&set(&with)), Ok(true));
        with.pop();
        with.push(("env", "prod"));
        assert_eq!(s.matches(&set(&with)), Ok(false));
        with.pop();
        with.push(("legacy", ""));
        assert_eq!(s.matches(&set(&with)), Ok(false));
        assert_eq!(
            s.matches(&set(&[("app", "web"), ("tier", "db"), ("team", "x")])),
            Ok(false)
        );
        assert_eq!(s.matches(&set(&[("app", "web"), ("team", "x")])), Ok(false));
        assert_eq!(
            s.matches(&set(&[("app", "api"), ("tier", "fe"), ("team", "x")])),
            Ok(false)
        );
        assert_eq!(s.matches(&set(&[("tier", "fe"), ("team", "x")])), Ok(false));
    }

    #[test]
    fn invalid_selectors_are_errors_naming_the_member() {
        let bad =
            sel(json!({"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]}));
        assert_eq!(
            bad.matches(&set(&[])).unwrap_err().field,
            "matchExpressions[0].operator"
        );
        let bad = sel(json!({"matchExpressions": [{"key": "a", "operator": "In", "values": []}]}));
        assert_eq!(
            bad.matches(&set(&[("a", "")])).unwrap_err().field,
            "matchExpressions[0].values"
        );
        let bad = sel(json!({"matchLabels": {"a b": "x"}}));
        assert_eq!(bad.matches(&set(&[])).unwrap_err().field, "matchLabels");
        // Nothing and Everything are never invalid.
        assert!(matches_option(None, &set(&[])).is_ok());
    }
}
