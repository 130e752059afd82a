//! The order in which the SidecarSet controller upgrades the pods waiting for an upgrade:
//! OpenKruise v1.9.0 `pkg/controller/sidecarset/sidecarset_strategy.go` `SortUpdateIndexes`
//! (`parseUpdateScatterTerms`), over `pkg/util/updatesort` (`priority_sort.go`,
//! `scatter_sort.go`). Kept inside the SidecarSet family on purpose (the CloneSet ordering has
//! its own copy under `rollout`); a shared extraction can come later.
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

use super::next_upgrade::{ScatterTerm, UpdatePriorityStrategy};
use crate::k8s::selector::LabelSelector;
use crate::k8s::selector_match::Selector;
use crate::rollout::active_pods::{SortKey, compare};
use std::collections::{BTreeMap, HashMap};

/// `util.ValidatedLabelSelectorAsSelector`: no key or value validation, only the operator;
/// `None` when the operator is unknown (the reference's error). A nil selector matches nothing.
pub fn kruise_selector(sel: Option<&LabelSelector>) -> Option<Selector<'_>> {
    let Some(s) = sel else {
        return Some(Selector::Nothing);
    };
    if s.is_empty() {
        return Some(Selector::Everything);
    }
    let ok = s.match_expressions.iter().flatten().all(|r| {
        matches!(
            r.operator.as_str(),
            "In" | "NotIn" | "Exists" | "DoesNotExist"
        )
    });
    ok.then_some(Selector::Requirements(s))
}

/// `getIntFromStringSuffix`: the trailing decimal digits as int64; none or overflow: 0.
pub fn int_suffix(v: &str) -> i64 {
    let digits = v.len() - v.bytes().rev().take_while(u8::is_ascii_digit).count();
    v[digits..].parse().unwrap_or(0)
}

/// The pods' sort inputs.
pub struct SortPod<'a> {
    /// The `ActivePods` key.
    pub key: SortKey,
    /// `metadata.labels`.
    pub labels: &'a BTreeMap<String, String>,
}

fn label<'a>(p: &'a SortPod<'_>, key: &str) -> Option<&'a str> {
    p.labels.get(key).map(String::as_str)
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

fn priority_sort(p: &UpdatePriorityStrategy, pods: &[SortPod<'_>], indexes: &mut [usize]) {
    if !p.weight_priority.is_empty() {
        let sels: Vec<(i64, Option<Selector<'_>>)> = p
            .weight_priority
            .iter()
            .map(|w| {
                (
                    i64::from(w.weight),
                    kruise_selector(Some(&w.match_selector)),
                )
            })
            .collect();
        let weight = |i: usize| -> i64 {
            sels.iter()
                .filter(|(_, s)| s.is_some_and(|s| s.matches(pods[i].labels)))
                .map(|(w, _)| *w)
                .sum()
        };
        indexes.sort_by_cached_key(|&i| std::cmp::Reverse(weight(i)));
    } else if !p.order_priority.is_empty() {
        let level = |i: usize| -> (i64, std::cmp::Reverse<i64>) {
            for (n, o) in p.order_priority.iter().enumerate() {
                if let Some(v) = label(&pods[i], &o.ordered_key) {
                    return (n as i64, std::cmp::Reverse(int_suffix(v)));
                }
            }
            (-1, std::cmp::Reverse(0))
        };
        indexes.sort_by_cached_key(|&i| level(i));
    }
}

/// `parseUpdateScatterTerms`: `*` expanded over the matched pods' label values, duplicates
/// dropped, first occurrence kept.
fn parse_scatter_terms(terms: &[ScatterTerm], pods: &[SortPod<'_>]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut insert = |k: &str, v: &str| {
        if !out.iter().any(|(ok, ov)| ok == k && ov == v) {
            out.push((k.to_string(), v.to_string()));
        }
    };
    for t in terms {
        if t.value != "*" {
            insert(&t.key, &t.value);
            continue;
        }
        for p in pods {
            if let Some(v) = label(p, &t.key) {
                insert(&t.key, v);
            }
        }
    }
    out
}

fn scatter_sort(
    terms: &[(String, String)],
    pods: &[SortPod<'_>],
    mut indexes: Vec<usize>,
) -> Vec<usize> {
    if terms.is_empty() || indexes.len() <= 1 {
        return indexes;
    }
    let ordered: Vec<(String, String)> = if terms.len() == 1 {
        terms.to_vec()
    } else {
        // counted by "key:value" (two terms writing the same id share one counter, as there)
        let mut count: HashMap<String, usize> = HashMap::new();
        let mut slice: Vec<(String, String)> = Vec::new();
        for (k, v) in terms {
            for &i in &indexes {
                if label(&pods[i], k) == Some(v.as_str()) {
                    let id = format!("{k}:{v}");
                    match count.get_mut(&id) {
                        Some(c) => *c += 1,
                        None => {
                            count.insert(id, 1);
                            slice.push((k.clone(), v.clone()));
                        }
                    }
                }
            }
        }
        slice.sort_by_cached_key(|(k, v)| std::cmp::Reverse(count[&format!("{k}:{v}")]));
        slice
    };
    for (k, v) in &ordered {
        indexes = scatter_by_rule(k, v, pods, indexes);
    }
    indexes
}

/// A missing label reads as `""` here (`pods[i].Labels[key] == value`).
fn carries(p: &SortPod<'_>, key: &str, value: &str) -> bool {
    label(p, key).unwrap_or("") == value
}

fn scatter_by_rule(
    key: &str,
    value: &str,
    pods: &[SortPod<'_>],
    indexes: Vec<usize>,
) -> Vec<usize> {
    let (mut matched, unmatched): (Vec<usize>, Vec<usize>) = indexes
        .iter()
        .partition(|&&i| carries(&pods[i], key, value));
    if matched.len() <= 1 || unmatched.len() <= 1 {
        return indexes;
    }
    let mut total_matched = pods.iter().filter(|p| carries(p, key, value)).count();
    let total_unmatched = pods.len() - total_matched;
    let last = matched.pop().unwrap_or_default();
    total_matched -= 1;
    let g = group_by_density(
        total_matched,
        total_unmatched,
        matched.len(),
        unmatched.len(),
    );
    let mut out = Vec::with_capacity(indexes.len());
    let mut matched = &matched[..];
    let mut unmatched_rest = &unmatched[..];
    if g.unmatched_remainder > 0 {
        let r = g.unmatched_remainder.min(unmatched_rest.len());
        out.extend_from_slice(&unmatched_rest[..r]);
        unmatched_rest = &unmatched_rest[r..];
    }
    let migrate = |src: &mut &[usize], out: &mut Vec<usize>, size: usize| {
        let n = size.min(src.len());
        out.extend_from_slice(&src[..n]);
        *src = &src[n..];
    };
    for _ in 0..g.group_num {
        migrate(&mut matched, &mut out, g.matched_size);
        migrate(&mut unmatched_rest, &mut out, g.unmatched_size);
    }
    out.extend_from_slice(matched);
    out.extend_from_slice(unmatched_rest);
    out.push(last);
    out
}

#[derive(Debug, Default, PartialEq, Eq)]
struct Group {
    group_num: usize,
    matched_size: usize,
    unmatched_size: usize,
    unmatched_remainder: usize,
}

fn go_round(x: f64) -> usize {
    x.round() as usize
}

fn new_group(matched: usize, unmatched: usize) -> Group {
    let n = matched.min(unmatched);
    Group {
        group_num: n,
        matched_size: go_round(matched as f64 / n as f64),
        unmatched_size: go_round(unmatched as f64 / n as f64),
        unmatched_remainder: 0,
    }
}

/// `calculateGroupByDensity` (all arguments ≥ 1 here; the ratios compared in float32).
fn group_by_density(tm: usize, tu: usize, um: usize, uu: usize) -> Group {
    let total = new_group(tm, tu);
    let update = new_group(um, uu);
    if tu as f32 / tm as f32 >= uu as f32 / um as f32 {
        return update;
    }
    let (ms, us) = (total.matched_size, total.unmatched_size);
    let group_num = (um / ms).min(uu / us);
    Group {
        group_num,
        matched_size: ms,
        unmatched_size: us,
        unmatched_remainder: uu - group_num * us,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix() {
        assert_eq!(int_suffix("pod-007"), 7);
        assert_eq!(int_suffix("abc"), 0);
        assert_eq!(int_suffix(""), 0);
        assert_eq!(int_suffix("x99999999999999999999"), 0);
        assert_eq!(int_suffix("12"), 12);
    }

    #[test]
    fn density_groups() {
        assert_eq!(
            group_by_density(2, 8, 2, 8),
            Group {
                group_num: 2,
                matched_size: 1,
                unmatched_size: 4,
                unmatched_remainder: 0
            }
        );
        // the candidates denser in unmatched than the totals: the totals' sizes
        assert_eq!(
            group_by_density(4, 4, 1, 3),
            Group {
                group_num: 1,
                matched_size: 1,
                unmatched_size: 1,
                unmatched_remainder: 2
            }
        );
    }
}
