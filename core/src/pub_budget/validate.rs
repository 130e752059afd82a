//! PUB object validation (the PUB validating webhook).
//!
//! Mirrors `pkg/webhook/podunavailablebudget/validating/pub_create_update_handler.go`
//! (OpenKruise v1.9.0) with Kubernetes `ValidatePositiveIntOrPercent` / `IsNotMoreThan100Percent`
//! (`pkg/apis/apps/validation`, v1.32). Cross-PUB conflicts
//! are not evaluated.

use super::protect::invalid_pieces;
use super::status::parse_int32_strict;
use super::types::{ANN_PROTECT_TOTAL_REPLICAS, FeatureGates, LabelSelector, Pub};
use crate::intstr::IntOrPercent;

/// Validates a PUB (`old` = the stored object on update). Returns the error codes in the
/// webhook's order; empty = valid. Codes: `feature_gate_disabled`, `invalid_protect_operations`
/// (one per bad piece), `invalid_protect_total_replicas`, `selector_or_target_ref_required`,
/// `selector_and_target_ref_exclusive`, `target_ref_incomplete`, `target_ref_invalid_api_version`,
/// `selector_empty`, `selector_invalid`, `max_or_min_required`, `max_and_min_exclusive`,
/// `max_unavailable_invalid`, `max_unavailable_over_100_percent`, `min_available_invalid`,
/// `min_available_over_100_percent`, `selector_or_target_ref_immutable`.
pub fn validate(pb: &Pub, old: Option<&Pub>, gates: FeatureGates) -> Vec<&'static str> {
    if !gates.delete_checked() && !gates.update_checked() {
        return vec!["feature_gate_disabled"];
    }
    let mut errs = Vec::new();
    let ann = &pb.metadata.annotations;
    let ops = pb.protect_operations_value();
    if let Some(v) = ops.as_deref() {
        errs.extend(
            invalid_pieces(v)
                .iter()
                .map(|_| "invalid_protect_operations"),
        );
    }
    if let Some(v) = ann.get(ANN_PROTECT_TOTAL_REPLICAS)
        && parse_int32_strict(v).is_none()
    {
        errs.push("invalid_protect_total_replicas");
    }
    let spec = &pb.spec;
    match (&spec.selector, &spec.target_ref) {
        (None, None) => errs.push("selector_or_target_ref_required"),
        (Some(_), Some(_)) => errs.push("selector_and_target_ref_exclusive"),
        (None, Some(t)) => {
            if t.api_version.is_empty() || t.kind.is_empty() || t.name.is_empty() {
                errs.push("target_ref_incomplete");
            }
            if t.api_version.matches('/').count() > 1 {
                errs.push("target_ref_invalid_api_version");
            }
        }
        (Some(sel), None) => {
            let n = sel.match_labels.as_ref().map_or(0, |m| m.len())
                + sel.match_expressions.as_ref().map_or(0, |m| m.len());
            if n == 0 {
                errs.push("selector_empty");
            }
            if selector_problem(sel).is_some() {
                errs.push("selector_invalid");
            }
        }
    }
    match (&spec.max_unavailable, &spec.min_available) {
        (None, None) => errs.push("max_or_min_required"),
        (Some(_), Some(_)) => errs.push("max_and_min_exclusive"),
        (Some(v), None) => budget(
            v,
            "max_unavailable_invalid",
            "max_unavailable_over_100_percent",
            &mut errs,
        ),
        (None, Some(v)) => budget(
            v,
            "min_available_invalid",
            "min_available_over_100_percent",
            &mut errs,
        ),
    }
    if let Some(o) = old
        && (o.spec.selector != pb.spec.selector || o.spec.target_ref != pb.spec.target_ref)
    {
        errs.push("selector_or_target_ref_immutable");
    }
    errs
}

fn budget(
    v: &IntOrPercent,
    invalid: &'static str,
    over: &'static str,
    errs: &mut Vec<&'static str>,
) {
    match v {
        IntOrPercent::Int(i) => {
            if *i < 0 {
                errs.push(invalid);
            }
        }
        IntOrPercent::String(s) => {
            let digits = s
                .strip_suffix('%')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            match digits {
                None => errs.push(invalid),
                Some(d) => {
                    if crate::intstr::atoi(d.bytes()).is_some_and(|p| p > 100) {
                        errs.push(over);
                    }
                }
            }
        }
    }
}

/// Why a label selector cannot be turned into a selector (`metav1.LabelSelectorAsSelector`):
/// unknown operator, `In`/`NotIn` without values, `Exists`/`DoesNotExist` with values, or a bad
/// label key / value. `None` = fine.
pub fn selector_problem(sel: &LabelSelector) -> Option<String> {
    for (k, v) in sel.match_labels.iter().flatten() {
        if !valid_label_key(k) {
            return Some(format!("matchLabels key {k:?} is not a valid label key"));
        }
        if !valid_label_value(v) {
            return Some(format!(
                "matchLabels[{k}] value {v:?} is not a valid label value"
            ));
        }
    }
    for (i, r) in sel.match_expressions.iter().flatten().enumerate() {
        if !valid_label_key(&r.key) {
            return Some(format!(
                "matchExpressions[{i}].key {:?} is not a valid label key",
                r.key
            ));
        }
        let n = r.values.as_ref().map_or(0, Vec::len);
        match r.operator.as_str() {
            "In" | "NotIn" if n == 0 => {
                return Some(format!(
                    "matchExpressions[{i}]: {} needs values",
                    r.operator
                ));
            }
            "Exists" | "DoesNotExist" if n > 0 => {
                return Some(format!(
                    "matchExpressions[{i}]: {} takes no values",
                    r.operator
                ));
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            op => {
                return Some(format!(
                    "matchExpressions[{i}].operator {op:?} is not a valid operator"
                ));
            }
        }
        if let Some(v) = r.values.iter().flatten().find(|v| !valid_label_value(v)) {
            return Some(format!(
                "matchExpressions[{i}] value {v:?} is not a valid label value"
            ));
        }
    }
    None
}

/// `[prefix/]name`: prefix a DNS subdomain (<= 253), name <= 63 alphanumerics with `-_.` inside.
fn valid_label_key(k: &str) -> bool {
    let (prefix, name) = match k.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, k),
    };
    if let Some(p) = prefix {
        let ok = !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|l| {
                let b = l.as_bytes();
                !b.is_empty()
                    && b.len() <= 63
                    && b[0].is_ascii_alphanumeric()
                    && b[b.len() - 1].is_ascii_alphanumeric()
                    && b.iter()
                        .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            });
        if !ok {
            return false;
        }
    }
    !name.is_empty() && valid_label_value(name)
}

fn valid_label_value(v: &str) -> bool {
    let b = v.as_bytes();
    b.is_empty()
        || (b.len() <= 63
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter()
                .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')))
}
