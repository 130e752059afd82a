//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package sidecarset

import (
	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	"github.com/openkruise/kruise/pkg/control/sidecarcontrol"
)

// GorefCalculateStatus exports calculateStatus (the revision is not compared).
func GorefCalculateStatus(control sidecarcontrol.SidecarControl, pods []*corev1.Pod) *appsv1beta1.SidecarSetStatus {
	return calculateStatus(control, pods, &apps.ControllerRevision{}, 0)
}

// GorefIsSidecarSetNotUpdate exports isSidecarSetNotUpdate.
func GorefIsSidecarSetNotUpdate(s *appsv1beta1.SidecarSet) bool { return isSidecarSetNotUpdate(s) }

// GorefIsSidecarSetUpdateFinish exports isSidecarSetUpdateFinish.
func GorefIsSidecarSetUpdateFinish(status *appsv1beta1.SidecarSetStatus) bool {
	return isSidecarSetUpdateFinish(status)
}

// GorefCalculateUpgradeCount exports calculateUpgradeCount.
func GorefCalculateUpgradeCount(control sidecarcontrol.SidecarControl, waitUpdateIndexes []int, pods []*corev1.Pod) int {
	return calculateUpgradeCount(control, waitUpdateIndexes, pods)
}
