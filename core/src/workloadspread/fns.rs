//! The registered decisions of the WorkloadSpread family.

use super::reconcile::{ReconcileInput, ReconcileOutput, UNSUPPORTED};
use crate::error::Result;
use crate::registry::Decision;

/// `workloadspread.reconcile`: one pass of the WorkloadSpread controller.
pub struct Reconcile;

impl Decision for Reconcile {
    const ID: &'static str = "workloadspread.reconcile";
    const DOC: &'static str = "one WorkloadSpread controller pass: each pod's subset (annotation, else takeover by \
        node match), the pod deletion costs, the subset statuses with missingReplicas, creatingPods/deletingPods \
        clean-up and the adaptive Schedulable condition, the pods deleted for rescheduling and the requeue delay";
    const SOURCE: &'static str = "pkg/controller/workloadspread/workloadspread_controller.go syncWorkloadSpread, \
        groupVersionedPods, groupPodBySubset, getSuitableSubsetNameForPod, getAndUpdateSuitableSubsetName, \
        patchFavoriteSubsetMetadataToPod, calculateWorkloadSpreadStatus, calculateWorkloadSpreadSubsetStatuses, \
        calculateWorkloadSpreadSubsetStatus; update_pod_deletion_cost.go updateDeletionCost, \
        syncSubsetPodDeletionCost, patchPodDeletionCost, sortDeleteIndexes; reschedule.go rescheduleSubset, \
        PodUnscheduledTimeout; workloadspread_controller_utils.go matchesSubset, podPreferredScore, \
        matchesSubsetRequiredAndToleration, setWorkloadSpreadSubsetCondition";
    const ERRORS: &'static [&'static str] = &[UNSUPPORTED];
    type Input = ReconcileInput;
    type Output = ReconcileOutput;

    fn decide(i: ReconcileInput) -> Result<ReconcileOutput> {
        super::reconcile::reconcile(&i)
    }
}
