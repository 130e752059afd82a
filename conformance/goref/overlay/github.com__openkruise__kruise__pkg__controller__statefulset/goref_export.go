//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports sortPodsToUpdate and the status counting for the differential tests, with
// the settable clock that replaces time.Now() in the files of clock.list.

package statefulset

import (
	"time"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
)

// GorefClock, when set, is what time.Now() reads in the files of clock.list.
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}

// GorefSortPodsToUpdate is sortPodsToUpdate.
func GorefSortPodsToUpdate(rollingUpdateStrategy *appsv1beta1.RollingUpdateStatefulSetStrategy, updateRevision string, totalReplicas int32, replicas []*v1.Pod) []int {
	return sortPodsToUpdate(rollingUpdateStrategy, updateRevision, totalReplicas, replicas)
}

// GorefUpdateStatus sets the clock to now and runs updateStatus with getMinReadySeconds(set).
func GorefUpdateStatus(set *appsv1beta1.StatefulSet, status *appsv1beta1.StatefulSetStatus, currentRevision, updateRevision *apps.ControllerRevision, pods []*v1.Pod, now time.Time) {
	GorefClock = func() time.Time { return now }
	updateStatus(status, getMinReadySeconds(set), currentRevision, updateRevision, pods)
}

// GorefCompleteRollingUpdate is completeRollingUpdate.
func GorefCompleteRollingUpdate(set *appsv1beta1.StatefulSet, status *appsv1beta1.StatefulSetStatus) {
	completeRollingUpdate(set, status)
}

// GorefInconsistentStatus is inconsistentStatus.
func GorefInconsistentStatus(set *appsv1beta1.StatefulSet, status *appsv1beta1.StatefulSetStatus) bool {
	return inconsistentStatus(set, status)
}
