//! OpenKruise's update sorters (v1.9.0 `pkg/util/updatesort`: `priority_sort.go`,
//! `scatter_sort.go`) and the `apps.kruise.io` `UpdatePriorityStrategy` /
//! `UpdateScatterStrategy` shapes they read, shared by the CloneSet update order
//! (`rollout.cloneset_pods_to_update`) and the SidecarSet upgrade order
//! (`sidecarset.next_upgrade`).
//!
//! - [`priority_sort`] (a stable sort): with `weightPriority`, the larger sum of the weights whose
//!   `matchSelector` selects the pod first (a selector with an unknown operator adds nothing);
//!   otherwise with `orderPriority`, the pod's first listed `orderedKey` label it has decides: a
//!   pod with none of the keys first, then the earlier key, then the larger integer suffix of the
//!   label value (the trailing decimal digits; none or out of int64 range: 0).
//! - [`scatter_sort`]: the terms ordered by how many candidates carry them (more first; with one
//!   term, that term; two terms whose `key:value` text is the same share one counter, as the
//!   reference counts by that text), each spreading its matching candidates evenly among the
//!   others (`scatterPodsByRule`, `calculateGroupByDensity`).

use crate::k8s::meta::null_items;
use crate::k8s::null_as_default;
use crate::k8s::selector::LabelSelector;
use crate::k8s::selector_match::Selector;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// `priorityStrategy` (`apps.kruise.io` `UpdatePriorityStrategy`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePriorityStrategy {
    /// `orderPriority`: read only when `weightPriority` is empty; null entries read as empty
    /// terms.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<OrderPriorityTerm>>>")]
    pub order_priority: Vec<OrderPriorityTerm>,
    /// `weightPriority`: used when non-empty; null entries read as empty terms.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<WeightPriorityTerm>>>")]
    pub weight_priority: Vec<WeightPriorityTerm>,
}

/// One `orderPriority[]` term.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderPriorityTerm {
    /// `orderedKey`: the label whose value's integer suffix orders the pods (larger first).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub ordered_key: String,
}

/// One `weightPriority[]` term.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WeightPriorityTerm {
    /// `weight` (int32) added for every pod `matchSelector` selects.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i32>")]
    pub weight: i32,
    /// `matchSelector`: an empty selector selects every pod; one with an unknown operator none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<LabelSelector>")]
    pub match_selector: LabelSelector,
}

/// One `scatterStrategy[]` term (`UpdateScatterTerm`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScatterTerm {
    /// `key`: a label key.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub key: String,
    /// `value`: a label value (the SidecarSet also takes `*`: every value its matched pods carry).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub value: String,
}

/// What the sorters read of a pod: its `metadata.labels`.
pub trait Labeled {
    /// `metadata.labels`.
    fn labels(&self) -> &BTreeMap<String, String>;
}

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

fn label<'a, P: Labeled>(p: &'a P, key: &str) -> Option<&'a str> {
    p.labels().get(key).map(String::as_str)
}

/// `NewPrioritySorter(...).Sort`: `indexes` (into `pods`) reordered by the strategy, stably.
pub fn priority_sort<P: Labeled>(p: &UpdatePriorityStrategy, pods: &[P], indexes: &mut [usize]) {
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
                .filter(|(_, s)| s.is_some_and(|s| s.matches(pods[i].labels())))
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

/// `NewScatterSorter(...).Sort`: `indexes` (into `pods`) spread by the terms.
pub fn scatter_sort<P: Labeled>(
    terms: &[ScatterTerm],
    pods: &[P],
    mut indexes: Vec<usize>,
) -> Vec<usize> {
    if terms.is_empty() || indexes.len() <= 1 {
        return indexes;
    }
    let ordered: Vec<ScatterTerm> = if terms.len() == 1 {
        terms.to_vec()
    } else {
        // counted by "key:value" (two terms writing the same id share one counter, as there)
        let mut count: HashMap<String, usize> = HashMap::new();
        let mut slice: Vec<ScatterTerm> = Vec::new();
        for t in terms {
            for &i in &indexes {
                if label(&pods[i], &t.key) == Some(t.value.as_str()) {
                    let id = format!("{}:{}", t.key, t.value);
                    match count.get_mut(&id) {
                        Some(c) => *c += 1,
                        None => {
                            count.insert(id, 1);
                            slice.push(t.clone());
                        }
                    }
                }
            }
        }
        slice.sort_by_cached_key(|t| std::cmp::Reverse(count[&format!("{}:{}", t.key, t.value)]));
        slice
    };
    for t in &ordered {
        indexes = scatter_by_rule(&t.key, &t.value, pods, indexes);
    }
    indexes
}

/// A missing label reads as `""` here (`pods[i].Labels[key] == value`).
fn carries<P: Labeled>(p: &P, key: &str, value: &str) -> bool {
    label(p, key).unwrap_or("") == value
}

fn scatter_by_rule<P: Labeled>(
    key: &str,
    value: &str,
    pods: &[P],
    indexes: Vec<usize>,
) -> Vec<usize> {
    let (mut matched, unmatched): (Vec<usize>, Vec<usize>) = indexes
        .iter()
        .partition(|&&i| carries(&pods[i], key, value));
    if matched.len() <= 1 || unmatched.len() <= 1 {
        return indexes;
    }
    let mut total_matched = pods.iter().filter(|&p| carries(p, key, value)).count();
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
