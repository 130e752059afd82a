//! One reconcile's allocation decision (statuses, allocator, re-marking), as the UnitedDeployment
//! controller runs it in OpenKruise v1.9 `pkg/controller/uniteddeployment/uniteddeployment_controller.go`
//! (`Reconcile`): subset statuses, the `UnitedDeploymentUpdated` condition, per-subset adaptive
//! status, the allocator, and the post-allocation re-marking.

use super::allocator::{Allocation, AllocatorKind, SubsetView, next_replicas_with};
use super::pending::Requeue;
use super::subset_status::{StatusContext, remark_recovered, subset_status};
use super::types::{
    Condition, UNITED_DEPLOYMENT_UPDATED, UdSpec, UdStatus, UnschedulableStatus, Workload,
};
use crate::error::Result;
use jiff::Timestamp;
use std::collections::{BTreeMap, HashMap};

/// Everything one reconcile decides about allocation.
#[derive(Debug, Clone, PartialEq)]
pub struct AllocateOutcome {
    /// Replicas per subset (+ temporary replicas for reservation).
    pub allocation: Allocation,
    /// Adaptive types only: recomputed per-subset status, requeue, label patches.
    pub adaptive: Option<AdaptiveReport>,
    /// The UnitedDeployment status after the step (subset statuses and conditions updated).
    pub status: UdStatus,
}

/// Adaptive part of an [`AllocateOutcome`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AdaptiveReport {
    /// Existing workload name -> recomputed status.
    pub subsets: BTreeMap<String, UnschedulableStatus>,
    /// Merged requeue delay.
    pub requeue: Requeue,
    /// Reservation only: pod name -> new reserved label (`true` = `"true"`).
    pub pod_reserved_labels: Option<BTreeMap<String, bool>>,
}

/// Runs steps 1–5 of a reconcile for `spec`/`status`, the existing subset workloads (`subsets`,
/// keyed by subset name, with their pods) and `now`. Workloads' `unschedulableStatus` is ignored
/// and recomputed; every workload's updated revision is `updated_revision`.
///
/// Errors: those of the allocators (`duplicate_subset_name`, `specified_exceeds_total`,
/// `specified_less_than_total`, `unspecified_total_requires_all`, `min_greater_than_max`) and
/// `invalid_input` for pods missing a needed `creationTimestamp`.
pub fn allocate(
    spec: &UdSpec,
    status: &UdStatus,
    current_revision: &str,
    updated_revision: &str,
    subsets: &BTreeMap<String, Workload>,
    now: Timestamp,
) -> Result<AllocateOutcome> {
    let strategy = &spec.topology.schedule_strategy;
    let mut status = status.clone();
    // step 1: a status entry for every subset
    let had_any = !status.subset_statuses.is_empty();
    let mut index: HashMap<String, usize> = HashMap::with_capacity(status.subset_statuses.len());
    for (i, s) in status.subset_statuses.iter().enumerate() {
        index.entry(s.name.clone()).or_insert(i);
    }
    for s in &spec.topology.subsets {
        if !index.contains_key(&s.name) {
            let mut st = super::types::SubsetStatus {
                name: s.name.clone(),
                conditions: Vec::new(),
            };
            if strategy.reserves() && had_any {
                st.set_schedulable("False", "created", "new subset created", now);
            }
            index.insert(s.name.clone(), status.subset_statuses.len());
            status.subset_statuses.push(st);
        }
    }
    // step 2: UnitedDeploymentUpdated
    let wanted = if current_revision != updated_revision {
        "False"
    } else {
        "True"
    };
    let updated_since = match status
        .conditions
        .iter_mut()
        .find(|c| c.type_ == UNITED_DEPLOYMENT_UPDATED)
    {
        Some(c) if c.status == wanted => c
            .last_transition_time
            .unwrap_or_else(super::types::go_zero_time),
        other => {
            let (reason, verb) = if wanted == "False" {
                ("UnitedDeploymentRevisionUpdating", "updating")
            } else {
                ("UnitedDeploymentRevisionUpdated", "updated")
            };
            let c = Condition {
                type_: UNITED_DEPLOYMENT_UPDATED.into(),
                status: wanted.into(),
                reason: reason.into(),
                message: format!("{verb} to revision {updated_revision}"),
                last_transition_time: Some(now),
            };
            match other {
                Some(old) => *old = c,
                None => status.conditions.push(c),
            }
            now
        }
    };
    // step 3: adaptive status per existing workload
    let mut report = None;
    let mut computed: HashMap<&str, UnschedulableStatus> = HashMap::new();
    if strategy.is_adaptive() {
        let ctx = StatusContext {
            strategy,
            updated_revision,
            updated_since: Some(updated_since),
            now,
        };
        let mut rep = AdaptiveReport::default();
        let mut labels = BTreeMap::new();
        for (name, w) in subsets {
            let st = index
                .get(name)
                .copied()
                .and_then(|i| status.subset_statuses.get_mut(i));
            let out = subset_status(&ctx, st, w)?;
            rep.requeue.merge(out.requeue);
            for (pod, reserved) in out.pods_to_patch {
                labels.insert(pod, reserved);
            }
            computed.insert(name.as_str(), out.status);
            rep.subsets.insert(name.clone(), out.status);
        }
        if strategy.reserves() {
            rep.pod_reserved_labels = Some(labels);
        }
        report = Some(rep);
    }
    // step 4: allocate
    let allocation = next_replicas_with(spec, |name| {
        subsets.get(name).map(|w| SubsetView {
            spec_replicas: i64::from(w.spec.replicas),
            ready_replicas: i64::from(w.status.ready_replicas),
            status: computed.get(name).copied().unwrap_or_default(),
        })
    })?;
    // step 5: re-mark subsets that recovered but are scaled up
    if allocation.allocator == AllocatorKind::Reservation {
        let next: HashMap<&str, i64> = allocation
            .replicas
            .iter()
            .map(|(n, r)| (n.as_str(), *r))
            .collect();
        for (name, w) in subsets {
            let st = computed.get(name.as_str()).copied().unwrap_or_default();
            let n = next.get(name.as_str()).copied().unwrap_or(0);
            if remark_recovered(&st, i64::from(w.spec.replicas), n)
                && let Some(s) = index
                    .get(name)
                    .copied()
                    .and_then(|i| status.subset_statuses.get_mut(i))
            {
                s.set_schedulable(
                    "False",
                    "reschedule",
                    "subset just recovered scaled up",
                    now,
                );
            }
        }
    }
    Ok(AllocateOutcome {
        allocation,
        adaptive: report,
        status,
    })
}
