package kruisecore

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// notTyped wraps the error of a vector input that does not unmarshal into the fn's Input struct.
type notTyped struct{ err error }

func (e notTyped) Error() string { return "input does not fit the typed struct: " + e.err.Error() }

// sameJSON reports whether two JSON texts hold the same value (key order ignored).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// TestTypedVectors replays every conformance case through the generated typed function of its fn
// (zz_generated_typed_test.go): the input is unmarshalled into the Input struct, the function
// called, its output marshalled and judged with Matches. A case expecting invalid_input whose input
// the typed struct cannot hold (it does not unmarshal, or does not marshal back to the same JSON)
// passes as "not expressible". Cases of fns not typed yet are skipped and counted; once every fn is
// typed (allTyped) every fn id must have a typed function.
func TestTypedVectors(t *testing.T) {
	ids, err := FnIDs()
	if err != nil {
		t.Fatal(err)
	}
	if allTyped {
		for _, id := range ids {
			if typedFns[id] == nil {
				t.Errorf("fn %s has no generated typed function", id)
			}
		}
	}
	passed, failed, inexpressible, untyped := 0, 0, 0, 0
	for _, file := range vectorFiles(t) {
		stem := strings.TrimSuffix(filepath.Base(file), ".json")
		for i, c := range readVectorCases(t, file) {
			replay := typedFns[c.Fn]
			if replay == nil {
				if allTyped {
					t.Errorf("%s/%d: fn %s has no typed function", stem, i, c.Fn)
				}
				untyped++
				continue
			}
			name := fmt.Sprintf("%s/%s/%d/%s", stem, c.Fn, i, c.Name)
			skipped := false
			ok := t.Run(name, func(t *testing.T) { skipped = judgeTyped(t, c, replay) })
			switch {
			case !ok:
				failed++
			case skipped:
				inexpressible++
			default:
				passed++
			}
		}
	}
	fmt.Printf("conformance vectors through the typed Go functions: %d passed, %d failed, "+
		"%d invalid_input cases the typed structs cannot express, %d cases of untyped fns skipped\n",
		passed, failed, inexpressible, untyped)
}

// judgeTyped replays one case; it reports whether the case was an inexpressible invalid_input one.
func judgeTyped(t *testing.T, c vectorCase, replay func(json.RawMessage) (json.RawMessage, json.RawMessage, error)) bool {
	input := json.RawMessage(orNull(c.Input))
	wantInvalid := c.ExpectError != nil && *c.ExpectError == "invalid_input"
	sent, got, err := replay(input)
	var nt notTyped
	if errors.As(err, &nt) {
		if wantInvalid {
			return true
		}
		t.Fatalf("%v", nt)
	}
	if wantInvalid && sent != nil && !sameJSON(sent, input) {
		return true // the struct dropped or rewrote the offending member
	}
	judgeAnswer(t, c, got, err, fmt.Sprintf(" (sent %s)", sent))
	return false
}
