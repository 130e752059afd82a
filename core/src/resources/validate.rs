//! The SidecarSet validating webhook's checks of a `resourcesPolicy`
//! (`pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go`:
//! `validateResourcesPolicy`, `validateResourceExpr*`, `validateResourceExpression`, and the
//! init-container restart-policy check in `validateContainersForSidecarSet`).

use super::expression::{Expression, Var};
use super::policy::{ResourceRequirements, ResourcesPolicy};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// A SidecarSet container as validation sees it (other container members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarContainer {
    /// Name (absent: `""`).
    #[serde(default)]
    pub name: String,
    /// Restart policy (`Always` for native sidecars; `null` or absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    /// Static resources (must be empty when a policy is set; absent: none).
    #[serde(default)]
    pub resources: ResourceRequirements,
    /// The policy (`null` or absent: none, nothing to validate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_policy: Option<ResourcesPolicy>,
}

/// One validation finding, as `field.Error` would carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FieldError {
    /// Path relative to the container, e.g. `resourcesPolicy.resourcesExpr.limits.cpu`.
    pub field: String,
    /// `invalid` or `required`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `restart_policy_not_always`, `resources_conflict`, `empty_regex`, `invalid_regex`,
    /// `no_limits_or_requests`, or a calculator error kind.
    pub cause: String,
    /// Human-readable detail (not part of the JSON form).
    #[serde(skip)]
    pub detail: String,
}

fn fe(field: &str, kind: &str, cause: &str, detail: impl Into<String>) -> FieldError {
    FieldError {
        field: field.into(),
        kind: kind.into(),
        cause: cause.into(),
        detail: detail.into(),
    }
}

/// `validateResourceExpression`: evaluates `expr` with exactly one variable named `variable`
/// bound to the plain number 1. An empty expression is accepted.
///
/// Errors: the calculator's error (its kind is the validation cause).
pub fn validate_expr(expr: &str, variable: &str) -> Result<()> {
    if expr.is_empty() {
        return Ok(());
    }
    Expression::eval_once(expr, &[(variable, Var::Number(1.0))]).map(|_| ())
}

/// `validateResourcesPolicy`, one SidecarSet container: the ordered findings (`[]` = accepted; no policy =
/// `[]`).
pub fn validate(container: &SidecarContainer, is_init_container: bool) -> Vec<FieldError> {
    let Some(policy) = &container.resources_policy else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    if is_init_container && container.restart_policy.as_deref() != Some("Always") {
        errs.push(fe(
            "resourcesPolicy",
            "invalid",
            "restart_policy_not_always",
            "resourcesPolicy is only supported for containers with restartPolicy Always",
        ));
    }
    let non_empty = |m: &Option<
        std::collections::BTreeMap<String, super::policy::QuantityText>,
    >| { m.as_ref().is_some_and(|m| !m.is_empty()) };
    if non_empty(&container.resources.limits) || non_empty(&container.resources.requests) {
        errs.push(fe(
            "resourcesPolicy",
            "invalid",
            "resources_conflict",
            "resourcesPolicy and resources cannot both be set",
        ));
        return errs;
    }
    let regex_field = "resourcesPolicy.targetContainersNameRegex";
    if policy.target_containers_name_regex.is_empty() {
        errs.push(fe(
            regex_field,
            "required",
            "empty_regex",
            "the regex must not be empty",
        ));
    } else if let Err(e) = super::policy::compile_regex(&policy.target_containers_name_regex) {
        errs.push(fe(
            regex_field,
            "invalid",
            "invalid_regex",
            e.message.to_string(),
        ));
    }
    let expr = &policy.resources_expr;
    if expr.limits.is_none() && expr.requests.is_none() {
        errs.push(fe(
            "resourcesPolicy.resourcesExpr",
            "invalid",
            "no_limits_or_requests",
            "at least one of limits or requests must be set",
        ));
        return errs;
    }
    for (side, exprs) in [("limits", &expr.limits), ("requests", &expr.requests)] {
        let Some(exprs) = exprs else { continue };
        for (var, text) in [("cpu", &exprs.cpu), ("memory", &exprs.memory)] {
            if let Err(e) = validate_expr(text, var) {
                errs.push(fe(
                    &format!("resourcesPolicy.resourcesExpr.{side}.{var}"),
                    "invalid",
                    e.kind,
                    e.message.to_string(),
                ));
            }
        }
    }
    errs
}
