#![allow(missing_docs)] // criterion_group! generates undocumented public items
//! Realistic objects (issue 12): a SidecarSet `resourcesPolicy` applied to a 3.4 KB pod, and the
//! PUB admission of one eviction against a budget over 1,000 pods. The inputs are the shared
//! files `benches/data/sidecar_policy_apply.json` and `benches/data/pub_admit.json` (written by
//! `benches/data/gen_realistic.py`), which the Go and Python binding benchmarks read too.
//!
//! Run: `cargo bench -p kruise-benches --bench realistic`. Before measuring, it prints the size
//! of the full pod and the heap allocations of one call of each row.

use criterion::{Criterion, criterion_group, criterion_main};
use kruise_core::pub_budget::{self, AdmissionRequest, RecordTime, RequestOperation};
use kruise_core::resources::policy::{
    self, CompiledResourcesPolicy, PodContainers, ResourcesPolicy,
};
use serde_json::Value;
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn data(name: &str) -> Value {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("valid JSON")
}

fn allocs<T>(what: &str, f: impl Fn() -> T) {
    let region = Region::new(GLOBAL);
    black_box(f());
    println!(
        "allocations per call of {what}: {}",
        region.change().allocations
    );
}

fn sidecar(c: &mut Criterion) {
    let d = data("sidecar_policy_apply.json");
    let pod_bytes = serde_json::to_vec(&d["fullPod"]).expect("pod").len();
    println!(
        "allocations note: sidecar/policy_apply full pod is {pod_bytes} bytes of compact JSON"
    );
    let policy: ResourcesPolicy =
        serde_json::from_value(d["resourcesPolicy"].clone()).expect("policy");
    // The typed input carries only what the policy reads (the spec's containers' names,
    // restartPolicy and resources); the other pod fields are dropped when decoding.
    let pod: PodContainers = serde_json::from_value(d["fullPod"]["spec"].clone()).expect("pod");
    let names: Vec<String> =
        serde_json::from_value(d["sidecarContainerNames"].clone()).expect("names");
    let compiled = CompiledResourcesPolicy::new(&policy);
    let want = policy::apply(&policy, &pod, &names).expect("applies");
    assert_eq!(compiled.apply(&pod, &names).expect("applies"), want);
    let text = serde_json::to_string(&serde_json::json!({
        "resourcesPolicy": d["resourcesPolicy"], "pod": d["fullPod"]["spec"],
        "sidecarContainerNames": d["sidecarContainerNames"]}))
    .expect("input");
    let call = || {
        let v: Value = serde_json::from_str(&text).expect("json");
        kruise_core::registry::call("resources.sidecar", &v).expect("call")
    };
    assert_eq!(call(), want.to_json());
    allocs("sidecar/policy_apply compiled", || {
        compiled.apply(&pod, &names)
    });
    allocs("sidecar/policy_apply uncompiled", || {
        policy::apply(&policy, &pod, &names)
    });
    allocs(
        "sidecar/policy_apply call (JSON text of the full spec)",
        call,
    );

    let mut g = c.benchmark_group("sidecar/policy_apply");
    g.bench_function("3.5KB pod", |b| {
        b.iter(|| {
            compiled
                .apply(black_box(&pod), black_box(&names))
                .expect("applies")
        })
    });
    g.bench_function("3.5KB pod uncompiled", |b| {
        b.iter(|| {
            policy::apply(black_box(&policy), black_box(&pod), black_box(&names)).expect("applies")
        })
    });
    g.bench_function("3.5KB pod call JSON text", |b| b.iter(call));
    g.finish();
}

fn admit(c: &mut Criterion) {
    let d = data("pub_admit.json");
    let input = &d["input"];
    let pod: pub_budget::Pod = serde_json::from_value(input["pod"].clone()).expect("pod");
    let pb: pub_budget::Pub = serde_json::from_value(input["pub"].clone()).expect("pub");
    let gates: pub_budget::FeatureGates =
        serde_json::from_value(input["featureGates"].clone()).expect("gates");
    let now = RecordTime::parse(input["now"].as_str().expect("now"), "now").expect("time");
    let req = AdmissionRequest {
        operation: RequestOperation::Create,
        sub_resource: "eviction",
        dry_run: false,
        old_pod: None,
        new_pod: None,
        pod: Some(&pod),
    };
    // What `pub.admit` does once its input is decoded: the decision, then the status to write.
    let typed = || {
        let d = pub_budget::admit(black_box(&req), Some(black_box(&pb)), gates).expect("admit");
        let status = d.change.as_ref().map(|ch| ch.apply(&pb.status, &now));
        (d.allowed(), status)
    };
    let (allowed, status) = typed();
    assert!(allowed && status.is_some(), "the eviction is admitted");
    let text = serde_json::to_string(input).expect("input");
    let call = || {
        let v: Value = serde_json::from_str(&text).expect("json");
        kruise_core::registry::call("pub.admit", &v).expect("call")
    };
    let out = call();
    assert_eq!(out["decision"], "admitted", "{out}");
    allocs("pub/admit decision", || {
        pub_budget::admit(&req, Some(&pb), gates)
            .expect("admit")
            .allowed()
    });
    allocs("pub/admit decision + status", typed);
    allocs("pub/admit call (JSON text)", call);

    let mut g = c.benchmark_group("pub/admit");
    g.bench_function("1000-pod budget", |b| b.iter(typed));
    g.bench_function("1000-pod budget decision only", |b| {
        b.iter(|| {
            pub_budget::admit(black_box(&req), Some(black_box(&pb)), gates)
                .expect("admit")
                .allowed()
        })
    });
    g.bench_function("1000-pod budget call JSON text", |b| b.iter(call));
    g.finish();
}

criterion_group!(benches, sidecar, admit);
criterion_main!(benches);
