//! The typed decisions of the `resources.*` fn ids (input/output shapes: `docs/resources.md`).
//!
//! Each unit struct is a [`Decision`]: Rust callers use [`crate::decide`] with the typed input,
//! every other front end the JSON shapes of the conformance vectors (the serde forms of these
//! types). The native fast path, [`super::Expression`], stays hand-written.
//!
//! ```
//! use kruise_core::resources::fns::{Eval, EvalInput, EvalVariable};
//! let input = EvalInput {
//!     expr: "max(cpu * 50%, 50m)".into(),
//!     variables: [("cpu".to_string(), EvalVariable::Quantity("200m".into()))].into(),
//! };
//! assert_eq!(kruise_core::decide::<Eval>(input)?, "100m");
//! # Ok::<(), kruise_core::Error>(())
//! ```

use super::expression::{Expression, Var, kind};
use super::policy::{self, INVALID_REGEX, NO_TARGET_CONTAINERS, Target};
use crate::error::{Error, Result};
use crate::quantity::{INVALID_QUANTITY, QUANTITY_OUT_OF_RANGE, Quantity};
use crate::registry::{Decision, concat_kinds, decode};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub use super::policy::Aggregate as AggregateOutput;
pub use super::policy::{
    Container, PodContainers, QuantityText, ResourceExprs, ResourceList, ResourceRequirements,
    ResourcesExpr, ResourcesPolicy,
};
pub use super::validate::{FieldError, SidecarContainer};

/// The error kinds of the calculator (`pkg/util/calculator`), which every expression can answer.
const CALCULATOR: &[&str] = &[
    kind::SYNTAX_ERROR,
    kind::INVALID_QUANTITY,
    kind::UNDEFINED_VARIABLE,
    kind::UNKNOWN_FUNCTION,
    kind::WRONG_ARGUMENT_COUNT,
    kind::QUANTITY_TIMES_QUANTITY,
    kind::DIVISION_BY_QUANTITY,
    kind::DIVISION_BY_ZERO,
    kind::NEGATIVE_RESULT,
    QUANTITY_OUT_OF_RANGE,
];

/// A variable of `resources.eval`: a quantity or a plain number.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EvalVariable {
    /// A JSON string: Kubernetes quantity text such as `"200m"` or `"1.5Gi"` (the reference's
    /// parsed `resource.Quantity`; an invalid one is `invalid_quantity` naming `variables.<name>`).
    Quantity(String),
    /// A JSON number: a plain float64 (the reference's `Value{IsQuantity: false}`).
    Number(f64),
}

impl<'de> Deserialize<'de> for EvalVariable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = EvalVariable;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a quantity string or a number")
            }
            fn visit_str<E: serde::de::Error>(
                self,
                s: &str,
            ) -> std::result::Result<EvalVariable, E> {
                Ok(EvalVariable::Quantity(s.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(
                self,
                s: String,
            ) -> std::result::Result<EvalVariable, E> {
                Ok(EvalVariable::Quantity(s))
            }
            fn visit_f64<E: serde::de::Error>(
                self,
                n: f64,
            ) -> std::result::Result<EvalVariable, E> {
                Ok(EvalVariable::Number(n))
            }
            fn visit_i64<E: serde::de::Error>(
                self,
                n: i64,
            ) -> std::result::Result<EvalVariable, E> {
                Ok(EvalVariable::Number(n as f64))
            }
            fn visit_u64<E: serde::de::Error>(
                self,
                n: u64,
            ) -> std::result::Result<EvalVariable, E> {
                Ok(EvalVariable::Number(n as f64))
            }
        }
        d.deserialize_any(V)
    }
}

/// Input of `resources.eval`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EvalInput {
    /// The expression (the calculator's grammar: numbers, quantities, `+ - * /`, `%`, `max`,
    /// `min`, parentheses, variables).
    pub expr: String,
    /// The variables the expression may name, by name (absent: none).
    #[serde(default)]
    pub variables: BTreeMap<String, EvalVariable>,
}

/// `resources.eval`: the printed result (a quantity's string form, or a number printed as Go's
/// `%g`-like `strconv.FormatFloat(f, 'f', -1, 64)`).
pub struct Eval;

impl Decision for Eval {
    const ID: &'static str = "resources.eval";
    const DOC: &'static str = "Evaluate a resource expression (pkg/util/calculator Parse)";
    const SOURCE: &'static str = "pkg/util/calculator/calculator.go Parse, Value.String";
    const ERRORS: &'static [&'static str] = CALCULATOR;
    type Input = EvalInput;
    type Output = String;
    // The check only orders errors: `EvalInput` refuses the same shapes (unknown members, a
    // missing `expr`, a variable neither string nor number) and `decide` checks every quantity.
    const CHECK_JSON_ONLY_ORDERS_ERRORS: bool = true;

    /// Keeps the reference reading's order of errors: the members' shapes first (`expr` a
    /// string, `variables` an object, no unknown member), then each variable in name order, where
    /// an invalid quantity string (`invalid_quantity`) and a value of another JSON type
    /// (`invalid_input`) are met in turn. Decoding alone would report a wrongly typed variable
    /// before an unknown member or a missing `expr`, and before an earlier bad quantity.
    const CHECK_JSON: Option<crate::registry::JsonCheck> = Some(|input: &Value| -> Result<()> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Shape {
            #[allow(dead_code)]
            expr: String,
            #[serde(default)]
            variables: serde_json::Map<String, Value>,
        }
        let shape: Shape = decode(input)?;
        for (k, v) in &shape.variables {
            match v {
                Value::String(s) => check_variable(k, s)?,
                Value::Number(_) => {}
                _ => {
                    return Err(Error::invalid_input(
                        format!("variables.{k}"),
                        "expected a quantity string or a number",
                    ));
                }
            }
        }
        Ok(())
    });

    fn decide(i: EvalInput) -> Result<String> {
        let mut vars: Vec<(&str, Var<'_>)> = Vec::with_capacity(i.variables.len());
        for (k, val) in &i.variables {
            vars.push((
                k,
                match val {
                    EvalVariable::Quantity(s) => {
                        check_variable(k, s)?;
                        Var::Quantity(s)
                    }
                    EvalVariable::Number(n) => Var::Number(*n),
                },
            ));
        }
        Expression::eval_once_to_string(&i.expr, &vars)
    }
}

/// The reference receives parsed quantities: an invalid one cannot reach it.
fn check_variable(name: &str, text: &str) -> Result<()> {
    Quantity::parse(text)
        .map(|_| ())
        .map_err(|e| e.to_error(&format!("variables.{name}"), text))
}

/// Input of `resources.field`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FieldInput {
    /// The field's expression; `""` leaves a limit unset and sets a request to `0`.
    pub expr: String,
    /// The aggregated quantity bound to the variable (`cpu`, or `memory` when the expression
    /// names that word); `null` or absent: the aggregate is not defined, read as the zero
    /// quantity.
    pub value: Option<QuantityText>,
    /// Whether the field is a limit (default `false`: a request).
    #[serde(default)]
    pub is_limit: bool,
}

/// `resources.field`: the field's quantity as Kubernetes prints it, or `null` (left unset: an
/// empty limit expression).
pub struct Field;

impl Decision for Field {
    const ID: &'static str = "resources.field";
    const DOC: &'static str =
        "Evaluate one sidecar resource field (sidecarset_resources.go evaluateResourceExpression)";
    const SOURCE: &'static str =
        "pkg/webhook/pod/mutating/sidecarset_resources.go evaluateResourceExpression";
    const ERRORS: &'static [&'static str] = CALCULATOR;
    type Input = FieldInput;
    type Output = Option<String>;

    fn decide(i: FieldInput) -> Result<Option<String>> {
        let agg = match &i.value {
            Some(QuantityText(t)) => Some(Quantity::parse(t).map_err(|e| e.to_error("value", t))?),
            None => None,
        };
        let out = policy::evaluate_field(&i.expr, agg.as_ref(), i.is_limit)?;
        Ok(out.map(|q| q.to_string()))
    }
}

/// A target container of `resources.aggregate`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AggregateContainer {
    /// Container name (default `""`; not used by the aggregation).
    #[serde(default)]
    pub name: String,
    /// Its resources (only `cpu` and `memory` are read; absent: none).
    #[serde(default)]
    pub resources: ResourceRequirements,
}

/// Input of `resources.aggregate`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AggregateInput {
    /// `sum` or `max` (any other value aggregates nothing).
    pub mode: String,
    /// The target containers, in pod order.
    pub containers: Vec<AggregateContainer>,
}

/// `resources.aggregate`: the aggregated limits and requests.
pub struct Aggregate;

impl Decision for Aggregate {
    const ID: &'static str = "resources.aggregate";
    const DOC: &'static str = "Aggregate target containers' resources by sum/max (sidecarset_resources.go aggregateResources)";
    const SOURCE: &'static str = "pkg/webhook/pod/mutating/sidecarset_resources.go aggregateResources, aggregateResourcesBySum, aggregateResourcesByMax";
    const ERRORS: &'static [&'static str] = &[INVALID_QUANTITY, QUANTITY_OUT_OF_RANGE];
    type Input = AggregateInput;
    type Output = AggregateOutput;

    fn decide(i: AggregateInput) -> Result<AggregateOutput> {
        let targets = i
            .containers
            .into_iter()
            .enumerate()
            .map(|(n, c)| {
                let c = Container {
                    name: c.name,
                    restart_policy: None,
                    resources: c.resources,
                };
                Target::from_container(&c, &format!("containers[{n}]"))
            })
            .collect::<Result<Vec<_>>>()?;
        policy::aggregate(&i.mode, &targets)
    }
}

/// Input of `resources.sidecar`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SidecarInput {
    /// The sidecar container's `resourcesPolicy`; `null` or absent: none (the answer is `null`).
    pub resources_policy: Option<ResourcesPolicy>,
    /// The pod's containers.
    pub pod: PodContainers,
    /// Every container and init-container name of every SidecarSet matched for the pod (never
    /// targets; absent: none).
    #[serde(default)]
    pub sidecar_container_names: Vec<String>,
}

/// The sidecar's new `resources`. Each map replaces the container's; an empty map leaves it
/// unset.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SidecarOutput {
    /// The new limits.
    pub limits: ResourceList,
    /// The new requests.
    pub requests: ResourceList,
}

impl From<&policy::Applied> for SidecarOutput {
    fn from(a: &policy::Applied) -> Self {
        SidecarOutput {
            limits: a.limits.clone(),
            requests: a.requests.clone(),
        }
    }
}

/// The error kinds of applying a `resourcesPolicy` (`resources.sidecar`, and the injection of
/// `sidecarset.inject`).
pub const SIDECAR_ERRORS: &[&str] =
    &concat_kinds::<{ CALCULATOR.len() + 2 }>(CALCULATOR, &[INVALID_REGEX, NO_TARGET_CONTAINERS]);

/// `resources.sidecar`: the sidecar's computed resources, or `null` without a policy.
pub struct Sidecar;

impl Decision for Sidecar {
    const ID: &'static str = "resources.sidecar";
    const DOC: &'static str =
        "Apply a sidecar's resourcesPolicy to a pod (sidecarset_resources.go applyResourcesPolicy)";
    const SOURCE: &'static str = "pkg/webhook/pod/mutating/sidecarset_resources.go applyResourcesPolicy, getTargetContainers";
    const ERRORS: &'static [&'static str] = SIDECAR_ERRORS;
    type Input = SidecarInput;
    type Output = Option<SidecarOutput>;

    fn decide(i: SidecarInput) -> Result<Option<SidecarOutput>> {
        let Some(p) = &i.resources_policy else {
            return Ok(None);
        };
        Ok(Some(SidecarOutput::from(&policy::apply(
            p,
            &i.pod,
            &i.sidecar_container_names,
        )?)))
    }
}

/// Input of `resources.validate_expr`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateExprInput {
    /// The expression (`""` is accepted).
    pub expr: String,
    /// The one variable it may name (`cpu` or `memory`), bound to the plain number 1.
    pub variable: String,
}

/// `resources.validate_expr`: `true` when the expression is accepted; otherwise the calculator's
/// error (its kind is the webhook's cause).
pub struct ValidateExpr;

impl Decision for ValidateExpr {
    const ID: &'static str = "resources.validate_expr";
    const DOC: &'static str = "Validate one resources expression (sidecarset validating webhook validateResourceExpression)";
    const SOURCE: &'static str = "pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go validateResourceExpression";
    const ERRORS: &'static [&'static str] = CALCULATOR;
    type Input = ValidateExprInput;
    /// Always `true` (a rejected expression is an error).
    type Output = bool;

    fn decide(i: ValidateExprInput) -> Result<bool> {
        super::validate::validate_expr(&i.expr, &i.variable)?;
        Ok(true)
    }
}

/// Input of `resources.validate`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateInput {
    /// The SidecarSet container.
    pub container: SidecarContainer,
    /// Whether it is one of the SidecarSet's init containers (default `false`).
    #[serde(default)]
    pub is_init_container: bool,
}

/// `resources.validate`: the webhook's findings in order (`[]`: accepted).
pub struct Validate;

impl Decision for Validate {
    const ID: &'static str = "resources.validate";
    const DOC: &'static str = "Validate a SidecarSet container's resourcesPolicy (validating webhook validateResourcesPolicy)";
    const SOURCE: &'static str = "pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go \
        validateResourcesPolicy, validateContainersForSidecarSet";
    const ERRORS: &'static [&'static str] = &[];
    type Input = ValidateInput;
    type Output = Vec<FieldError>;

    fn decide(i: ValidateInput) -> Result<Vec<FieldError>> {
        Ok(super::validate::validate(&i.container, i.is_init_container))
    }
}
