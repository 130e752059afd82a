//! Properties of UnitedDeployment allocation (`kruise_core::allocation`).
//!
//! Specs are generated valid by construction (and checked against the webhook rules): for any
//! such spec and any subset workloads, the allocation is never negative, sums to spec.replicas
//! (plus the temporary replicas in reservation mode), respects min/max, is deterministic, and the
//! reservation mode never reserves (moves) a pod that is not unschedulable.

use kruise_core::allocation::*;
use kruise_core::intstr::IntOrPercent;
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;

const NOW: &str = "2026-06-21T10:00:00Z";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Specific,
    MinMax,
    Adaptive,
    Reservation,
}

/// (spec, workloads per subset with their adaptive status)
fn scenario(mode: Mode) -> impl Strategy<Value = (UdSpec, BTreeMap<String, SubsetView>)> {
    (
        1usize..8,
        proptest::collection::vec((0i64..30, 0i64..40, any::<bool>(), any::<bool>()), 8),
        proptest::collection::vec(
            (
                any::<bool>(),
                0i64..40,
                0i64..40,
                0i64..40,
                any::<bool>(),
                any::<bool>(),
            ),
            8,
        ),
        0i64..300,
        0usize..8,
    )
        .prop_map(move |(n, bounds, works, extra, free)| {
            let free = free % n; // this subset never gets a max (webhook: not every subset may have one)
            let mut subsets = Vec::new();
            let mut fixed_sum = 0i64;
            let mut all_fixed = true;
            for (i, &(a, b, has_min_or_fixed, has_max)) in bounds.iter().take(n).enumerate() {
                let name = format!("s{i}");
                let mut s = Subset {
                    name,
                    ..Default::default()
                };
                match mode {
                    Mode::Specific => {
                        if has_min_or_fixed {
                            s.replicas = Some(IntOrPercent::Int(a as i32));
                            fixed_sum += a;
                        } else {
                            all_fixed = false;
                        }
                    }
                    _ => {
                        if has_min_or_fixed {
                            s.min_replicas = Some(IntOrPercent::Int(a as i32));
                        }
                        if has_max && i != free {
                            let lo = if has_min_or_fixed { a } else { 0 };
                            s.max_replicas = Some(IntOrPercent::Int((lo + b) as i32));
                        }
                    }
                }
                subsets.push(s);
            }
            let replicas = match mode {
                Mode::Specific if all_fixed => fixed_sum,
                Mode::Specific => fixed_sum + extra,
                _ => extra,
            };
            let strategy = match mode {
                Mode::Adaptive => ScheduleStrategy {
                    type_: Some("Adaptive".into()),
                    adaptive: None,
                },
                Mode::Reservation => ScheduleStrategy {
                    type_: Some("Adaptive".into()),
                    adaptive: Some(AdaptiveStrategy {
                        reserve_unschedulable_pods: Some(true),
                        ..Default::default()
                    }),
                },
                _ => ScheduleStrategy::default(),
            };
            let spec = UdSpec {
                replicas: Some(replicas as i32),
                template: Some(Template {
                    clone_set_template: Some(json!({})),
                    ..Default::default()
                }),
                topology: Topology {
                    subsets,
                    schedule_strategy: strategy,
                },
                update_strategy: None,
            };
            let mut views = BTreeMap::new();
            for (i, &(exists, spec_r, ready, reserved, unsched, marked)) in
                works.iter().take(n).enumerate()
            {
                if !exists {
                    continue;
                }
                let ready = ready.min(spec_r);
                let reserved = reserved.min(spec_r);
                let status = UnschedulableStatus {
                    unschedulable: unsched,
                    marked_as_unschedulable: marked,
                    reserved_pods: if mode == Mode::Reservation && unsched {
                        reserved as i32
                    } else {
                        0
                    },
                    ..Default::default()
                };
                views.insert(
                    format!("s{i}"),
                    SubsetView {
                        spec_replicas: spec_r,
                        ready_replicas: ready,
                        status,
                    },
                );
            }
            (spec, views)
        })
}

fn bounds(s: &Subset) -> (i64, i64) {
    let v = |x: &Option<IntOrPercent>, d: i64| match x {
        Some(IntOrPercent::Int(i)) => i64::from(*i),
        _ => d,
    };
    (
        v(&s.min_replicas, 0),
        v(&s.max_replicas, i64::from(i32::MAX)),
    )
}

fn run(spec: &UdSpec, views: &BTreeMap<String, SubsetView>) -> Allocation {
    next_replicas_with(spec, |n| views.get(n).copied()).expect("valid spec allocates")
}

proptest! {
    #![proptest_config(kruise_proptests::config(400))]

    #[test]
    fn specific_sums_to_total((spec, views) in scenario(Mode::Specific)) {
        prop_assert!(validate(&spec).is_empty(), "{:?}", validate(&spec));
        let a = run(&spec, &views);
        prop_assert_eq!(a.allocator, AllocatorKind::Specific);
        prop_assert_eq!(a.replicas.len(), spec.topology.subsets.len());
        prop_assert!(a.replicas.iter().all(|(_, r)| *r >= 0));
        prop_assert_eq!(a.total(), i64::from(spec.replicas.unwrap_or(0)));
        for (s, (_, r)) in spec.topology.subsets.iter().zip(&a.replicas) {
            if let Some(IntOrPercent::Int(f)) = s.replicas { prop_assert_eq!(*r, i64::from(f)); }
        }
        // the leftover is spread evenly: unfixed subsets differ by at most one
        let free: Vec<i64> = spec.topology.subsets.iter().zip(&a.replicas).filter(|(s, _)| s.replicas.is_none()).map(|(_, r)| r.1).collect();
        if let (Some(lo), Some(hi)) = (free.iter().min(), free.iter().max()) { prop_assert!(hi - lo <= 1); }
    }

    #[test]
    fn min_max_respects_bounds_and_total((spec, views) in scenario(Mode::MinMax)) {
        prop_assert!(validate(&spec).is_empty(), "{:?}", validate(&spec));
        let a = run(&spec, &views);
        let t = i64::from(spec.replicas.unwrap_or(0));
        let sum_min: i64 = spec.topology.subsets.iter().map(|s| bounds(s).0).sum();
        prop_assert_eq!(a.total(), t);
        for (s, (_, r)) in spec.topology.subsets.iter().zip(&a.replicas) {
            let (min, max) = bounds(s);
            prop_assert!(*r >= 0 && *r <= max);
            if t >= sum_min { prop_assert!(*r >= min, "{} < min {}", r, min); }
        }
    }

    #[test]
    fn adaptive_never_negative_and_fills_total((spec, views) in scenario(Mode::Adaptive)) {
        prop_assert!(validate(&spec).is_empty(), "{:?}", validate(&spec));
        let a = run(&spec, &views);
        prop_assert_eq!(a.allocator, AllocatorKind::Adaptive);
        let t = i64::from(spec.replicas.unwrap_or(0));
        let mut open_ended = false;
        for (s, (name, r)) in spec.topology.subsets.iter().zip(&a.replicas) {
            let (_, max) = bounds(s);
            let v = views.get(name);
            let unsched = v.is_some_and(|v| v.status.unschedulable);
            prop_assert!(*r >= 0);
            if unsched {
                // pinned to what already runs (or its minimum)
                prop_assert!(*r <= v.map_or(0, |v| v.ready_replicas).max(bounds(s).0));
            } else {
                prop_assert!(*r <= max);
                open_ended |= s.max_replicas.is_none();
            }
        }
        prop_assert!(a.total() <= t);
        if open_ended { prop_assert_eq!(a.total(), t); }
    }

    #[test]
    fn reservation_sums_to_total_plus_temporaries((spec, views) in scenario(Mode::Reservation)) {
        prop_assert!(validate(&spec).is_empty(), "{:?}", validate(&spec));
        let a = run(&spec, &views);
        prop_assert_eq!(a.allocator, AllocatorKind::Reservation);
        let t = i64::from(spec.replicas.unwrap_or(0));
        let temp = a.temporary_replicas.expect("reservation reports temporaries");
        prop_assert!(temp >= 0);
        let mut allocatable_open = false;
        for (s, (name, r)) in spec.topology.subsets.iter().zip(&a.replicas) {
            let (min, max) = bounds(s);
            prop_assert!(*r >= 0);
            match views.get(name) {
                Some(v) if v.status.unschedulable => prop_assert!(*r <= v.spec_replicas.max(min)),
                Some(v) if v.status.marked_as_unschedulable => prop_assert!(*r <= max),
                _ => { prop_assert!(*r <= max); allocatable_open |= s.max_replicas.is_none(); }
            }
        }
        if allocatable_open { prop_assert_eq!(a.total(), t + temp); } else { prop_assert!(a.total() - temp <= t); }
        // nothing unschedulable or marked: exactly the elastic fill, no stand-ins
        if views.values().all(|v| !v.status.unschedulable && !v.status.marked_as_unschedulable) {
            prop_assert_eq!(temp, 0);
            let raw = kruise_core::allocation::allocator::raw_min_max(&spec, t).unwrap();
            prop_assert_eq!(kruise_core::allocation::elastic::fill(&spec, t, &raw), a.replicas.clone());
        }
    }

    #[test]
    fn allocation_is_deterministic_and_typed_equals_json((spec, views) in scenario(Mode::Reservation)) {
        let a = run(&spec, &views);
        prop_assert_eq!(&run(&spec, &views), &a);
        let subsets: serde_json::Map<String, serde_json::Value> = views.iter().map(|(n, v)| (n.clone(), json!({
            "spec": {"replicas": v.spec_replicas}, "status": {"readyReplicas": v.ready_replicas},
            "unschedulableStatus": serde_json::to_value(v.status).unwrap()}))).collect();
        let out = kruise_core::call("allocation.next_replicas", &json!({"spec": spec, "subsets": subsets})).unwrap();
        let reps: BTreeMap<String, i64> = a.replicas.iter().cloned().collect();
        prop_assert_eq!(&out["replicas"], &serde_json::to_value(reps).unwrap());
        prop_assert_eq!(&out["temporaryReplicas"], &json!(a.temporary_replicas));
    }

    /// Pods that are scheduled (running/ready, bound, or not pending) in a subset that is not
    /// marked are never reserved, whatever their age; only pending-unschedulable pods past the
    /// critical seconds are.
    #[test]
    fn reservation_only_reserves_unschedulable_pods(
        pods in proptest::collection::vec((0u8..4, 0i64..3600, any::<bool>()), 0..12),
        critical in 0i64..120,
    ) {
        let now: Timestamp = NOW.parse().unwrap();
        let mk = |i: usize, kind: u8, age: i64, labelled: bool| {
            let created = Timestamp::from_second(now.as_second() - age).unwrap().to_string();
            let mut labels = json!({REVISION_LABEL: "r1"});
            if labelled { labels[RESERVED_POD_LABEL] = json!("false"); }
            let (phase, conds, node) = match kind {
                0 => ("Pending", json!([{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]), None),
                1 => ("Running", json!([{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "True", "lastTransitionTime": created}]), Some("n1")),
                2 => ("Pending", json!([{"type": "PodScheduled", "status": "True"}]), Some("n1")),
                _ => ("Succeeded", json!([]), Some("n1")),
            };
            let mut p = json!({"metadata": {"name": format!("p{i}"), "creationTimestamp": created, "labels": labels},
                "status": {"phase": phase, "conditions": conds}});
            if let Some(n) = node { p["spec"] = json!({"nodeName": n}); }
            p
        };
        let pod_json: Vec<_> = pods.iter().enumerate().map(|(i, &(k, a, l))| mk(i, k, a, l)).collect();
        let out = kruise_core::call("allocation.subset_status", &json!({
            "scheduleStrategy": {"type": "Adaptive", "adaptive": {"reserveUnschedulablePods": true, "rescheduleCriticalSeconds": critical}},
            "subsetStatus": {"name": "a", "conditions": [{"type": "Schedulable", "status": "True", "reason": "reschedule"}]},
            "subset": {"pods": pod_json}, "updatedRevision": "r1", "now": NOW})).unwrap();
        let reserved: Vec<&str> = out["podsToPatch"].as_array().unwrap().iter()
            .filter(|p| p["reserved"] == json!(true)).map(|p| p["name"].as_str().unwrap()).collect();
        let expected: Vec<String> = pods.iter().enumerate()
            .filter(|(_, (k, age, _))| *k == 0 && *age > critical).map(|(i, _)| format!("p{i}")).collect();
        prop_assert_eq!(reserved, expected.iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(out["unschedulableStatus"]["reservedPods"].as_u64().unwrap() as usize, expected.len());
    }
}
