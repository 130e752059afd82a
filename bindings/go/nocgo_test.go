//go:build !cgo

package kruisecore

import (
	"errors"
	"testing"
)

func TestWithoutCgoEverythingSaysSo(t *testing.T) {
	if _, err := Call("resources.eval", []byte(`{}`)); !errors.Is(err, ErrCgoRequired) {
		t.Fatalf("Call: %v", err)
	}
	if _, err := Compile("1"); !errors.Is(err, ErrCgoRequired) {
		t.Fatalf("Compile: %v", err)
	}
	if _, err := FnIDs(); !errors.Is(err, ErrCgoRequired) {
		t.Fatalf("FnIDs: %v", err)
	}
}
