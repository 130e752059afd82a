//! CloneSet scale/update budget: `calculateDiffsWithExpectation` in OpenKruise
//! `pkg/controller/cloneset/sync/cloneset_sync_utils.go`.
//!
//! Everything here is allocation-free: pods are a borrowed slice of [`PodView`] and the result is
//! a plain `Copy` struct. Parse failures never error: the controller silently uses 0.

use super::pods::{Counts, PodView};
use crate::intstr::{Flavour, IntOrPercent};
use serde::{Deserialize, Serialize};

/// The default CloneSet `updateStrategy.maxUnavailable` (`"20%"`).
pub const DEFAULT_MAX_UNAVAILABLE: &str = "20%";

/// Writes the budget's CloneSet fields once: the plain [`BudgetSpec`], and the fn input that adds
/// its own members to them (serde's `flatten` cannot be combined with `deny_unknown_fields`), with
/// the input's `spec()` giving the [`BudgetSpec`] part.
macro_rules! budget_structs {
    (
        common { $($(#[$cm:meta])* $c:ident: $ct:ty,)* }
        $(#[$sm:meta])* struct $spec:ident;
        $(#[$im:meta])* struct $input:ident { $($(#[$fm:meta])* $f:ident: $t:ty,)* }
    ) => {
        $(#[$sm])*
        pub struct $spec {
            $($(#[$cm])* pub $c: $ct,)*
        }

        $(#[$im])*
        pub struct $input {
            $($(#[$cm])* pub $c: $ct,)*
            $($(#[$fm])* pub $f: $t,)*
        }

        impl $input {
            /// The [`BudgetSpec`] part of the input.
            pub fn spec(&self) -> $spec {
                $spec {
                    $($c: <$ct as Clone>::clone(&self.$c),)*
                }
            }
        }
    };
}

budget_structs! {
    common {
        /// `spec.replicas`.
        replicas: i32,
        /// `spec.updateStrategy.partition`, int-or-percent (kruise flavour, rounded up); absent, null
        /// or invalid: 0.
        #[serde(default)]
        partition: Option<IntOrPercent>,
        /// `spec.updateStrategy.maxUnavailable`, int-or-percent (legacy flavour); absent or null:
        /// `"20%"`; invalid: 0.
        #[serde(default)]
        max_unavailable: Option<IntOrPercent>,
        /// `spec.updateStrategy.maxSurge`, int-or-percent (legacy flavour, rounded up); absent, null
        /// or invalid: 0.
        #[serde(default)]
        max_surge: Option<IntOrPercent>,
        /// `spec.scaleStrategy.maxUnavailable`, int-or-percent (legacy flavour, rounded up); absent or
        /// null: 2147483647.
        #[serde(default)]
        scale_max_unavailable: Option<IntOrPercent>,
        /// `spec.updateStrategy.paused`; absent: false.
        #[serde(default)]
        paused: bool,
        /// `status.currentRevision == status.updateRevision`; absent: false.
        #[serde(default)]
        revision_consistent: bool,
        /// Feature gate `CloneSetPartitionRollback`; absent: off.
        #[serde(default)]
        partition_rollback: bool,
        /// Feature gate `PreparingUpdateAsUpdate` (the scale-path view); absent: off.
        #[serde(default)]
        preparing_update_as_update: bool,
        /// `--cloneset-scaling-exclude-preparing-delete` or the CloneSet label of that name; absent:
        /// off.
        #[serde(default)]
        scaling_exclude_preparing_delete: bool,
    }
    /// The CloneSet spec fields and controller switches the budget reads.
    #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct BudgetSpec;
    /// Input of `rollout.cloneset_update_budget`: the CloneSet fields and controller switches of
    /// [`BudgetSpec`], `type` (`spec.updateStrategy.type`) and the candidate pods.
    #[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct ClonesetUpdateBudgetInput {
        /// `spec.updateStrategy.type` (`ReCreate`, `InPlaceIfPossible`, `InPlaceOnly`, `OnDelete`);
        /// absent: `""`. Only `OnDelete` changes the answer (no pod updated now).
        #[serde(default, rename = "type")]
        update_type: String,
        /// The pods, in candidate (update) order; absent or null: none.
        #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
        #[schemars(with = "Option<Vec<PodView>>")]
        pods: Vec<PodView>,
    }
}

/// Resolved budget parameters, in pods.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Params {
    /// `spec.replicas`.
    pub replicas: i64,
    /// Partition as [`super::partition::cloneset_partition`] resolves it, 0 when null or invalid.
    pub partition: i64,
    /// Legacy flavour rounded up; 0 when null, invalid or paused.
    pub max_surge: i64,
    /// Legacy flavour, rounded up only when `max_surge == 0`; 0 when invalid.
    pub max_unavailable: i64,
    /// `scaleStrategy.maxUnavailable`, legacy flavour rounded up.
    pub scale_max_unavailable: i64,
}

impl Params {
    /// Resolves the int-or-percent fields of `spec` as the controller does.
    pub fn resolve(spec: &BudgetSpec) -> Params {
        let replicas = i64::from(spec.replicas);
        let partition = match &spec.partition {
            Some(p) => {
                super::partition::cloneset_partition(Some(p), Some(spec.replicas)).unwrap_or(0)
            }
            None => 0,
        };
        let mut max_surge = spec
            .max_surge
            .as_ref()
            .map_or(0, |v| legacy(v, replicas, true));
        if spec.max_surge.is_some() && spec.paused {
            max_surge = 0;
        }
        let max_unavailable = match &spec.max_unavailable {
            Some(v) => legacy(v, replicas, max_surge == 0),
            None => legacy_str(DEFAULT_MAX_UNAVAILABLE, replicas, max_surge == 0),
        };
        let scale_max_unavailable = match &spec.scale_max_unavailable {
            Some(v) => legacy(v, replicas, true),
            None => i64::from(i32::MAX),
        };
        Params {
            replicas,
            partition,
            max_surge,
            max_unavailable,
            scale_max_unavailable,
        }
    }
}

fn legacy(v: &IntOrPercent, total: i64, up: bool) -> i64 {
    v.scale(total, up, Flavour::Legacy).unwrap_or(0)
}

fn legacy_str(v: &str, total: i64, up: bool) -> i64 {
    crate::intstr::scale_str(v, total, up, Flavour::Legacy).unwrap_or(0)
}

/// The ten numbers of `expectationDiffs`. Unset numbers are 0.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub struct Diffs {
    /// Pods to create.
    pub scale_up_num: i64,
    /// Of those, how many should be on the old revision (may exceed `scale_up_num`).
    pub scale_up_num_old_revision: i64,
    /// Pods to delete, excluding those already specified for deletion.
    pub scale_down_num: i64,
    /// Of those, how many old-revision pods.
    pub scale_down_num_old_revision: i64,
    /// Creations allowed now by `scaleStrategy.maxUnavailable`.
    pub scale_up_limit: i64,
    /// Ready pods that may be deleted now.
    pub delete_ready_limit: i64,
    /// Pods temporarily above `replicas`.
    pub use_surge: i64,
    /// Of the surge, old-revision pods.
    pub use_surge_old_revision: i64,
    /// Pods to move to the update revision (> 0) or back to the current one (< 0).
    pub update_num: i64,
    /// All-revision unavailability budget of the update path (may be negative).
    pub update_max_unavailable: i64,
}

/// `calculateDiffsWithExpectation` for resolved `params` over `pods`.
///
/// Sums involving the resolved budgets use Go's wrapping int64 arithmetic (a percentage that
/// overflows scales to `i64::MIN`, see [`crate::intstr::go_float_to_int`]), so no input panics.
/// `preparing_update_as_update` selects the scale-path view (a `PreparingUpdate` pod counts as
/// updated); `rollback_allowed` is `partition_rollback && !revision_consistent`.
pub fn diffs(
    params: &Params,
    pods: &[PodView],
    preparing_update_as_update: bool,
    rollback_allowed: bool,
    exclude_preparing_delete: bool,
) -> Diffs {
    let c = Counts::of(pods, preparing_update_as_update);
    let Params {
        replicas,
        partition,
        max_surge,
        max_unavailable,
        scale_max_unavailable,
    } = *params;
    let len = i64::try_from(pods.len()).unwrap_or(i64::MAX);
    let mut old_diff = c.old.active - partition;
    let mut new_diff = c.new.active - (replicas - partition);
    let total_unavailable =
        c.new.pre_deleting + c.old.pre_deleting + c.new.unavailable + c.old.unavailable;
    if !rollback_allowed {
        old_diff = old_diff.max(0);
        new_diff = new_diff.min(0);
    }
    let mut d = Diffs::default();

    if max_surge > 0 {
        let to_delete = c.new.to_delete + c.old.to_delete;
        let (mut scale_surge, mut scale_old_surge) = (0, 0);
        if to_delete > 0 {
            scale_surge = (total_unavailable + to_delete)
                .wrapping_sub(max_unavailable)
                .max(0)
                .min(to_delete);
            if scale_surge > c.new.to_delete {
                scale_old_surge = scale_surge - c.new.to_delete;
            }
        }
        let (mut update_surge, mut update_old_surge) = (0, 0);
        if (old_diff > 0 && new_diff < 0) || (old_diff < 0 && new_diff > 0) {
            if old_diff.abs() <= new_diff.abs() {
                update_surge = old_diff.abs();
                if old_diff < 0 {
                    update_old_surge = update_surge;
                }
            } else {
                update_surge = new_diff.abs();
                if new_diff > 0 {
                    update_old_surge = update_surge;
                }
            }
        }
        let (surge, old) = if scale_surge >= update_surge {
            (scale_surge, scale_old_surge)
        } else {
            (update_surge, update_old_surge)
        };
        d.use_surge = max_surge.min(surge);
        d.use_surge_old_revision = d.use_surge.min(old);
    }

    let (mut cur_total, mut cur_old) = (len, c.old.count);
    if exclude_preparing_delete {
        cur_total -= c.old.pre_deleting + c.new.pre_deleting;
        cur_old -= c.old.pre_deleting;
    }
    let exp_total = replicas + d.use_surge;
    let exp_old = partition + d.use_surge_old_revision;

    let up = exp_total - cur_total;
    if up > 0 {
        d.scale_up_num = up;
        d.scale_up_num_old_revision = (exp_old - cur_old).max(0);
        d.scale_up_limit = up.min(scale_max_unavailable.wrapping_sub(total_unavailable).max(0));
    }
    let down = cur_total - c.old.to_delete - c.new.to_delete - exp_total;
    if down > 0 {
        d.scale_down_num = down;
        d.scale_down_num_old_revision = (cur_old - c.old.to_delete - exp_old).max(0);
    }
    if c.new.to_delete > 0 || c.old.to_delete > 0 || d.scale_down_num > 0 {
        d.delete_ready_limit = max_unavailable
            .wrapping_add(len - replicas)
            .wrapping_sub(total_unavailable)
            .max(0);
    }

    d.update_num = if old_diff.abs() <= new_diff.abs() {
        old_diff
    } else {
        -new_diff
    };
    if d.update_num != 0 {
        d.update_max_unavailable = max_unavailable.wrapping_add(len - replicas);
    }
    d
}

/// The full answer of `rollout.cloneset_update_budget`, in pods.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ClonesetUpdateBudgetOutput")]
pub struct Budget {
    /// Resolved partition (0 when null or invalid).
    pub partition: i64,
    /// Resolved maxSurge (0 when null, invalid or paused).
    pub max_surge: i64,
    /// Resolved maxUnavailable (null is `"20%"`, invalid is 0).
    pub max_unavailable: i64,
    /// Resolved scaleStrategy.maxUnavailable (null is 2147483647).
    pub scale_max_unavailable: i64,
    /// The diffs, computed with `preparingUpdateAsUpdate` as given.
    #[serde(flatten)]
    pub diffs: Diffs,
    /// Pods the update path updates now, from a diff without `preparingUpdateAsUpdate`.
    pub pods_to_update_now: i64,
}

/// Computes the whole budget for `spec` over `pods` (candidate order).
/// Allocation-free.
///
/// ```
/// use kruise_core::rollout::cloneset_budget::{budget, BudgetSpec};
/// use kruise_core::rollout::pods::PodView;
/// let spec = BudgetSpec { replicas: 10, ..Default::default() };
/// let pods = [PodView::available_old(); 10];
/// let b = budget(&spec, &pods);
/// assert_eq!((b.max_unavailable, b.diffs.update_num, b.pods_to_update_now), (2, 10, 2));
/// ```
pub fn budget(spec: &BudgetSpec, pods: &[PodView]) -> Budget {
    let params = Params::resolve(spec);
    let rollback_allowed = spec.partition_rollback && !spec.revision_consistent;
    let exclude = spec.scaling_exclude_preparing_delete;
    let diffs = diffs(
        &params,
        pods,
        spec.preparing_update_as_update,
        rollback_allowed,
        exclude,
    );
    let plain = if spec.preparing_update_as_update {
        self::diffs(&params, pods, false, rollback_allowed, exclude)
    } else {
        diffs
    };
    let pods_to_update_now = if spec.paused {
        0
    } else {
        super::update_count::update_now(&plain, pods)
    };
    Budget {
        partition: params.partition,
        max_surge: params.max_surge,
        max_unavailable: params.max_unavailable,
        scale_max_unavailable: params.scale_max_unavailable,
        diffs,
        pods_to_update_now,
    }
}

/// `updateStrategy.type` value with which the CloneSet controller updates no pod.
pub const ON_DELETE: &str = "OnDelete";

/// [`budget`] for a CloneSet whose `spec.updateStrategy.type` is `update_type`: with `OnDelete`
/// the controller's update path returns before it updates anything (`Update` in
/// `pkg/controller/cloneset/sync/cloneset_update.go`), so `pods_to_update_now` is 0; the scale
/// path and the diffs are unchanged. Every other type (`ReCreate`, `InPlaceIfPossible`,
/// `InPlaceOnly`, or any other string) is [`budget`].
pub fn budget_for_type(update_type: &str, spec: &BudgetSpec, pods: &[PodView]) -> Budget {
    let mut b = budget(spec, pods);
    if update_type == ON_DELETE {
        b.pods_to_update_now = 0;
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iop(s: &str) -> Option<IntOrPercent> {
        Some(IntOrPercent::String(s.into()))
    }

    #[test]
    fn surge_decides_max_unavailable_rounding() {
        let spec = BudgetSpec {
            replicas: 3,
            max_surge: iop("50%"),
            ..Default::default()
        };
        let p = Params::resolve(&spec);
        assert_eq!((p.max_surge, p.max_unavailable), (2, 0));
        // paused forces maxSurge to 0 before maxUnavailable is rounded: 20% of 3 rounds up to 1
        let p = Params::resolve(&BudgetSpec {
            paused: true,
            ..spec
        });
        assert_eq!((p.max_surge, p.max_unavailable), (0, 1));
    }

    #[test]
    fn invalid_values_become_zero() {
        let spec = BudgetSpec {
            replicas: 10,
            partition: iop("abc"),
            max_unavailable: iop("50.5%"),
            max_surge: iop("x"),
            scale_max_unavailable: iop("1e2%"),
            ..Default::default()
        };
        assert_eq!(
            Params::resolve(&spec),
            Params {
                replicas: 10,
                partition: 0,
                max_surge: 0,
                max_unavailable: 0,
                scale_max_unavailable: 0
            }
        );
        // the legacy parser deletes every '%': "5%0" is 50 %
        let p = Params::resolve(&BudgetSpec {
            replicas: 10,
            max_unavailable: iop("5%0"),
            ..Default::default()
        });
        assert_eq!(p.max_unavailable, 5);
    }

    #[test]
    fn on_delete_updates_nothing_but_keeps_the_diffs() {
        let spec = BudgetSpec {
            replicas: 10,
            ..Default::default()
        };
        let pods = [PodView::available_old(); 10];
        let rolling = budget_for_type("ReCreate", &spec, &pods);
        let on_delete = budget_for_type(ON_DELETE, &spec, &pods);
        assert_eq!(
            (rolling.pods_to_update_now, on_delete.pods_to_update_now),
            (2, 0)
        );
        assert_eq!(on_delete.diffs, rolling.diffs);
        assert_eq!(budget_for_type("onDelete", &spec, &pods), rolling);
    }
}
