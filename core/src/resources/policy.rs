//! SidecarSet `resourcesPolicy` (OpenKruise `apis/apps/v1beta1/sidecarset_types.go`) and its
//! application at pod creation (`pkg/webhook/pod/mutating/sidecarset_resources.go`:
//! `applyResourcesPolicy`, `getTargetContainers`, `aggregateResources*`,
//! `evaluateResourceExpression`).

use super::expression::{Expression, Value};
use crate::error::{Error, Result};
use crate::quantity::{Format, Quantity, go_f64_to_i64};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// Error kind: `targetContainersNameRegex` does not compile as a Go RE2 expression.
pub const INVALID_REGEX: &str = "invalid_regex";
/// Error kind: no pod container matched the policy.
pub const NO_TARGET_CONTAINERS: &str = "no_target_containers";

/// `resourcesPolicy` of a SidecarSet container (JSON names as in the CRD).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesPolicy {
    /// `sum` or `max` (CRD enum; the webhooks never check it: any other value aggregates nothing).
    /// Absent: `""`.
    #[serde(default)]
    pub target_containers_mode: String,
    /// Go RE2 pattern searched (unanchored) in container names. Absent = `""` here (the API
    /// server's `.*` default is applied before the webhooks; `""` also matches everything).
    #[serde(default)]
    pub target_containers_name_regex: String,
    /// Expressions for limits and requests (absent: neither side).
    #[serde(default)]
    pub resources_expr: ResourcesExpr,
}

/// `resourcesExpr`: each side optional; a present but empty object is allowed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResourcesExpr {
    /// Limit expressions (`null` or absent: limits are not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<ResourceExprs>,
    /// Request expressions (`null` or absent: requests are not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<ResourceExprs>,
}

/// `cpu` and `memory` expressions; `""` = do not set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResourceExprs {
    /// CPU expression (absent: `""`).
    #[serde(default)]
    pub cpu: String,
    /// Memory expression (absent: `""`).
    #[serde(default)]
    pub memory: String,
}

/// A resource list reduced to what the policy reads and writes: `cpu` and `memory`. In JSON
/// each is the quantity's Kubernetes string form, absent when unset.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ResourceList {
    /// `cpu`, if set (printed like Kubernetes, e.g. `"250m"`).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "printed")]
    #[schemars(with = "String")]
    pub cpu: Option<Quantity<'static>>,
    /// `memory`, if set (printed like Kubernetes, e.g. `"128Mi"`).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "printed")]
    #[schemars(with = "String")]
    pub memory: Option<Quantity<'static>>,
}

/// Serialises a set quantity as its printed form (unset ones are skipped).
fn printed<S: serde::Serializer>(
    q: &Option<Quantity<'static>>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match q {
        Some(q) => s.collect_str(q),
        None => s.serialize_none(),
    }
}

impl ResourceList {
    /// Whether neither resource is set.
    pub fn is_empty(&self) -> bool {
        self.cpu.is_none() && self.memory.is_none()
    }

    /// Reads `cpu` and `memory` from a Kubernetes resource map (other names are ignored).
    /// Errors: `invalid_quantity` naming `field.cpu` / `field.memory`.
    pub fn from_map(map: &BTreeMap<String, QuantityText>, field: &str) -> Result<ResourceList> {
        ResourceList::from_map_named(map, |k| format!("{field}.{k}"))
    }

    /// [`ResourceList::from_map`] with the field path built (by `field(resource)`) only for an
    /// error.
    fn from_map_named(
        map: &BTreeMap<String, QuantityText>,
        field: impl Fn(&str) -> String,
    ) -> Result<ResourceList> {
        let get = |k: &str| -> Result<Option<Quantity<'static>>> {
            match map.get(k) {
                None => Ok(None),
                Some(QuantityText(t)) => Quantity::parse_owned(t)
                    .map(Some)
                    .map_err(|e| e.to_error(&field(k), t)),
            }
        };
        Ok(ResourceList {
            cpu: get("cpu")?,
            memory: get("memory")?,
        })
    }
}

/// Quantity text in JSON: a string, or a bare number (Kubernetes accepts both).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuantityText(pub String);

impl<'de> Deserialize<'de> for QuantityText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => Ok(QuantityText(s)),
            serde_json::Value::Number(n) => Ok(QuantityText(n.to_string())),
            other => Err(serde::de::Error::custom(format!(
                "expected a quantity string, found {other}"
            ))),
        }
    }
}

impl schemars::JsonSchema for QuantityText {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Quantity".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A Kubernetes quantity (apimachinery `resource.Quantity`): its string form such as \"500m\" or \"1.5Gi\", or a bare JSON number (read as its decimal text).",
            "type": ["string", "number"]
        })
    }
}

/// `resources` of a container: `limits` and `requests` maps (resource name -> quantity).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResourceRequirements {
    /// Limits by resource name (only `cpu` and `memory` are read; `null` or absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<BTreeMap<String, QuantityText>>,
    /// Requests by resource name (only `cpu` and `memory` are read; `null` or absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<BTreeMap<String, QuantityText>>,
}

/// A pod container as the policy sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    /// Container name (required).
    pub name: String,
    /// `Always` marks a native sidecar among init containers (`null` or absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    /// Resources (absent: none).
    #[serde(default)]
    pub resources: ResourceRequirements,
}

/// The pod's containers (`spec.initContainers`, `spec.containers`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodContainers {
    /// Init containers (only those with `restartPolicy: Always` can be targets; absent: none).
    #[serde(default)]
    pub init_containers: Vec<Container>,
    /// Containers (absent: none).
    #[serde(default)]
    pub containers: Vec<Container>,
}

/// A target container with its parsed `cpu`/`memory` limits and requests.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// Name.
    pub name: String,
    /// Limits (`None` = no limits map).
    pub limits: ResourceList,
    /// Requests.
    pub requests: ResourceList,
}

impl Target {
    /// Parses a container's resources. Errors: `invalid_quantity` naming `field`.
    pub fn from_container(c: &Container, field: &str) -> Result<Target> {
        Target::read(c, |side, k| format!("{field}.resources.{side}.{k}"))
    }

    /// [`Target::from_container`] with the field path built (by `path(side, resource)`) only for
    /// an error.
    fn read(c: &Container, path: impl Fn(&str, &str) -> String) -> Result<Target> {
        let list = |map: &Option<BTreeMap<String, QuantityText>>, side: &str| match map {
            None => Ok(ResourceList::default()),
            Some(m) => ResourceList::from_map_named(m, |k| path(side, k)),
        };
        Ok(Target {
            name: c.name.clone(),
            limits: list(&c.resources.limits, "limits")?,
            requests: list(&c.resources.requests, "requests")?,
        })
    }
}

/// `getTargetContainers`' choice, in its order: the native sidecars (init containers with
/// `restartPolicy: Always`), then the containers, whose name `re` matches and is not one of
/// `sidecar_names`; each with whether it is an init container and its index in its list.
fn targets_of<'p, 'a>(
    pod: &'p PodContainers,
    re: &'a regex::Regex,
    sidecar_names: &'a [String],
) -> impl Iterator<Item = (bool, usize, &'p Container)> + use<'p, 'a> {
    let chosen = move |c: &Container| !sidecar_names.contains(&c.name) && re.is_match(&c.name);
    let init = pod.init_containers.iter().enumerate();
    let init = init.filter(|(_, c)| c.restart_policy.as_deref() == Some("Always"));
    init.filter(move |(_, c)| chosen(c))
        .map(|(i, c)| (true, i, c))
        .chain(
            pod.containers
                .iter()
                .enumerate()
                .filter(move |(_, c)| chosen(c))
                .map(|(i, c)| (false, i, c)),
        )
}

/// The list name of a target container: `initContainers` or `containers`.
fn list_name(init: bool) -> &'static str {
    if init { "initContainers" } else { "containers" }
}

/// Compiles a `targetContainersNameRegex` with Go RE2 semantics (rewritten for the `regex` crate
/// by `goregex::translate`; see `docs/resources.md`). Errors: `invalid_regex`.
pub fn compile_regex(pattern: &str) -> Result<regex::Regex> {
    let field = "resourcesPolicy.targetContainersNameRegex";
    let translated = super::goregex::translate(pattern).map_err(|e| {
        Error::at(
            INVALID_REGEX,
            field,
            format_args!("invalid regex pattern {pattern:?}: {e}"),
        )
    })?;
    regex::Regex::new(&translated).map_err(|e| {
        Error::at(
            INVALID_REGEX,
            "resourcesPolicy.targetContainersNameRegex",
            format_args!("invalid regex pattern {pattern:?}: {e}"),
        )
    })
}

/// `getTargetContainers`: native sidecars (init containers with `restartPolicy: Always`) then
/// containers, skipping every name in `sidecar_names` (all containers and init containers of all
/// SidecarSets matched for the pod), keeping names the regex finds a match in.
///
/// Returns `(index path, container)` pairs, the path being `initContainers[i]`/`containers[i]`.
/// Errors: `invalid_regex`; an empty result is not an error here (see [`apply`]).
pub fn select_targets<'p>(
    pod: &'p PodContainers,
    pattern: &str,
    sidecar_names: &[String],
) -> Result<Vec<(String, &'p Container)>> {
    let re = compile_regex(pattern)?;
    Ok(targets_of(pod, &re, sidecar_names)
        .map(|(init, i, c)| (format!("pod.{}[{i}]", list_name(init)), c))
        .collect())
}

/// Aggregated limits and requests of the targets; a resource is present iff defined.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "AggregateOutput")]
pub struct Aggregate {
    /// Aggregated limits.
    pub limits: ResourceList,
    /// Aggregated requests.
    pub requests: ResourceList,
}

fn qerr(e: crate::quantity::QuantityError, what: &str) -> Error {
    Error::new(e.kind(), format!("{what}: {}", e.reason()))
}

/// `aggregateResources`: `sum` or `max` over the targets, in order (`sidecarset_resources.go`).
///
/// - `sum`: totals start at a DecimalSI zero (so they take the format of the first non-zero
///   value); a limit is defined only if every target has it; a request only if the total is
///   non-zero.
/// - `max`: the first strictly largest value, as written (retained text kept); a limit only if
///   every target has it; a request if any target has it.
/// - any other mode: nothing.
///
/// Errors: `quantity_out_of_range` only for sums of absurd exponents.
pub fn aggregate(mode: &str, targets: &[Target]) -> Result<Aggregate> {
    let mut agg = Aggregate::default();
    match mode {
        "sum" => {
            let zero = || Quantity::from_i64(0, Format::DecimalSI);
            let (mut lc, mut lm, mut rc, mut rm) = (zero(), zero(), zero(), zero());
            let (mut all_c, mut all_m) = (true, true);
            for t in targets {
                let add =
                    |acc: &mut Quantity<'static>, q: &Option<Quantity<'static>>| -> Result<bool> {
                        match q {
                            Some(q) => acc
                                .add(q)
                                .map(|_| true)
                                .map_err(|e| qerr(e, "sum of resources")),
                            None => Ok(false),
                        }
                    };
                all_c &= add(&mut lc, &t.limits.cpu)?;
                all_m &= add(&mut lm, &t.limits.memory)?;
                add(&mut rc, &t.requests.cpu)?;
                add(&mut rm, &t.requests.memory)?;
            }
            agg.limits.cpu = all_c.then_some(lc);
            agg.limits.memory = all_m.then_some(lm);
            agg.requests.cpu = (!rc.is_zero()).then_some(rc);
            agg.requests.memory = (!rm.is_zero()).then_some(rm);
        }
        "max" => {
            let (mut all_c, mut all_m) = (true, true);
            let keep =
                |acc: &mut Option<Quantity<'static>>, q: &Option<Quantity<'static>>| -> bool {
                    match q {
                        Some(q) => {
                            if acc
                                .as_ref()
                                .is_none_or(|m| q.cmp_value(m) == std::cmp::Ordering::Greater)
                            {
                                *acc = Some(q.clone());
                            }
                            true
                        }
                        None => false,
                    }
                };
            for t in targets {
                all_c &= keep(&mut agg.limits.cpu, &t.limits.cpu);
                all_m &= keep(&mut agg.limits.memory, &t.limits.memory);
                keep(&mut agg.requests.cpu, &t.requests.cpu);
                keep(&mut agg.requests.memory, &t.requests.memory);
            }
            if !all_c {
                agg.limits.cpu = None;
            }
            if !all_m {
                agg.limits.memory = None;
            }
        }
        _ => {}
    }
    Ok(agg)
}

/// Whether `expr` contains the word `memory` (Go regexp `\bmemory\b`: ASCII word boundaries).
pub fn names_memory(expr: &str) -> bool {
    let b = expr.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(i) = expr.get(from..).and_then(|s| s.find("memory")) {
        let at = from + i;
        let end = at + "memory".len();
        let before = at == 0 || !b.get(at - 1).copied().is_some_and(word);
        let after = !b.get(end).copied().is_some_and(word);
        if before && after {
            return true;
        }
        from = at + 1;
    }
    false
}

/// `evaluateResourceExpression`: evaluates one field's expression with the single
/// variable named by the text (`memory` if the word occurs, else `cpu`) bound to `aggregated`
/// (absent = the format-less zero quantity). A number result becomes `trunc(n*1000)` millicores
/// (variable `cpu`) or `trunc(n)` (variable `memory`), DecimalSI.
///
/// Returns `None` only for `expr == ""` on a limit; `""` on a request gives `0`.
/// Errors: the calculator's kinds.
pub fn evaluate_field(
    expr: &str,
    aggregated: Option<&Quantity<'_>>,
    is_limit: bool,
) -> Result<Option<Quantity<'static>>> {
    if expr.is_empty() {
        return Ok((!is_limit).then(|| Quantity::from_i64(0, Format::DecimalSI)));
    }
    let var = if names_memory(expr) { "memory" } else { "cpu" };
    let value = aggregated.map(Quantity::reborrow).unwrap_or(Quantity::ZERO);
    let out = Expression::eval_once_values(expr, &[(var, Value::Quantity(value))])?;
    Ok(Some(result_quantity(out, var)))
}

/// `evaluateResourceExpression`'s result as a quantity: a number is cores for `cpu` (kept to
/// the milli-core) and a count for `memory`.
fn result_quantity(out: Value<'_>, var: &str) -> Quantity<'static> {
    match out {
        Value::Quantity(q) => q.into_owned(),
        Value::Number(n) if var == "cpu" => {
            Quantity::from_milli(go_f64_to_i64(n * 1000.0), Format::DecimalSI)
        }
        Value::Number(n) => Quantity::from_i64(go_f64_to_i64(n), Format::DecimalSI),
    }
}

/// What [`apply`] computed, with the intermediate steps (for explanations).
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// Names of the target containers, in order.
    pub targets: Vec<String>,
    /// The aggregate.
    pub aggregate: Aggregate,
    /// The sidecar's new limits (empty = left unset).
    pub limits: ResourceList,
    /// The sidecar's new requests (empty = left unset).
    pub requests: ResourceList,
    /// Each evaluated field: (`limits.cpu` etc., expression, variable value or None, result).
    pub steps: Vec<Step>,
}

/// One evaluated (or skipped) field.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// `limits.cpu`, `limits.memory`, `requests.cpu` or `requests.memory`.
    pub field: &'static str,
    /// The expression.
    pub expr: String,
    /// The variable name used (`cpu` or `memory`).
    pub variable: &'static str,
    /// The aggregate bound to the variable (`None` = absent).
    pub input: Option<Quantity<'static>>,
    /// The result; `None` = skipped (limit without aggregate).
    pub result: Option<Quantity<'static>>,
}

impl Applied {
    /// `{"limits": {...}, "requests": {...}}` (an empty object = that map left unset): the
    /// `resources.sidecar` answer.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(super::fns::SidecarOutput::from(self))
            .expect("printed quantities always serialise")
    }
}

/// `applyResourcesPolicy` (`sidecarset_resources.go`) for one sidecar container: compiles the
/// policy ([`CompiledResourcesPolicy::new`]) and applies it to `pod`. To apply one policy to many
/// pods, compile it once and call [`CompiledResourcesPolicy::apply`].
///
/// `sidecar_names` lists every container and init-container name of every SidecarSet matched for
/// the pod. Limits are evaluated only when the aggregate limit is defined; requests always, with
/// an absent aggregate as zero.
///
/// Errors: `invalid_regex`, `invalid_quantity` (pod resources), `no_target_containers`, then the
/// first calculator error in the order limits.cpu, limits.memory, requests.cpu, requests.memory.
pub fn apply(
    policy: &ResourcesPolicy,
    pod: &PodContainers,
    sidecar_names: &[String],
) -> Result<Applied> {
    CompiledResourcesPolicy::new(policy).apply(pod, sidecar_names)
}

/// A `resourcesPolicy` compiled once (the `targetContainersNameRegex` and each non-empty
/// expression), to be applied to many pods: [`CompiledResourcesPolicy::apply`] gives exactly
/// what [`apply`] gives, values and errors alike.
///
/// Compiling never fails: an invalid regex is kept and reported by every `apply` (the reference
/// compiles it for every pod before anything else), and an expression is compiled without the
/// early check ([`Expression::compile_unchecked`]), so its errors surface only when `apply`
/// evaluates it, as in the reference (a limit whose aggregate is undefined is never evaluated).
///
/// ```
/// use kruise_core::resources::policy::{CompiledResourcesPolicy, PodContainers, ResourcesPolicy};
/// let policy: ResourcesPolicy = serde_json::from_str(r#"{"targetContainersMode": "sum",
///     "targetContainersNameRegex": ".*",
///     "resourcesExpr": {"requests": {"cpu": "max(cpu * 50%, 50m)", "memory": "memory * 50%"}}}"#).unwrap();
/// let compiled = CompiledResourcesPolicy::new(&policy);
/// let pod: PodContainers = serde_json::from_str(r#"{"containers": [{"name": "app",
///     "resources": {"requests": {"cpu": "400m", "memory": "1Gi"}}}]}"#).unwrap();
/// let applied = compiled.apply(&pod, &[]).unwrap();
/// assert_eq!(applied.requests.cpu.unwrap().to_string(), "200m");
/// assert_eq!(applied.requests.memory.unwrap().to_string(), "512Mi");
/// ```
#[derive(Debug, Clone)]
pub struct CompiledResourcesPolicy {
    mode: String,
    pattern: String,
    regex: std::result::Result<regex::Regex, Error>,
    /// The non-empty expressions, in the reference's evaluation order.
    fields: Vec<CompiledField>,
}

#[derive(Debug, Clone)]
struct CompiledField {
    /// `limits.cpu` etc.
    field: &'static str,
    is_limit: bool,
    /// `cpu` or `memory` (the word `memory` in the text picks `memory`).
    variable: &'static str,
    expr: Expression,
}

impl CompiledField {
    /// `evaluateResourceExpression` with the compiled expression (same as [`evaluate_field`]).
    fn evaluate(&self, aggregated: Option<&Quantity<'_>>) -> Result<Quantity<'static>> {
        let value = aggregated.map(Quantity::reborrow).unwrap_or(Quantity::ZERO);
        let out = self
            .expr
            .eval_values(&[(self.variable, Value::Quantity(value))])?;
        Ok(result_quantity(out, self.variable))
    }
}

impl CompiledResourcesPolicy {
    /// Compiles `policy` (never fails; see the type's doc).
    pub fn new(policy: &ResourcesPolicy) -> CompiledResourcesPolicy {
        let mut fields = Vec::with_capacity(4);
        let mut add = |field, is_limit, src: &str| {
            if !src.is_empty() {
                fields.push(CompiledField {
                    field,
                    is_limit,
                    variable: if names_memory(src) { "memory" } else { "cpu" },
                    expr: Expression::compile_unchecked(src),
                });
            }
        };
        if let Some(l) = &policy.resources_expr.limits {
            add("limits.cpu", true, &l.cpu);
            add("limits.memory", true, &l.memory);
        }
        if let Some(r) = &policy.resources_expr.requests {
            add("requests.cpu", false, &r.cpu);
            add("requests.memory", false, &r.memory);
        }
        CompiledResourcesPolicy {
            mode: policy.target_containers_mode.clone(),
            pattern: policy.target_containers_name_regex.clone(),
            regex: compile_regex(&policy.target_containers_name_regex),
            fields,
        }
    }

    /// The `invalid_regex` error every [`CompiledResourcesPolicy::apply`] returns, if the
    /// `targetContainersNameRegex` does not compile.
    pub fn regex_error(&self) -> Option<&Error> {
        self.regex.as_ref().err()
    }

    /// `applyResourcesPolicy` for one pod: what [`apply`] gives for the policy this was compiled
    /// from (same values, errors and evaluation order).
    pub fn apply(&self, pod: &PodContainers, sidecar_names: &[String]) -> Result<Applied> {
        let re = self.regex.as_ref().map_err(Clone::clone)?;
        let targets = targets_of(pod, re, sidecar_names)
            .map(|(init, i, c)| {
                Target::read(c, |side, k| {
                    format!("pod.{}[{i}].resources.{side}.{k}", list_name(init))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        if targets.is_empty() {
            return Err(Error::new(
                NO_TARGET_CONTAINERS,
                format!("no containers match the regex pattern {:?}", self.pattern),
            ));
        }
        let aggregate = aggregate(&self.mode, &targets)?;
        let mut out = Applied {
            targets: targets.into_iter().map(|t| t.name).collect(),
            aggregate: Aggregate::default(),
            limits: ResourceList::default(),
            requests: ResourceList::default(),
            steps: Vec::with_capacity(self.fields.len()),
        };
        for f in &self.fields {
            let (agg, slot) = match f.field {
                "limits.cpu" => (&aggregate.limits.cpu, &mut out.limits.cpu),
                "limits.memory" => (&aggregate.limits.memory, &mut out.limits.memory),
                "requests.cpu" => (&aggregate.requests.cpu, &mut out.requests.cpu),
                _ => (&aggregate.requests.memory, &mut out.requests.memory),
            };
            // An undefined aggregate limit leaves the limit unset without evaluating the
            // expression; requests are always evaluated, an absent aggregate counting as zero.
            let result = if f.is_limit && agg.is_none() {
                None
            } else {
                Some(f.evaluate(agg.as_ref()).map_err(|e| Error {
                    kind: e.kind,
                    message: format!("resourcesExpr.{}: {}", f.field, e.message).into(),
                    field: Some(format!("resourcesExpr.{}", f.field)),
                })?)
            };
            slot.clone_from(&result);
            out.steps.push(Step {
                field: f.field,
                expr: f.expr.source().to_owned(),
                variable: f.variable,
                input: agg.clone(),
                result,
            });
        }
        out.aggregate = aggregate;
        Ok(out)
    }
}
