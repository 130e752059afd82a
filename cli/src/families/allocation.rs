//! `allocation` in the demo and in `explain`: UnitedDeployment subset allocation.
//!
//! The demo runs the v1.9 release notes' `sample-ud` (subsets `ecs` and `vk`, Adaptive,
//! `reserveUnschedulablePods: true`, `rescheduleCriticalSeconds: 30`) through a scripted scenario:
//! a tiny simulator plays the cluster (pods start when their subset has room, else pend as
//! Unschedulable) and calls `kruise_core::allocation::allocate` at fixed times, applying its
//! replicas and reserved-label patches between reconciles.

use super::{DemoArgs, ExplainArgs};
use crate::CliError;
use crate::input;
use jiff::Timestamp;
use kruise_core::allocation::{
    AllocateOutcome, Condition, Pod, PodMeta, PodStatus, RESERVED_POD_LABEL, REVISION_LABEL,
    UdSpec, UdStatus, UnitedDeployment, Workload, allocate, format_time, validate,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

const SAMPLE_UD: &str = include_str!("../../examples/allocation/sample-ud.yaml");
/// Label carrying a pod's subset name (OpenKruise `apps.kruise.io/subset-name`).
const SUBSET_LABEL: &str = "apps.kruise.io/subset-name";
const REVISION: &str = "rev-1";

/// Demo section: the sample-ud scenario, one block per reconcile.
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let doc = input::parse_one(SAMPLE_UD, "sample-ud.yaml")?;
    let ud = UnitedDeployment::from_manifest(&doc)?;
    let mut sim = Sim::new(ud.spec, "sample-ud");
    let mut out = String::from(
        "sample-ud: subsets ecs (preferred) and vk (virtual-kubelet fallback), Adaptive, reserveUnschedulablePods,\n\
         rescheduleCriticalSeconds 30 (unschedulableDuration defaults to 300 s). The manifest leaves spec.replicas\n\
         unset; the scenario sets it like an HPA would. ECS nodes hold 4 pods until 10:03:00.\n",
    );
    // (time, what happens, spec.replicas, ecs capacity)
    let script: [(&str, &str, i32, usize); 8] = [
        (
            "2026-06-21T10:00:00Z",
            "1. ecs has room: sample-ud created with 4 replicas",
            4,
            4,
        ),
        ("2026-06-21T10:00:30Z", "   ecs runs all 4 pods", 4, 4),
        (
            "2026-06-21T10:01:00Z",
            "2. ecs runs out: scaled to 6, ecs is full, 2 new pods pend",
            6,
            4,
        ),
        (
            "2026-06-21T10:01:20Z",
            "   pods pending 20 s (< rescheduleCriticalSeconds 30)",
            6,
            4,
        ),
        (
            "2026-06-21T10:01:31Z",
            "3. pods pending past 30 s: reserved, temporary replicas appear in vk",
            6,
            4,
        ),
        (
            "2026-06-21T10:03:00Z",
            "4. ecs recovers (nodes added): reserved pods start, must stay Ready 300 s",
            6,
            10,
        ),
        (
            "2026-06-21T10:08:01Z",
            "   reserved pods proven healthy: temporaries go",
            6,
            10,
        ),
        ("2026-06-21T10:08:30Z", "   steady state", 6, 10),
    ];
    for (t, what, replicas, ecs_cap) in script {
        let now: Timestamp = t
            .parse()
            .map_err(|e| CliError::Usage(format!("bad demo time {t}: {e}")))?;
        sim.spec.replicas = Some(replicas);
        sim.capacity.insert("ecs".into(), ecs_cap);
        let o = sim.step(now)?;
        let _ = writeln!(out, "[{}] {what}", &t[11..19]);
        out.push_str(&render(&o, &sim.spec, now));
    }
    Ok(out)
}

/// `kruise-core explain uniteddeployment FILE [--pods FILE] [--now TIME]`: the webhook's
/// allocation rules and one reconcile's allocation for the user's manifest. Pods are grouped into
/// subsets by their `apps.kruise.io/subset-name` label; each subset workload's replicas are its
/// non-terminating pods and its ready replicas the pods whose Ready condition is True.
pub fn explain(args: &ExplainArgs) -> Result<String, CliError> {
    let now_s = input::parse_now(args.now.as_deref())?;
    let now: Timestamp = now_s
        .parse()
        .map_err(|e| CliError::Usage(format!("--now: {e}")))?;
    let doc = input::read_kind(args.manifest(), "UnitedDeployment")?;
    let ud = UnitedDeployment::from_manifest(&doc)?;
    let pods: Vec<Value> = match &args.pods {
        Some(p) => input::read_items_of(p, "Pod")?,
        None => Vec::new(),
    };
    let mut workloads: BTreeMap<String, Workload> = BTreeMap::new();
    let mut unassigned = Vec::new();
    for (i, p) in pods.iter().enumerate() {
        let pod: Pod = kruise_core::registry::decode(p).map_err(|e| {
            let field = e.field.clone().map(|f| format!("items[{i}].{f}"));
            kruise_core::Error { field, ..e }
        })?;
        match pod.metadata.labels.get(SUBSET_LABEL).cloned() {
            Some(s) => workloads.entry(s).or_default().pods.push(pod),
            None => unassigned.push(pod.metadata.name.clone()),
        }
    }
    for w in workloads.values_mut() {
        refresh(w);
        w.spec.replicas = w
            .pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .count() as i32;
    }
    // revisions: from the status; a manifest without status takes the pods' revision when they all
    // agree (otherwise every pod would count as running an old revision)
    let mut pod_revs: Vec<&str> = workloads
        .values()
        .flat_map(|w| w.pods.iter().map(Pod::revision))
        .collect();
    pod_revs.sort_unstable();
    pod_revs.dedup();
    let fallback = if let [only] = pod_revs.as_slice() {
        *only
    } else {
        ""
    };
    let current = doc
        .pointer("/status/currentRevision")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(fallback);
    let updated = doc
        .pointer("/status/updateStatus/updatedRevision")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(current);
    let name = doc
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("(unnamed)");
    let mut out = format!(
        "UnitedDeployment {name} ({}) at {now_s}, current revision {current:?}, updated revision {updated:?}\n",
        ud.api_version
    );
    let violations = validate(&ud.spec);
    if violations.is_empty() {
        out.push_str("webhook allocation rules: ok\n");
    } else {
        out.push_str("webhook allocation rules: rejected\n");
        for v in &violations {
            let _ = writeln!(out, "  {} at {}: {}", v.kind, v.field, v.message);
        }
    }
    if !unassigned.is_empty() {
        let _ = writeln!(
            out,
            "pods without the {SUBSET_LABEL} label (ignored): {}",
            unassigned.join(", ")
        );
    }
    let o = allocate(&ud.spec, &ud.status, current, updated, &workloads, now)?;
    out.push_str(&render(&o, &ud.spec, now));
    crate::report::result("name", Value::from(name));
    crate::report::result("now", Value::from(now_s.as_str()));
    crate::report::result(
        "validation",
        Value::Array(
            violations
                .iter()
                .map(
                    |v| serde_json::json!({"kind": v.kind, "field": v.field, "message": v.message}),
                )
                .collect(),
        ),
    );
    crate::report::result(
        "allocate",
        serde_json::to_value(kruise_core::allocation::fns::AllocateOutput::from(&o))
            .unwrap_or(Value::Null),
    );
    Ok(out)
}

/// Recomputes a workload's status from its pods.
fn refresh(w: &mut Workload) {
    w.status.replicas = w.pods.len() as i32;
    w.status.ready_replicas = w
        .pods
        .iter()
        .filter(|p| p.condition("Ready").is_some_and(|c| c.status == "True"))
        .count() as i32;
}

/// Prints one allocation decision.
fn render(o: &AllocateOutcome, spec: &UdSpec, now: Timestamp) -> String {
    let a = &o.allocation;
    let mut s = String::new();
    let reps: Vec<String> = a.replicas.iter().map(|(n, r)| format!("{n}={r}")).collect();
    let alloc = serde_json::to_value(a.allocator)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let _ = write!(s, "  allocator {alloc}: {}", reps.join(" "));
    match a.temporary_replicas {
        Some(t) => {
            let _ = writeln!(s, " (temporary {t}, total {})", spec.replicas.unwrap_or(0));
        }
        None => s.push('\n'),
    }
    if let Some(rep) = &o.adaptive {
        for st in &o.status.subset_statuses {
            let cond = st
                .schedulable()
                .map_or("no Schedulable condition".to_string(), |c| {
                    cond_text(c, now)
                });
            let u = rep.subsets.get(&st.name);
            let detail = u.map_or(" (no workload yet)".to_string(), |u| {
                format!(
                    "; unschedulable={} reserved={} pending={} updateTimeout={}",
                    u.unschedulable, u.reserved_pods, u.pending_pods, u.update_timeout_pods
                )
            });
            let _ = writeln!(s, "  {}: {cond}{detail}", st.name);
        }
        if let Some(l) = &rep.pod_reserved_labels
            && !l.is_empty()
        {
            let v: Vec<String> = l.iter().map(|(p, r)| format!("{p}={r}")).collect();
            let _ = writeln!(s, "  reserved-label patches: {}", v.join(" "));
        }
        match rep.requeue.nanos() {
            Some(n) => {
                let _ = writeln!(s, "  requeue after {} s", n as f64 / 1e9);
            }
            None => s.push_str("  no requeue\n"),
        }
    }
    s
}

fn cond_text(c: &Condition, now: Timestamp) -> String {
    let since = c.last_transition_time.map_or("-".to_string(), |t| {
        if t == now {
            "now".to_string()
        } else {
            format_time(t)
        }
    });
    let reason = if c.reason.is_empty() { "-" } else { &c.reason };
    format!("Schedulable={} ({reason}, since {since})", c.status)
}

/// A scripted cluster around one UnitedDeployment.
struct Sim {
    spec: UdSpec,
    status: UdStatus,
    name: String,
    workloads: BTreeMap<String, Workload>,
    next_index: BTreeMap<String, usize>,
    /// Pods each subset's nodes can run (absent = unlimited).
    capacity: BTreeMap<String, usize>,
}

impl Sim {
    fn new(spec: UdSpec, name: &str) -> Sim {
        Sim {
            spec,
            status: UdStatus::default(),
            name: name.into(),
            workloads: BTreeMap::new(),
            next_index: BTreeMap::new(),
            capacity: BTreeMap::new(),
        }
    }

    fn room(&self, subset: &str, w: &Workload) -> bool {
        let running = w.pods.iter().filter(|p| p.phase() == "Running").count();
        self.capacity.get(subset).is_none_or(|c| running < *c)
    }

    /// One reconcile at `now`: the scheduler starts pods where there is room, the controller
    /// decides, and its decision (replicas, reserved labels) is applied.
    fn step(&mut self, now: Timestamp) -> Result<AllocateOutcome, CliError> {
        let names: Vec<String> = self.workloads.keys().cloned().collect();
        for n in &names {
            let mut w = self.workloads.remove(n).unwrap_or_default();
            for i in 0..w.pods.len() {
                if w.pods.get(i).is_some_and(|p| p.phase() == "Pending")
                    && self.room(n, &w)
                    && let Some(p) = w.pods.get_mut(i)
                {
                    start(p, now);
                }
            }
            refresh(&mut w);
            self.workloads.insert(n.clone(), w);
        }
        let o = allocate(
            &self.spec,
            &self.status,
            REVISION,
            REVISION,
            &self.workloads,
            now,
        )?;
        self.status = o.status.clone();
        if let Some(labels) = o
            .adaptive
            .as_ref()
            .and_then(|r| r.pod_reserved_labels.as_ref())
        {
            for w in self.workloads.values_mut() {
                for p in &mut w.pods {
                    if let Some(r) = labels.get(&p.metadata.name) {
                        p.metadata
                            .labels
                            .insert(RESERVED_POD_LABEL.into(), r.to_string());
                    }
                }
            }
        }
        for (subset, want) in &o.allocation.replicas {
            let mut w = self.workloads.remove(subset).unwrap_or_default();
            let want = usize::try_from(*want).unwrap_or(0);
            while w.pods.len() > want {
                // scale down removes pending pods first, then the newest
                let idx = w
                    .pods
                    .iter()
                    .rposition(|p| p.phase() == "Pending")
                    .unwrap_or(w.pods.len() - 1);
                w.pods.remove(idx);
            }
            while w.pods.len() < want {
                let i = self.next_index.entry(subset.clone()).or_insert(0);
                let mut pod = new_pod(&format!("{}-{subset}-{i}", self.name), now);
                *i += 1;
                if self.room(subset, &w) {
                    start(&mut pod, now);
                }
                w.pods.push(pod);
            }
            w.spec.replicas = want as i32;
            refresh(&mut w);
            self.workloads.insert(subset.clone(), w);
        }
        Ok(o)
    }
}

fn new_pod(name: &str, now: Timestamp) -> Pod {
    Pod {
        metadata: PodMeta {
            name: name.into(),
            creation_timestamp: Some(now),
            deletion_timestamp: None,
            labels: BTreeMap::from([(REVISION_LABEL.to_string(), REVISION.to_string())]),
        },
        spec: None,
        status: Some(PodStatus {
            phase: Some("Pending".into()),
            conditions: vec![cond("PodScheduled", "False", "Unschedulable", now)],
        }),
    }
}

/// The pod gets a node and becomes Ready at `now`.
fn start(p: &mut Pod, now: Timestamp) {
    p.status = Some(PodStatus {
        phase: Some("Running".into()),
        conditions: vec![
            cond("PodScheduled", "True", "", now),
            cond("Ready", "True", "", now),
        ],
    });
}

fn cond(t: &str, status: &str, reason: &str, now: Timestamp) -> Condition {
    Condition {
        type_: t.into(),
        status: status.into(),
        reason: reason.into(),
        message: String::new(),
        last_transition_time: Some(now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_walks_the_four_phases() {
        let text = demo(&DemoArgs {
            sidecarset: None,
            pod: None,
        })
        .unwrap();
        let blocks: Vec<&str> = text.split("\n[").collect();
        assert_eq!(blocks.len(), 9, "{text}");
        assert!(
            blocks[1].contains("allocator reservation: ecs=4 vk=0 (temporary 0"),
            "{text}"
        );
        assert!(
            blocks[4].contains("ecs=6 vk=0") && blocks[4].contains("requeue after 10 s"),
            "{text}"
        );
        assert!(blocks[5].contains("ecs=6 vk=2 (temporary 2"), "{text}");
        assert!(
            blocks[5].contains("sample-ud-ecs-4=true sample-ud-ecs-5=true"),
            "{text}"
        );
        assert!(
            blocks[6].contains("ecs=6 vk=2 (temporary 2")
                && blocks[6].contains("requeue after 300 s"),
            "{text}"
        );
        assert!(blocks[7].contains("ecs=6 vk=0 (temporary 0"), "{text}");
        assert!(blocks[7].contains("sample-ud-ecs-4=false"), "{text}");
    }
}

#[cfg(test)]
mod explain_tests {
    use super::*;
    use crate::families::ExplainKind;
    use std::path::PathBuf;

    #[test]
    fn explain_reserves_the_pod_pending_past_30s() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/allocation");
        let args = ExplainArgs {
            kind: ExplainKind::Uniteddeployment,
            file: Some(dir.join("explain-ud.yaml")),
            filename: None,
            output: Default::default(),
            pods: Some(dir.join("explain-pods.yaml")),
            jobs: None,
            revisions: None,
            now: Some("2026-06-21T10:00:00Z".into()),
        };
        let text = explain(&args).unwrap();
        assert!(text.contains("webhook allocation rules: ok"), "{text}");
        assert!(
            text.contains("allocator reservation: ecs=2 vk=1 (temporary 1, total 2)"),
            "{text}"
        );
        assert!(text.contains("sample-ud-ecs-1=true"), "{text}");
        // 20 s earlier the pod had not pended long enough
        let args = ExplainArgs {
            now: Some("2026-06-21T09:59:20Z".into()),
            ..args
        };
        let text = explain(&args).unwrap();
        assert!(text.contains("ecs=2 vk=0 (temporary 0"), "{text}");
        assert!(text.contains("requeue after 10 s"), "{text}");
    }
}
