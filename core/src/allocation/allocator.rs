//! Which allocator runs and what it returns (`NewReplicaAllocator`, OpenKruise v1.9
//! `pkg/controller/uniteddeployment/allocator.go`).

use super::replicas::parse_subset_replicas;
use super::types::{UdSpec, UnschedulableStatus};
use super::{elastic, reservation, specific};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Error kind: two subsets share a name (the reference keys everything by name).
pub const DUPLICATE_SUBSET_NAME: &str = "duplicate_subset_name";
/// Error kind: a subset's minReplicas exceeds its maxReplicas.
pub const MIN_GREATER_THAN_MAX: &str = "min_greater_than_max";

/// The four allocators (first match wins, as in `NewReplicaAllocator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum AllocatorKind {
    /// Fixed counts / percentages, leftovers spread evenly.
    #[serde(rename = "specific")]
    Specific,
    /// Elastic min/max fill.
    #[serde(rename = "minMax")]
    MinMax,
    /// Adaptive (unschedulable subsets pinned to their ready pods).
    #[serde(rename = "adaptive")]
    Adaptive,
    /// Adaptive with `reserveUnschedulablePods` (temporary stand-in replicas).
    #[serde(rename = "reservation")]
    Reservation,
}

impl AllocatorKind {
    /// The allocator `spec` selects.
    pub fn for_spec(spec: &UdSpec) -> AllocatorKind {
        let s = &spec.topology.schedule_strategy;
        if s.reserves() {
            AllocatorKind::Reservation
        } else if s.is_adaptive() {
            AllocatorKind::Adaptive
        } else if spec
            .topology
            .subsets
            .iter()
            .any(|s| s.min_replicas.is_some() || s.max_replicas.is_some())
        {
            AllocatorKind::MinMax
        } else {
            AllocatorKind::Specific
        }
    }
}

/// What an allocator knows about one existing subset workload.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SubsetView {
    /// Workload `spec.replicas`.
    pub spec_replicas: i64,
    /// Workload `status.readyReplicas`.
    pub ready_replicas: i64,
    /// The adaptive status computed for this reconcile.
    pub status: UnschedulableStatus,
}

/// An allocation: replicas per subset in `spec.topology.subsets` order. It is also the
/// `allocation.next_replicas` answer: `{"allocator", "replicas": {subset name: replicas},
/// "temporaryReplicas"}` (the last only for the reservation allocator).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Allocation {
    /// The allocator that ran.
    pub allocator: AllocatorKind,
    /// `(subset name, replicas)` in subset order; one entry per subset (names are unique). In
    /// JSON an object from subset name to its replicas.
    #[serde(serialize_with = "pairs_as_map")]
    #[schemars(with = "BTreeMap<String, i64>")]
    pub replicas: Vec<(String, i64)>,
    /// Reservation only: allocated replicas standing in for pods expected to stay unavailable
    /// (absent for the other allocators).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "i64")]
    pub temporary_replicas: Option<i64>,
}

fn pairs_as_map<S: serde::Serializer>(
    pairs: &[(String, i64)],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

impl Allocation {
    /// Replicas of subset `name` (0 when absent).
    pub fn get(&self, name: &str) -> i64 {
        self.replicas
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, r)| *r)
    }
    /// Sum of all subsets' replicas.
    pub fn total(&self) -> i64 {
        self.replicas.iter().map(|(_, r)| r).sum()
    }
}

/// Runs the allocator `spec` selects. `lookup(name)` gives the existing workload of a subset
/// (`None` = not created yet). Subset order is `spec.topology.subsets`.
///
/// Errors: `duplicate_subset_name`, `specified_exceeds_total`, `specified_less_than_total`,
/// `unspecified_total_requires_all`, `min_greater_than_max` (each naming the field).
pub fn next_replicas_with<F>(spec: &UdSpec, lookup: F) -> Result<Allocation>
where
    F: Fn(&str) -> Option<SubsetView>,
{
    check_unique_names(spec)?;
    let kind = AllocatorKind::for_spec(spec);
    let (replicas, temporary_replicas) = match kind {
        AllocatorKind::Specific => (specific::allocate(spec, &lookup)?, None),
        AllocatorKind::MinMax => (
            elastic::allocate(spec, None::<&fn(&str) -> Option<SubsetView>>)?,
            None,
        ),
        AllocatorKind::Adaptive => (elastic::allocate(spec, Some(&lookup))?, None),
        AllocatorKind::Reservation => {
            let (r, t) = reservation::allocate(spec, &lookup)?;
            (r, Some(t))
        }
    };
    Ok(Allocation {
        allocator: kind,
        replicas,
        temporary_replicas,
    })
}

/// Rejects two subsets with the same name (`duplicate_subset_name`, naming the second one).
pub fn check_unique_names(spec: &UdSpec) -> Result<()> {
    let subsets = &spec.topology.subsets;
    if subsets.len() > 32 {
        let mut names: Vec<(&str, usize)> = subsets
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.as_str(), i))
            .collect();
        names.sort_unstable();
        for w in names.windows(2) {
            if let [a, b] = w
                && a.0 == b.0
            {
                return Err(dup(a.1.max(b.1), a.0));
            }
        }
        return Ok(());
    }
    for (i, s) in subsets.iter().enumerate() {
        if subsets.iter().take(i).any(|p| p.name == s.name) {
            return Err(dup(i, &s.name));
        }
    }
    Ok(())
}

fn dup(i: usize, name: &str) -> Error {
    Error::at(
        DUPLICATE_SUBSET_NAME,
        format!("spec.topology.subsets[{i}].name"),
        format_args!("subset name {name:?} is used twice"),
    )
}

/// Raw min/max of every subset against total `t` (unset/invalid min -> 0, unset max -> int32 max,
/// invalid max -> 0). Error `min_greater_than_max` for the first subset with min > max.
pub fn raw_min_max(spec: &UdSpec, t: i64) -> Result<Vec<(i64, i64)>> {
    let mut out = Vec::with_capacity(spec.topology.subsets.len());
    for (i, s) in spec.topology.subsets.iter().enumerate() {
        let min = s
            .min_replicas
            .as_ref()
            .map_or(0, |v| parse_subset_replicas(t, v, "").unwrap_or(0));
        let max = s.max_replicas.as_ref().map_or(i64::from(i32::MAX), |v| {
            parse_subset_replicas(t, v, "").unwrap_or(0)
        });
        if min > max {
            return Err(Error::at(
                MIN_GREATER_THAN_MAX,
                format!("spec.topology.subsets[{i}].minReplicas"),
                format_args!(
                    "minReplicas ({min}) is greater than maxReplicas ({max}) of subset {:?}",
                    s.name
                ),
            ));
        }
        out.push((min, max));
    }
    Ok(out)
}
