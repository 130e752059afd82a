package kruisecore

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// stable runs the garbage collector until the C library's live-expression count stops changing
// (cleanups run on their own goroutine after a collection) and returns it.
func stable() int {
	prev := -1
	for i := 0; i < 100; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		n := liveExpressions()
		if n == prev {
			return n
		}
		prev = n
	}
	return prev
}

// waitDown runs the garbage collector until at most target expressions are alive (or gives up
// after a long while) and returns the count.
func waitDown(target int) int {
	deadline := time.Now().Add(30 * time.Second)
	n := liveExpressions()
	for n > target && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		n = liveExpressions()
	}
	return n
}

// compileAndForget compiles n expressions and drops them without Close.
func compileAndForget(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		e, err := Compile("max(cpu*50%, 50m)")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := e.Eval(Quantity("cpu", "200m")); err != nil || got != "100m" {
			t.Fatalf("eval: %q %v", got, err)
		}
	}
}

func TestForgottenExpressionsAreFreedByTheGarbageCollector(t *testing.T) {
	base := stable()
	const n = 2000
	compileAndForget(t, n)
	if got := liveExpressions(); got < base || got > base+n {
		t.Fatalf("live count %d after %d compiles from %d", got, n, base)
	}
	if got := waitDown(base); got != base {
		t.Fatalf("%d of %d forgotten expressions still alive after GC", got-base, n)
	}
}

// Close, a second Close and the garbage collector's cleanup free each expression exactly once:
// the count comes back to where it was, not below (a double free would also crash).
func TestCloseAndTheCleanupFreeOnce(t *testing.T) {
	base := stable()
	const n = 500
	for i := 0; i < n; i++ {
		e, err := Compile("1 + 1")
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Eval(); !errors.Is(err, ErrClosed) {
			t.Fatalf("after Close: %v", err)
		}
	}
	if got := liveExpressions(); got != base {
		t.Fatalf("after closing: live %d, want %d", got, base)
	}
	for i := 0; i < 5; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := liveExpressions(); got != base {
		t.Fatalf("after GC: live %d, want %d (freed twice?)", got, base)
	}
	// A zero Expression closes without effect.
	var zero Expression
	if err := zero.Close(); err != nil {
		t.Fatal(err)
	}
}

const scaleInput = `{"value": "50%", "total": 10, "roundUp": true, "mode": "scaled"}`

func wantKind(t *testing.T, err error, kind string, status Status) {
	t.Helper()
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != kind || kerr.Status() != status {
		t.Fatalf("want %s (status %d), got %v", kind, status, err)
	}
}

func TestInputSizeLimit(t *testing.T) {
	if MaxInputBytes() != DefaultMaxInputBytes || DefaultMaxInputBytes != 16<<20 {
		t.Fatalf("default limit %d", MaxInputBytes())
	}
	big := []byte(scaleInput + strings.Repeat(" ", DefaultMaxInputBytes+1-len(scaleInput)))
	_, err := Call("rollout.scale_int_or_percent", big)
	wantKind(t, err, "input_too_large", StatusInputTooLarge)
	if out, err := Call("rollout.scale_int_or_percent", big[:DefaultMaxInputBytes]); err != nil || string(out) != "5" {
		t.Fatalf("at the limit: %s %v", out, err)
	}

	prev := SetMaxInputBytes(len(scaleInput))
	defer SetMaxInputBytes(prev)
	if prev != DefaultMaxInputBytes || MaxInputBytes() != len(scaleInput) {
		t.Fatalf("prev %d, now %d", prev, MaxInputBytes())
	}
	if out, err := Call("rollout.scale_int_or_percent", []byte(scaleInput)); err != nil || string(out) != "5" {
		t.Fatalf("at the limit: %s %v", out, err)
	}
	_, err = Call("rollout.scale_int_or_percent", []byte(scaleInput+" "))
	wantKind(t, err, "input_too_large", StatusInputTooLarge)
	_, err = Matches("rollout.scale_int_or_percent", []byte("5"), []byte(scaleInput+" "))
	wantKind(t, err, "input_too_large", StatusInputTooLarge)
	_, err = Compile(strings.Repeat("1+", len(scaleInput)) + "1")
	wantKind(t, err, "input_too_large", StatusInputTooLarge)

	defer func() {
		if recover() == nil {
			t.Error("SetMaxInputBytes(-1) did not panic")
		}
	}()
	SetMaxInputBytes(-1)
}

// The JSON parser refuses the 128th nested array or object, so no deeper input reaches a decision.
func TestNestingLimit(t *testing.T) {
	nested := func(depth int) []byte {
		return []byte(`{"value": "50%", "total": 10, "roundUp": true, "mode": "scaled", "x": ` +
			strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`)
	}
	var kerr *Error
	if _, err := Call("rollout.scale_int_or_percent", nested(127)); errors.As(err, &kerr) && kerr.Kind() == "invalid_json" {
		t.Fatalf("127 deep is JSON: %v", err)
	}
	for _, depth := range []int{128, 20000} {
		_, err := Call("rollout.scale_int_or_percent", nested(depth))
		wantKind(t, err, "invalid_json", StatusInvalidJSON)
		if !strings.Contains(err.Error(), "recursion limit exceeded") {
			t.Fatalf("%d deep: %v", depth, err)
		}
	}
}
