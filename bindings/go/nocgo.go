//go:build !cgo

package kruisecore

// This file keeps the package compiling with CGO_ENABLED=0: every entry point returns
// ErrCgoRequired.

// Call needs cgo; see the cgo build for documentation.
func Call(fnID string, input []byte) ([]byte, error) { return nil, ErrCgoRequired }

// FnIDs needs cgo.
func FnIDs() ([]string, error) { return nil, ErrCgoRequired }

// Matches needs cgo.
func Matches(fnID string, expected, got []byte) (bool, error) { return false, ErrCgoRequired }

// maxInputBytes is the limit SetMaxInputBytes records without cgo (nothing reads it).
var maxInputBytes = DefaultMaxInputBytes

// SetMaxInputBytes records the limit and returns the previous one; without cgo nothing uses it.
func SetMaxInputBytes(n int) int {
	if n < 0 {
		panic("kruisecore: SetMaxInputBytes: negative limit")
	}
	prev := maxInputBytes
	maxInputBytes = n
	return prev
}

// MaxInputBytes is the recorded limit.
func MaxInputBytes() int { return maxInputBytes }

// Version is "" without cgo.
func Version() string { return "" }

// Expression needs cgo.
type Expression struct{ src string }

// Compile needs cgo.
func Compile(src string) (*Expression, error) { return nil, ErrCgoRequired }

// CompileStrict needs cgo.
func CompileStrict(src string) (*Expression, error) { return nil, ErrCgoRequired }

// Source is the expression text.
func (e *Expression) Source() string { return e.src }

// Eval needs cgo.
func (e *Expression) Eval(vars ...Var) (string, error) { return "", ErrCgoRequired }

// EvalMap needs cgo.
func (e *Expression) EvalMap(quantities map[string]string) (string, error) {
	return "", ErrCgoRequired
}

// Close does nothing without cgo.
func (e *Expression) Close() error { return nil }
