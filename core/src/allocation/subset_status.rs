//! Per-subset adaptive status before allocation, and the re-marking after it: OpenKruise v1.9
//! `calculateSubsetsStatusForDefaultAdaptiveStrategy`,
//! `calculateSubsetsStatusForReservedAdaptiveStrategy` and
//! `postProcessSubsetStatusForReservedAdaptiveStrategy` in
//! `pkg/controller/uniteddeployment/uniteddeployment_controller.go`.

use super::pending::{NANOS_PER_SEC, Requeue, pending_timeout};
use super::reserved;
use super::types::{ScheduleStrategy, SubsetStatus, UnschedulableStatus, Workload, go_zero_time};
use crate::error::Result;
use jiff::Timestamp;

/// What the status step decided for one subset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubsetOutcome {
    /// The recomputed in-memory status.
    pub status: UnschedulableStatus,
    /// Reserved-label patches `(pod name, reserved)`, in pod order (reservation mode).
    pub pods_to_patch: Vec<(String, bool)>,
    /// Requeue delay this subset asks for.
    pub requeue: Requeue,
}

/// Shared inputs of the status step.
#[derive(Debug, Clone, Copy)]
pub struct StatusContext<'a> {
    /// `spec.topology.scheduleStrategy`.
    pub strategy: &'a ScheduleStrategy,
    /// The UnitedDeployment's target revision.
    pub updated_revision: &'a str,
    /// lastTransitionTime of the `UnitedDeploymentUpdated` condition, when known.
    pub updated_since: Option<Timestamp>,
    /// Reconcile time.
    pub now: Timestamp,
}

/// Computes one existing subset's adaptive status and updates its `Schedulable` condition in
/// `status` (default adaptive mode, or reservation mode). Nothing happens when the type is not
/// Adaptive or the subset has no status entry (`status = None`).
///
/// Errors: `invalid_input` for pods lacking a needed `creationTimestamp`, or an old-revision pod
/// while `updated_since` is `None`.
pub fn subset_status(
    ctx: &StatusContext<'_>,
    status: Option<&mut SubsetStatus>,
    workload: &Workload,
) -> Result<SubsetOutcome> {
    let mut out = SubsetOutcome::default();
    let Some(status) = status else { return Ok(out) };
    if !ctx.strategy.is_adaptive() {
        return Ok(out);
    }
    if ctx.strategy.reserves() {
        reservation_mode(ctx, status, workload, &mut out)?
    } else {
        default_mode(ctx, status, workload, &mut out)?
    }
    Ok(out)
}

fn default_mode(
    ctx: &StatusContext<'_>,
    status: &mut SubsetStatus,
    w: &Workload,
    out: &mut SubsetOutcome,
) -> Result<()> {
    let window = ctx.strategy.unschedulable_duration();
    let now = ctx.now.as_nanosecond();
    if let Some(c) = status.schedulable()
        && c.status == "False"
    {
        let since = c
            .last_transition_time
            .unwrap_or_else(go_zero_time)
            .as_nanosecond();
        let deadline = since + i128::from(window) * NANOS_PER_SEC;
        if now < deadline {
            out.requeue.push(deadline - now);
            out.status.unschedulable = true;
        } else {
            status.set_schedulable("True", "recover", "unschedulable subset recovered", ctx.now);
        }
    }
    if w.status.ready_replicas < w.status.replicas {
        let timeout = ctx.strategy.reschedule_critical_seconds();
        let mut local = Requeue::default();
        for pod in &w.pods {
            let p = pending_timeout(pod, timeout, ctx.now)?;
            if p.timed_out {
                out.status.pending_pods += 1;
            }
            if let Some(n) = p.check_after_nanos {
                local.push(n);
            }
        }
        out.requeue.merge(local);
        if out.status.pending_pods > 0 {
            out.status.unschedulable = true;
            status.set_schedulable("False", "reschedule", "timeout pending pods found", ctx.now);
            out.requeue.push(i128::from(window) * NANOS_PER_SEC);
        }
    }
    Ok(())
}

fn reservation_mode(
    ctx: &StatusContext<'_>,
    status: &mut SubsetStatus,
    w: &Workload,
    out: &mut SubsetOutcome,
) -> Result<()> {
    if let Some(c) = status.schedulable() {
        out.status.marked_as_unschedulable = c.status == "False";
    }
    let window = i128::from(ctx.strategy.unschedulable_duration()) * NANOS_PER_SEC;
    let timeout = ctx.strategy.reschedule_critical_seconds();
    let min_ready = ctx.strategy.unschedulable_duration();
    // per-subset delay, "infinite" until a pod asks for a re-check
    let mut local: Option<i128> = None;
    for pod in &w.pods {
        let (old, has) = pod.reserved_label();
        if out.status.marked_as_unschedulable && !has {
            out.status.reserved_pods += 1;
            out.pods_to_patch.push((pod.metadata.name.clone(), true));
            // reference quirk: only raises a delay an earlier pod already set
            if let Some(l) = local.as_mut()
                && *l < window
            {
                *l = window;
            }
            continue;
        }
        let r = reserved::check(
            pod,
            old,
            ctx.updated_revision,
            ctx.updated_since,
            timeout,
            min_ready,
            ctx.now,
        )?;
        if r.reserved {
            out.status.reserved_pods += 1;
        }
        if r.update_timeout {
            out.status.update_timeout_pods += 1;
        }
        if let Some(n) = r.check_after_nanos
            && n > 0
            && local.is_none_or(|l| n < l)
        {
            local = Some(n);
        }
        if r.reserved != old || !has {
            out.pods_to_patch
                .push((pod.metadata.name.clone(), r.reserved));
        }
    }
    if let Some(l) = local {
        out.requeue.push(l);
    }
    if out.status.reserved_pods > 0 {
        out.status.unschedulable = true;
        status.set_schedulable("False", "reschedule", "reserved pods found", ctx.now);
    } else {
        out.status.unschedulable = false;
        status.set_schedulable("True", "reschedule", "no reserved pods", ctx.now);
    }
    Ok(())
}

/// After a reservation-mode allocation: a subset that recovered (`!unschedulable`) but is still
/// marked, and is being scaled up beyond its current `spec.replicas`, is marked unschedulable again
/// so the new pods start reserved. Returns true when the condition must go back to False.
pub fn remark_recovered(
    status: &UnschedulableStatus,
    current_replicas: i64,
    next_replicas: i64,
) -> bool {
    !status.unschedulable && status.marked_as_unschedulable && next_replicas > current_replicas
}
