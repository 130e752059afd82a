//! The webhook's allocation rules (`validateUnitedDeploymentSpec`, OpenKruise v1.9
//! `pkg/webhook/uniteddeployment/validating/uniteddeployment_validation.go`).

use super::replicas::parse_subset_replicas;
use super::types::UdSpec;
use crate::intstr::IntOrPercent;

/// One webhook violation: its kind (a snake_case reason) and the field it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Snake-case kind, e.g. `sum_replicas_mismatch`.
    pub kind: &'static str,
    /// Dotted field path, e.g. `spec.topology.subsets[1].name`.
    pub field: String,
    /// Human-readable detail.
    pub message: String,
}

/// An unset maxReplicas counts as this many in the webhook.
pub const WEBHOOK_UNSET_MAX: i64 = 1_000_000;

/// Every allocation rule the webhook checks, violations in the reference's order (empty = valid).
pub fn validate(spec: &UdSpec) -> Vec<Violation> {
    let mut v = Vec::new();
    let mut add = |kind: &'static str, field: String, message: String| {
        v.push(Violation {
            kind,
            field,
            message,
        })
    };
    let subsets = &spec.topology.subsets;
    let strategy = &spec.topology.schedule_strategy;
    if let Some(r) = spec.replicas
        && r < 0
    {
        add(
            "total_replicas_negative",
            "spec.replicas".into(),
            format!("{r} must not be negative"),
        );
    }
    let tpl = spec.template.clone().unwrap_or_default();
    if strategy.reserves()
        && (tpl.stateful_set_template.is_some() || tpl.advanced_stateful_set_template.is_some())
    {
        add(
            "reserve_requires_stateless_workload",
            "spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods".into(),
            "reserveUnschedulablePods needs a cloneSetTemplate or deploymentTemplate".into(),
        );
    }
    let count = [
        tpl.stateful_set_template.is_some(),
        tpl.advanced_stateful_set_template.is_some(),
        tpl.clone_set_template.is_some(),
        tpl.deployment_template.is_some(),
    ]
    .iter()
    .filter(|b| **b)
    .count();
    match count {
        0 => add(
            "template_required",
            "spec.template".into(),
            "one workload template is required".into(),
        ),
        1 => {}
        _ => add(
            "multiple_templates",
            "spec.template".into(),
            "only one workload template is allowed".into(),
        ),
    }
    // subset replica rules
    let e: i64 = spec.replicas.map_or(-1, i64::from);
    let parse = |val: &Option<IntOrPercent>,
                 field: String,
                 kind: &'static str,
                 out: &mut Vec<Violation>|
     -> Option<i64> {
        let val = val.as_ref()?;
        match parse_subset_replicas(e, val, &field) {
            Ok(n) => Some(n),
            Err(err) => {
                out.push(Violation {
                    kind,
                    field,
                    message: err.message.into_owned(),
                });
                Some(0)
            }
        }
    };
    let (mut sum_fixed, mut sum_min, mut sum_max) = (0i64, 0i64, 0i64);
    let (mut n_fixed, mut n_max, mut has_capacity) = (0usize, 0usize, false);
    for (i, s) in subsets.iter().enumerate() {
        let base = format!("spec.topology.subsets[{i}]");
        if let Some(r) = parse(
            &s.replicas,
            format!("{base}.replicas"),
            "invalid_subset_replicas",
            &mut v,
        ) {
            sum_fixed += r;
            n_fixed += 1;
        }
        let min = parse(
            &s.min_replicas,
            format!("{base}.minReplicas"),
            "invalid_min_replicas",
            &mut v,
        );
        let max = parse(
            &s.max_replicas,
            format!("{base}.maxReplicas"),
            "invalid_max_replicas",
            &mut v,
        );
        has_capacity |= min.is_some() || max.is_some();
        if max.is_some() {
            n_max += 1;
        }
        let (min, max) = (min.unwrap_or(0), max.unwrap_or(WEBHOOK_UNSET_MAX));
        if min > max {
            v.push(Violation {
                kind: "min_greater_than_max",
                field: format!("{base}.minReplicas"),
                message: format!("minReplicas ({min}) is greater than maxReplicas ({max})"),
            });
        }
        sum_min += min;
        sum_max += max;
    }
    let has_fixed = n_fixed > 0;
    let mut add = |kind: &'static str, field: &str, message: String| {
        v.push(Violation {
            kind,
            field: field.into(),
            message,
        })
    };
    if has_fixed && has_capacity {
        add(
            "replicas_and_min_max_exclusive",
            "spec.topology.subsets",
            "subset replicas cannot be combined with minReplicas/maxReplicas".into(),
        );
    } else if has_capacity {
        if e == -1 {
            add(
                "min_max_requires_total_replicas",
                "spec.replicas",
                "minReplicas/maxReplicas need spec.replicas".into(),
            );
        }
        if n_max >= subsets.len() {
            add(
                "all_subsets_have_max_replicas",
                "spec.topology.subsets",
                "at least one subset must leave maxReplicas unset".into(),
            );
        }
        if sum_min > sum_max {
            add(
                "sum_min_exceeds_sum_max",
                "spec.topology.subsets",
                format!("sum of minReplicas ({sum_min}) exceeds sum of maxReplicas ({sum_max})"),
            );
        }
    } else if e != -1 {
        if sum_fixed > e {
            add(
                "sum_replicas_exceeds_total",
                "spec.topology.subsets",
                format!("subset replicas ({sum_fixed}) exceed spec.replicas ({e})"),
            );
        }
        if !subsets.is_empty() && n_fixed == subsets.len() && sum_fixed != e {
            add(
                "sum_replicas_mismatch",
                "spec.topology.subsets",
                format!("subset replicas ({sum_fixed}) differ from spec.replicas ({e})"),
            );
        }
    } else if n_fixed != subsets.len() {
        add(
            "subset_replicas_required",
            "spec.topology.subsets",
            "spec.replicas is unset, so every subset needs replicas".into(),
        );
    }
    // names
    let mut seen = std::collections::HashSet::with_capacity(subsets.len());
    for (i, s) in subsets.iter().enumerate() {
        let field = format!("spec.topology.subsets[{i}].name");
        if s.name.is_empty() {
            v.push(Violation {
                kind: "subset_name_required",
                field: field.clone(),
                message: "subset name is required".into(),
            });
        }
        if !seen.insert(s.name.as_str()) {
            v.push(Violation {
                kind: "duplicate_subset_name",
                field: field.clone(),
                message: format!("duplicate subset name {:?}", s.name),
            });
        }
        if !is_dns_label(&s.name) {
            v.push(Violation {
                kind: "invalid_subset_name",
                field,
                message: format!("{:?} is not a DNS-1123 label", s.name),
            });
        }
        if s.replicas.is_some() && strategy.is_adaptive() {
            v.push(Violation {
                kind: "replicas_forbidden_in_adaptive",
                field: format!("spec.topology.subsets[{i}].replicas"),
                message: "subset replicas are not allowed with the Adaptive schedule strategy"
                    .into(),
            });
        }
    }
    if let Some(m) = spec
        .update_strategy
        .as_ref()
        .and_then(|u| u.manual_update.as_ref())
    {
        for key in m.partitions.keys() {
            if !subsets.iter().any(|s| &s.name == key) {
                v.push(Violation {
                    kind: "unknown_partition_subset",
                    field: format!("spec.updateStrategy.manualUpdate.partitions.{key}"),
                    message: format!("partition for unknown subset {key:?}"),
                });
            }
        }
    }
    v
}

/// DNS-1123 label: 1–63 chars of `[a-z0-9-]`, starting and ending alphanumeric.
pub fn is_dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty()
        && b.len() <= 63
        && b.iter().all(|c| alnum(c) || *c == b'-')
        && b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
}
