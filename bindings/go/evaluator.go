package kruisecore

import (
	"runtime"
	"sync/atomic"
)

// Evaluator evaluates one compiled Expression with its variables bound once, by position, and
// prints the result into a buffer the caller provides: the fast path for evaluating the same
// expression many times (no variable names or quantity text cross into the library per call, and
// with the cgo backend no Go allocation at all). Make one with Expression.NewEvaluator.
//
// An Evaluator is not safe for concurrent use (it keeps its bound values and the last error);
// give each goroutine its own. It holds library memory: call Close when done (the garbage
// collector releases one that is never closed). It must not outlive the Expression's Close.
type Evaluator struct {
	x       *Expression
	h       atomic.Pointer[boundHandle]
	cleanup runtime.Cleanup
}

// boundImpl is an Evaluator inside one backend.
type boundImpl interface {
	// index is the position of the variable name, or -1 when the expression does not read it.
	index(name string) int
	setQuantity(i int, q string) error
	setNumber(i int, x float64) error
	unset(i int) error
	// appendEval evaluates and appends the printed result to dst.
	appendEval(dst []byte) ([]byte, error)
	free()
}

// boundHandle owns the backend's bound values (separate from Evaluator so that the cleanup can
// hold it without keeping the Evaluator reachable).
type boundHandle struct {
	impl  boundImpl
	freed atomic.Bool
}

func (h *boundHandle) free() {
	if h.freed.CompareAndSwap(false, true) {
		h.impl.free()
	}
}

// NewEvaluator makes an Evaluator of e with every variable unbound. ErrClosed after Close.
func (e *Expression) NewEvaluator() (*Evaluator, error) {
	h := e.h.Load()
	if h == nil {
		return nil, ErrClosed
	}
	impl, err := h.impl.bind()
	runtime.KeepAlive(e)
	if err != nil {
		return nil, err
	}
	bh := &boundHandle{impl: impl}
	v := &Evaluator{x: e}
	v.h.Store(bh)
	v.cleanup = runtime.AddCleanup(v, (*boundHandle).free, bh)
	return v, nil
}

// load is the live handle, or ErrClosed (the Evaluator or its Expression was closed).
func (v *Evaluator) load() (*boundHandle, error) {
	h := v.h.Load()
	if h == nil || v.x.h.Load() == nil {
		return nil, ErrClosed
	}
	return h, nil
}

// Index is the position of the variable name among those the expression reads (names are the
// lower-cased identifiers, as Eval matches them), or -1 when the expression does not read it.
func (v *Evaluator) Index(name string) int {
	h, err := v.load()
	if err != nil {
		return -1
	}
	i := h.impl.index(name)
	runtime.KeepAlive(v)
	return i
}

// SetQuantity binds the variable at position i (see Index) to a Kubernetes quantity given as
// text. The text is parsed when evaluating: text that is not a quantity makes EvalInto fail with
// Kind "invalid_quantity", as Eval does. A position out of range is Kind "invalid_argument".
func (v *Evaluator) SetQuantity(i int, quantity string) error {
	return v.with(func(b boundImpl) error { return b.setQuantity(i, quantity) })
}

// SetNumber binds the variable at position i to a plain number.
func (v *Evaluator) SetNumber(i int, x float64) error {
	return v.with(func(b boundImpl) error { return b.setNumber(i, x) })
}

// Unset unbinds the variable at position i (evaluating then fails with "undefined_variable").
func (v *Evaluator) Unset(i int) error {
	return v.with(func(b boundImpl) error { return b.unset(i) })
}

// with runs f on the live bound values (ErrClosed when closed).
func (v *Evaluator) with(f func(boundImpl) error) error {
	h, err := v.load()
	if err != nil {
		return err
	}
	err = f(h.impl)
	runtime.KeepAlive(v)
	return err
}

// Bind binds variables by name (what Eval takes); names the expression does not read are
// ignored, as Eval ignores them.
func (v *Evaluator) Bind(vars ...Var) error {
	for _, x := range vars {
		i := v.Index(x.Name)
		if i < 0 {
			continue
		}
		var err error
		if x.IsNumber {
			err = v.SetNumber(i, x.Number)
		} else {
			err = v.SetQuantity(i, x.Quantity)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// EvalInto evaluates with the bound variables and appends the printed result (what Eval returns,
// e.g. "100m") to dst, returning the extended slice. When dst has room for the result (32 bytes
// cover every ordinary result) nothing is allocated. Errors are those of Eval.
func (v *Evaluator) EvalInto(dst []byte) ([]byte, error) {
	h, err := v.load()
	if err != nil {
		return dst, err
	}
	out, err := h.impl.appendEval(dst)
	// v (and through it the Expression) must stay reachable until the call returns.
	runtime.KeepAlive(v)
	return out, err
}

// Close releases the bound values now. Safe to call more than once; must not race with EvalInto.
func (v *Evaluator) Close() error {
	if h := v.h.Swap(nil); h != nil {
		v.cleanup.Stop()
		h.free()
	}
	runtime.KeepAlive(v)
	return nil
}

// errPosition is the error for a variable position out of range.
func errPosition() error {
	return &Error{status: StatusInvalidArgument, kind: "invalid_argument", message: "variable position out of range"}
}
