//! The specific allocator (fixed counts and percentages, the rest spread evenly): OpenKruise v1.9
//! `specificAllocator` in `pkg/controller/uniteddeployment/allocator.go`.

use super::allocator::SubsetView;
use super::replicas::parse_subset_replicas;
use super::types::UdSpec;
use crate::error::{Error, Result};

/// Error kind: resolved subset replicas add up to more than spec.replicas.
pub const SPECIFIED_EXCEEDS_TOTAL: &str = "specified_exceeds_total";
/// Error kind: every subset is resolved and they add up to less than spec.replicas.
pub const SPECIFIED_LESS_THAN_TOTAL: &str = "specified_less_than_total";
/// Error kind: spec.replicas is unset and some subset has no (valid) replicas.
pub const UNSPECIFIED_TOTAL_REQUIRES_ALL: &str = "unspecified_total_requires_all";

/// Replicas per subset (subset order). Leftovers go to the subsets with the most current
/// replicas (ties: larger name). Unparseable subset values count as unspecified.
pub fn allocate<F: Fn(&str) -> Option<SubsetView>>(
    spec: &UdSpec,
    lookup: &F,
) -> Result<Vec<(String, i64)>> {
    let subsets = &spec.topology.subsets;
    let t: i64 = spec.replicas.map_or(-1, i64::from);
    // resolved value per subset (None = unspecified)
    let resolved: Vec<Option<i64>> = subsets
        .iter()
        .map(|s| {
            s.replicas
                .as_ref()
                .and_then(|v| parse_subset_replicas(t, v, "").ok())
        })
        .collect();
    let sum: i64 = resolved.iter().flatten().sum();
    let k = resolved.iter().filter(|r| r.is_some()).count();
    let n = subsets.len();
    if t != -1 {
        if sum > t {
            return Err(Error::at(
                SPECIFIED_EXCEEDS_TOTAL,
                "spec.topology.subsets",
                format_args!("specified subset replicas ({sum}) exceed spec.replicas ({t})"),
            ));
        }
        if sum < t && k == n {
            return Err(Error::at(
                SPECIFIED_LESS_THAN_TOTAL,
                "spec.topology.subsets",
                format_args!("specified subset replicas ({sum}) are less than spec.replicas ({t})"),
            ));
        }
    } else if k != n {
        return Err(Error::at(
            UNSPECIFIED_TOTAL_REQUIRES_ALL,
            "spec.replicas",
            "spec.replicas is unset, so every subset must specify replicas",
        ));
    }
    let mut out: Vec<(String, i64)> = subsets
        .iter()
        .zip(&resolved)
        .map(|(s, r)| (s.name.clone(), r.unwrap_or(0)))
        .collect();
    let m = n - k;
    if m > 0 {
        let rest = t - sum;
        let m = m as i64;
        let (avg, mut rem) = (rest / m, rest % m);
        // unresolved subsets ordered by (current replicas, name), walked from the end
        let mut order: Vec<(i64, &str, usize)> = subsets
            .iter()
            .enumerate()
            .filter(|(i, _)| resolved.get(*i).is_some_and(Option::is_none))
            .map(|(i, s)| {
                (
                    lookup(&s.name).map_or(0, |w| w.spec_replicas),
                    s.name.as_str(),
                    i,
                )
            })
            .collect();
        order.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
        });
        for &(_, _, i) in order.iter().rev() {
            let v = if rem > 0 {
                rem -= 1;
                avg + 1
            } else {
                avg
            };
            if let Some(slot) = out.get_mut(i) {
                slot.1 = v;
            }
        }
    }
    Ok(out)
}
