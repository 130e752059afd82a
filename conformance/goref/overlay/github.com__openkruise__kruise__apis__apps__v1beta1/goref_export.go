//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise. The settable clock that replaces time.Now() / metav1.Now() in the files named in
// clock.list (UnitedDeploymentSubsetStatus.SetCondition stamps its transition time with it).

package v1beta1

import "time"

// GorefClock, when set, is what time.Now() and metav1.Now() read in the files of clock.list.
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}
