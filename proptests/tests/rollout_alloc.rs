//! Zero-allocation checks of the rollout hot paths, with a counting global allocator. A
//! `harness = false` binary: the checks run on the main thread, alone (see `common/alloc_counter.rs`).

mod common;

use common::alloc_counter::{assert_no_alloc, run};
use kruise_core::intstr::{Flavour, IntOrPercent, scale_str};
use kruise_core::rollout::cloneset_budget::{BudgetSpec, budget};
use kruise_core::rollout::partition::{cloneset_partition, daemonset_partition};
use kruise_core::rollout::pods::{LifecycleState, PodView};
use std::hint::black_box;

fn main() {
    run(&[(
        "scale_partition_and_budget_do_not_allocate",
        scale_partition_and_budget_do_not_allocate,
    )]);
}

fn scale_partition_and_budget_do_not_allocate() {
    // inputs are built before the region opens
    let values: Vec<(String, Flavour)> = [
        ("25%", Flavour::Scaled),
        ("-50%", Flavour::Scaled),
        ("5%0", Flavour::Legacy),
        ("%%75", Flavour::Legacy),
        ("33.3%", Flavour::Kruise),
        ("1e2%", Flavour::Kruise),
    ]
    .iter()
    .map(|(s, f)| ((*s).to_string(), *f))
    .collect();
    let pct = IntOrPercent::String("99%".into());
    let pods: Vec<PodView> = (0..1000)
        .map(|i| PodView {
            updated: i % 3 == 0,
            lifecycle_state: if i % 11 == 0 {
                LifecycleState::PreparingUpdate
            } else {
                LifecycleState::Normal
            },
            available: i % 5 != 0,
            specified_delete: i % 40 == 0,
        })
        .collect();
    let spec = BudgetSpec {
        replicas: 1000,
        partition: Some(IntOrPercent::String("10%".into())),
        max_unavailable: Some(IntOrPercent::String("25%".into())),
        max_surge: Some(IntOrPercent::String("5%".into())),
        preparing_update_as_update: true,
        ..Default::default()
    };

    let sum = assert_no_alloc("rollout hot paths", || {
        let mut sum = 0i64;
        for total in 0..2000i64 {
            for (v, f) in &values {
                sum = sum
                    .wrapping_add(scale_str(black_box(v), total, total % 2 == 0, *f).unwrap_or(0));
            }
            let r = i32::try_from(total).unwrap_or(0);
            sum = sum.wrapping_add(cloneset_partition(Some(black_box(&pct)), Some(r)).unwrap_or(0));
            sum = sum.wrapping_add(daemonset_partition(Some(black_box(&pct)), total).unwrap_or(0));
        }
        for _ in 0..10 {
            let b = budget(black_box(&spec), black_box(&pods));
            sum = sum.wrapping_add(b.pods_to_update_now + b.diffs.update_num);
        }
        sum
    });
    black_box(sum);
}
