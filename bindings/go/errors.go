package kruisecore

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Status is the C ABI's kruise_status: numbered once, never renumbered.
type Status uint32

// The statuses of the C ABI (bindings/c/include/kruise_core.h).
const (
	StatusOK              Status = 0 // success
	StatusDecisionError   Status = 1 // the decision rejected its input; see Error.Kind
	StatusInvalidUTF8     Status = 2 // a string argument is not UTF-8
	StatusInvalidJSON     Status = 3 // the input is not JSON
	StatusNullParameter   Status = 4 // a required pointer was nil
	StatusUnknownFn       Status = 5 // the fn id is not registered
	StatusPanic           Status = 6 // a Rust panic was caught (a bug)
	StatusInvalidArgument Status = 7 // an argument is out of range
	StatusUnsupported     Status = 8 // not available in this build of the library
	StatusInputTooLarge   Status = 9 // an input is longer than MaxInputBytes; Kind "input_too_large"
)

// DefaultMaxInputBytes is the default input-size limit (16 MiB) of Call, Matches and Compile; see
// SetMaxInputBytes.
const DefaultMaxInputBytes = 16 << 20

// ErrClosed is returned by Eval on an Expression after Close.
var ErrClosed = errors.New("kruisecore: expression is closed")

// Error is a decision error from kruise-core. Use errors.As to reach it:
//
//	var kerr *kruisecore.Error
//	if errors.As(err, &kerr) && kerr.Kind() == "division_by_zero" { ... }
type Error struct {
	status  Status
	kind    string
	message string
	field   string
}

// Kind is the stable snake_case error kind (e.g. "invalid_input", "syntax_error", "unknown_fn").
func (e *Error) Kind() string { return e.kind }

// Message is the human-readable message; it names the offending field or token.
func (e *Error) Message() string { return e.message }

// Field is the dotted path of the input field the error is about, or "" when unknown.
func (e *Error) Field() string { return e.field }

// Status is the C ABI status the error came with.
func (e *Error) Status() Status { return e.status }

// Error implements error: "kind: message".
func (e *Error) Error() string { return e.kind + ": " + e.message }

// errorFromJSON builds an *Error from the library's error JSON
// {"error": {"kind", "message", "field"?}}.
func errorFromJSON(status Status, body []byte) error {
	var doc struct {
		Error struct {
			Kind    string  `json:"kind"`
			Message string  `json:"message"`
			Field   *string `json:"field"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || doc.Error.Kind == "" {
		return &Error{status: status, kind: "internal", message: fmt.Sprintf("status %d with unreadable error %q", status, body)}
	}
	e := &Error{status: status, kind: doc.Error.Kind, message: doc.Error.Message}
	if doc.Error.Field != nil {
		e.field = *doc.Error.Field
	}
	return e
}
