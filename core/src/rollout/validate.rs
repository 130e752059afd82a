//! Admission checks on the rollout fields (the workload webhooks), in the order the
//! reference emits them:
//! - CloneSet: `validateCloneSetSpec`/`validateUpdateStrategy` in OpenKruise
//!   `pkg/webhook/cloneset/validating/validation.go`;
//! - Advanced DaemonSet v1beta1: `validateDaemonSetSpecV1beta1` in
//!   `pkg/webhook/daemonset/validating/daemonset_validation.go`;
//! - Advanced StatefulSet v1beta1: `pkg/webhook/statefulset/validating/statefulset_validation.go`.
//!
//! Validators do not apply defaults. Findings are data (`{field, reason}`), never errors.

use crate::error::Result;
use crate::intstr::{Flavour, IntOrPercent, atoi};
use crate::registry::{decode, encode};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One validation finding: the dotted field path and the reason kind (snake_case).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Dotted path, e.g. `spec.updateStrategy.maxSurge`.
    pub field: String,
    /// Snake-case reason, e.g. `both_less_than_one`.
    pub reason: &'static str,
}

fn push(out: &mut Vec<Finding>, field: &str, reason: &'static str) {
    out.push(Finding { field: field.to_string(), reason });
}

/// CloneSet `spec.updateStrategy` as the webhook reads it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloneSetStrategy {
    /// `ReCreate`, `InPlaceIfPossible` or `InPlaceOnly`.
    #[serde(default, rename = "type")]
    pub kind: String,
    /// Int-or-percent; null is invalid here.
    #[serde(default)]
    pub partition: Option<IntOrPercent>,
    /// Int-or-percent or null.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// Int-or-percent or null.
    #[serde(default)]
    pub max_surge: Option<IntOrPercent>,
}

/// CloneSet spec fields checked by [`cloneset`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloneSetSpec {
    /// `spec.replicas` (unset is treated as the default 1).
    #[serde(default)]
    pub replicas: Option<i32>,
    /// `spec.minReadySeconds`.
    #[serde(default)]
    pub min_ready_seconds: i32,
    /// `spec.progressDeadlineSeconds`.
    #[serde(default)]
    pub progress_deadline_seconds: Option<i32>,
    /// `spec.updateStrategy`.
    #[serde(default)]
    pub update_strategy: CloneSetStrategy,
}

/// CloneSet webhook checks (`pkg/webhook/cloneset/validating/validation.go`).
pub fn cloneset(spec: &CloneSetSpec) -> Vec<Finding> {
    let mut out = Vec::new();
    let replicas = spec.replicas.unwrap_or(1);
    if replicas < 0 {
        push(&mut out, "spec.replicas", "negative");
    }
    let s = &spec.update_strategy;
    if !matches!(s.kind.as_str(), "ReCreate" | "InPlaceIfPossible" | "InPlaceOnly") {
        push(&mut out, "spec.updateStrategy.type", "unsupported_type");
    }
    let total = i64::from(replicas);
    let kruise = |v: &IntOrPercent| v.scale(total, true, Flavour::Kruise);
    let partition = match s.partition.as_ref().map(kruise) {
        Some(Ok(v)) => v,
        _ => {
            push(&mut out, "spec.updateStrategy.partition", "invalid_int_or_percent");
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
            Err(_) => push(&mut out, "spec.updateStrategy.maxUnavailable", "invalid_int_or_percent"),
        }
    }
    let mut max_surge = 0;
    if let Some(v) = &s.max_surge {
        match kruise(v) {
            Ok(x) => max_surge = x,
            Err(_) => push(&mut out, "spec.updateStrategy.maxSurge", "invalid_int_or_percent"),
        }
        if s.kind == "InPlaceOnly" && max_surge > 0 {
            push(&mut out, "spec.updateStrategy.maxSurge", "surge_not_allowed_for_inplace_only");
        }
    }
    if replicas > 0 && max_unavailable < 1 && max_surge < 1 {
        push(&mut out, "spec.updateStrategy.maxUnavailable", "both_less_than_one");
    }
    if let Some(pds) = spec.progress_deadline_seconds {
        if pds < 0 {
            push(&mut out, "spec.progressDeadlineSeconds", "negative");
        }
        if pds != i32::MAX && pds <= spec.min_ready_seconds {
            push(&mut out, "spec.progressDeadlineSeconds", "not_greater_than_min_ready_seconds");
        }
    }
    out
}

/// `^[0-9]+%$`: the integer before `%`, or `None` (not a percent).
fn strict_percent(v: &IntOrPercent) -> Option<i64> {
    match v {
        IntOrPercent::String(s) => {
            let body = s.strip_suffix('%')?;
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // digits only, so an int64 overflow is the only failure; it reads as 0 like a failed Atoi.
            Some(atoi(body.bytes()).unwrap_or(0))
        }
        IntOrPercent::Int(_) => None,
    }
}

/// `iv(x)` (DaemonSet checks): percent value, int value, or `Atoi` of any other string (0 on failure).
fn int_value(v: &IntOrPercent) -> i64 {
    if let Some(p) = strict_percent(v) {
        return p;
    }
    match v {
        IntOrPercent::Int(i) => i64::from(*i),
        IntOrPercent::String(s) => atoi(s.bytes()).unwrap_or(0),
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

/// Advanced DaemonSet `spec.updateStrategy.rollingUpdate` (v1beta1) as the webhook reads it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetRollingUpdate {
    /// `""`, `Standard` or `InPlaceIfPossible`.
    #[serde(default)]
    pub rolling_update_type: String,
    /// Int-or-percent or null.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// Int-or-percent or null.
    #[serde(default)]
    pub max_surge: Option<IntOrPercent>,
    /// Int-or-percent or null.
    #[serde(default)]
    pub partition: Option<IntOrPercent>,
}

/// Advanced DaemonSet `spec.updateStrategy`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetStrategy {
    /// `RollingUpdate` or `OnDelete`.
    #[serde(default, rename = "type")]
    pub kind: String,
    /// The rolling-update block.
    #[serde(default)]
    pub rolling_update: Option<DaemonSetRollingUpdate>,
}

/// Advanced DaemonSet spec fields checked by [`daemonset`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetSpec {
    /// `spec.minReadySeconds`.
    #[serde(default)]
    pub min_ready_seconds: i32,
    /// `spec.updateStrategy`.
    #[serde(default)]
    pub update_strategy: DaemonSetStrategy,
}

/// Advanced DaemonSet v1beta1 webhook checks (`daemonset_validation.go`).
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
    let has_u = fp.max_unavailable.as_ref().is_some_and(|v| int_value(v) != 0);
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
        _ => push(&mut out, "spec.updateStrategy.rollingUpdate.rollingUpdate.type", "unsupported_type"),
    }
    if let Some(p) = &fp.partition {
        check_percent_or_int(p, "spec.updateStrategy.rollingUpdate.rollingUpdate.partition", &mut out);
    }
    out
}

/// Advanced StatefulSet `spec.updateStrategy.rollingUpdate` (v1beta1).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetRollingUpdate {
    /// int32 partition.
    #[serde(default)]
    pub partition: Option<i32>,
    /// Int-or-percent; null is `required`.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
    /// 0..=300.
    #[serde(default)]
    pub min_ready_seconds: Option<i32>,
}

/// Advanced StatefulSet `spec.updateStrategy`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetStrategy {
    /// `RollingUpdate` or `OnDelete`.
    #[serde(default, rename = "type")]
    pub kind: String,
    /// The rolling-update block.
    #[serde(default)]
    pub rolling_update: Option<StatefulSetRollingUpdate>,
}

/// Advanced StatefulSet `spec.scaleStrategy`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetScaleStrategy {
    /// Int-or-percent or null.
    #[serde(default)]
    pub max_unavailable: Option<IntOrPercent>,
}

/// Advanced StatefulSet spec fields checked by [`statefulset`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetSpec {
    /// `spec.replicas` (unset is treated as the default 1).
    #[serde(default)]
    pub replicas: Option<i32>,
    /// `OrderedReady` or `Parallel`.
    #[serde(default)]
    pub pod_management_policy: String,
    /// `spec.scaleStrategy`.
    #[serde(default)]
    pub scale_strategy: Option<StatefulSetScaleStrategy>,
    /// `spec.updateStrategy`.
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

/// Advanced StatefulSet v1beta1 webhook checks (no podUpdatePolicy checks).
pub fn statefulset(spec: &StatefulSetSpec) -> Vec<Finding> {
    let mut out = Vec::new();
    match spec.pod_management_policy.as_str() {
        "" => push(&mut out, "spec.podManagementPolicy", "required"),
        "OrderedReady" | "Parallel" => {}
        _ => push(&mut out, "spec.podManagementPolicy", "unsupported_type"),
    }
    let parallel = spec.pod_management_policy == "Parallel";
    if let Some(v) = spec.scale_strategy.as_ref().and_then(|s| s.max_unavailable.as_ref()) {
        sts_max_unavailable(v, parallel, "spec.scaleStrategy.maxUnavailable", &mut out);
    }
    let s = &spec.update_strategy;
    match (s.kind.as_str(), &s.rolling_update) {
        ("", _) => push(&mut out, "spec.updateStrategy", "required"),
        ("OnDelete", Some(_)) => push(&mut out, "spec.updateStrategy.rollingUpdate", "only_for_rolling_update"),
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
                push(&mut out, &format!("{F}.minReadySeconds"), "more_than_300_seconds");
            }
            match &ru.max_unavailable {
                None => push(&mut out, &format!("{F}.maxUnavailable"), "required"),
                Some(v) => sts_max_unavailable(v, parallel, &format!("{F}.maxUnavailable"), &mut out),
            }
        }
        _ => push(&mut out, "spec.updateStrategy", "unsupported_type"),
    }
    if spec.replicas.unwrap_or(1) < 0 {
        push(&mut out, "spec.replicas", "negative");
    }
    out
}

#[derive(Deserialize)]
#[serde(tag = "kind", content = "spec")]
#[allow(clippy::enum_variant_names)] // the variants are the JSON `kind` values
enum Input {
    CloneSet(CloneSetSpec),
    DaemonSet(DaemonSetSpec),
    StatefulSet(StatefulSetSpec),
}

/// `rollout.validate` handler (JSON shape in `docs/rollout.md`).
pub(crate) fn handler(input: &Value) -> Result<Value> {
    let findings = match decode::<Input>(input)? {
        Input::CloneSet(s) => cloneset(&s),
        Input::DaemonSet(s) => daemonset(&s),
        Input::StatefulSet(s) => statefulset(&s),
    };
    encode(&findings)
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
                ("spec.progressDeadlineSeconds", "not_greater_than_min_ready_seconds")
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
            update_strategy: DaemonSetStrategy { kind: "RollingUpdate".into(), rolling_update: Some(ru) },
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
        assert_eq!(reasons(&out), [("f", "less_than_one"), ("f", "requires_parallel")]);
    }
}
