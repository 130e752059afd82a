//! Pod classification for the CloneSet budget, mirroring the
//! counting loop of `calculateDiffsWithExpectation` and `IsPodAvailable` in OpenKruise
//! `pkg/controller/cloneset/sync/cloneset_sync_utils.go`.

use serde::{Deserialize, Serialize};

/// A pod's lifecycle state (label `lifecycle.apps.kruise.io/state`); `""` is [`LifecycleState::None`].
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum LifecycleState {
    /// No state label.
    #[default]
    #[serde(rename = "")]
    None,
    /// `PreparingNormal`.
    PreparingNormal,
    /// `Normal`.
    Normal,
    /// `PreparingUpdate`.
    PreparingUpdate,
    /// `Updating`.
    Updating,
    /// `Updated`.
    Updated,
    /// `PreparingDelete`.
    PreparingDelete,
}

/// What the budget needs to know about one pod (other members are ignored).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub struct PodView {
    /// Its revision hash equals the update revision.
    pub updated: bool,
    /// Its lifecycle state; absent: `""` (none).
    #[serde(default)]
    pub lifecycle_state: LifecycleState,
    /// Running, ready for at least `minReadySeconds`, in-place-update condition (if any) true.
    pub available: bool,
    /// Label `apps.kruise.io/specified-delete` present, or named in `scaleStrategy.podsToDelete`;
    /// absent: false.
    #[serde(default)]
    pub specified_delete: bool,
}

impl PodView {
    /// An available pod on the current (old) revision in state `Normal`.
    pub const fn available_old() -> PodView {
        PodView {
            updated: false,
            lifecycle_state: LifecycleState::Normal,
            available: true,
            specified_delete: false,
        }
    }

    /// The controller's `IsPodAvailable`: lifecycle state empty or `Normal`, and available.
    pub fn is_available(&self) -> bool {
        self.available
            && matches!(
                self.lifecycle_state,
                LifecycleState::None | LifecycleState::Normal
            )
    }

    /// Whether the pod counts as updated: on the update revision, or (scale path with
    /// `PreparingUpdateAsUpdate`) in state `PreparingUpdate`.
    pub fn counts_as_updated(&self, preparing_update_as_update: bool) -> bool {
        self.updated
            || (preparing_update_as_update
                && self.lifecycle_state == LifecycleState::PreparingUpdate)
    }
}

/// Counters of one revision group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Group {
    /// All pods in the group.
    pub count: i64,
    /// Pods in state `PreparingDelete`.
    pub pre_deleting: i64,
    /// `count − pre_deleting`.
    pub active: i64,
    /// Active pods specified for deletion.
    pub to_delete: i64,
    /// Active pods neither specified for deletion nor available.
    pub unavailable: i64,
}

/// Counters of both revision groups.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Pods counted as updated.
    pub new: Group,
    /// The others (assumed on the current revision).
    pub old: Group,
}

impl Counts {
    /// Counts `pods`; allocation-free.
    pub fn of(pods: &[PodView], preparing_update_as_update: bool) -> Counts {
        let mut c = Counts::default();
        for p in pods {
            let g = if p.counts_as_updated(preparing_update_as_update) {
                &mut c.new
            } else {
                &mut c.old
            };
            g.count += 1;
            if p.lifecycle_state == LifecycleState::PreparingDelete {
                g.pre_deleting += 1;
                continue;
            }
            g.active += 1;
            if p.specified_delete {
                g.to_delete += 1;
            } else if !p.is_available() {
                g.unavailable += 1;
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specified_delete_and_unready_counts_once() {
        let p = PodView {
            updated: true,
            lifecycle_state: LifecycleState::None,
            available: false,
            specified_delete: true,
        };
        let c = Counts::of(&[p], false);
        assert_eq!(
            (c.new.to_delete, c.new.unavailable, c.new.active),
            (1, 0, 1)
        );
    }

    #[test]
    fn lifecycle_state_makes_unavailable_and_preparing_update_can_count_as_new() {
        let p = PodView {
            updated: false,
            lifecycle_state: LifecycleState::PreparingUpdate,
            available: true,
            specified_delete: false,
        };
        assert!(!p.is_available());
        assert_eq!(Counts::of(&[p], true).new.unavailable, 1);
        assert_eq!(Counts::of(&[p], false).old.unavailable, 1);
    }
}
