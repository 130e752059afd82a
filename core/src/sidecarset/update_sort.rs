//! The order in which the SidecarSet controller upgrades the pods waiting for an upgrade:
//! OpenKruise v1.9.0 `pkg/controller/sidecarset/sidecarset_strategy.go` `SortUpdateIndexes`
//! (`parseUpdateScatterTerms`), over `pkg/util/updatesort` (`priority_sort.go`,
//! `scatter_sort.go`). The priority and scatter sorters are the shared
//! ones of [`crate::updatesort`] (the CloneSet update order uses them too).
//!
//! Three passes over the candidates (indices into the matched pods):
//!
//! 1. Kubernetes' `ActivePods` order ([`crate::rollout::active_pods::compare`]); candidates equal
//!    under every rule keep their input order. Go's `sort.Slice` does the same for up to 12
//!    candidates (it is an insertion sort there); above that it is not stable, so ties among
//!    more than 12 candidates may come out in another order in the reference.
//! 2. `priorityStrategy` (a stable sort): with `weightPriority`, the larger sum of the weights
//!    whose `matchSelector` selects the pod first (a selector with an unknown operator adds
//!    nothing); otherwise with `orderPriority`, the pod's first listed `orderedKey` label it
//!    has decides: a pod with none of the keys first, then the earlier key, then the larger
//!    integer suffix of the label value (the trailing decimal digits; none or out of int64
//!    range: 0).
//! 3. `scatterStrategy`: the terms (a `*` value stands for every value the matched pods carry
//!    for that key, in pod order, duplicates dropped), ordered by how many candidates carry them
//!    (more first; with one term, that term), each spreading its matching candidates evenly
//!    among the others (`scatterPodsByRule`, `calculateGroupByDensity`).

use crate::rollout::active_pods::{SortKey, compare};
use crate::updatesort::{
    Labeled, ScatterTerm, UpdatePriorityStrategy, priority_sort, scatter_sort,
};
pub use crate::updatesort::{int_suffix, kruise_selector};
use std::collections::BTreeMap;

/// The pods' sort inputs.
pub struct SortPod<'a> {
    /// The `ActivePods` key.
    pub key: SortKey,
    /// `metadata.labels`.
    pub labels: &'a BTreeMap<String, String>,
}

impl Labeled for SortPod<'_> {
    fn labels(&self) -> &BTreeMap<String, String> {
        self.labels
    }
}

/// `SortUpdateIndexes`: `indexes` (into `pods`) in upgrade order.
pub fn sort_update_indexes(
    priority: Option<&UpdatePriorityStrategy>,
    scatter: Option<&[ScatterTerm]>,
    pods: &[SortPod<'_>],
    mut indexes: Vec<usize>,
) -> Vec<usize> {
    indexes.sort_by(|&a, &b| compare(&pods[a].key, &pods[b].key));
    if let Some(p) = priority {
        priority_sort(p, pods, &mut indexes);
    }
    if let Some(terms) = scatter {
        let terms = parse_scatter_terms(terms, pods);
        indexes = scatter_sort(&terms, pods, indexes);
    }
    indexes
}

/// `parseUpdateScatterTerms`: `*` expanded over the matched pods' label values, duplicates
/// dropped, first occurrence kept.
fn parse_scatter_terms(terms: &[ScatterTerm], pods: &[SortPod<'_>]) -> Vec<ScatterTerm> {
    let mut out: Vec<ScatterTerm> = Vec::new();
    let mut insert = |k: &str, v: &str| {
        if !out.iter().any(|t| t.key == k && t.value == v) {
            out.push(ScatterTerm {
                key: k.to_string(),
                value: v.to_string(),
            });
        }
    };
    for t in terms {
        if t.value != "*" {
            insert(&t.key, &t.value);
            continue;
        }
        for p in pods {
            if let Some(v) = p.labels.get(&t.key) {
                insert(&t.key, v);
            }
        }
    }
    out
}
