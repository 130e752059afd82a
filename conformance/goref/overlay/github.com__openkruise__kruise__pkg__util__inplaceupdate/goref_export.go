//go:build goref_overlay

// Added to the reference package by conformance/goref/run (go test -overlay); not part of
// OpenKruise: finishGracePeriod measures the grace period with time.Since (the wall clock);
// the files of clock.list read the package's own settable Clock instead.

package inplaceupdate

import "time"

func gorefNow() time.Time { return Clock.Now() }

func gorefSince(t time.Time) time.Duration { return Clock.Since(t) }
