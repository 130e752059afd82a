//! Criterion benches of the rollout family: scaling an int-or-percent (all three parsers),
//! resolving partitions, and the CloneSet update budget over 1,000 pods.
//! Results are recorded in `docs/performance.md` (`## rollout`).
#![allow(missing_docs)] // criterion_group! generates an undocumented `pub fn benches`

use criterion::{Criterion, criterion_group, criterion_main};
use kruise_core::intstr::{Flavour, IntOrPercent, scale_str};
use kruise_core::rollout::cloneset_budget::{BudgetSpec, budget};
use kruise_core::rollout::partition::{cloneset_partition, daemonset_partition};
use kruise_core::rollout::pods::{LifecycleState, PodView};
use std::hint::black_box;

fn scale(c: &mut Criterion) {
    let mut g = c.benchmark_group("rollout/scale");
    for (name, value, flavour) in [
        ("scaled 25%", "25%", Flavour::Scaled),
        ("legacy 5%0", "5%0", Flavour::Legacy),
        ("kruise 33.3%", "33.3%", Flavour::Kruise),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| scale_str(black_box(value), black_box(1000), black_box(true), flavour))
        });
    }
    g.finish();
}

fn partition(c: &mut Criterion) {
    let pct = IntOrPercent::String("99%".into());
    let int = IntOrPercent::Int(7);
    let mut g = c.benchmark_group("rollout/partition");
    g.bench_function("cloneset 99% of 100", |b| {
        b.iter(|| cloneset_partition(Some(black_box(&pct)), Some(black_box(100))))
    });
    g.bench_function("cloneset int 7", |b| {
        b.iter(|| cloneset_partition(Some(black_box(&int)), Some(black_box(100))))
    });
    g.bench_function("daemonset 99% of 100", |b| {
        b.iter(|| daemonset_partition(Some(black_box(&pct)), black_box(100)))
    });
    g.finish();
}

/// 1,000 pods: a quarter updated, every 7th unavailable, every 50th specified for deletion,
/// every 97th preparing delete.
fn pods_1000() -> Vec<PodView> {
    (0..1000)
        .map(|i| PodView {
            updated: i % 4 == 0,
            lifecycle_state: if i % 97 == 0 {
                LifecycleState::PreparingDelete
            } else {
                LifecycleState::Normal
            },
            available: i % 7 != 0,
            specified_delete: i % 50 == 0,
        })
        .collect()
}

fn update_budget(c: &mut Criterion) {
    let pods = pods_1000();
    let spec = BudgetSpec {
        replicas: 1000,
        partition: Some(IntOrPercent::String("10%".into())),
        max_unavailable: Some(IntOrPercent::String("25%".into())),
        max_surge: Some(IntOrPercent::String("5%".into())),
        ..Default::default()
    };
    let with_gate = BudgetSpec {
        preparing_update_as_update: true,
        ..spec.clone()
    };
    let mut g = c.benchmark_group("rollout/update_budget");
    g.bench_function("1000 pods", |b| {
        b.iter(|| budget(black_box(&spec), black_box(&pods)))
    });
    g.bench_function("1000 pods, PreparingUpdateAsUpdate", |b| {
        b.iter(|| budget(black_box(&with_gate), black_box(&pods)))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = scale, partition, update_budget
}
criterion_main!(benches);
