//! How many pods the CloneSet update path updates in this reconcile: the candidate filter of `Update` and the limit of `limitUpdateIndexes` in OpenKruise
//! `pkg/controller/cloneset/sync/cloneset_update.go`.

use super::cloneset_budget::Diffs;
use super::pods::{LifecycleState, PodView};

/// Pods updated now, given the update-path `diffs` (plain revision-hash view) and `pods` in
/// candidate order (the caller has sorted them). 0 when `update_num == 0`. Allocation-free.
///
/// Candidates are the pods on the wrong side of the update (not updated when `update_num > 0`,
/// updated when `< 0`) that are not `PreparingDelete`, cut to `|update_num|`. Walking them, a pod
/// is taken while `target_unavailable + taken < update_max_unavailable`; an available candidate
/// additionally needs `unavailable < update_max_unavailable` and then counts as unavailable.
pub fn update_now(diffs: &Diffs, pods: &[PodView]) -> i64 {
    let n = diffs.update_num;
    if n == 0 {
        return 0;
    }
    let to_new = n > 0;
    let limit = usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX);
    let mut unavailable: i64 = 0;
    let mut on_target: i64 = 0;
    for p in pods {
        if !p.is_available() {
            unavailable += 1;
            if p.updated == to_new {
                on_target += 1;
            }
        }
    }
    let max = diffs.update_max_unavailable;
    let mut taken: i64 = 0;
    let candidates = pods
        .iter()
        .filter(|p| p.updated != to_new && p.lifecycle_state != LifecycleState::PreparingDelete)
        .take(limit);
    for p in candidates {
        if on_target + taken >= max {
            break;
        }
        if p.is_available() {
            if unavailable >= max {
                break;
            }
            unavailable += 1;
        }
        taken += 1;
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(updated: bool, available: bool) -> PodView {
        PodView {
            updated,
            lifecycle_state: LifecycleState::None,
            available,
            specified_delete: false,
        }
    }

    #[test]
    fn unavailable_candidates_do_not_spend_the_all_revision_budget() {
        let d = Diffs {
            update_num: 3,
            update_max_unavailable: 2,
            ..Default::default()
        };
        // one unavailable old pod first, then available ones: 1 (unavailable) + 1 (available) = 2
        let pods = [pod(false, false), pod(false, true), pod(false, true)];
        assert_eq!(update_now(&d, &pods), 2);
        // available first: the first takes unav to 2 (1 already unavailable), the second stops
        let pods = [pod(false, true), pod(false, true), pod(false, false)];
        assert_eq!(update_now(&d, &pods), 1);
    }

    #[test]
    fn rollback_takes_updated_pods() {
        let d = Diffs {
            update_num: -1,
            update_max_unavailable: 5,
            ..Default::default()
        };
        assert_eq!(update_now(&d, &[pod(false, true), pod(true, true)]), 1);
        assert_eq!(
            update_now(&Diffs { update_num: 0, ..d }, &[pod(true, true)]),
            0
        );
    }
}
