//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package podunavailablebudget

import (
	"time"

	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// GorefClock, when set, is the time the package's time.Now() calls read (see clock.list).
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}

// GorefNewReconciler builds the reconciler around a client and an event recorder.
func GorefNewReconciler(c client.Client, rec record.EventRecorder) *ReconcilePodUnavailableBudget {
	return &ReconcilePodUnavailableBudget{Client: c, Scheme: c.Scheme(), recorder: rec}
}

// GorefSync exports syncPodUnavailableBudget (one controller pass over pub).
func (r *ReconcilePodUnavailableBudget) GorefSync(pub *policyv1beta1.PodUnavailableBudget) (*time.Time, error) {
	return r.syncPodUnavailableBudget(pub)
}
