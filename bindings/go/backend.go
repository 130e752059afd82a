package kruisecore

import (
	"encoding/json"
	"math"
	"runtime"
	"sync/atomic"
)

// backend is one way of reaching the C ABI of kruise-core: the WebAssembly module run by wazero
// (wasm.go, the default) or the native library through cgo (cgo.go, build tag kruise_cgo). Both
// take and give the C ABI's bytes and statuses; this file holds the public API over them.
type backend interface {
	name() string
	call(fnID string, input []byte) ([]byte, error)
	fnIDs() ([]byte, error)
	matches(fnID string, expected, got []byte) (bool, error)
	compile(src string, strict bool) (exprImpl, error)
	// scale is kruise_scale_int_or_percent on the string form (mode: a scaleMode* value).
	scale(s string, total int64, roundUp bool, mode uint32) (int64, error)
	// setMaxInputBytes tells the backend the new limit (the wasm backend reads maxInput instead).
	setMaxInputBytes(n int)
	version() string
	// liveExpressions counts the compiled expressions the library holds (a test hook).
	liveExpressions() int
}

// exprImpl is a compiled expression inside one backend.
type exprImpl interface {
	eval(vars []Var) (string, error)
	// bind makes the backend's Evaluator of the expression.
	bind() (boundImpl, error)
	free()
}

// The modes of kruise_scale_int_or_percent (KRUISE_SCALE_* of the header).
const (
	scaleModeScaled uint32 = 0
	scaleModeLegacy uint32 = 1
	scaleModeKruise uint32 = 2
)

// maxInput is the input-size limit of every backend (SetMaxInputBytes).
var maxInput atomic.Int64

func init() { maxInput.Store(DefaultMaxInputBytes) }

// result turns a status and its out buffer into (bytes, error).
func result(status Status, body []byte) ([]byte, error) {
	if status != StatusOK {
		return nil, errorFromJSON(status, body)
	}
	return body, nil
}

// Call calls the decision function fnID (e.g. "resources.eval") on the JSON document input and
// returns the result JSON. A decision error is an *Error (Kind "unknown_fn", "invalid_input",
// "invalid_json" (also for arrays and objects nested 128 deep, the JSON parser's limit),
// "input_too_large" (input longer than MaxInputBytes), or the function's own kinds). Safe for
// concurrent use.
func Call(fnID string, input []byte) ([]byte, error) { return defaultBackend.call(fnID, input) }

// FnIDs lists every registered fn id.
func FnIDs() ([]string, error) { return fnIDsWith(defaultBackend) }

func fnIDsWith(be backend) ([]string, error) {
	body, err := be.fnIDs()
	if err != nil {
		return nil, err
	}
	var ids []string
	if err := json.Unmarshal(body, &ids); err != nil {
		return nil, err
	}
	return ids, nil
}

// Matches reports whether the JSON got matches the JSON expected under the comparison rule the
// core registers for fnID (the conformance vectors' rule: key order ignored, numbers by value;
// zero-pruned for api.convert, null-pruned for api.default).
func Matches(fnID string, expected, got []byte) (bool, error) {
	return defaultBackend.matches(fnID, expected, got)
}

// SetMaxInputBytes sets the input-size limit, in bytes, of Call, Matches and Compile (default
// DefaultMaxInputBytes, 16 MiB) and returns the previous limit. A longer input is an *Error with
// Kind "input_too_large" and Status StatusInputTooLarge, refused before it is read. The limit is
// process-wide (every backend). It panics when n is negative.
func SetMaxInputBytes(n int) int {
	if n < 0 {
		panic("kruisecore: SetMaxInputBytes: negative limit")
	}
	prev := maxInput.Swap(int64(n))
	for _, be := range allBackends {
		be.setMaxInputBytes(n)
	}
	return clamp64(prev)
}

// MaxInputBytes is the current input-size limit in bytes.
func MaxInputBytes() int { return clamp64(maxInput.Load()) }

func clamp64(n int64) int {
	if n > math.MaxInt {
		return math.MaxInt
	}
	return int(n)
}

// Version is the version of the Rust library behind the package (e.g. "0.1.0").
func Version() string { return defaultBackend.version() }

// Backend names the backend the package runs on: "wasm" (the default: the embedded WebAssembly
// module run by wazero) or "cgo" (build tag kruise_cgo: the native library through cgo).
func Backend() string { return defaultBackend.name() }

// Expression is a compiled resource expression (OpenKruise pkg/util/calculator, the
// resourcesExpr of a SidecarSet resourcesPolicy). It holds library memory: call Close when done.
// An Expression that is never closed is released by the garbage collector once it is unreachable
// (a cleanup registered with runtime.AddCleanup), so forgetting Close does not leak; Close still
// releases the memory at a known point.
type Expression struct {
	h       atomic.Pointer[exprHandle]
	src     string
	cleanup runtime.Cleanup
}

// exprHandle owns the backend's expression. It is separate from Expression so that the garbage
// collector's cleanup can hold it without keeping the Expression reachable.
type exprHandle struct {
	impl  exprImpl
	freed atomic.Bool
}

// free releases the expression at most once: Close and the cleanup may both reach it (Close stops
// the cleanup, but one already queued still runs).
func (h *exprHandle) free() {
	if h.freed.CompareAndSwap(false, true) {
		h.impl.free()
	}
}

// Compile parses src (e.g. "max(cpu*50%, 50m)") once, with OpenKruise's semantics. A syntax
// error that no variable can change is an *Error with Kind "syntax_error" (other kinds as in the
// resources spec); errors that depend on the variables are reported by Eval.
func Compile(src string) (*Expression, error) { return compileWith(defaultBackend, src, false) }

// CompileStrict is Compile that also rejects every syntax error (Kind "syntax_error") and every
// number token OpenKruise silently reads as 0 or +Inf (Kind "suspicious_number", e.g. "1K").
func CompileStrict(src string) (*Expression, error) { return compileWith(defaultBackend, src, true) }

func compileWith(be backend, src string, strict bool) (*Expression, error) {
	impl, err := be.compile(src, strict)
	if err != nil {
		return nil, err
	}
	h := &exprHandle{impl: impl}
	x := &Expression{src: src}
	x.h.Store(h)
	x.cleanup = runtime.AddCleanup(x, (*exprHandle).free, h)
	return x, nil
}

// Source is the expression text given to Compile.
func (e *Expression) Source() string { return e.src }

// Eval evaluates the expression with the given variables and returns the printed result, exactly
// what the "resources.eval" function returns (e.g. "100m"). Errors are *Error with the resources
// spec's kinds (e.g. "undefined_variable", "division_by_zero"); ErrClosed after Close. Safe for
// concurrent use.
func (e *Expression) Eval(vars ...Var) (string, error) {
	h := e.h.Load()
	if h == nil {
		return "", ErrClosed
	}
	s, err := h.impl.eval(vars)
	// e must stay reachable until the call returns, or its cleanup could free the expression.
	runtime.KeepAlive(e)
	return s, err
}

// EvalMap evaluates with quantity variables given as a map (name -> quantity text).
func (e *Expression) EvalMap(quantities map[string]string) (string, error) {
	vars := make([]Var, 0, len(quantities))
	for k, v := range quantities {
		vars = append(vars, Quantity(k, v))
	}
	return e.Eval(vars...)
}

// Close releases the compiled expression now (rather than when the garbage collector finds it
// unreachable). It is safe to call more than once; it must not race with a running Eval.
func (e *Expression) Close() error {
	if h := e.h.Swap(nil); h != nil {
		e.cleanup.Stop()
		h.free()
	}
	runtime.KeepAlive(e)
	return nil
}

// ScaleIntOrPercent scales v against total like "rollout.scale_int_or_percent": integers come back
// unchanged; a percentage gives ceil (roundUp) or floor of p*total/100 in float64. A nil v is an
// *Error with Kind "nil_value"; bad strings "not_a_percentage" or "invalid_number" (Field "value").
// The string form goes through the typed C function kruise_scale_int_or_percent (no JSON).
func ScaleIntOrPercent(v *IntOrPercent, total int64, roundUp bool, mode ScaleMode) (int64, error) {
	return scaleWith(defaultBackend, v, total, roundUp, mode)
}

func scaleWith(be backend, v *IntOrPercent, total int64, roundUp bool, mode ScaleMode) (int64, error) {
	var m uint32
	switch mode {
	case ScaleModeScaled:
		m = scaleModeScaled
	case ScaleModeLegacy:
		m = scaleModeLegacy
	case ScaleModeKruise:
		m = scaleModeKruise
	default:
		return scaleViaCall(v, total, roundUp, mode) // the core names the bad mode
	}
	if v == nil {
		return scaleViaCall(v, total, roundUp, mode) // nil_value
	}
	if !v.IsString {
		return int64(v.IntVal), nil
	}
	return be.scale(v.StrVal, total, roundUp, m)
}

// liveExpressions is the default backend's count of compiled expressions not yet freed (a test
// hook).
func liveExpressions() int { return defaultBackend.liveExpressions() }
