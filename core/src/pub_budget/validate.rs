//! PUB object validation (the PUB validating webhook).
//!
//! Mirrors `pkg/webhook/podunavailablebudget/validating/pub_create_update_handler.go`
//! (OpenKruise v1.9.0) with Kubernetes `ValidatePositiveIntOrPercent` / `IsNotMoreThan100Percent`
//! (`pkg/apis/apps/validation`, v1.32). Cross-PUB conflicts are not evaluated.

use super::protect::invalid_pieces;
use super::status::parse_int32_strict;
use super::types::{ANN_PROTECT_TOTAL_REPLICAS, FeatureGates, LabelSelector, Pub};
use crate::intstr::IntOrPercent;
use crate::k8s::selector::validate_parts;
use crate::k8s::strconv::atoi_value;
use crate::k8s::validation::valid_percent_digits;

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
        // `IsNotMoreThan100Percent` reads the digits with `v, _ := strconv.Atoi`, which saturates:
        // `"99999999999999999999%"` is above 100 %.
        IntOrPercent::String(s) => match valid_percent_digits(s) {
            None => errs.push(invalid),
            Some(d) => {
                if atoi_value(d) > 100 {
                    errs.push(over);
                }
            }
        },
    }
}

/// Why a label selector is invalid (`ValidateLabelSelector` / `metav1.LabelSelectorAsSelector`,
/// one rule set in [`crate::k8s::selector`]): unknown operator, `In`/`NotIn` without values,
/// `Exists`/`DoesNotExist` with values, or a label key that is not a qualified name (its prefix
/// a DNS-1123 subdomain of at most 253 bytes) or a bad label value. `None` = fine.
pub fn selector_problem(sel: &LabelSelector) -> Option<String> {
    validate_parts(
        sel.match_labels.iter().flatten().map(|(k, v)| (k.as_str(), v.as_str())),
        sel.match_expressions
            .iter()
            .flatten()
            .map(|r| (r.key.as_str(), r.operator.as_str(), r.values.as_deref().unwrap_or_default())),
    )
    .into_iter()
    .next()
    .map(|e| format!("{}: {}", e.field, e.detail))
}
