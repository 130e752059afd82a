//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: exports the Progressing-condition step and the status calculation for the
// differential tests, with the settable clock that replaces time.Now() (clock.list) and the
// package's timer.

package cloneset

import (
	"time"

	v1 "k8s.io/api/core/v1"
	testingclock "k8s.io/utils/clock/testing"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	clonesetutils "github.com/openkruise/kruise/pkg/controller/cloneset/utils"
)

// GorefClock, when set, is what time.Now() reads in the files of clock.list.
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}

// GorefCalculateProgressingStatus sets the package clock and timer to now and runs
// calculateProgressingStatus on newStatus; it returns the requeue duration.
func GorefCalculateProgressingStatus(cs *appsv1beta1.CloneSet, newStatus *appsv1beta1.CloneSetStatus, now time.Time) time.Duration {
	GorefClock = func() time.Time { return now }
	timer = testingclock.NewFakeClock(now)
	return (&realStatusUpdater{}).calculateProgressingStatus(cs, newStatus)
}

// GorefHasProgressingConditionChanged is hasProgressingConditionChanged.
func GorefHasProgressingConditionChanged(oldStatus, newStatus appsv1beta1.CloneSetStatus) bool {
	return hasProgressingConditionChanged(oldStatus, newStatus)
}

// GorefCalculateStatus sets every clock calculateStatus reads (this package's, the package timer
// and the cloneset utils clock of pod availability) to now and runs calculateStatus on
// newStatus over pods.
func GorefCalculateStatus(cs *appsv1beta1.CloneSet, newStatus *appsv1beta1.CloneSetStatus, pods []*v1.Pod, now time.Time) {
	GorefClock = func() time.Time { return now }
	clonesetutils.GorefClock = GorefClock
	timer = testingclock.NewFakeClock(now)
	(&realStatusUpdater{}).calculateStatus(cs, newStatus, pods)
}

// GorefInconsistentStatus is inconsistentStatus.
func GorefInconsistentStatus(cs *appsv1beta1.CloneSet, newStatus *appsv1beta1.CloneSetStatus) bool {
	return (&realStatusUpdater{}).inconsistentStatus(cs, newStatus)
}
