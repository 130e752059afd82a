//! The rounding table of `docs/rounding.md`: for each int-or-percent field of each workload, what
//! a few percentages come out as. Every cell is computed by the same functions the decisions use,
//! so the table cannot drift from the code (a test compares it with the checked-in file).

use super::{cloneset_budget, daemonset, partition, statefulset};
use crate::intstr::{Flavour, IntOrPercent};

/// The `(percentage, total)` columns of the table.
pub const SAMPLES: &[(&str, i32)] = &[("25%", 10), ("33%", 3), ("99%", 100), ("100%", 1)];

/// One row: workload, field, how it is read, and the function computing a cell.
pub struct Row {
    /// `CloneSet`, `Advanced DaemonSet`, `Advanced StatefulSet`.
    pub workload: &'static str,
    /// The field and where it is read (controller or webhook).
    pub field: &'static str,
    /// Parser flavour, total and rounding, in words.
    pub rule: &'static str,
    /// The value for `(percentage, total)`.
    pub cell: fn(&IntOrPercent, i32) -> i64,
}

fn cs_spec(total: i32) -> cloneset_budget::BudgetSpec {
    cloneset_budget::BudgetSpec {
        replicas: total,
        ..Default::default()
    }
}

fn kruise_up(v: &IntOrPercent, total: i32) -> i64 {
    v.scale(i64::from(total), true, Flavour::Kruise)
        .unwrap_or(0)
}

fn ds_strategy(mu: Option<IntOrPercent>, ms: Option<IntOrPercent>) -> daemonset::UpdateStrategy {
    daemonset::UpdateStrategy {
        kind: "RollingUpdate".into(),
        rolling_update: Some(daemonset::RollingUpdate {
            max_unavailable: mu,
            max_surge: ms,
        }),
    }
}

/// Every row of the table, in document order.
pub fn rows() -> Vec<Row> {
    vec![
        Row {
            workload: "CloneSet",
            field: "updateStrategy.partition (controller)",
            rule: "kruise (float), of spec.replicas, up; not-\"100%\" rule; clamped to [0, replicas]",
            cell: |v, t| partition::cloneset_partition(Some(v), Some(t)).unwrap_or(0),
        },
        Row {
            workload: "CloneSet",
            field: "updateStrategy.maxSurge (controller)",
            rule: "legacy, of spec.replicas, up",
            cell: |v, t| {
                cloneset_budget::Params::resolve(&cloneset_budget::BudgetSpec {
                    max_surge: Some(v.clone()),
                    ..cs_spec(t)
                })
                .max_surge
            },
        },
        Row {
            workload: "CloneSet",
            field: "updateStrategy.maxUnavailable (controller, maxSurge 0)",
            rule: "legacy, of spec.replicas, up",
            cell: |v, t| {
                cloneset_budget::Params::resolve(&cloneset_budget::BudgetSpec {
                    max_unavailable: Some(v.clone()),
                    ..cs_spec(t)
                })
                .max_unavailable
            },
        },
        Row {
            workload: "CloneSet",
            field: "updateStrategy.maxUnavailable (controller, maxSurge 1)",
            rule: "legacy, of spec.replicas, **down**",
            cell: |v, t| {
                let spec = cloneset_budget::BudgetSpec {
                    max_unavailable: Some(v.clone()),
                    max_surge: Some(IntOrPercent::Int(1)),
                    ..cs_spec(t)
                };
                cloneset_budget::Params::resolve(&spec).max_unavailable
            },
        },
        Row {
            workload: "CloneSet",
            field: "scaleStrategy.maxUnavailable (controller)",
            rule: "legacy, of spec.replicas, up",
            cell: |v, t| {
                cloneset_budget::Params::resolve(&cloneset_budget::BudgetSpec {
                    scale_max_unavailable: Some(v.clone()),
                    ..cs_spec(t)
                })
                .scale_max_unavailable
            },
        },
        Row {
            workload: "CloneSet",
            field: "partition / maxUnavailable / maxSurge (webhook)",
            rule: "kruise (float), of spec.replicas, up",
            cell: kruise_up,
        },
        Row {
            workload: "Advanced DaemonSet",
            field: "rollingUpdate.partition (controller)",
            rule: "scaled, of status.desiredNumberScheduled, **down**, unclamped",
            cell: |v, t| partition::daemonset_partition(Some(v), i64::from(t)).unwrap_or(0),
        },
        Row {
            workload: "Advanced DaemonSet",
            field: "rollingUpdate.maxUnavailable (controller, maxSurge unset)",
            rule: "scaled, of nodes that should run the pod, up; both 0 → 1",
            cell: |v, t| {
                daemonset::budget(&ds_strategy(Some(v.clone()), None), i64::from(t))
                    .map_or(0, |b| b.max_unavailable)
            },
        },
        Row {
            workload: "Advanced DaemonSet",
            field: "rollingUpdate.maxSurge (controller, maxUnavailable 0)",
            rule: "scaled, of nodes that should run the pod, up",
            cell: |v, t| {
                daemonset::budget(
                    &ds_strategy(Some(IntOrPercent::Int(0)), Some(v.clone())),
                    i64::from(t),
                )
                .map_or(0, |b| b.max_surge)
            },
        },
        Row {
            workload: "Advanced StatefulSet",
            field: "updateStrategy.rollingUpdate.maxUnavailable (controller)",
            rule: "legacy, of spec.replicas, **down**, then at least 1",
            cell: |v, t| statefulset::update_max_unavailable(Some(v), t),
        },
        Row {
            workload: "Advanced StatefulSet",
            field: "scaleStrategy.maxUnavailable (controller)",
            rule: "legacy, of spec.replicas, **down**, then at least 1",
            cell: |v, t| statefulset::scale_max_unavailable(Some(v), t).unwrap_or(0),
        },
        Row {
            workload: "Advanced StatefulSet",
            field: "maxUnavailable (webhook `less_than_one` check)",
            rule: "legacy, of **1**, up (the total column is ignored)",
            cell: |v, _| v.scale(1, true, Flavour::Legacy).unwrap_or(0),
        },
    ]
}

/// The full Markdown text of `docs/rounding.md`.
pub fn table() -> String {
    let mut out = String::new();
    out.push_str("# Rounding table\n\n");
    out.push_str(
        "<!-- Generated from kruise_core::rollout::rounding::table(); do not edit by hand.\n",
    );
    out.push_str(
        "     Regenerate: UPDATE_ROUNDING=1 cargo test -p kruise-proptests --test rollout rounding_table -->\n\n",
    );
    out.push_str(
        "OpenKruise v1.9 turns the same percentage into different pod counts depending on the field and the\n",
    );
    out.push_str("workload: three parsers (`scaled`, `legacy`, `kruise`), different totals and different rounding\n");
    out.push_str("(see `docs/rollout.md`). Each cell below is computed by kruise-core\n");
    out.push_str("with the same function the decision uses.\n\n");
    out.push_str("| workload | field | read as |");
    for (p, t) in SAMPLES {
        out.push_str(&format!(" `{p}` of {t} |"));
    }
    out.push_str("\n|---|---|---|");
    for _ in SAMPLES {
        out.push_str("---:|");
    }
    out.push('\n');
    for row in rows() {
        out.push_str(&format!(
            "| {} | {} | {} |",
            row.workload, row.field, row.rule
        ));
        for (p, t) in SAMPLES {
            let v = IntOrPercent::String((*p).to_string());
            out.push_str(&format!(" {} |", (row.cell)(&v, *t)));
        }
        out.push('\n');
    }
    out.push_str("\nReading it: `33%` of 3 is 0.99 pods, so it is 1 where the field rounds up and 0 where it rounds\n");
    out.push_str(
        "down (the StatefulSet rows then raise 0 to 1). The CloneSet partition turns `99%` of 100 into 99 and\n",
    );
    out.push_str("keeps `100%` as all pods; a non-literal 100 % such as `\"100.0%\"` would still update one pod.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_three_percent_of_three_splits_by_rounding() {
        let v = IntOrPercent::String("33%".into());
        let by_field: Vec<i64> = rows().iter().map(|r| (r.cell)(&v, 3)).collect();
        // partition up, surge up, unavailable up, unavailable down (surge set), scale up, webhook up,
        // ds partition down, ds unavailable up, ds surge up, sts down→1, sts scale down→1, sts webhook
        assert_eq!(by_field, [1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1]);
    }
}
