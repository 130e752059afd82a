//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package imagepulljob

import (
	"time"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	testingclock "k8s.io/utils/clock/testing"
)

// GorefClock, when set, is the time the package's time.Now() and time.Since() calls read (see
// clock.list).
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}

func gorefSince(t time.Time) time.Duration {
	return gorefNow().Sub(t)
}

// GorefCalculateStatus exports calculateStatus with every clock it reads (the reconciler's and
// the package's time.Since) at now.
func GorefCalculateStatus(job *appsv1beta1.ImagePullJob, nodeImages []*appsv1beta1.NodeImage, secrets []appsv1beta1.ReferenceObject, now time.Time) (*appsv1beta1.ImagePullJobStatus, []string, error) {
	GorefClock = func() time.Time { return now }
	defer func() { GorefClock = nil }()
	r := &ReconcileImagePullJob{clock: testingclock.NewFakeClock(now)}
	return r.calculateStatus(job, nodeImages, secrets)
}

// GorefImagePullPolicy exports getImagePullPolicy.
func GorefImagePullPolicy(job *appsv1beta1.ImagePullJob) *appsv1beta1.ImageTagPullPolicy {
	return getImagePullPolicy(job)
}
