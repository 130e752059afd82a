//go:build kruise_cgo && cgo

package kruisecore

// The cgo backend links the native library (build tag kruise_cgo). pkg-config finds it: install
// it with scripts/install-c --prefix DIR and set PKG_CONFIG_PATH=DIR/lib/pkgconfig (docs/go.md;
// without pkg-config, set CGO_CFLAGS=-IDIR/include and CGO_LDFLAGS to the static library and
// its native libraries, and build with PKG_CONFIG=true).

/*
#cgo pkg-config: --static kruise_core
#include "kruise_core.h"
*/
import "C"

import (
	"runtime"
	"slices"
	"unsafe"
)

// cgoBackend calls the native library.
type cgoBackend struct{}

func (cgoBackend) name() string { return "cgo" }

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

func cresult(status C.kruise_status, buf C.kruise_buf) ([]byte, error) {
	return result(Status(status), take(buf))
}

func (cgoBackend) call(fnID string, input []byte) ([]byte, error) {
	fp, fl := stringArg(fnID)
	ip, il := bytesArg(input)
	var out C.kruise_buf
	st := C.kruise_call(fp, fl, ip, il, &out)
	return cresult(st, out)
}

func (cgoBackend) fnIDs() ([]byte, error) {
	var out C.kruise_buf
	return cresult(C.kruise_fn_ids(&out), out)
}

func (cgoBackend) matches(fnID string, expected, got []byte) (bool, error) {
	fp, fl := stringArg(fnID)
	ep, el := bytesArg(expected)
	gp, gl := bytesArg(got)
	var res C.uint8_t
	var errBuf C.kruise_buf
	st := C.kruise_matches(fp, fl, ep, el, gp, gl, &res, &errBuf)
	if _, err := cresult(st, errBuf); err != nil {
		return false, err
	}
	return res == 1, nil
}

func (cgoBackend) setMaxInputBytes(n int) { C.kruise_set_max_input_bytes(C.size_t(n)) }

func (cgoBackend) version() string { return C.GoString(C.kruise_version()) }

func (cgoBackend) liveExpressions() int { return int(C.kruise_expr_live_count()) }

func (cgoBackend) scale(s string, total int64, roundUp bool, mode uint32) (int64, error) {
	sp, sl := stringArg(s)
	var up C.uint8_t
	if roundUp {
		up = 1
	}
	// The scalar form first (no out parameters: nothing escapes, no allocation); its one
	// ambiguous answer (an error, or the value INT64_MIN) is settled by the full form.
	if v := int64(C.kruise_scale_int_or_percent_value(sp, sl, C.int64_t(total), up, C.uint32_t(mode))); v != C.KRUISE_SCALE_ERROR {
		return v, nil
	}
	return cgoScaleFull(sp, sl, total, up, mode)
}

// cgoScaleFull is kruise_scale_int_or_percent with its out parameters (value or error JSON).
func cgoScaleFull(sp *C.uint8_t, sl C.size_t, total int64, up C.uint8_t, mode uint32) (int64, error) {
	var out C.int64_t
	var errBuf C.kruise_buf
	st := C.kruise_scale_int_or_percent(sp, sl, C.int64_t(total), up, C.uint32_t(mode), &out, &errBuf)
	if _, err := cresult(st, errBuf); err != nil {
		return 0, err
	}
	return int64(out), nil
}

// cgoExpr owns a C expression.
type cgoExpr struct{ p *C.kruise_expr }

func (cgoBackend) compile(src string, strict bool) (exprImpl, error) {
	sp, sl := stringArg(src)
	var e *C.kruise_expr
	var errBuf C.kruise_buf
	var st C.kruise_status
	if strict {
		st = C.kruise_expr_compile_strict(sp, sl, &e, &errBuf)
	} else {
		st = C.kruise_expr_compile(sp, sl, &e, &errBuf)
	}
	if _, err := cresult(st, errBuf); err != nil {
		return nil, err
	}
	return &cgoExpr{p: e}, nil
}

func (x *cgoExpr) free() { C.kruise_expr_free(x.p) }

func (x *cgoExpr) eval(vars []Var) (string, error) {
	var pin runtime.Pinner
	defer pin.Unpin()
	var cvars []C.kruise_var
	if len(vars) > 0 {
		cvars = make([]C.kruise_var, len(vars))
		for i, v := range vars {
			np, nl := stringArg(v.Name)
			if np != nil {
				pin.Pin(np)
			}
			cv := &cvars[i]
			cv.name, cv.name_len = np, nl
			if v.IsNumber {
				cv.kind = C.KRUISE_VAR_NUMBER
				cv.number = C.double(v.Number)
			} else {
				qp, ql := stringArg(v.Quantity)
				if qp != nil {
					pin.Pin(qp)
				}
				cv.kind = C.KRUISE_VAR_QUANTITY
				cv.value, cv.value_len = qp, ql
			}
		}
	}
	var vp *C.kruise_var
	if len(cvars) > 0 {
		vp = (*C.kruise_var)(unsafe.Pointer(&cvars[0]))
	}
	var out C.kruise_buf
	st := C.kruise_expr_eval(x.p, vp, C.size_t(len(cvars)), &out)
	body, err := cresult(st, out)
	if err != nil {
		return "", err
	}
	return string(body), nil
}

func (x *cgoExpr) bind() (boundImpl, error) {
	p := C.kruise_expr_vars_new(x.p)
	if p == nil {
		return nil, &Error{status: StatusNullParameter, kind: "null_parameter", message: "expr: NULL pointer"}
	}
	return &cgoBound{x: x, p: p, n: int(C.kruise_expr_var_count(x.p))}, nil
}

// cgoBound owns a C kruise_expr_vars of one cgoExpr.
type cgoBound struct {
	x *cgoExpr
	p *C.kruise_expr_vars
	n int
}

func (b *cgoBound) index(name string) int {
	np, nl := stringArg(name)
	return int(C.kruise_expr_var_index(b.x.p, np, nl))
}

// setStatus turns the status of a kruise_expr_vars_set_* call into an error.
func setStatus(st C.kruise_status) error {
	switch Status(st) {
	case StatusOK:
		return nil
	case StatusInvalidArgument:
		return errPosition()
	case StatusInvalidUTF8:
		return &Error{status: StatusInvalidUTF8, kind: "invalid_utf8", message: "value: invalid UTF-8"}
	default:
		return &Error{status: Status(st), kind: "null_parameter", message: "vars: NULL pointer"}
	}
}

func (b *cgoBound) setQuantity(i int, q string) error {
	if i < 0 || i >= b.n {
		return errPosition()
	}
	qp, ql := stringArg(q)
	return setStatus(C.kruise_expr_vars_set_quantity(b.p, C.size_t(i), qp, ql))
}

func (b *cgoBound) setNumber(i int, x float64) error {
	if i < 0 || i >= b.n {
		return errPosition()
	}
	return setStatus(C.kruise_expr_vars_set_number(b.p, C.size_t(i), C.double(x)))
}

func (b *cgoBound) unset(i int) error {
	if i < 0 || i >= b.n {
		return errPosition()
	}
	return setStatus(C.kruise_expr_vars_unset(b.p, C.size_t(i)))
}

func (b *cgoBound) appendEval(dst []byte) ([]byte, error) {
	for {
		spare := dst[len(dst):cap(dst)]
		var p *C.uint8_t
		if len(spare) > 0 {
			p = (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(spare)))
		}
		n := int64(C.kruise_expr_eval_into(b.x.p, b.p, p, C.size_t(len(spare))))
		switch {
		case n < 0:
			var out C.kruise_buf
			st := C.kruise_expr_vars_error(b.p, &out)
			_, err := cresult(st, out)
			if err == nil { // cannot happen: the failure is recorded before returning
				err = &Error{status: Status(-n), kind: "internal", message: "no error recorded"}
			}
			return dst, err
		case n <= int64(len(spare)):
			return dst[:len(dst)+int(n)], nil
		default:
			dst = slices.Grow(dst, int(n))
		}
	}
}

func (b *cgoBound) free() { C.kruise_expr_vars_free(b.p) }

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

// cConstants lists the header's other constants the Go side mirrors.
func cConstants() map[string][2]uint64 {
	return map[string][2]uint64{
		"KRUISE_SCALE_SCALED":            {uint64(scaleModeScaled), uint64(C.KRUISE_SCALE_SCALED)},
		"KRUISE_SCALE_LEGACY":            {uint64(scaleModeLegacy), uint64(C.KRUISE_SCALE_LEGACY)},
		"KRUISE_SCALE_KRUISE":            {uint64(scaleModeKruise), uint64(C.KRUISE_SCALE_KRUISE)},
		"KRUISE_VAR_QUANTITY":            {wasmVarQuantity, uint64(C.KRUISE_VAR_QUANTITY)},
		"KRUISE_VAR_NUMBER":              {wasmVarNumber, uint64(C.KRUISE_VAR_NUMBER)},
		"KRUISE_DEFAULT_MAX_INPUT_BYTES": {DefaultMaxInputBytes, uint64(C.KRUISE_DEFAULT_MAX_INPUT_BYTES)},
	}
}
