package kruisecore

import (
	"encoding/json"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// errorKind is the shape of every stable error kind: snake_case.
var errorKind = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// FuzzCall drives Call with the conformance vectors' (fn id, input) pairs as seeds and whatever
// the fuzzer makes of them. Call must never panic, a result must be JSON, and every error must be
// a typed *Error with a snake_case kind: never a caught Rust panic (StatusPanic) and never an
// unreadable error body (kind "internal"). An fn id that is not registered must be unknown_fn;
// the same input is then also given to a registered fn picked by a hash of the id, so mutated ids
// still reach a decision function.
//
//	go test -run '^$' -fuzz FuzzCall -fuzztime 20s   (from bindings/go)
//
// Plain `go test` runs the seeds only.
func FuzzCall(f *testing.F) {
	ids, err := FnIDs()
	if err != nil {
		f.Fatal(err)
	}
	registered := make(map[string]bool, len(ids))
	for _, id := range ids {
		registered[id] = true
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "conformance", "vectors", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no conformance vectors found (%v)", err)
	}
	seeds := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var doc struct {
			Cases []struct {
				Fn    string          `json:"fn"`
				Input json.RawMessage `json:"input"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			f.Fatalf("%s: %v", file, err)
		}
		for _, c := range doc.Cases {
			f.Add(c.Fn, []byte(c.Input))
			seeds++
		}
	}
	// boundary seeds: empty, not JSON, not UTF-8, an id with a NUL byte
	f.Add("resources.eval", []byte(""))
	f.Add("resources.eval", []byte("{"))
	f.Add("resources.eval", []byte("\xff\xfe"))
	f.Add("resources.eval\x00", []byte(`{"expr":"1"}`))
	f.Logf("%d seeds from %d vector files", seeds, len(files))

	f.Fuzz(func(t *testing.T, fnID string, input []byte) {
		check(t, fnID, input)
		if !registered[fnID] {
			h := fnv.New32a()
			h.Write([]byte(fnID))
			check(t, ids[int(h.Sum32()%uint32(len(ids)))], input)
		}
	})
}

// check calls fnID on input once and judges the outcome.
func check(t *testing.T, fnID string, input []byte) {
	out, err := Call(fnID, input)
	if err == nil {
		if !json.Valid(out) {
			t.Fatalf("%s: result is not JSON: %q", fnID, out)
		}
		return
	}
	var kerr *Error
	if !errors.As(err, &kerr) {
		t.Fatalf("%s: error is not a *kruisecore.Error: %T %v", fnID, err, err)
	}
	if kerr.Status() == StatusPanic {
		t.Fatalf("%s: the library panicked on %q: %v", fnID, input, err)
	}
	if kerr.Kind() == "internal" || !errorKind.MatchString(kerr.Kind()) {
		t.Fatalf("%s: error kind %q is not a stable kind: %v", fnID, kerr.Kind(), err)
	}
	if kerr.Message() == "" {
		t.Fatalf("%s: error %q without a message", fnID, kerr.Kind())
	}
}
