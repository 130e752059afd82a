//! The reservation allocator (`reserveUnschedulablePods`, v1.9): OpenKruise
//! `reservationAllocator` / `allocateByMinMaxMapAndReservation` in
//! `pkg/controller/uniteddeployment/allocator.go`.

use super::allocator::{SubsetView, raw_min_max};
use super::types::UdSpec;
use crate::error::Result;

const UNLIMITED: i64 = i32::MAX as i64;

/// One subset's running record: how many more replicas it can safely run, and what it has.
struct Record {
    cap: i64,
    allocated: i64,
}

impl Record {
    /// Moves the subset towards `to` by at most `rest`; returns how much of that counts towards
    /// the total (replicas beyond the cap are expected to stay reserved and are offered again).
    fn give(&mut self, to: i64, rest: i64) -> i64 {
        let d = (to - self.allocated).min(rest);
        self.allocated += d;
        self.cap -= d;
        if self.cap < 0 {
            (d + self.cap).max(0)
        } else {
            d
        }
    }
}

/// Replicas per subset (subset order) and the number of temporary replicas (sum of the result
/// minus the replicas that counted towards the total).
///
/// Errors: `min_greater_than_max` (raw bounds).
pub fn allocate<F: Fn(&str) -> Option<SubsetView>>(
    spec: &UdSpec,
    lookup: &F,
) -> Result<(Vec<(String, i64)>, i64)> {
    let t = spec.replicas.map_or(0, i64::from);
    let bounds = raw_min_max(spec, t)?;
    let views: Vec<Option<SubsetView>> = spec
        .topology
        .subsets
        .iter()
        .map(|s| lookup(&s.name))
        .collect();
    let mut records: Vec<Record> = views
        .iter()
        .map(|v| match v {
            Some(v) if v.status.unschedulable || v.status.marked_as_unschedulable => Record {
                cap: v.spec_replicas - i64::from(v.status.reserved_pods),
                allocated: 0,
            },
            _ => Record {
                cap: UNLIMITED,
                allocated: 0,
            },
        })
        .collect();
    let mut rest = t;
    'run: {
        for (r, &(min, _)) in records.iter_mut().zip(&bounds) {
            rest -= r.give(min, rest);
            if rest <= 0 {
                break 'run;
            }
        }
        for ((r, &(_, max)), v) in records.iter_mut().zip(&bounds).zip(&views) {
            let to = match v {
                Some(v) if v.status.unschedulable => v.spec_replicas,
                _ => max,
            };
            rest -= r.give(to, rest);
            if rest <= 0 {
                break 'run;
            }
        }
    }
    let out: Vec<(String, i64)> = spec
        .topology
        .subsets
        .iter()
        .zip(&records)
        .map(|(s, r)| (s.name.clone(), r.allocated))
        .collect();
    let sum: i64 = out.iter().map(|(_, r)| r).sum();
    Ok((out, sum - (t - rest)))
}
