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

/// An error code of PUB validation (`pub.validate`), in snake_case on the wire.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ValidationCode {
    /// Neither PUB gate is effectively on (the webhook refuses every PUB).
    FeatureGateDisabled,
    /// A protect-operations piece is not exactly UPDATE, DELETE, EVICT or RESIZE (one per bad piece).
    InvalidProtectOperations,
    /// `pub.kruise.io/protect-total-replicas` is not an int32.
    InvalidProtectTotalReplicas,
    /// Neither `spec.selector` nor `spec.targetRef`.
    SelectorOrTargetRefRequired,
    /// Both `spec.selector` and `spec.targetRef`.
    SelectorAndTargetRefExclusive,
    /// `spec.targetRef` lacks apiVersion, kind or name.
    TargetRefIncomplete,
    /// `spec.targetRef.apiVersion` has more than one `/`.
    TargetRefInvalidApiVersion,
    /// `spec.selector` has no matchLabels and no matchExpressions.
    SelectorEmpty,
    /// `spec.selector` fails Kubernetes' label-selector validation.
    SelectorInvalid,
    /// Neither `spec.maxUnavailable` nor `spec.minAvailable`.
    MaxOrMinRequired,
    /// Both `spec.maxUnavailable` and `spec.minAvailable`.
    MaxAndMinExclusive,
    /// `spec.maxUnavailable` is negative or not a valid percentage.
    MaxUnavailableInvalid,
    /// `spec.maxUnavailable` is a percentage above 100 %.
    #[serde(rename = "max_unavailable_over_100_percent")]
    MaxUnavailableOver100Percent,
    /// `spec.minAvailable` is negative or not a valid percentage.
    MinAvailableInvalid,
    /// `spec.minAvailable` is a percentage above 100 %.
    #[serde(rename = "min_available_over_100_percent")]
    MinAvailableOver100Percent,
    /// An update changes `spec.selector` or `spec.targetRef`.
    SelectorOrTargetRefImmutable,
}

use ValidationCode as Code;

impl ValidationCode {
    /// Every code, in the webhook's order of checks.
    pub const ALL: [ValidationCode; 16] = [
        Code::FeatureGateDisabled,
        Code::InvalidProtectOperations,
        Code::InvalidProtectTotalReplicas,
        Code::SelectorOrTargetRefRequired,
        Code::SelectorAndTargetRefExclusive,
        Code::TargetRefIncomplete,
        Code::TargetRefInvalidApiVersion,
        Code::SelectorEmpty,
        Code::SelectorInvalid,
        Code::MaxOrMinRequired,
        Code::MaxAndMinExclusive,
        Code::MaxUnavailableInvalid,
        Code::MaxUnavailableOver100Percent,
        Code::MinAvailableInvalid,
        Code::MinAvailableOver100Percent,
        Code::SelectorOrTargetRefImmutable,
    ];

    /// The snake_case code.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::FeatureGateDisabled => "feature_gate_disabled",
            Code::InvalidProtectOperations => "invalid_protect_operations",
            Code::InvalidProtectTotalReplicas => "invalid_protect_total_replicas",
            Code::SelectorOrTargetRefRequired => "selector_or_target_ref_required",
            Code::SelectorAndTargetRefExclusive => "selector_and_target_ref_exclusive",
            Code::TargetRefIncomplete => "target_ref_incomplete",
            Code::TargetRefInvalidApiVersion => "target_ref_invalid_api_version",
            Code::SelectorEmpty => "selector_empty",
            Code::SelectorInvalid => "selector_invalid",
            Code::MaxOrMinRequired => "max_or_min_required",
            Code::MaxAndMinExclusive => "max_and_min_exclusive",
            Code::MaxUnavailableInvalid => "max_unavailable_invalid",
            Code::MaxUnavailableOver100Percent => "max_unavailable_over_100_percent",
            Code::MinAvailableInvalid => "min_available_invalid",
            Code::MinAvailableOver100Percent => "min_available_over_100_percent",
            Code::SelectorOrTargetRefImmutable => "selector_or_target_ref_immutable",
        }
    }
}

/// Validates a PUB (`old` = the stored object on update). Returns the error codes in the
/// webhook's order; empty = valid. Codes: `feature_gate_disabled`, `invalid_protect_operations`
/// (one per bad piece), `invalid_protect_total_replicas`, `selector_or_target_ref_required`,
/// `selector_and_target_ref_exclusive`, `target_ref_incomplete`, `target_ref_invalid_api_version`,
/// `selector_empty`, `selector_invalid`, `max_or_min_required`, `max_and_min_exclusive`,
/// `max_unavailable_invalid`, `max_unavailable_over_100_percent`, `min_available_invalid`,
/// `min_available_over_100_percent`, `selector_or_target_ref_immutable`.
pub fn validate(pb: &Pub, old: Option<&Pub>, gates: FeatureGates) -> Vec<&'static str> {
    validate_codes(pb, old, gates)
        .into_iter()
        .map(ValidationCode::as_str)
        .collect()
}

/// [`validate`] with typed codes.
pub fn validate_codes(pb: &Pub, old: Option<&Pub>, gates: FeatureGates) -> Vec<ValidationCode> {
    if !gates.delete_checked() && !gates.update_checked() {
        return vec![Code::FeatureGateDisabled];
    }
    let mut errs = Vec::new();
    let ann = &pb.metadata.annotations;
    let ops = pb.protect_operations_value();
    if let Some(v) = ops.as_deref() {
        errs.extend(
            invalid_pieces(v)
                .iter()
                .map(|_| Code::InvalidProtectOperations),
        );
    }
    if let Some(v) = ann.get(ANN_PROTECT_TOTAL_REPLICAS)
        && parse_int32_strict(v).is_none()
    {
        errs.push(Code::InvalidProtectTotalReplicas);
    }
    let spec = &pb.spec;
    match (&spec.selector, &spec.target_ref) {
        (None, None) => errs.push(Code::SelectorOrTargetRefRequired),
        (Some(_), Some(_)) => errs.push(Code::SelectorAndTargetRefExclusive),
        (None, Some(t)) => {
            if t.api_version.is_empty() || t.kind.is_empty() || t.name.is_empty() {
                errs.push(Code::TargetRefIncomplete);
            }
            if t.api_version.matches('/').count() > 1 {
                errs.push(Code::TargetRefInvalidApiVersion);
            }
        }
        (Some(sel), None) => {
            let n = sel.match_labels.as_ref().map_or(0, |m| m.len())
                + sel.match_expressions.as_ref().map_or(0, |m| m.len());
            if n == 0 {
                errs.push(Code::SelectorEmpty);
            }
            if selector_problem(sel).is_some() {
                errs.push(Code::SelectorInvalid);
            }
        }
    }
    match (&spec.max_unavailable, &spec.min_available) {
        (None, None) => errs.push(Code::MaxOrMinRequired),
        (Some(_), Some(_)) => errs.push(Code::MaxAndMinExclusive),
        (Some(v), None) => budget(
            v,
            Code::MaxUnavailableInvalid,
            Code::MaxUnavailableOver100Percent,
            &mut errs,
        ),
        (None, Some(v)) => budget(
            v,
            Code::MinAvailableInvalid,
            Code::MinAvailableOver100Percent,
            &mut errs,
        ),
    }
    if let Some(o) = old
        && (o.spec.selector != pb.spec.selector || o.spec.target_ref != pb.spec.target_ref)
    {
        errs.push(Code::SelectorOrTargetRefImmutable);
    }
    errs
}

fn budget(v: &IntOrPercent, invalid: Code, over: Code, errs: &mut Vec<Code>) {
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
        sel.match_labels
            .iter()
            .flatten()
            .map(|(k, v)| (k.as_str(), v.as_str())),
        sel.match_expressions.iter().flatten().map(|r| {
            (
                r.key.as_str(),
                r.operator.as_str(),
                r.values.as_deref().unwrap_or_default(),
            )
        }),
    )
    .into_iter()
    .next()
    .map(|e| format!("{}: {}", e.field, e.detail))
}
