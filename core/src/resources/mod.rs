//! The `resources` decision family: SidecarSet dynamic sidecar resources and the expression
//! calculator of OpenKruise v1.9 (`pkg/util/calculator`, `pkg/webhook/pod/mutating/
//! sidecarset_resources.go`, `pkg/webhook/sidecarset/validating/...`). Spec:
//! `docs/resources.md`.
//!
//! - [`Expression`]: compile once, evaluate many times ([`Expression::eval`] does not allocate
//!   for ordinary inputs); [`Expression::compile_strict`] / [`Expression::lint`] report the
//!   reference's silent surprises.
//! - [`policy`]: target selection, aggregation, field evaluation and policy application.
//! - [`validate`](mod@validate): the SidecarSet webhook's checks.
//!
//! The typed decisions (`resources.*` fn ids) are in [`fns`]; registry entries in [`ENTRIES`].

pub mod compile;
pub mod expression;
pub mod fns;
pub mod goregex;
pub mod lexer;
pub mod number;
pub mod policy;
pub mod validate;

pub use compile::{Lint, Op, SyntaxError};
pub use expression::{Expression, Value, Var, kind};
pub use policy::{
    Aggregate, Applied, CompiledResourcesPolicy, Container, PodContainers, ResourceExprs,
    ResourceList, ResourcesExpr, ResourcesPolicy, Target, aggregate, apply, evaluate_field,
    select_targets,
};
pub use validate::{FieldError, SidecarContainer, validate, validate_expr};

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::Eval>(),
    Entry::of::<fns::Field>(),
    Entry::of::<fns::Aggregate>(),
    Entry::of::<fns::Sidecar>(),
    Entry::of::<fns::ValidateExpr>(),
    Entry::of::<fns::Validate>(),
];

#[cfg(test)]
mod tests;
