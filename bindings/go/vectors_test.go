package kruisecore

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// vectorFiles returns conformance/vectors/*.json, or the files named by KRUISE_VECTORS
// (":"-separated; relative paths from the repository root work too), as the Rust and Python
// runners do.
func vectorFiles(t *testing.T) []string {
	if env := os.Getenv("KRUISE_VECTORS"); env != "" {
		var files []string
		for _, f := range strings.Split(env, ":") {
			if f == "" {
				continue
			}
			// relative paths that do not exist from here are taken from the repository root
			if _, err := os.Stat(f); err != nil && !filepath.IsAbs(f) {
				f = filepath.Join("..", "..", f)
			}
			files = append(files, f)
		}
		return files
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "conformance", "vectors", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

type vectorCase struct {
	Fn          string          `json:"fn"`
	Name        string          `json:"name"`
	Input       json.RawMessage `json:"input"`
	Expect      json.RawMessage `json:"expect"`
	ExpectError *string         `json:"expect_error"`
}

// TestVectors replays every conformance case through Call and judges it with Matches (the core's
// comparison rule). One subtest per case; the last line printed is "N passed, N failed".
func TestVectors(t *testing.T) {
	files := vectorFiles(t)
	if len(files) == 0 {
		t.Fatal("no conformance vector files found")
	}
	passed, failed := 0, 0
	for _, file := range files {
		stem := strings.TrimSuffix(filepath.Base(file), ".json")
		for i, c := range readVectorCases(t, file) {
			name := fmt.Sprintf("%s/%s/%d/%s", stem, c.Fn, i, c.Name)
			ok := t.Run(name, func(t *testing.T) { judgeCase(t, c) })
			if ok {
				passed++
			} else {
				failed++
			}
		}
	}
	fmt.Printf("conformance vectors through Go: %d passed, %d failed\n", passed, failed)
}

func judgeCase(t *testing.T, c vectorCase) {
	got, err := Call(c.Fn, orNull(c.Input))
	judgeAnswer(t, c, got, err, "")
}

// orNull is a vector member's JSON, or null when the member is absent.
func orNull(b json.RawMessage) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}

// judgeAnswer judges one answer of case c: the expected error kind, or an output that Matches
// (the core's comparison rule) accepts. note ends every failure message.
func judgeAnswer(t *testing.T, c vectorCase, got []byte, err error, note string) {
	t.Helper()
	if c.ExpectError != nil {
		var kerr *Error
		if err == nil {
			t.Fatalf("expected error %q, got %s%s", *c.ExpectError, got, note)
		}
		if !errors.As(err, &kerr) {
			t.Fatalf("expected *Error, got %T %v", err, err)
		}
		if kerr.Kind() != *c.ExpectError {
			t.Fatalf("expected error %q, got %v%s", *c.ExpectError, kerr, note)
		}
		return
	}
	if err != nil {
		t.Fatalf("expected %s, got error %v%s", c.Expect, err, note)
	}
	expect := orNull(c.Expect)
	ok, err := Matches(c.Fn, expect, got)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("expected %s, got %s%s", expect, got, note)
	}
}

// readVectorCases reads the cases of one vector file (format: conformance/vectors/README.md).
func readVectorCases(t *testing.T, file string) []vectorCase {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []vectorCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return doc.Cases
}
