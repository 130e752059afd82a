//! Properties of the PodUnavailableBudget family:
//! - over any sequence of admission requests (with controller resyncs in between), pods disrupted
//!   through protected operations never exceed the budget the controller computed;
//! - `unavailableAllowed` is never negative, whatever the budget, replica override or records;
//! - the status is a pure function of its inputs (same inputs, any pod order: same result).

use jiff::{SignedDuration, Timestamp};
use kruise_core::intstr::IntOrPercent;
use kruise_core::pub_budget::types::{
    ANN_PROTECT_OPERATIONS, ANN_PROTECT_TOTAL_REPLICAS, ANN_RELATED_PUB, Container, PodCondition,
    PodMeta, PodSpec, PodStatus, PubMeta, PubSpec, Resources, TargetRef,
};
use kruise_core::pub_budget::{
    AdmissionRequest, DecisionCode, FeatureGates, Operation, Pod, Pub, PubStatus, RecordTime,
    RequestOperation, admit, compute_status,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn t0() -> Timestamp {
    "2026-06-21T10:00:00Z".parse().expect("time")
}

fn pod(i: usize, ready: bool, cpu: &str) -> Pod {
    let mut p = Pod {
        metadata: PodMeta {
            name: format!("p-{i}"),
            ..PodMeta::default()
        },
        spec: PodSpec {
            containers: Some(vec![Container {
                name: "main".into(),
                image: "nginx:1.25".into(),
                resources: Some(Resources {
                    requests: Some([("cpu".to_string(), cpu.to_string())].into()),
                    limits: Some([("cpu".to_string(), "4".to_string())].into()),
                    ..Resources::default()
                }),
                ..Container::default()
            }]),
            ..PodSpec::default()
        },
        status: PodStatus {
            phase: "Running".into(),
            conditions: vec![PodCondition {
                type_: "Ready".into(),
                status: if ready { "True" } else { "False" }.into(),
                ..PodCondition::default()
            }],
            ..PodStatus::default()
        },
    };
    p.metadata
        .annotations
        .insert(ANN_RELATED_PUB.into(), "pub".into());
    p
}

fn budget_value() -> impl Strategy<Value = IntOrPercent> {
    prop_oneof![
        (-3i32..15).prop_map(IntOrPercent::Int),
        (-20i64..160).prop_map(|p| IntOrPercent::String(format!("{p}%"))),
    ]
}

fn a_pub(max: bool, v: IntOrPercent, ops: Option<&str>, total: Option<String>) -> Pub {
    let mut pb = Pub {
        metadata: PubMeta {
            name: "pub".into(),
            generation: 1,
            ..PubMeta::default()
        },
        spec: PubSpec {
            target_ref: Some(TargetRef {
                api_version: "apps.kruise.io/v1alpha1".into(),
                kind: "CloneSet".into(),
                name: "w".into(),
            }),
            max_unavailable: if max { Some(v.clone()) } else { None },
            min_available: if max { None } else { Some(v) },
            ..PubSpec::default()
        },
        ..Pub::default()
    };
    if let Some(o) = ops {
        pb.metadata
            .annotations
            .insert(ANN_PROTECT_OPERATIONS.into(), o.into());
    }
    if let Some(t) = total {
        pb.metadata
            .annotations
            .insert(ANN_PROTECT_TOTAL_REPLICAS.into(), t);
    }
    pb
}

// A step of the sequence: (kind 0..4 = DELETE, EVICT, UPDATE image, UPDATE resize), pod index,
// dry run, seconds to advance, resync the controller before it.

const OPS: [Option<&str>; 5] = [
    None,
    Some("DELETE,EVICT,UPDATE,RESIZE"),
    Some("EVICT"),
    Some("UPDATE"),
    Some("DELETE, EVICT"),
];

proptest! {
    #![proptest_config(kruise_proptests::config(256))]

    #[test]
    fn admission_never_exceeds_the_budget(
        readiness in proptest::collection::vec(prop::bool::weighted(0.85), 1..30),
        max in any::<bool>(),
        v in budget_value(),
        ops in 0usize..OPS.len(),
        inplace_gate in any::<bool>(),
        steps in proptest::collection::vec((0u8..4, 0usize..40, prop::bool::weighted(0.2), 0u8..4, prop::bool::weighted(0.3)), 0..60),
    ) {
        let n = readiness.len();
        let mut pods: Vec<Pod> = readiness.iter().enumerate().map(|(i, r)| pod(i, *r, "500m")).collect();
        let mut pb = a_pub(max, v, OPS[ops], None);
        let gates = FeatureGates { update_gate: true, in_place_pod_vertical_scaling: inplace_gate, ..FeatureGates::default() };
        let mut now = t0();
        let first = compute_status(&pb, &pods, Some(n as i32), now).unwrap();
        let budget = (first.status.current_available - first.status.desired_available).max(0);
        let desired_zero = first.status.desired_available == 0;
        pb.status = first.status;
        let protected = pb.protected_operations(inplace_gate);
        let mut spent: BTreeSet<usize> = BTreeSet::new();
        for (kind, k, dry, advance, resync) in steps {
            now = now.checked_add(SignedDuration::from_secs(i64::from(advance))).unwrap();
            if resync {
                pb.status = compute_status(&pb, &pods, Some(n as i32), now).unwrap().status;
            }
            let k = k % n;
            let target = pods[k].clone();
            let mut changed = target.clone();
            match kind {
                2 => if let Some(c) = changed.spec.containers.as_mut().and_then(|c| c.first_mut()) { c.image = "nginx:1.26".into() },
                3 => changed = pod(k, true, "1"),
                _ => {}
            }
            let (operation, sub) = match kind { 0 => (RequestOperation::Delete, ""), 1 => (RequestOperation::Create, "eviction"), _ => (RequestOperation::Update, "") };
            let req = AdmissionRequest {
                operation, sub_resource: sub, dry_run: dry,
                old_pod: (kind >= 2).then_some(&target), new_pod: (kind >= 2).then_some(&changed),
                pod: (kind < 2).then_some(&target),
            };
            let d = admit(&req, Some(&pb), gates).unwrap();
            prop_assert!(d.code != DecisionCode::DeniedNoBudget || pb.status.unavailable_allowed <= 0);
            let change = d.change.map(|ch| (ch.unavailable_allowed, ch.apply(&pb.status, &RecordTime::from_timestamp(now))));
            let (code, operation, allowed) = (d.code, d.operation, d.allowed());
            if let Some((left, status)) = change {
                prop_assert!(!dry && code == DecisionCode::Admitted);
                prop_assert!(left >= 0);
                pb.status = status;
            }
            let disrupted = allowed && !dry && !matches!(code, DecisionCode::PodNotAvailable | DecisionCode::AlreadyRecorded);
            if disrupted {
                if let Some(op) = operation && protected.contains(op) && !desired_zero {
                    spent.insert(k);
                }
                // the disruption happens: deleted/evicted pods terminate, updated pods go unready
                match operation {
                    Some(Operation::Delete | Operation::Evict) => pods[k].metadata.deletion_timestamp = Some("2026-06-21T10:00:00Z".into()),
                    Some(Operation::Update | Operation::Resize) => pods[k].status.conditions[0].status = "False".into(),
                    None => {}
                }
            }
            prop_assert!(spent.len() as i32 <= budget, "spent {} of budget {budget}", spent.len());
        }
    }

    #[test]
    fn unavailable_allowed_is_never_negative(
        readiness in proptest::collection::vec(any::<bool>(), 0..40),
        max in any::<bool>(),
        v in budget_value(),
        replicas in proptest::option::of(-5i32..60),
        total in proptest::option::of(prop_oneof![Just("".to_string()), Just("%%".to_string()), (-10i64..100).prop_map(|x| x.to_string()), Just("99999999999".to_string())]),
        records in proptest::collection::vec((0usize..50, 0i64..40, any::<bool>()), 0..20),
    ) {
        let pods: Vec<Pod> = readiness.iter().enumerate().map(|(i, r)| pod(i, *r, "1")).collect();
        let mut pb = a_pub(max, v, None, total);
        for (i, ago, disrupted) in records {
            let t = RecordTime::from_timestamp(t0().checked_sub(SignedDuration::from_secs(ago)).unwrap());
            let m = if disrupted { &mut pb.status.disrupted_pods } else { &mut pb.status.unavailable_pods };
            m.insert(format!("p-{i}"), t);
        }
        let out = compute_status(&pb, &pods, replicas, t0()).unwrap();
        prop_assert!(out.status.unavailable_allowed >= 0);
        prop_assert!(out.status.current_available as usize <= pods.len());
        // every kept record belongs to a pod and has not expired
        for (name, t) in out.status.disrupted_pods.iter().chain(&out.status.unavailable_pods) {
            prop_assert!(pods.iter().any(|p| &p.metadata.name == name));
            prop_assert!(t.at.checked_add(SignedDuration::from_secs(20)).unwrap() >= t0());
        }
    }

    #[test]
    fn status_is_a_pure_function_of_its_inputs(
        readiness in proptest::collection::vec(any::<bool>(), 0..40),
        v in budget_value(),
        replicas in proptest::option::of(0i32..60),
        records in proptest::collection::vec((0usize..50, 0i64..40, any::<bool>()), 0..20),
        rotate in 0usize..40,
        later in 0i64..30,
    ) {
        let mut pods: Vec<Pod> = readiness.iter().enumerate().map(|(i, r)| pod(i, *r, "1")).collect();
        let mut pb = a_pub(true, v, None, None);
        for (i, ago, disrupted) in records {
            let t = RecordTime::from_timestamp(t0().checked_sub(SignedDuration::from_secs(ago)).unwrap());
            let m = if disrupted { &mut pb.status.disrupted_pods } else { &mut pb.status.unavailable_pods };
            m.insert(format!("p-{i}"), t);
        }
        let now = t0().checked_add(SignedDuration::from_secs(later)).unwrap();
        let a = compute_status(&pb, &pods, replicas, now).unwrap();
        let b = compute_status(&pb.clone(), &pods.clone(), replicas, now).unwrap();
        prop_assert_eq!(&a, &b);
        if !pods.is_empty() {
            let r = rotate % pods.len();
            pods.rotate_left(r);
            pods.reverse();
        }
        let c = compute_status(&pb, &pods, replicas, now).unwrap();
        prop_assert_eq!(&a, &c);
        // a second sync with the written status changes nothing
        let mut written = pb.clone();
        written.status = a.status.clone();
        let d = compute_status(&written, &pods, replicas, now).unwrap();
        prop_assert_eq!(&d.status, &a.status);
        prop_assert!(!d.changed);
        let _: &PubStatus = &d.status;
    }
}

/// Small JSON values built from the words the PUB decisions look at, so that random inputs reach
/// deep into the decoders and decisions.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{Value, json};
    let words = prop_oneof![
        Just("Running"),
        Just("Ready"),
        Just("True"),
        Just("cpu"),
        Just("memory"),
        Just("1Gi"),
        Just("500m"),
        Just("nginx@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d"),
        Just("20%"),
        Just("-5%"),
        Just("x%"),
        Just("DELETE,EVICT"),
        Just("kruise.io/related-pub"),
        Just("apps.kruise.io/inplace-update-state"),
        Just("{\"nextContainerImages\":{}}"),
        Just("eviction"),
        Just("2026-06-21T10:00:00Z"),
        Just(""),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..200).prop_map(|n| json!(n)),
        words.prop_map(|s| json!(s)),
    ];
    let keys = prop_oneof![
        Just("metadata"),
        Just("name"),
        Just("annotations"),
        Just("labels"),
        Just("spec"),
        Just("status"),
        Just("containers"),
        Just("image"),
        Just("resources"),
        Just("requests"),
        Just("limits"),
        Just("phase"),
        Just("conditions"),
        Just("type"),
        Just("maxUnavailable"),
        Just("minAvailable"),
        Just("selector"),
        Just("targetRef"),
        Just("disruptedPods"),
        Just("unavailablePods"),
        Just("unavailableAllowed"),
        Just("desiredAvailable"),
        Just("operation"),
        Just("subResource"),
        Just("resizePolicy"),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((keys.clone(), inner), 0..5).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(kruise_proptests::config(512))]

    /// Whatever JSON arrives, every pub.* function answers with a value or a typed error.
    #[test]
    fn handlers_never_panic(pod in json_value(), other in json_value(), pb in json_value(), op in 0usize..3) {
        use serde_json::json;
        let ops = ["UPDATE", "DELETE", "CREATE"];
        let now = "2026-06-21T10:00:00Z";
        let inputs = [
            ("pub.pod_state", json!({"pod": pod})),
            ("pub.classify_update", json!({"oldPod": pod, "newPod": other})),
            ("pub.status", json!({"pub": pb, "pods": [pod, other], "workloadReplicas": 3, "now": now})),
            ("pub.admit", json!({"request": {"operation": ops[op], "subResource": "eviction"}, "oldPod": pod, "newPod": other,
                "pod": pod, "pub": pb, "featureGates": {"PodUnavailableBudgetUpdateGate": true}, "now": now})),
            ("pub.validate", json!({"pub": pb, "oldPub": other})),
        ];
        for (f, input) in inputs {
            if let Err(e) = kruise_core::call(f, &input) {
                prop_assert!(!e.kind.is_empty());
            }
        }
    }
}
