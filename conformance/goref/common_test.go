// Shared helpers of the differential tests.
//
// Prerequisite (from the repository root): cargo build --release -p kruise-core-c
// Then: cd conformance/goref && go test ./...
package goref

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
)

// kinder is the error shape of kruisecore: a decision error carries its spec kind.
type kinder interface{ Kind() string }

// ours calls kruise-core through the Go binding. It returns the result JSON, or the error kind
// ("" plus a Go error when the binding failed without a kind, which the callers treat as fatal).
func ours(fn string, input any) (json.RawMessage, string, error) {
	in, err := json.Marshal(input)
	if err != nil {
		return nil, "", err
	}
	out, err := kruisecore.Call(fn, in)
	if err != nil {
		var k kinder
		if errors.As(err, &k) {
			return nil, k.Kind(), nil
		}
		return nil, "", err
	}
	return json.RawMessage(out), "", nil
}

// requireFn skips the test when the binding does not know fn yet (its family has not landed on
// main); any other answer, error or not, lets the test run.
func requireFn(t *testing.T, fn string, probe any) {
	t.Helper()
	_, kind, err := ours(fn, probe)
	if err != nil {
		t.Fatalf("kruisecore.Call(%s) failed without an error kind: %v", fn, err)
	}
	if kind == "unknown_fn" {
		t.Skipf("kruisecore does not serve %s yet (kind unknown_fn): its family has not landed on main", fn)
	}
}

// vectorCase is one case of conformance/vectors/<area>.json (format: conformance/vectors/README.md).
type vectorCase struct {
	Fn          string          `json:"fn"`
	Name        string          `json:"name"`
	Input       json.RawMessage `json:"input"`
	Expect      json.RawMessage `json:"expect"`
	ExpectError string          `json:"expect_error"`
}

// loadVectors returns the cases of fn in every ../vectors/*.json file, as every runner globs them:
// the shared <area>.json first (which must hold at least one), then the files added later in name
// order (fix and edge-case vectors are replayed against the reference too).
func loadVectors(t *testing.T, area, fn string) []vectorCase {
	t.Helper()
	read := func(path string) []vectorCase {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read vectors: %v", err)
		}
		var doc struct {
			Cases []vectorCase `json:"cases"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("parse vectors %s: %v", path, err)
		}
		var out []vectorCase
		for _, c := range doc.Cases {
			if c.Fn == fn {
				out = append(out, c)
			}
		}
		return out
	}
	out := read(filepath.Join("..", "vectors", area+".json"))
	if len(out) == 0 {
		t.Fatalf("no %s case in %s.json", fn, area)
	}
	files, err := filepath.Glob(filepath.Join("..", "vectors", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	for _, f := range files {
		if filepath.Base(f) != area+".json" {
			out = append(out, read(f)...)
		}
	}
	return out
}

// deviation is one line of deviations.txt: "<family> <class> <reason...>".
type deviation struct{ family, class, reason string }

var (
	devOnce sync.Once
	devs    map[string]deviation
	devErr  error
)

// allowed reports whether deviations.txt lists class for family (see docs/deviations.md).
func allowed(family, class string) bool {
	devOnce.Do(func() {
		devs = map[string]deviation{}
		f, err := os.Open("deviations.txt")
		if err != nil {
			devErr = err
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			parts := strings.SplitN(line, " ", 3)
			if len(parts) < 3 {
				devErr = fmt.Errorf("deviations.txt: bad line %q (want: family class reason)", line)
				return
			}
			devs[parts[0]+" "+parts[1]] = deviation{parts[0], parts[1], parts[2]}
		}
		devErr = sc.Err()
	})
	if devErr != nil {
		panic(devErr)
	}
	_, ok := devs[family+" "+class]
	return ok
}

// tally counts outcomes of a differential run and keeps the first few failures.
type tally struct {
	total, agreeValue, agreeError, allowed, disagree int
	allowedByClass                                   map[string]int
	failures                                         []string
}

func (r *tally) fail(format string, args ...any) {
	r.disagree++
	if len(r.failures) < 25 {
		r.failures = append(r.failures, fmt.Sprintf(format, args...))
	} else if len(r.failures) == 25 {
		r.failures = append(r.failures, "... (more failures not shown)")
	}
}

func (r *tally) allow(class string) {
	r.allowed++
	if r.allowedByClass == nil {
		r.allowedByClass = map[string]int{}
	}
	r.allowedByClass[class]++
}

func (r *tally) report(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: %d cases: %d same value, %d same error kind, %d allowed deviations %v, %d disagreements",
		what, r.total, r.agreeValue, r.agreeError, r.allowed, r.allowedByClass, r.disagree)
	for _, f := range r.failures {
		t.Error(f)
	}
}
