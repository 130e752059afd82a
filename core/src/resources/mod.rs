//! The `resources` decision family: SidecarSet dynamic sidecar resources and the expression
//! calculator of OpenKruise v1.9 (`pkg/util/calculator`, `pkg/webhook/pod/mutating/
//! sidecarset_resources.go`, `pkg/webhook/sidecarset/validating/...`). Spec:
//! `docs/resources.md`.
//!
//! - [`Expression`]: compile once, evaluate many times ([`Expression::eval`] does not allocate
//!   for ordinary inputs); [`Expression::compile_strict`] / [`Expression::lint`] report the
//!   reference's silent surprises.
//! - [`policy`]: target selection, aggregation, field evaluation and policy application.
//! - [`validate`]: the SidecarSet webhook's checks.
//!
//! Registry entries live in [`ENTRIES`].

pub mod compile;
pub mod expression;
pub mod goregex;
mod handlers;
pub mod lexer;
pub mod number;
pub mod policy;
pub mod validate;

pub use compile::{Lint, Op, SyntaxError};
pub use expression::{Expression, Value, Var, kind};
pub use policy::{
    Aggregate, Applied, Container, PodContainers, ResourceExprs, ResourceList, ResourcesExpr,
    ResourcesPolicy, Target, aggregate, apply, evaluate_field, select_targets,
};
pub use validate::{FieldError, SidecarContainer, validate, validate_expr};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::new(
        "resources.eval",
        "Evaluate a resource expression (pkg/util/calculator Parse)",
        handlers::eval,
    ),
    Entry::new(
        "resources.field",
        "Evaluate one sidecar resource field (sidecarset_resources.go evaluateResourceExpression)",
        handlers::field,
    ),
    Entry::new(
        "resources.aggregate",
        "Aggregate target containers' resources by sum/max (sidecarset_resources.go aggregateResources)",
        handlers::aggregate,
    ),
    Entry::new(
        "resources.sidecar",
        "Apply a sidecar's resourcesPolicy to a pod (sidecarset_resources.go applyResourcesPolicy)",
        handlers::sidecar,
    ),
    Entry::new(
        "resources.validate_expr",
        "Validate one resources expression (sidecarset validating webhook validateResourceExpression)",
        handlers::validate_expr,
    ),
    Entry::new(
        "resources.validate",
        "Validate a SidecarSet container's resourcesPolicy (validating webhook validateResourcesPolicy)",
        handlers::validate,
    ),
];

#[cfg(test)]
mod tests;
