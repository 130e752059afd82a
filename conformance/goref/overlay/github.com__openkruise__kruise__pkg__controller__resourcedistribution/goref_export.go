//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package resourcedistribution

import (
	"time"

	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
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

// GorefListNamespacesForDistributor exports listNamespacesForDistributor.
func GorefListNamespacesForDistributor(c client.Client, targets *appsv1beta1.ResourceDistributionTargets) ([]string, []string, error) {
	return listNamespacesForDistributor(c, targets)
}
