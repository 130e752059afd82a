//! The elastic (`minMax`) and adaptive allocators: OpenKruise v1.9 `minMaxAllocator`,
//! `adaptiveAllocator` and `allocateByMinMaxMap` in `pkg/controller/uniteddeployment/allocator.go`.
//! Adaptive moves the bounds to the existing workloads' ready pods and unschedulable flags.

use super::allocator::{SubsetView, raw_min_max};
use super::types::UdSpec;
use crate::error::Result;

/// Replicas per subset (subset order). With `adaptive = Some(lookup)` the bounds are first adjusted
/// to each existing workload's ready pods and unschedulable flag (`adaptiveAllocator`).
///
/// Errors: `min_greater_than_max` (raw bounds).
pub fn allocate<F: Fn(&str) -> Option<SubsetView>>(
    spec: &UdSpec,
    adaptive: Option<&F>,
) -> Result<Vec<(String, i64)>> {
    let t = spec.replicas.map_or(0, i64::from);
    let mut bounds = raw_min_max(spec, t)?;
    if let Some(lookup) = adaptive {
        for (s, b) in spec.topology.subsets.iter().zip(bounds.iter_mut()) {
            let view = lookup(&s.name);
            let unschedulable = view.is_some_and(|v| v.status.unschedulable);
            let ready = view.map_or(0, |v| v.ready_replicas);
            let (mut min, mut max) = *b;
            if unschedulable {
                min = min.max(ready);
                max = max.min(ready);
            }
            if !unschedulable && ready > min {
                min = ready.min(max);
            }
            *b = (min, max);
        }
    }
    Ok(fill(spec, t, &bounds))
}

/// `allocateByMinMaxMap`: minimums first in subset order, then up to each maximum in order.
pub fn fill(spec: &UdSpec, t: i64, bounds: &[(i64, i64)]) -> Vec<(String, i64)> {
    let mut allocated = 0i64;
    let mut out: Vec<(String, i64)> = Vec::with_capacity(bounds.len());
    for (s, &(min, _)) in spec.topology.subsets.iter().zip(bounds) {
        let add = min.min(t - allocated).max(0);
        out.push((s.name.clone(), add));
        allocated += add;
    }
    if allocated >= t {
        return out;
    }
    for (slot, &(min, max)) in out.iter_mut().zip(bounds) {
        let add = (max - min).min(t - allocated).max(0);
        slot.1 += add;
        allocated += add;
    }
    out
}
