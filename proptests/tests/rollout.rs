//! Properties of the rollout family: int-or-percent scaling, partitions, the CloneSet budget, and
//! the generated rounding table (`docs/rounding.md`, rewritten with `UPDATE_ROUNDING=1`).

use kruise_core::intstr::{Flavour, IntOrPercent, scale_str};
use kruise_core::rollout::cloneset_budget::{BudgetSpec, budget};
use kruise_core::rollout::daemonset::{Node, NodeState, update_nodes};
use kruise_core::rollout::partition::{cloneset_partition, daemonset, statefulset};
use kruise_core::rollout::pods::{LifecycleState, PodView};
use proptest::prelude::*;

const FLAVOURS: [Flavour; 3] = [Flavour::Scaled, Flavour::Legacy, Flavour::Kruise];

fn pct(p: i64) -> String {
    format!("{p}%")
}

proptest! {
    #![proptest_config(kruise_proptests::config(512))]

    #[test]
    fn floor_le_ceil_and_differ_by_at_most_one(p in -100_000i64..=100_000, t in 0i64..=1_000_000) {
        for f in FLAVOURS {
            let up = scale_str(&pct(p), t, true, f).unwrap();
            let down = scale_str(&pct(p), t, false, f).unwrap();
            prop_assert!(down <= up, "{p}% of {t} ({f:?}): floor {down} > ceil {up}");
            prop_assert!(up - down <= 1, "{p}% of {t} ({f:?}): ceil {up} - floor {down} > 1");
        }
    }

    #[test]
    fn fractional_kruise_floor_le_ceil(whole in 0u32..=1000, frac in 0u32..=999, t in 0i64..=100_000) {
        let s = format!("{whole}.{frac:03}%");
        let up = scale_str(&s, t, true, Flavour::Kruise).unwrap();
        let down = scale_str(&s, t, false, Flavour::Kruise).unwrap();
        prop_assert!(down <= up && up - down <= 1, "{s} of {t}: {down}..{up}");
    }

    #[test]
    fn integer_percent_is_exact_integer_division(p in 0i64..=1000, t in 0i64..=10_000_000) {
        // for these magnitudes the double computation equals exact ceil/floor division
        let exact_down = p * t / 100;
        let exact_up = (p * t + 99) / 100;
        prop_assert_eq!(scale_str(&pct(p), t, false, Flavour::Scaled).unwrap(), exact_down);
        prop_assert_eq!(scale_str(&pct(p), t, true, Flavour::Scaled).unwrap(), exact_up);
    }

    #[test]
    fn ints_pass_through(i in any::<i32>(), t in any::<i64>(), up in any::<bool>()) {
        for f in FLAVOURS {
            prop_assert_eq!(IntOrPercent::Int(i).scale(t, up, f).unwrap(), i64::from(i));
        }
    }

    #[test]
    fn monotone_in_total_for_non_negative_percent(p in 0i64..=500, t1 in 0i64..=1_000_000, dt in 0i64..=1_000_000, up in any::<bool>()) {
        let t2 = t1 + dt;
        for f in FLAVOURS {
            let a = scale_str(&pct(p), t1, up, f).unwrap();
            let b = scale_str(&pct(p), t2, up, f).unwrap();
            prop_assert!(a <= b, "{p}% ({f:?}, up={up}): {t1} -> {a} but {t2} -> {b}");
        }
    }

    #[test]
    fn legacy_ignores_where_the_percent_signs_are(p in 0i64..=100_000, pos in 0usize..8, t in 0i64..=10_000) {
        let digits = p.to_string();
        let at = pos.min(digits.len());
        let moved = format!("{}%{}", &digits[..at], &digits[at..]);
        let want = scale_str(&pct(p), t, true, Flavour::Scaled).unwrap();
        prop_assert_eq!(scale_str(&moved, t, true, Flavour::Legacy).unwrap(), want);
        prop_assert_eq!(scale_str(&digits, t, true, Flavour::Legacy).unwrap(), want);
    }

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,12}", t in any::<i64>(), up in any::<bool>()) {
        for f in FLAVOURS {
            match scale_str(&s, t, up, f) {
                Ok(_) => {}
                Err(e) => prop_assert!(matches!(e.kind, "not_a_percentage" | "invalid_number"), "{s:?}: {}", e.kind),
            }
        }
    }

    #[test]
    fn cloneset_partition_within_bounds(p in -200i64..=300, r in 0i32..=2000, as_int in any::<bool>()) {
        let v = if as_int { IntOrPercent::Int(i32::try_from(p).unwrap()) } else { IntOrPercent::String(pct(p)) };
        let got = cloneset_partition(Some(&v), Some(r)).unwrap();
        prop_assert!((0..=i64::from(r)).contains(&got), "{v:?} of {r} -> {got}");
        if !as_int && (0..100).contains(&p) && r > 1 {
            prop_assert!(got < i64::from(r), "{p}% of {r} kept every pod");
        }
        if !as_int && p > 0 && r > 0 {
            prop_assert!(got >= 1, "a non-zero percentage keeps at least one pod");
        }
    }

    #[test]
    fn daemonset_and_statefulset_max_updated_bounds(p in 0i64..=300, desired in 0i32..=5000, nodes in 0i32..=5000, sp in 0i32..=6000) {
        let d = daemonset(Some(&IntOrPercent::String(pct(p))), i64::from(desired), i64::from(nodes)).unwrap();
        prop_assert!((0..=i64::from(nodes)).contains(&d.max_updated));
        prop_assert_eq!(d.max_updated, (i64::from(nodes) - d.partition).max(0));
        prop_assert!(d.partition <= i64::from(desired) * p / 100, "rounded down");
        let s = statefulset(Some(&IntOrPercent::Int(sp)), desired).unwrap();
        prop_assert_eq!(s.max_updated, (i64::from(desired) - i64::from(sp)).max(0));
    }

    #[test]
    fn daemonset_update_nodes_never_exceed_budget(
        states in prop::collection::vec((0u8..3, any::<bool>()), 0..40),
        partition in -5i64..45,
        selector in any::<bool>(),
    ) {
        let nodes: Vec<Node> = states.iter().enumerate().map(|(i, (s, sel))| Node {
            name: format!("node-{i:02}"),
            state: [NodeState::Updated, NodeState::Updating, NodeState::Old][usize::from(*s)],
            selected: *sel,
        }).collect();
        let out = update_nodes(partition, selector, &nodes);
        let cap = (i64::try_from(nodes.len()).unwrap() - partition).max(0);
        prop_assert!(i64::try_from(out.len()).unwrap() <= cap);
        let mut dedup = out.clone();
        dedup.sort();
        dedup.dedup();
        prop_assert_eq!(dedup.len(), out.len(), "no node twice");
    }

    #[test]
    fn budget_invariants(
        replicas in 0i32..=60,
        pods in prop::collection::vec((any::<bool>(), 0u8..7, any::<bool>(), 0u8..10), 0..80),
        partition in prop::option::of(0i32..=70),
        max_unavailable in prop::option::of(0i32..=120),
        max_surge in prop::option::of(0i32..=120),
        paused in any::<bool>(),
        rollback in any::<bool>(),
        consistent in any::<bool>(),
        gate in any::<bool>(),
        exclude in any::<bool>(),
    ) {
        const STATES: [LifecycleState; 7] = [
            LifecycleState::None, LifecycleState::PreparingNormal, LifecycleState::Normal,
            LifecycleState::PreparingUpdate, LifecycleState::Updating, LifecycleState::Updated,
            LifecycleState::PreparingDelete,
        ];
        let pods: Vec<PodView> = pods.iter().map(|&(updated, s, available, del)| PodView {
            updated, lifecycle_state: STATES[usize::from(s)], available, specified_delete: del == 0,
        }).collect();
        let pct = |v: Option<i32>| v.map(|p| IntOrPercent::String(format!("{p}%")));
        let spec = BudgetSpec {
            replicas,
            partition: partition.map(IntOrPercent::Int),
            max_unavailable: pct(max_unavailable),
            max_surge: pct(max_surge),
            scale_max_unavailable: None,
            paused,
            revision_consistent: consistent,
            partition_rollback: rollback,
            preparing_update_as_update: gate,
            scaling_exclude_preparing_delete: exclude,
        };
        let b = budget(&spec, &pods);
        let d = b.diffs;
        prop_assert!((0..=i64::from(replicas)).contains(&b.partition));
        prop_assert!(b.max_surge >= 0 && b.max_unavailable >= 0);
        prop_assert!(d.use_surge_old_revision <= d.use_surge && d.use_surge <= b.max_surge && d.use_surge_old_revision >= 0);
        prop_assert!(!(d.scale_up_num > 0 && d.scale_down_num > 0), "scale up and down at once: {d:?}");
        prop_assert!(d.scale_up_limit >= 0 && d.scale_up_limit <= d.scale_up_num.max(0));
        prop_assert!(d.delete_ready_limit >= 0 && d.scale_down_num >= 0 && d.scale_up_num >= 0);
        if !rollback || consistent {
            prop_assert!(d.update_num >= 0, "rollback without the gate: {d:?}");
        }
        prop_assert!(b.pods_to_update_now >= 0);
        if paused {
            prop_assert_eq!(b.pods_to_update_now, 0);
            prop_assert_eq!(b.max_surge, 0);
        }
        // the update path never takes more pods than there are candidates on the wrong side
        let plain = budget(&BudgetSpec { preparing_update_as_update: false, ..spec.clone() }, &pods);
        let wrong_side = pods.iter().filter(|p| {
            p.lifecycle_state != LifecycleState::PreparingDelete && (p.updated != (plain.diffs.update_num > 0))
        }).count();
        prop_assert!(b.pods_to_update_now <= plain.diffs.update_num.abs());
        prop_assert!(b.pods_to_update_now <= i64::try_from(wrong_side).unwrap());
        prop_assert_eq!(b.pods_to_update_now, if paused { 0 } else { plain.pods_to_update_now });
    }
}

#[test]
fn overflowing_budgets_never_panic() {
    let huge = [
        "9223372036854775807%",
        "-9223372036854775808%",
        "99999999999999999%",
        "abc",
        "5%0",
    ];
    let pods: Vec<PodView> = (0..12)
        .map(|i| PodView {
            updated: i % 2 == 0,
            lifecycle_state: LifecycleState::Normal,
            available: i % 3 != 0,
            specified_delete: i % 5 == 0,
        })
        .collect();
    for mu in huge {
        for ms in huge {
            for smu in huge {
                let spec = BudgetSpec {
                    replicas: 10,
                    max_unavailable: Some(IntOrPercent::String(mu.into())),
                    max_surge: Some(IntOrPercent::String(ms.into())),
                    scale_max_unavailable: Some(IntOrPercent::String(smu.into())),
                    ..BudgetSpec::default()
                };
                let b = budget(&spec, &pods);
                assert!(
                    b.diffs.scale_up_limit >= 0 && b.diffs.delete_ready_limit >= 0,
                    "{mu} {ms} {smu}: {b:?}"
                );
            }
        }
    }
    // "9223372036854775807%" of 10 replicas is in range for the legacy parser; of 100 it overflows
    let spec = BudgetSpec {
        replicas: 100,
        max_unavailable: Some(IntOrPercent::String("9223372036854775807%".into())),
        ..BudgetSpec::default()
    };
    assert_eq!(budget(&spec, &pods).max_unavailable, i64::MIN);
}

/// `docs/rounding.md` is generated from `kruise_core::rollout::rounding::table()`; this fails when
/// the checked-in file is stale. `UPDATE_ROUNDING=1` rewrites it.
#[test]
fn rounding_table_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rounding.md");
    let fresh = kruise_core::rollout::rounding::table();
    if std::env::var_os("UPDATE_ROUNDING").is_some_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("docs/rounding.md is writable");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == fresh,
        "docs/rounding.md is stale; regenerate with UPDATE_ROUNDING=1 cargo test -p kruise-proptests --test rollout rounding_table"
    );
}

#[test]
fn rounding_table_has_the_asked_columns() {
    let t = kruise_core::rollout::rounding::table();
    for col in ["`25%` of 10", "`33%` of 3", "`99%` of 100", "`100%` of 1"] {
        assert!(t.contains(col), "missing column {col}");
    }
    // CloneSet controller maxUnavailable with a surge rounds 33% of 3 down to 0
    let row = t
        .lines()
        .find(|l| l.contains("maxUnavailable (controller, maxSurge 1)"))
        .expect("row present");
    let cells: Vec<&str> = row
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(&cells[cells.len() - 4..], ["2", "0", "99", "1"]);
}
