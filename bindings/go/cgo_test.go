//go:build kruise_cgo && cgo

package kruisecore

import "testing"

func TestStatusesMatchTheHeader(t *testing.T) {
	for goStatus, cStatus := range cStatuses() {
		if uint32(goStatus) != cStatus {
			t.Errorf("Go status %d != C status %d", goStatus, cStatus)
		}
	}
	for name, v := range cConstants() {
		if v[0] != v[1] {
			t.Errorf("%s: Go %d, header %d", name, v[0], v[1])
		}
	}
}

// Both backends are compiled in with the tag: they agree (the full vector replays run on each).
func TestBothBackendsAreCompiledIn(t *testing.T) {
	if len(allBackends) != 2 || Backend() != "cgo" || allBackends[1].name() != "wasm" {
		t.Fatalf("backends %v", allBackends)
	}
	if allBackends[0].version() != allBackends[1].version() {
		t.Fatalf("versions %q %q", allBackends[0].version(), allBackends[1].version())
	}
}
