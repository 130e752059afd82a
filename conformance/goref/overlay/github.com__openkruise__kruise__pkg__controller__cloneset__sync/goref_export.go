//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports calculateDiffsWithExpectation and limitUpdateIndexes for the differential
// tests.

package sync

import (
	v1 "k8s.io/api/core/v1"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	clonesetcore "github.com/openkruise/kruise/pkg/controller/cloneset/core"
	"github.com/openkruise/kruise/pkg/util/revision"
)

// GorefDiffs is expectationDiffs with exported fields.
type GorefDiffs struct {
	ScaleUpNum, ScaleUpNumOldRevision, ScaleDownNum, ScaleDownNumOldRevision int
	ScaleUpLimit, DeleteReadyLimit, UseSurge, UseSurgeOldRevision            int
	UpdateNum, UpdateMaxUnavailable                                          int
}

func gorefDiffs(d expectationDiffs) GorefDiffs {
	return GorefDiffs{d.scaleUpNum, d.scaleUpNumOldRevision, d.scaleDownNum, d.scaleDownNumOldRevision,
		d.scaleUpLimit, d.deleteReadyLimit, d.useSurge, d.useSurgeOldRevision, d.updateNum, d.updateMaxUnavailable}
}

// GorefCalculateDiffs is calculateDiffsWithExpectation as the scale path calls it
// (revision.IsPodUpdate) when scalePath is set, else as the update path does (nil).
func GorefCalculateDiffs(cs *appsv1beta1.CloneSet, pods []*v1.Pod, currentRevision, updateRevision string, scalePath bool) GorefDiffs {
	var isPodUpdate IsPodUpdateFunc
	if scalePath {
		isPodUpdate = revision.IsPodUpdate
	}
	return gorefDiffs(calculateDiffsWithExpectation(cs, pods, currentRevision, updateRevision, isPodUpdate))
}

// GorefLimitUpdateIndexes runs the update path's diff and limitUpdateIndexes over the candidate
// indexes waitUpdate (already in update order); it returns the diff and the indexes kept.
func GorefLimitUpdateIndexes(cs *appsv1beta1.CloneSet, pods []*v1.Pod, currentRevision, updateRevision string, waitUpdate func(updateNum int) []int) (GorefDiffs, []int) {
	diffRes := calculateDiffsWithExpectation(cs, pods, currentRevision, updateRevision, nil)
	if diffRes.updateNum == 0 {
		return gorefDiffs(diffRes), nil
	}
	target := updateRevision
	if diffRes.updateNum < 0 {
		target = currentRevision
	}
	kept := limitUpdateIndexes(clonesetcore.New(cs), cs.Spec.MinReadySeconds, diffRes, waitUpdate(diffRes.updateNum), pods, target)
	return gorefDiffs(diffRes), kept
}

// GorefPlannedDeletedPods is getPlannedDeletedPods.
func GorefPlannedDeletedPods(cs *appsv1beta1.CloneSet, pods []*v1.Pod) ([]*v1.Pod, []*v1.Pod, int) {
	return getPlannedDeletedPods(cs, pods)
}

// GorefIsSpecifiedDelete is isSpecifiedDelete.
func GorefIsSpecifiedDelete(cs *appsv1beta1.CloneSet, pod *v1.Pod) bool {
	return isSpecifiedDelete(cs, pod)
}

// GorefIsPodReady is isPodReady with the CloneSet's core control.
func GorefIsPodReady(cs *appsv1beta1.CloneSet, pod *v1.Pod) bool {
	return isPodReady(clonesetcore.New(cs), pod)
}

// GorefChoosePodsToDelete is choosePodsToDelete on a control without a client (the client is
// read only for topology spread constraints, which the callers leave out).
func GorefChoosePodsToDelete(cs *appsv1beta1.CloneSet, totalDiff, currentRevDiff int, notUpdatedPods, updatedPods []*v1.Pod) []*v1.Pod {
	return (&realControl{}).choosePodsToDelete(cs, totalDiff, currentRevDiff, notUpdatedPods, updatedPods)
}
