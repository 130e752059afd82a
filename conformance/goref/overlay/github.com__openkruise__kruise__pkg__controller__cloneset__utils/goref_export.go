//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: the settable clock that replaces metav1.Now() in the files of clock.list.

package utils

import "time"

// GorefClock, when set, is what metav1.Now() reads in the files of clock.list.
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}
