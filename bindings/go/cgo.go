//go:build cgo

package kruisecore

/*
#cgo CFLAGS: -I${SRCDIR}/../c/include
#cgo LDFLAGS: ${SRCDIR}/../../target/release/libkruise_core.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
#include "kruise_core.h"
*/
import "C"

import (
	"encoding/json"
	"math"
	"unsafe"
)

// bytesArg lends b to C for the duration of one call: (pointer, length), nil for empty.
func bytesArg(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

// stringArg lends s to C for the duration of one call.
func stringArg(s string) (*C.uint8_t, C.size_t) {
	if len(s) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// take copies a library buffer into Go memory and frees it.
func take(buf C.kruise_buf) []byte {
	if buf.ptr == nil {
		return nil
	}
	out := C.GoBytes(unsafe.Pointer(buf.ptr), C.int(buf.len))
	C.kruise_buf_free(buf)
	return out
}

// result turns a status and its out buffer into (bytes, error).
func result(status C.kruise_status, buf C.kruise_buf) ([]byte, error) {
	body := take(buf)
	if Status(status) != StatusOK {
		return nil, errorFromJSON(Status(status), body)
	}
	return body, nil
}

// Call calls the decision function fnID (e.g. "resources.eval") on the JSON document input and
// returns the result JSON. A decision error is an *Error (Kind "unknown_fn", "invalid_input",
// "invalid_json" (also for arrays and objects nested 128 deep, the JSON parser's limit),
// "input_too_large" (input longer than MaxInputBytes), or the function's own kinds). Safe for
// concurrent use.
func Call(fnID string, input []byte) ([]byte, error) {
	fp, fl := stringArg(fnID)
	ip, il := bytesArg(input)
	var out C.kruise_buf
	st := C.kruise_call(fp, fl, ip, il, &out)
	return result(st, out)
}

// FnIDs lists every registered fn id.
func FnIDs() ([]string, error) {
	var out C.kruise_buf
	body, err := result(C.kruise_fn_ids(&out), out)
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
	fp, fl := stringArg(fnID)
	ep, el := bytesArg(expected)
	gp, gl := bytesArg(got)
	var res C.uint8_t
	var errBuf C.kruise_buf
	st := C.kruise_matches(fp, fl, ep, el, gp, gl, &res, &errBuf)
	if _, err := result(st, errBuf); err != nil {
		return false, err
	}
	return res == 1, nil
}

// SetMaxInputBytes sets the input-size limit, in bytes, of Call, Matches and Compile (default
// DefaultMaxInputBytes, 16 MiB) and returns the previous limit. A longer input is an *Error with
// Kind "input_too_large" and Status StatusInputTooLarge, refused before it is read. The limit is
// the linked C library's and so process-wide. It panics when n is negative.
func SetMaxInputBytes(n int) int {
	if n < 0 {
		panic("kruisecore: SetMaxInputBytes: negative limit")
	}
	return clampInt(C.kruise_set_max_input_bytes(C.size_t(n)))
}

// MaxInputBytes is the current input-size limit in bytes.
func MaxInputBytes() int { return clampInt(C.kruise_max_input_bytes()) }

// clampInt converts a size_t to int, saturating (the C side may hold SIZE_MAX).
func clampInt(n C.size_t) int {
	if uint64(n) > math.MaxInt {
		return math.MaxInt
	}
	return int(n)
}

// Version is the version of the linked Rust library (e.g. "0.1.0").
func Version() string { return C.GoString(C.kruise_version()) }

// cStatuses lists the header's status values, for a test that pins the Go constants to them.
func cStatuses() map[Status]uint32 {
	return map[Status]uint32{
		StatusOK:              uint32(C.KRUISE_OK),
		StatusDecisionError:   uint32(C.KRUISE_DECISION_ERROR),
		StatusInvalidUTF8:     uint32(C.KRUISE_INVALID_UTF8),
		StatusInvalidJSON:     uint32(C.KRUISE_INVALID_JSON),
		StatusNullParameter:   uint32(C.KRUISE_NULL_PARAMETER),
		StatusUnknownFn:       uint32(C.KRUISE_UNKNOWN_FN),
		StatusPanic:           uint32(C.KRUISE_PANIC),
		StatusInvalidArgument: uint32(C.KRUISE_INVALID_ARGUMENT),
		StatusUnsupported:     uint32(C.KRUISE_UNSUPPORTED),
		StatusInputTooLarge:   uint32(C.KRUISE_INPUT_TOO_LARGE),
	}
}
