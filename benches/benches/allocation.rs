//! UnitedDeployment allocation cost over 10, 100 and 1,000 subsets with 10,000 pods.
//!
//! `allocate/reservation/N`: one full reconcile step (subset statuses, per-pod reserved checks,
//! the reservation allocator, re-marking) with 10,000 pods spread over N subsets, a quarter of the
//! subsets holding pending-unschedulable pods. `next_replicas/*/N`: the allocators alone.
//! Run: `cargo bench -p kruise-benches --bench allocation`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use kruise_core::allocation::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::hint::black_box;

const PODS: usize = 10_000;

fn spec(n: usize, strategy: serde_json::Value, with_bounds: bool) -> UdSpec {
    let subsets: Vec<_> = (0..n)
        .map(|i| {
            if with_bounds && i + 1 < n {
                json!({"name": format!("s{i}"), "minReplicas": 1, "maxReplicas": 20})
            } else {
                json!({"name": format!("s{i}")})
            }
        })
        .collect();
    serde_json::from_value(
        json!({"replicas": PODS, "topology": {"subsets": subsets, "scheduleStrategy": strategy}}),
    )
    .unwrap()
}

fn workloads(n: usize) -> BTreeMap<String, Workload> {
    let per = PODS / n;
    (0..n)
        .map(|i| {
            let pending = i % 4 == 0;
            let pods: Vec<serde_json::Value> = (0..per)
                .map(|j| {
                    let (phase, conds) = if pending && j % 2 == 0 {
                        ("Pending", json!([{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]))
                    } else {
                        ("Running", json!([{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "True", "lastTransitionTime": "2026-06-21T09:00:00Z"}]))
                    };
                    json!({"metadata": {"name": format!("s{i}-{j}"), "creationTimestamp": "2026-06-21T09:58:00Z",
                        "labels": {REVISION_LABEL: "r1", RESERVED_POD_LABEL: "false"}},
                        "status": {"phase": phase, "conditions": conds}})
                })
                .collect();
            let w = json!({"spec": {"replicas": per}, "status": {"replicas": per, "readyReplicas": if pending { per / 2 } else { per }}, "pods": pods});
            (format!("s{i}"), serde_json::from_value(w).unwrap())
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let now: Timestamp = "2026-06-21T10:00:00Z".parse().unwrap();
    let reserve = json!({"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true}});
    let mut g = c.benchmark_group("allocate/reservation");
    for n in [10usize, 100, 1000] {
        let s = spec(n, reserve.clone(), true);
        let w = workloads(n);
        let status: UdStatus = serde_json::from_value(json!({"subsetStatuses": (0..n).map(|i| json!({"name": format!("s{i}")})).collect::<Vec<_>>()})).unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                allocate(
                    black_box(&s),
                    black_box(&status),
                    "r1",
                    "r1",
                    black_box(&w),
                    now,
                )
                .unwrap()
            })
        });
    }
    g.finish();
    for (label, strategy, bounds) in [
        ("specific", json!({}), false),
        ("minMax", json!({}), true),
        ("adaptive", json!({"type": "Adaptive"}), true),
        ("reservation", reserve.clone(), true),
    ] {
        let mut g = c.benchmark_group(format!("next_replicas/{label}"));
        for n in [10usize, 100, 1000] {
            let s = spec(n, strategy.clone(), bounds);
            let views: BTreeMap<String, SubsetView> = (0..n)
                .map(|i| {
                    let st = UnschedulableStatus {
                        unschedulable: i % 4 == 0,
                        marked_as_unschedulable: i % 4 == 0,
                        reserved_pods: 2,
                        ..Default::default()
                    };
                    (
                        format!("s{i}"),
                        SubsetView {
                            spec_replicas: (PODS / n) as i64,
                            ready_replicas: 3,
                            status: st,
                        },
                    )
                })
                .collect();
            g.throughput(Throughput::Elements(n as u64));
            g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                b.iter(|| {
                    next_replicas_with(black_box(&s), |name| views.get(name).copied()).unwrap()
                })
            });
        }
        g.finish();
    }
}

/// The group, with short measurements (the bench machine is shared).
mod group {
    #![allow(missing_docs)]
    use criterion::{Criterion, criterion_group};
    use std::time::Duration;

    criterion_group! {
        name = benches;
        config = Criterion::default().sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
        targets = super::bench
    }
}
criterion_main!(group::benches);
