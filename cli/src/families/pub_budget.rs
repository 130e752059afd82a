//! `pub_budget` in the demo and in `explain`: PodUnavailableBudget status and admission.

use super::{DemoArgs, ExplainArgs};
use crate::CliError;
use crate::input;
use crate::report;
use kruise_core::pub_budget::protect::invalid_pieces;
use kruise_core::pub_budget::types::ANN_PROTECT_OPERATIONS as ANN_PROTECT_OPERATIONS_KEY;
use kruise_core::pub_budget::{
    AdmissionRequest, FeatureGates, Pod, Pub, PubStatus, RecordTime, RequestOperation, admit,
    classify_update, compute_status, validate,
};
use kruise_core::registry::decode;
use serde_json::{Value, json};
use std::fmt::Write as _;

const SEED: &str = include_str!("../../examples/pub/web-server-pub.yaml");
const DEMO_NOW: &str = "2026-06-21T10:00:00Z";
const REPLICAS: usize = 10;

/// A pod of the demo CloneSet `web-server`, ready, guarded by `web-server-pub`.
fn clone_set_pod(i: usize, cpu: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": format!("web-server-{i}"), "namespace": "default",
            "labels": {"app": "web-server"},
            "annotations": {"kruise.io/related-pub": "web-server-pub"},
            "ownerReferences": [{"apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet", "name": "web-server", "controller": true}]},
        "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25",
            "resources": {"requests": {"cpu": cpu, "memory": "512Mi"}, "limits": {"cpu": "2", "memory": "1Gi"}}}]},
        "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
            "containerStatuses": [{"name": "nginx", "image": "nginx:1.25", "imageID": "docker-pullable://nginx@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d", "ready": true}]}
    })
}

fn ops_line(pb: &Pub, gates: FeatureGates) -> String {
    let set = pb.protected_operations(gates.in_place_pod_vertical_scaling);
    let names: Vec<&str> = set.iter().map(|o| o.as_str()).collect();
    if names.is_empty() {
        "nothing".into()
    } else {
        names.join(", ")
    }
}

/// Demo: the seed's `web-server-pub` over a 10-pod CloneSet.
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let seed: Pub = decode(&input::parse_one(SEED, "web-server-pub.yaml")?)?;
    let gates = FeatureGates {
        update_gate: true,
        ..FeatureGates::default()
    };
    let now = RecordTime::parse(DEMO_NOW, "now")?;
    let mut o = String::new();
    let raw = seed
        .metadata
        .annotations
        .get(ANN_PROTECT_OPERATIONS_KEY)
        .cloned()
        .unwrap_or_default();
    let _ = writeln!(
        o,
        "seed PUB {} (targetRef CloneSet/web-server, maxUnavailable 20%)",
        seed.metadata.name
    );
    let _ = writeln!(o, "  {ANN_PROTECT_OPERATIONS_KEY}: {raw:?}");
    let errs = validate(&seed, None, gates);
    let bad: Vec<String> = invalid_pieces(&raw)
        .iter()
        .map(|p| format!("{p:?}"))
        .collect();
    let _ = writeln!(
        o,
        "  v1.9 validating webhook: {} ({}: {})",
        if errs.is_empty() {
            "accepted"
        } else {
            "REJECTED"
        },
        errs.join(", "),
        bad.join(" ")
    );
    let _ = writeln!(
        o,
        "  v1.9 runtime reading as written (no trimming): protects {}",
        ops_line(&seed, gates)
    );
    let mut pb = seed.clone();
    let fixed: String = raw.split(',').map(str::trim).collect::<Vec<_>>().join(",");
    pb.metadata
        .annotations
        .insert(ANN_PROTECT_OPERATIONS_KEY.into(), fixed.clone());
    let _ = writeln!(
        o,
        "  scenario below uses the spelling v1.9 accepts: {fixed:?} -> protects {}",
        ops_line(&pb, gates)
    );
    let _ = writeln!(
        o,
        "  feature gates: PodUnavailableBudgetDeleteGate=on, PodUnavailableBudgetUpdateGate=on, InPlacePodVerticalScaling=off"
    );

    let pods: Vec<Pod> = (0..REPLICAS)
        .map(|i| decode(&clone_set_pod(i, "500m")))
        .collect::<Result<_, _>>()?;
    let out = compute_status(&pb, &pods, Some(REPLICAS as i32), now.at)?;
    pb.status = out.status;
    let s = &pb.status;
    let _ = writeln!(
        o,
        "controller at {DEMO_NOW}: totalReplicas {} desiredAvailable {} (= {} - ceil(20% x {})) currentAvailable {} unavailableAllowed {}",
        s.total_replicas,
        s.desired_available,
        s.total_replicas,
        s.total_replicas,
        s.current_available,
        s.unavailable_allowed
    );

    for i in 0..3 {
        let req = AdmissionRequest {
            operation: RequestOperation::Create,
            sub_resource: "eviction",
            dry_run: false,
            old_pod: None,
            new_pod: None,
            pod: pods.get(i),
        };
        let d = admit(&req, Some(&pb), gates)?;
        let line = describe(&d, &pb.status);
        let next: Option<PubStatus> = d.change.map(|c| c.apply(&pb.status, &now));
        let _ = writeln!(o, "evict web-server-{i}: {line}");
        if let Some(st) = next {
            pb.status = st;
        }
    }

    let old = &pods[3];
    let new: Pod = decode(&clone_set_pod(3, "1"))?;
    let class = classify_update(old, &new)?;
    let req = AdmissionRequest {
        operation: RequestOperation::Update,
        sub_resource: "",
        dry_run: false,
        old_pod: Some(old),
        new_pod: Some(&new),
        pod: None,
    };
    let d = admit(&req, Some(&pb), gates)?;
    let _ = writeln!(
        o,
        "resize web-server-3 (requests.cpu 500m -> 1): judged {} (canResizeInplace {}): {}",
        class.operation.map_or("nothing", |op| op.as_str()),
        class.can_resize_inplace,
        describe(&d, &pb.status)
    );

    // the seed as written: EVICT is not protected, so the third eviction goes through
    let mut as_written = seed;
    as_written.status = pb.status.clone();
    let req = AdmissionRequest {
        operation: RequestOperation::Create,
        sub_resource: "eviction",
        dry_run: false,
        old_pod: None,
        new_pod: None,
        pod: pods.get(2),
    };
    let d = admit(&req, Some(&as_written), gates)?;
    let _ = writeln!(
        o,
        "same third eviction under the seed's annotation as written: {}",
        describe(&d, &as_written.status)
    );
    Ok(o)
}

fn describe(d: &kruise_core::pub_budget::Decision<'_>, before: &PubStatus) -> String {
    match (d.allowed(), d.change) {
        (false, _) => format!("DENIED [{}] {}", d.code.as_str(), d.reason()),
        (true, Some(c)) => format!(
            "allowed [{}] unavailableAllowed {} -> {}, recorded in {}",
            d.code.as_str(),
            before.unavailable_allowed,
            c.unavailable_allowed,
            match c.map {
                kruise_core::pub_budget::admit::RecordMap::Disrupted => "disruptedPods",
                kruise_core::pub_budget::admit::RecordMap::Unavailable => "unavailablePods",
            }
        ),
        (true, None) => format!("allowed [{}]", d.code.as_str()),
    }
}

/// `kruise-core explain pub FILE --pods FILE [--now TIME]`: validation, protected operations,
/// the status the controller computes (expected replicas = the number of pods given unless the
/// PUB overrides it) and, per pod, its availability and what an eviction would get.
pub fn explain(args: &ExplainArgs) -> Result<String, CliError> {
    let pods_path = args
        .pods
        .as_ref()
        .ok_or_else(|| CliError::Usage("explain pub needs --pods FILE".into()))?;
    let now_text = input::parse_now(args.now.as_deref())?;
    let pb: Pub = decode(&input::read_kind(args.manifest(), "PodUnavailableBudget")?)?;
    pb.check_api("pub")?;
    let pods: Vec<Pod> = input::read_items_of(pods_path, "Pod")?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            decode::<Pod>(v)
                .map_err(|e| kruise_core::pub_budget::review::reroot(e, &format!("items[{i}]")))
        })
        .collect::<Result<_, _>>()?;
    let now = RecordTime::parse(&now_text, "--now")?;
    let gates = FeatureGates::default();
    let mut o = String::new();
    let _ = writeln!(o, "PodUnavailableBudget {} at {now_text}", pb.metadata.name);
    let errs = validate(&pb, None, gates);
    let _ = writeln!(
        o,
        "  validation (v1.9 webhook): {}",
        if errs.is_empty() {
            "valid".into()
        } else {
            errs.join(", ")
        }
    );
    let _ = writeln!(
        o,
        "  protects (runtime, InPlacePodVerticalScaling off): {}",
        ops_line(&pb, gates)
    );
    let replicas = i32::try_from(pods.len()).unwrap_or(i32::MAX);
    let out = compute_status(&pb, &pods, Some(replicas), now.at)?;
    let s = &out.status;
    report::result("name", json!(pb.metadata.name));
    report::result("now", json!(now_text));
    report::result("validation", json!(errs));
    report::result(
        "protects",
        json!(
            pb.protected_operations(gates.in_place_pod_vertical_scaling)
                .iter()
                .map(|o| o.as_str())
                .collect::<Vec<_>>()
        ),
    );
    report::result("status", serde_json::to_value(s).unwrap_or(Value::Null));
    report::result("statusChanged", json!(out.changed));
    report::result(
        "recheckTime",
        json!(out.recheck_time.map(|t| t.to_string())),
    );
    let _ = writeln!(
        o,
        "  status: totalReplicas {} desiredAvailable {} currentAvailable {} unavailableAllowed {} (workload replicas taken as the {} pods given{})",
        s.total_replicas,
        s.desired_available,
        s.current_available,
        s.unavailable_allowed,
        pods.len(),
        if pb.protect_total_replicas().is_some() {
            "; protect-total-replicas overrides"
        } else {
            ""
        }
    );
    let _ = writeln!(
        o,
        "  records kept: disruptedPods {} unavailablePods {}; recheck {}; status write needed: {}",
        s.disrupted_pods.len(),
        s.unavailable_pods.len(),
        out.recheck_time
            .map_or("none".to_string(), |t| t.to_string()),
        out.changed
    );
    let mut current = pb.clone();
    current.status = out.status.clone();
    for p in &pods {
        let st = p.state();
        let req = AdmissionRequest {
            operation: RequestOperation::Create,
            sub_resource: "eviction",
            dry_run: true,
            old_pod: None,
            new_pod: None,
            pod: Some(p),
        };
        let d = admit(&req, Some(&current), gates)?;
        report::push(
            "pods",
            json!({"name": p.metadata.name, "active": st.active, "ready": st.ready, "consistent": st.consistent,
                   "eviction": {"allowed": d.allowed(), "code": d.code.as_str(), "reason": if d.allowed() { String::new() } else { d.reason() }}}),
        );
        let _ = writeln!(
            o,
            "  pod {:<30} active {:<5} ready {:<5} consistent {:<5} eviction now: {}",
            p.metadata.name,
            st.active,
            st.ready,
            st.consistent,
            if d.allowed() {
                format!("allowed [{}]", d.code.as_str())
            } else {
                format!("denied: {}", d.reason())
            }
        );
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_runs_the_seed_scenario() {
        let text = demo(&DemoArgs {
            sidecarset: None,
            pod: None,
        })
        .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let line = |prefix: &str| {
            lines
                .iter()
                .find(|l| l.starts_with(prefix))
                .copied()
                .unwrap_or("")
        };
        assert!(line("  v1.9 validating webhook").contains("REJECTED"));
        assert!(line("  v1.9 runtime reading").ends_with("protects DELETE"));
        assert!(
            line("controller at").contains("desiredAvailable 8")
                && line("controller at").contains("unavailableAllowed 2")
        );
        assert!(line("evict web-server-0").contains("2 -> 1"));
        assert!(line("evict web-server-1").contains("1 -> 0"));
        assert!(line("evict web-server-2").contains(
            "DENIED [denied_no_budget] podunavailablebudget.policy.kruise.io \"web-server-pub\" is forbidden: pub unavailable allowed is negative"
        ));
        assert!(line("resize web-server-3").contains("judged RESIZE"));
        assert!(line("same third eviction").contains("operation_not_protected"));
    }
}
