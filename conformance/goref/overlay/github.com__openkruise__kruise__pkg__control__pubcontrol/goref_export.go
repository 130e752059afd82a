//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package pubcontrol

import (
	"time"

	policyv1beta1 "github.com/openkruise/kruise/apis/policy/v1beta1"
)

// GorefClock, when set, is the time the package's time.Now() calls read (see clock.list).
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}

// GorefIsNeedPubProtection exports isNeedPubProtection.
func GorefIsNeedPubProtection(pub *policyv1beta1.PodUnavailableBudget, operation policyv1beta1.PubOperation) bool {
	return isNeedPubProtection(pub, operation)
}
