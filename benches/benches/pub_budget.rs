//! Criterion benches of the PodUnavailableBudget family: the controller's status over 100, 10,000
//! and 100,000 pods (should grow linearly), and one admission decision against a status holding
//! 2,000 records (1,000 disrupted + 1,000 unavailable). Results: `docs/performance.md` (`## pub`).

#![allow(missing_docs)] // criterion_group! generates an undocumented `pub fn benches`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kruise_core::pub_budget::{
    AdmissionRequest, FeatureGates, Pod, PodSummary, Pub, RecordTime, RequestOperation, admit,
    compute_status,
};
use serde_json::json;
use std::hint::black_box;

const NOW: &str = "2026-06-21T10:00:00Z";

/// Pod `i` of a CloneSet: ready and consistent, except every 10th not ready and every 25th
/// terminating; every 50th carries an in-place update state annotation.
fn pod(i: usize) -> Pod {
    let mut ann = serde_json::Map::new();
    ann.insert("kruise.io/related-pub".into(), json!("web-server-pub"));
    if i.is_multiple_of(50) {
        ann.insert(
            "apps.kruise.io/inplace-update-state".into(),
            json!(r#"{"revision":"r2","lastContainerStatuses":{"nginx":{"imageID":"nginx@sha256:53f029ad8b1058e966d6714a30d2582943c6e936f4b3c3b344a302c4567f471d"}}}"#),
        );
    }
    let mut meta = json!({"name": format!("web-server-{i}"), "namespace": "default",
        "labels": {"app": "web-server", "pod-template-hash": "5d9f7c"}, "annotations": ann});
    if i.is_multiple_of(25) {
        meta["deletionTimestamp"] = json!("2026-06-21T09:59:59Z");
    }
    serde_json::from_value(json!({
        "metadata": meta,
        "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25",
            "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}, "limits": {"cpu": "2", "memory": "1Gi"}}}]},
        "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": if i % 10 == 3 { "False" } else { "True" }}],
            "containerStatuses": [{"name": "nginx", "image": "nginx:1.25",
                "imageID": "docker-pullable://nginx@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d"}]}
    }))
    .expect("valid pod")
}

/// A targetRef PUB (maxUnavailable 20%) whose status records `records` pods, half disrupted and
/// half unavailable, some of them expired.
fn pub_with_records(records: usize) -> Pub {
    let mut disrupted = serde_json::Map::new();
    let mut unavailable = serde_json::Map::new();
    for i in 0..records {
        let t = if i % 3 == 0 {
            "2026-06-21T09:59:30Z"
        } else {
            "2026-06-21T09:59:55Z"
        };
        let m = if i % 2 == 0 {
            &mut disrupted
        } else {
            &mut unavailable
        };
        m.insert(format!("web-server-{}", i * 7 + 1), json!(t));
    }
    serde_json::from_value(json!({
        "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
        "metadata": {"name": "web-server-pub", "namespace": "default", "generation": 2},
        "spec": {"targetRef": {"apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet", "name": "web-server"},
            "maxUnavailable": "20%"},
        "status": {"observedGeneration": 2, "disruptedPods": disrupted, "unavailablePods": unavailable,
            "unavailableAllowed": 500, "currentAvailable": 9000, "desiredAvailable": 8000, "totalReplicas": 10000}
    }))
    .expect("valid pub")
}

fn status(c: &mut Criterion) {
    let now: jiff::Timestamp = NOW.parse().expect("time");
    for n in [100usize, 10_000, 100_000] {
        let pods: Vec<Pod> = (0..n).map(pod).collect();
        let summaries: Vec<PodSummary> = pods.iter().map(PodSummary::of).collect();
        let pb = pub_with_records((n / 100).clamp(2, 2000));
        let mut g = c.benchmark_group("pub/status");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("summaries", n), &summaries, |b, pods| {
            b.iter(|| {
                compute_status(black_box(&pb), black_box(pods), Some(n as i32), now)
                    .expect("status")
            })
        });
        if n <= 10_000 {
            g.bench_with_input(BenchmarkId::new("full pods", n), &pods, |b, pods| {
                b.iter(|| {
                    compute_status(black_box(&pb), black_box(pods), Some(n as i32), now)
                        .expect("status")
                })
            });
        } else {
            g.sample_size(10);
            g.bench_with_input(BenchmarkId::new("full pods", n), &pods, |b, pods| {
                b.iter(|| {
                    compute_status(black_box(&pb), black_box(pods), Some(n as i32), now)
                        .expect("status")
                })
            });
        }
        g.finish();
    }
}

fn admission(c: &mut Criterion) {
    let pb = pub_with_records(2000);
    let now = RecordTime::parse(NOW, "now").expect("time");
    let target = pod(4); // not recorded, ready, consistent
    let gates = FeatureGates {
        update_gate: true,
        ..FeatureGates::default()
    };
    let mut g = c.benchmark_group("pub/admit 2000 records");
    let evict = AdmissionRequest {
        operation: RequestOperation::Create,
        sub_resource: "eviction",
        dry_run: false,
        old_pod: None,
        new_pod: None,
        pod: Some(&target),
    };
    g.bench_function("evict (decision)", |b| {
        b.iter(|| admit(black_box(&evict), Some(black_box(&pb)), gates).expect("admit"))
    });
    g.bench_function("evict (decision + apply to a status copy)", |b| {
        b.iter(|| {
            let d = admit(black_box(&evict), Some(black_box(&pb)), gates).expect("admit");
            d.change.map(|ch| ch.apply(&pb.status, &now))
        })
    });
    let mut resized = target.clone();
    if let Some(c) = resized.spec.containers.as_mut().and_then(|v| v.first_mut())
        && let Some(r) = c.resources.as_mut().and_then(|r| r.requests.as_mut())
    {
        r.insert("cpu".into(), "1".into());
    }
    let update = AdmissionRequest {
        operation: RequestOperation::Update,
        sub_resource: "",
        dry_run: false,
        old_pod: Some(&target),
        new_pod: Some(&resized),
        pod: None,
    };
    g.bench_function("resize (classify + decision)", |b| {
        b.iter(|| admit(black_box(&update), Some(black_box(&pb)), gates).expect("admit"))
    });
    g.finish();
}

criterion_group!(benches, status, admission);
criterion_main!(benches);
