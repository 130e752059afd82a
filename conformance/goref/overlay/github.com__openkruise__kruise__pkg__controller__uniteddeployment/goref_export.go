//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise. Thin exports of unexported functions the differential tests call, and the
// settable clock that replaces time.Now() in the files named in clock.list.

package uniteddeployment

import (
	"time"

	corev1 "k8s.io/api/core/v1"

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

// GorefAllocatorKind names the allocator NewReplicaAllocator picks for ud.
func GorefAllocatorKind(ud *appsv1beta1.UnitedDeployment) string {
	switch NewReplicaAllocator(ud).(type) {
	case *specificAllocator:
		return "specific"
	case *minMaxAllocator:
		return "minMax"
	case *adaptiveAllocator:
		return "adaptive"
	case *reservationAllocator:
		return "reservation"
	}
	return "unknown"
}

// GorefInitStatus is initStatus.
func GorefInitStatus(ud *appsv1beta1.UnitedDeployment) { initStatus(ud) }

// GorefSetUpdatedCondition is setUpdatedCondition.
func GorefSetUpdatedCondition(status *appsv1beta1.UnitedDeploymentStatus, currentRevision, expectedRevision string, now time.Time) {
	setUpdatedCondition(status, currentRevision, expectedRevision, now)
}

// GorefDefaultAdaptive is calculateSubsetsStatusForDefaultAdaptiveStrategy.
func GorefDefaultAdaptive(name string, subset *Subset, ud *appsv1beta1.UnitedDeployment) {
	calculateSubsetsStatusForDefaultAdaptiveStrategy(name, subset, ud)
}

// GorefPodPatch is one podToPatchReservedLabel.
type GorefPodPatch struct {
	Pod      *corev1.Pod
	Reserved bool
}

// GorefReservedAdaptive is calculateSubsetsStatusForReservedAdaptiveStrategy.
func GorefReservedAdaptive(name string, subset *Subset, ud *appsv1beta1.UnitedDeployment, now time.Time) []GorefPodPatch {
	var out []GorefPodPatch
	for _, p := range calculateSubsetsStatusForReservedAdaptiveStrategy(name, subset, ud, now) {
		out = append(out, GorefPodPatch{Pod: p.pod, Reserved: p.reserved})
	}
	return out
}

// GorefPostProcess is postProcessSubsetStatusForReservedAdaptiveStrategy.
func GorefPostProcess(name string, subset *Subset, ud *appsv1beta1.UnitedDeployment, nextReplicas int32) {
	postProcessSubsetStatusForReservedAdaptiveStrategy(name, subset, ud, nextReplicas)
}

// GorefPopRequeue pops the merged requeue delay recorded for ud (0 when none).
func GorefPopRequeue(ud *appsv1beta1.UnitedDeployment) time.Duration {
	return durationStore.Pop(getUnitedDeploymentKey(ud))
}
