//! Admission checks on the rollout fields, in the order the reference emits them:
//! - CloneSet: `validateCloneSetSpec`/`validateUpdateStrategy` in OpenKruise
//!   `pkg/webhook/cloneset/validating/validation.go`;
//! - Advanced DaemonSet v1beta1: `validateDaemonSetSpecV1beta1` in
//!   `pkg/webhook/daemonset/validating/daemonset_validation.go`;
//! - Advanced StatefulSet v1beta1: `pkg/webhook/statefulset/validating/statefulset_validation.go`.
//!
//! Validators do not apply defaults. Findings are data (`{field, reason}`), never errors. Absent
//! members of the spec read as Go's zero values (the webhook decodes with `encoding/json`).

use crate::error::{Error, Result};
use crate::intstr::{Flavour, IntOrPercent};
use crate::k8s::strconv::atoi_value;
use crate::k8s::validation::valid_percent_digits;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One validation finding: the dotted field path and the reason kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Finding {
    /// Dotted path, e.g. `spec.updateStrategy.maxSurge`.
    pub field: String,
    /// Snake-case reason, e.g. `both_less_than_one`, `invalid_percent`, `negative`, `required`,
    /// `unsupported_type` (`docs/rollout.md` lists them per workload).
    pub reason: &'static str,
}

fn push(out: &mut Vec<Finding>, field: &str, reason: &'static str) {
    out.push(Finding {
        field: field.to_string(),
        reason,
    });
}

/// CloneSet `spec.updateStrategy` as the webhook reads it (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CloneSetStrategy {
    /// `ReCreate`, `InPlaceIfPossible` or `InPlaceOnly` (absent: `""`, `unsupported_type`).
    #[serde(default, rename = "type")]
    pub kind: String,
    /// Int-or-percent (kruise flavour against `replicas`); absent or null is
    /// `invalid_int_or_percent` here (the mutating webhook always sets it).
    #[serde(default)]
    pub partition: Option<IntOrPercent>,
    /// Int-or-percent (kruise flavour against `replicas`); absent or null: 0.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// Int-or-percent (kruise flavour against `replicas`); absent or null: 0.
    #[serde(default)]
    pub max_surge: Option<IntOrPercent>,
}

/// CloneSet spec fields the webhook checks (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CloneSetSpec {
    /// `spec.replicas`; absent or null is validated as the default 1.
    #[serde(default)]
    pub replicas: Option<i32>,
    /// `spec.minReadySeconds`, seconds; absent: 0.
    #[serde(default)]
    pub min_ready_seconds: i32,
    /// `spec.progressDeadlineSeconds`, seconds; absent or null: not checked.
    #[serde(default)]
    pub progress_deadline_seconds: Option<i32>,
    /// `spec.updateStrategy`; absent: `{}`.
    #[serde(default)]
    pub update_strategy: CloneSetStrategy,
}

/// CloneSet webhook checks.
pub fn cloneset(spec: &CloneSetSpec) -> Vec<Finding> {
    let mut out = Vec::new();
    let replicas = spec.replicas.unwrap_or(1);
    if replicas < 0 {
        push(&mut out, "spec.replicas", "negative");
    }
    let s = &spec.update_strategy;
    if !matches!(
        s.kind.as_str(),
        "ReCreate" | "InPlaceIfPossible" | "InPlaceOnly"
    ) {
        push(&mut out, "spec.updateStrategy.type", "unsupported_type");
    }
    let total = i64::from(replicas);
    let kruise = |v: &IntOrPercent| v.scale(total, true, Flavour::Kruise);
    let partition = match s.partition.as_ref().map(kruise) {
        Some(Ok(v)) => v,
        _ => {
            push(
                &mut out,
                "spec.updateStrategy.partition",
                "invalid_int_or_percent",
            );
            0
        }
    };
    if partition < 0 {
        push(&mut out, "spec.updateStrategy.partition", "negative");
    }
    let mut max_unavailable = 0;
    if let Some(v) = &s.max_unavailable {
        match kruise(v) {
            Ok(x) => max_unavailable = x,
            Err(_) => push(
                &mut out,
                "spec.updateStrategy.maxUnavailable",
                "invalid_int_or_percent",
            ),
        }
    }
    let mut max_surge = 0;
    if let Some(v) = &s.max_surge {
        match kruise(v) {
            Ok(x) => max_surge = x,
            Err(_) => push(
                &mut out,
                "spec.updateStrategy.maxSurge",
                "invalid_int_or_percent",
            ),
        }
        if s.kind == "InPlaceOnly" && max_surge > 0 {
            push(
                &mut out,
                "spec.updateStrategy.maxSurge",
                "surge_not_allowed_for_inplace_only",
            );
        }
    }
    if replicas > 0 && max_unavailable < 1 && max_surge < 1 {
        push(
            &mut out,
            "spec.updateStrategy.maxUnavailable",
            "both_less_than_one",
        );
    }
    if let Some(pds) = spec.progress_deadline_seconds {
        if pds < 0 {
            push(&mut out, "spec.progressDeadlineSeconds", "negative");
        }
        if pds != i32::MAX && pds <= spec.min_ready_seconds {
            push(
                &mut out,
                "spec.progressDeadlineSeconds",
                "not_greater_than_min_ready_seconds",
            );
        }
    }
    out
}

/// Kubernetes' `getPercentValue`: for a string matching `^[0-9]+%$` (`IsValidPercent`), the number
/// before `%` as `v, _ := strconv.Atoi(...)` reads it (saturating at `i64::MAX` when it overflows);
/// `None` when the value is not such a percentage.
fn strict_percent(v: &IntOrPercent) -> Option<i64> {
    match v {
        IntOrPercent::String(s) => valid_percent_digits(s).map(atoi_value),
        IntOrPercent::Int(_) => None,
    }
}

/// `getIntOrPercentValue`: the percentage, the int value, or `IntValue()` of any other string,
/// which is `v, _ := strconv.Atoi(s)`: 0 on a syntax error, saturated on overflow (so
/// `"99999999999999999999"` counts as set).
fn int_value(v: &IntOrPercent) -> i64 {
    if let Some(p) = strict_percent(v) {
        return p;
    }
    match v {
        IntOrPercent::Int(i) => i64::from(*i),
        IntOrPercent::String(s) => atoi_value(s),
    }
}

/// The DaemonSet/StatefulSet format check: a non-percent string is `invalid_percent`, a negative
/// int `negative`, a percent above 100 `more_than_100_percent`.
fn check_percent_or_int(v: &IntOrPercent, field: &str, out: &mut Vec<Finding>) {
    match (v, strict_percent(v)) {
        (IntOrPercent::String(_), None) => push(out, field, "invalid_percent"),
        (IntOrPercent::Int(i), _) if *i < 0 => push(out, field, "negative"),
        (_, Some(p)) if p > 100 => push(out, field, "more_than_100_percent"),
        _ => {}
    }
}

/// Advanced DaemonSet `spec.updateStrategy.rollingUpdate` (v1beta1) as the webhook reads it
/// (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetRollingUpdate {
    /// `rollingUpdateType`: `""`, `Standard` or `InPlaceIfPossible`; absent: `""`.
    #[serde(default)]
    pub rolling_update_type: String,
    /// Int-or-percent; absent or null: unset.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// Int-or-percent; absent or null: unset.
    #[serde(default)]
    pub max_surge: Option<IntOrPercent>,
    /// Int-or-percent; absent or null: unset.
    #[serde(default)]
    pub partition: Option<IntOrPercent>,
}

/// Advanced DaemonSet `spec.updateStrategy` (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetStrategy {
    /// `RollingUpdate` or `OnDelete` (absent: `""`, `unsupported_type`).
    #[serde(default, rename = "type")]
    pub kind: String,
    /// The rolling-update block; absent or null: none (`required` for `RollingUpdate`).
    #[serde(default)]
    pub rolling_update: Option<DaemonSetRollingUpdate>,
}

/// Advanced DaemonSet spec fields the webhook checks (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetSpec {
    /// `spec.minReadySeconds`, seconds; absent: 0.
    #[serde(default)]
    pub min_ready_seconds: i32,
    /// `spec.updateStrategy`; absent: `{}`.
    #[serde(default)]
    pub update_strategy: DaemonSetStrategy,
}

/// Advanced DaemonSet v1beta1 webhook checks.
pub fn daemonset(spec: &DaemonSetSpec) -> Vec<Finding> {
    let mut out = Vec::new();
    if spec.min_ready_seconds < 0 {
        push(&mut out, "spec.minReadySeconds", "negative");
    }
    let s = &spec.update_strategy;
    let fp = match s.kind.as_str() {
        "OnDelete" => return out,
        "RollingUpdate" => match &s.rolling_update {
            Some(fp) => fp,
            None => {
                push(&mut out, "spec.updateStrategy.rollingUpdate", "required");
                return out;
            }
        },
        _ => {
            push(&mut out, "spec.updateStrategy", "unsupported_type");
            return out;
        }
    };
    const MU: &str = "spec.updateStrategy.rollingUpdate.maxUnavailable";
    const MS: &str = "spec.updateStrategy.rollingUpdate.maxSurge";
    let has_u = fp
        .max_unavailable
        .as_ref()
        .is_some_and(|v| int_value(v) != 0);
    if let (true, Some(v)) = (has_u, &fp.max_unavailable) {
        check_percent_or_int(v, MU, &mut out);
    }
    let has_s = fp.max_surge.as_ref().is_some_and(|v| int_value(v) != 0);
    if let (true, Some(v)) = (has_s, &fp.max_surge) {
        check_percent_or_int(v, MS, &mut out);
    }
    match (has_u, has_s) {
        (true, true) => push(&mut out, MS, "surge_and_unavailable_both_set"),
        (false, false) => push(&mut out, MU, "both_zero"),
        _ => {}
    }
    match fp.rolling_update_type.as_str() {
        "" | "Standard" => {}
        "InPlaceIfPossible" => {
            if has_s {
                push(&mut out, MS, "surge_not_allowed_for_inplace");
            }
        }
        _ => push(
            &mut out,
            "spec.updateStrategy.rollingUpdate.rollingUpdate.type",
            "unsupported_type",
        ),
    }
    if let Some(p) = &fp.partition {
        check_percent_or_int(
            p,
            "spec.updateStrategy.rollingUpdate.rollingUpdate.partition",
            &mut out,
        );
    }
    out
}

/// Advanced StatefulSet `spec.updateStrategy.rollingUpdate` (v1beta1; other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetRollingUpdate {
    /// The int32 partition; absent or null: not checked.
    #[serde(default)]
    pub partition: Option<i32>,
    /// Int-or-percent; absent or null is `required`.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// Seconds, 0..=300; absent or null: not checked.
    #[serde(default)]
    pub min_ready_seconds: Option<i32>,
}

/// Advanced StatefulSet `spec.updateStrategy` (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetStrategy {
    /// `RollingUpdate` or `OnDelete` (absent: `""`, `required`).
    #[serde(default, rename = "type")]
    pub kind: String,
    /// The rolling-update block; absent or null: none.
    #[serde(default)]
    pub rolling_update: Option<StatefulSetRollingUpdate>,
}

/// Advanced StatefulSet `spec.scaleStrategy` (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetScaleStrategy {
    /// Int-or-percent; absent or null: not checked.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
}

/// Advanced StatefulSet spec fields the webhook checks (other members are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetSpec {
    /// `spec.replicas`; absent or null is validated as the default 1.
    #[serde(default)]
    pub replicas: Option<i32>,
    /// `OrderedReady` or `Parallel` (absent: `""`, `required`).
    #[serde(default)]
    pub pod_management_policy: String,
    /// `spec.scaleStrategy`; absent or null: not checked.
    #[serde(default)]
    pub scale_strategy: Option<StatefulSetScaleStrategy>,
    /// `spec.updateStrategy`; absent: `{}`.
    #[serde(default)]
    pub update_strategy: StatefulSetStrategy,
}

fn sts_max_unavailable(v: &IntOrPercent, parallel: bool, field: &str, out: &mut Vec<Finding>) {
    if let IntOrPercent::String(_) = v
        && strict_percent(v).is_none()
    {
        push(out, field, "invalid_percent");
    }
    if let IntOrPercent::Int(i) = v
        && *i < 0
    {
        push(out, field, "negative");
    }
    match v.scale(1, true, Flavour::Legacy) {
        Err(_) => push(out, field, "invalid_int_or_percent"),
        Ok(x) if x < 1 => push(out, field, "less_than_one"),
        Ok(_) => {}
    }
    if !parallel && *v != IntOrPercent::Int(1) {
        push(out, field, "requires_parallel");
    }
}

/// Advanced StatefulSet v1beta1 webhook checks (podUpdatePolicy checks out of scope).
pub fn statefulset(spec: &StatefulSetSpec) -> Vec<Finding> {
    let mut out = Vec::new();
    match spec.pod_management_policy.as_str() {
        "" => push(&mut out, "spec.podManagementPolicy", "required"),
        "OrderedReady" | "Parallel" => {}
        _ => push(&mut out, "spec.podManagementPolicy", "unsupported_type"),
    }
    let parallel = spec.pod_management_policy == "Parallel";
    if let Some(v) = spec
        .scale_strategy
        .as_ref()
        .and_then(|s| s.max_unavailable.as_ref())
    {
        sts_max_unavailable(v, parallel, "spec.scaleStrategy.maxUnavailable", &mut out);
    }
    let s = &spec.update_strategy;
    match (s.kind.as_str(), &s.rolling_update) {
        ("", _) => push(&mut out, "spec.updateStrategy", "required"),
        ("OnDelete", Some(_)) => push(
            &mut out,
            "spec.updateStrategy.rollingUpdate",
            "only_for_rolling_update",
        ),
        ("OnDelete", None) | ("RollingUpdate", None) => {}
        ("RollingUpdate", Some(ru)) => {
            const F: &str = "spec.updateStrategy.rollingUpdate";
            if ru.partition.unwrap_or(0) < 0 {
                push(&mut out, &format!("{F}.partition"), "negative");
            }
            let mrs = ru.min_ready_seconds.unwrap_or(0);
            if mrs < 0 {
                push(&mut out, &format!("{F}.minReadySeconds"), "negative");
            } else if mrs > 300 {
                push(
                    &mut out,
                    &format!("{F}.minReadySeconds"),
                    "more_than_300_seconds",
                );
            }
            match &ru.max_unavailable {
                None => push(&mut out, &format!("{F}.maxUnavailable"), "required"),
                Some(v) => {
                    sts_max_unavailable(v, parallel, &format!("{F}.maxUnavailable"), &mut out)
                }
            }
        }
        _ => push(&mut out, "spec.updateStrategy", "unsupported_type"),
    }
    if spec.replicas.unwrap_or(1) < 0 {
        push(&mut out, "spec.replicas", "negative");
    }
    out
}

/// Input of `rollout.validate`: `kind` picks the Go type, `spec` is that object's spec (absent or
/// null: the zero spec). Members of `spec` the checks do not read are ignored, as the API server
/// keeps them; members it reads are decoded as Go's `encoding/json` decodes them (a wrong JSON
/// type is `invalid_input` naming the member, e.g. `spec.updateStrategy.partition`).
#[derive(Debug, Clone, PartialEq, Eq, schemars::JsonSchema)]
#[serde(tag = "kind", deny_unknown_fields)]
#[allow(clippy::enum_variant_names)] // the variants are the JSON `kind` values
pub enum ValidateInput {
    /// A CloneSet (`kind: "CloneSet"`, apps.kruise.io/v1alpha1).
    CloneSet {
        /// Its spec; absent or null: the zero spec.
        #[serde(default)]
        #[schemars(with = "Option<CloneSetSpec>")]
        spec: CloneSetSpec,
    },
    /// An Advanced DaemonSet (`kind: "DaemonSet"`, apps.kruise.io/v1beta1).
    DaemonSet {
        /// Its spec; absent or null: the zero spec.
        #[serde(default)]
        #[schemars(with = "Option<DaemonSetSpec>")]
        spec: DaemonSetSpec,
    },
    /// An Advanced StatefulSet (`kind: "StatefulSet"`, apps.kruise.io/v1beta1).
    StatefulSet {
        /// Its spec; absent or null: the zero spec.
        #[serde(default)]
        #[schemars(with = "Option<StatefulSetSpec>")]
        spec: StatefulSetSpec,
    },
}

/// The JSON form before the spec is decoded: `kind` is checked first, then `spec` for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInput {
    kind: String,
    #[serde(default)]
    spec: Value,
}

impl ValidateInput {
    /// Reads the JSON input: `invalid_input` naming `kind` for another kind, or the member of
    /// `spec` that does not decode.
    pub fn from_json(input: &Value) -> Result<ValidateInput> {
        let i: RawInput = crate::registry::decode(input)?;
        Ok(match i.kind.as_str() {
            "CloneSet" => ValidateInput::CloneSet {
                spec: super::decode_member(&i.spec, "spec")?,
            },
            "DaemonSet" => ValidateInput::DaemonSet {
                spec: super::decode_member(&i.spec, "spec")?,
            },
            "StatefulSet" => ValidateInput::StatefulSet {
                spec: super::decode_member(&i.spec, "spec")?,
            },
            k => {
                return Err(Error::invalid_input(
                    "kind",
                    format_args!("{k:?} is not CloneSet, DaemonSet or StatefulSet"),
                ));
            }
        })
    }
}

/// Deserialises through [`ValidateInput::from_json`] (its error message names the field).
impl<'de> Deserialize<'de> for ValidateInput {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        ValidateInput::from_json(&v).map_err(|e| serde::de::Error::custom(e.message))
    }
}

/// `rollout.validate` on typed input: the findings in the reference's order.
pub fn validate(input: &ValidateInput) -> Vec<Finding> {
    match input {
        ValidateInput::CloneSet { spec } => cloneset(spec),
        ValidateInput::DaemonSet { spec } => daemonset(spec),
        ValidateInput::StatefulSet { spec } => statefulset(spec),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(f: &[Finding]) -> Vec<(&str, &str)> {
        f.iter().map(|f| (f.field.as_str(), f.reason)).collect()
    }

    #[test]
    fn cloneset_deadline_minus_one_gives_two_findings() {
        let spec = CloneSetSpec {
            replicas: Some(1),
            progress_deadline_seconds: Some(-1),
            update_strategy: CloneSetStrategy {
                kind: "ReCreate".into(),
                partition: Some(IntOrPercent::Int(0)),
                max_unavailable: Some(IntOrPercent::Int(1)),
                max_surge: None,
            },
            ..Default::default()
        };
        assert_eq!(
            reasons(&cloneset(&spec)),
            [
                ("spec.progressDeadlineSeconds", "negative"),
                (
                    "spec.progressDeadlineSeconds",
                    "not_greater_than_min_ready_seconds"
                )
            ]
        );
    }

    #[test]
    fn daemonset_unparsable_counts_as_zero() {
        let ru = DaemonSetRollingUpdate {
            max_unavailable: Some(IntOrPercent::String("abc".into())),
            max_surge: Some(IntOrPercent::Int(1)),
            ..Default::default()
        };
        let spec = DaemonSetSpec {
            min_ready_seconds: 0,
            update_strategy: DaemonSetStrategy {
                kind: "RollingUpdate".into(),
                rolling_update: Some(ru),
            },
        };
        assert!(daemonset(&spec).is_empty());
    }

    #[test]
    fn statefulset_fifty_without_percent_is_only_invalid_percent() {
        let mut out = Vec::new();
        sts_max_unavailable(&IntOrPercent::String("50".into()), true, "f", &mut out);
        assert_eq!(reasons(&out), [("f", "invalid_percent")]);
        let mut out = Vec::new();
        sts_max_unavailable(&IntOrPercent::String("0%".into()), false, "f", &mut out);
        assert_eq!(
            reasons(&out),
            [("f", "less_than_one"), ("f", "requires_parallel")]
        );
    }
}
