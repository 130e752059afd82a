//! JSON handlers of the `resources.*` fn ids (input/output shapes: `docs/resources.md`).

use super::expression::{Expression, Var};
use super::policy::{
    self, PodContainers, QuantityText, ResourceRequirements, ResourcesPolicy, Target,
};
use super::validate::{self as v, SidecarContainer};
use crate::error::{Error, Result};
use crate::quantity::Quantity;
use crate::registry::{decode, encode};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvalIn {
    expr: String,
    #[serde(default)]
    variables: serde_json::Map<String, Value>,
}

/// `resources.eval`: `{"expr", "variables": {name: string | number}}` -> printed result.
pub fn eval(input: &Value) -> Result<Value> {
    let i: EvalIn = decode(input)?;
    let mut vars: Vec<(&str, Var<'_>)> = Vec::with_capacity(i.variables.len());
    for (k, val) in &i.variables {
        let var = match val {
            Value::String(s) => {
                // The reference receives parsed quantities: an invalid one cannot reach it.
                Quantity::parse(s).map_err(|e| e.to_error(&format!("variables.{k}"), s))?;
                Var::Quantity(s)
            }
            Value::Number(n) => Var::Number(n.as_f64().ok_or_else(|| {
                Error::invalid_input(format!("variables.{k}"), "number out of range")
            })?),
            _ => {
                return Err(Error::invalid_input(
                    format!("variables.{k}"),
                    "expected a quantity string or a number",
                ));
            }
        };
        vars.push((k, var));
    }
    Ok(Value::String(Expression::eval_once_to_string(
        &i.expr, &vars,
    )?))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FieldIn {
    expr: String,
    value: Option<QuantityText>,
    #[serde(default)]
    is_limit: bool,
}

/// `resources.field`: `{"expr", "value": qty | null, "isLimit"}` -> quantity string or null.
pub fn field(input: &Value) -> Result<Value> {
    let i: FieldIn = decode(input)?;
    let agg = match &i.value {
        Some(QuantityText(t)) => Some(Quantity::parse(t).map_err(|e| e.to_error("value", t))?),
        None => None,
    };
    let out = policy::evaluate_field(&i.expr, agg.as_ref(), i.is_limit)?;
    Ok(out
        .map(|q| Value::String(q.to_string()))
        .unwrap_or(Value::Null))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AggContainer {
    #[serde(default)]
    name: String,
    #[serde(default)]
    resources: ResourceRequirements,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AggregateIn {
    mode: String,
    containers: Vec<AggContainer>,
}

/// `resources.aggregate`: `{"mode", "containers": [{name, resources}]}` -> `{limits, requests}`.
pub fn aggregate(input: &Value) -> Result<Value> {
    let i: AggregateIn = decode(input)?;
    let targets = i
        .containers
        .iter()
        .enumerate()
        .map(|(n, c)| {
            let c = policy::Container {
                name: c.name.clone(),
                restart_policy: None,
                resources: c.resources.clone(),
            };
            Target::from_container(&c, &format!("containers[{n}]"))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(policy::aggregate(&i.mode, &targets)?.to_json())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SidecarIn {
    resources_policy: Option<ResourcesPolicy>,
    pod: PodContainers,
    #[serde(default)]
    sidecar_container_names: Vec<String>,
}

/// `resources.sidecar`: `{"resourcesPolicy", "pod", "sidecarContainerNames"}` ->
/// `{limits, requests}` or null without a policy.
pub fn sidecar(input: &Value) -> Result<Value> {
    let i: SidecarIn = decode(input)?;
    let Some(p) = &i.resources_policy else {
        return Ok(Value::Null);
    };
    Ok(policy::apply(p, &i.pod, &i.sidecar_container_names)?.to_json())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidateExprIn {
    expr: String,
    variable: String,
}

/// `resources.validate_expr`: `{"expr", "variable"}` -> `true` or the calculator error.
pub fn validate_expr(input: &Value) -> Result<Value> {
    let i: ValidateExprIn = decode(input)?;
    v::validate_expr(&i.expr, &i.variable)?;
    Ok(Value::Bool(true))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ValidateIn {
    container: SidecarContainer,
    #[serde(default)]
    is_init_container: bool,
}

/// `resources.validate`: `{"container", "isInitContainer"}` -> `[{field, type, cause}]`.
pub fn validate(input: &Value) -> Result<Value> {
    let i: ValidateIn = decode(input)?;
    encode(&v::validate(&i.container, i.is_init_container))
}
