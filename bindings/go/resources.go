//go:build cgo

package kruisecore

/*
#include "kruise_core.h"
*/
import "C"

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Expression is a compiled resource expression (OpenKruise pkg/util/calculator, the
// resourcesExpr of a SidecarSet resourcesPolicy). It owns Rust memory: call Close when done. An
// Expression that is never closed is released by the garbage collector once it is unreachable
// (a cleanup registered with runtime.AddCleanup), so forgetting Close does not leak; Close still
// releases the memory at a known point.
type Expression struct {
	h       atomic.Pointer[exprHandle]
	src     string
	cleanup runtime.Cleanup
}

// exprHandle owns the C pointer. It is separate from Expression so that the garbage collector's
// cleanup can hold it without keeping the Expression reachable.
type exprHandle struct {
	p     *C.kruise_expr
	freed atomic.Bool
}

// free releases the C expression at most once: Close and the cleanup may both reach it (Close
// stops the cleanup, but one already queued still runs).
func (h *exprHandle) free() {
	if h.freed.CompareAndSwap(false, true) {
		C.kruise_expr_free(h.p)
	}
}

// liveExpressions is the C library's count of expressions compiled and not yet freed (a test
// hook: cgo cannot be used from _test.go files).
func liveExpressions() int { return int(C.kruise_expr_live_count()) }

// Compile parses src (e.g. "max(cpu*50%, 50m)") once, with OpenKruise's semantics. A syntax
// error that no variable can change is an *Error with Kind "syntax_error" (other kinds as in the
// resources spec); errors that depend on the variables are reported by Eval.
func Compile(src string) (*Expression, error) { return compile(src, false) }

// CompileStrict is Compile that also rejects every syntax error (Kind "syntax_error") and every
// number token OpenKruise silently reads as 0 or +Inf (Kind "suspicious_number", e.g. "1K").
func CompileStrict(src string) (*Expression, error) { return compile(src, true) }

func compile(src string, strict bool) (*Expression, error) {
	sp, sl := stringArg(src)
	var e *C.kruise_expr
	var errBuf C.kruise_buf
	var st C.kruise_status
	if strict {
		st = C.kruise_expr_compile_strict(sp, sl, &e, &errBuf)
	} else {
		st = C.kruise_expr_compile(sp, sl, &e, &errBuf)
	}
	if _, err := result(st, errBuf); err != nil {
		return nil, err
	}
	h := &exprHandle{p: e}
	x := &Expression{src: src}
	x.h.Store(h)
	x.cleanup = runtime.AddCleanup(x, (*exprHandle).free, h)
	return x, nil
}

// Source is the expression text given to Compile.
func (e *Expression) Source() string { return e.src }

// Eval evaluates the expression with the given variables and returns the printed result, exactly
// what the "resources.eval" function returns (e.g. "100m"). Errors are *Error with the resources
// spec's kinds (e.g. "undefined_variable", "division_by_zero"); ErrClosed after Close.
func (e *Expression) Eval(vars ...Var) (string, error) {
	h := e.h.Load()
	if h == nil {
		return "", ErrClosed
	}
	p := h.p
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
	st := C.kruise_expr_eval(p, vp, C.size_t(len(cvars)), &out)
	// e must stay reachable until the C call returns, or its cleanup could free p meanwhile.
	runtime.KeepAlive(e)
	body, err := result(st, out)
	if err != nil {
		return "", err
	}
	return string(body), nil
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
