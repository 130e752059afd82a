//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package advancedcronjob

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime"
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

// GorefNewReconciler builds the reconciler around a client, with the package's own clock.
func GorefNewReconciler(c client.Client, scheme *runtime.Scheme, rec record.EventRecorder) *ReconcileAdvancedCronJob {
	return &ReconcileAdvancedCronJob{Client: c, scheme: scheme, recorder: rec, Clock: realClock{}}
}
