//go:build goref_overlay

// Added to the reference package only for conformance/goref (go test -overlay, see ../../run).
package defaults

import "time"

// GorefClock, when set, is the time the package's time.Now()/metav1.Now() calls read (see clock.list).
var GorefClock func() time.Time

func gorefNow() time.Time {
	if GorefClock != nil {
		return GorefClock()
	}
	return time.Now()
}
