package kruisecore

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"unsafe"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/kruise-core/kruise-core/bindings/go/internal/wasm"
)

// The WebAssembly backend (the default): the C ABI of kruise-core compiled to wasm32-wasip1
// (bindings/wasm, embedded from internal/wasm) and run by wazero, a pure-Go runtime, so the
// package needs neither cgo nor a native library.
//
// The module is compiled once, on first use (sync.Once), through wazero's compilation cache in
// the user's cache directory (os.UserCacheDir()/kruise-core-go/wazero; KRUISE_CORE_WASM_CACHE
// names another directory, or "off" for none), so only the first program run on a machine pays
// the compile (seconds) and later runs load the machine code (milliseconds). Each call borrows an instance from a
// pool (one instance runs one call at a time; the pool keeps up to GOMAXPROCS idle instances and
// makes more when every one is busy). An instance's memory is limited to wasmMemoryLimitBytes;
// one that grew past wasmKeepBytes, or trapped, is dropped after its call. Statuses and error
// JSON are the C ABI's, so errors are the same *Error kinds as with the cgo backend; a trap (a
// Rust panic, or memory exhausted) is Kind "panic" (StatusPanic).

const (
	// wasmMemoryLimitBytes caps the linear memory of one instance (1 GiB).
	wasmMemoryLimitBytes = 1 << 30
	// wasmKeepBytes: an instance whose memory grew larger is not kept in the pool.
	wasmKeepBytes = 64 << 20
	// wasmVarSize is sizeof(kruise_var) on wasm32 (name, name_len, kind, value, value_len, pad,
	// number at 24).
	wasmVarSize = 32
	// wasmVarQuantity and wasmVarNumber are KRUISE_VAR_QUANTITY and KRUISE_VAR_NUMBER.
	wasmVarQuantity = 0
	wasmVarNumber   = 1
	// Offsets in an instance's slot region: out buffer, error buffer, a u8 or pointer result, an
	// int64 result.
	slotOut   = 0
	slotErr   = 8
	slotSmall = 16
	slotI64   = 24
	slotSize  = 32
)

// wasmBackend runs the embedded module.
type wasmBackend struct{}

func (wasmBackend) name() string { return "wasm" }

var wasmEngine struct {
	once     sync.Once
	err      error
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	pool     chan *instance
	version  string
}

var wasmCtx = context.Background()

// wasmInit compiles the module (once) and reports why it could not.
func wasmInit() error {
	e := &wasmEngine
	e.once.Do(func() {
		cfg := wazero.NewRuntimeConfig().WithMemoryLimitPages(wasmMemoryLimitBytes / 65536)
		if cache := wasmCompilationCache(); cache != nil {
			cfg = cfg.WithCompilationCache(cache)
		}
		rt := wazero.NewRuntimeWithConfig(wasmCtx, cfg)
		if _, err := wasi_snapshot_preview1.Instantiate(wasmCtx, rt); err != nil {
			e.err = wasmError("instantiate WASI", err)
			return
		}
		compiled, err := rt.CompileModule(wasmCtx, wasm.Module)
		if err != nil {
			e.err = wasmError("compile the module", err)
			return
		}
		e.rt, e.compiled = rt, compiled
		e.pool = make(chan *instance, max(runtime.GOMAXPROCS(0), 1))
		i, err := newInstance()
		if err != nil {
			e.err = err
			return
		}
		if _, err := i.invoke(i.fVersion); err == nil {
			e.version = i.cString(uint32(i.stack[0]))
		}
		i.release()
	})
	return e.err
}

// wasmCompilationCache is the on-disk cache of compiled modules, or nil when there is no usable
// directory (then every process compiles the module again).
func wasmCompilationCache() wazero.CompilationCache {
	dir := os.Getenv("KRUISE_CORE_WASM_CACHE")
	if dir == "off" {
		return nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "kruise-core-go", "wazero")
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}

// wasmError is a failure of the runtime itself (not of a decision): Kind "panic".
func wasmError(what string, err error) error {
	return &Error{status: StatusPanic, kind: "panic", message: "kruise-core wasm: " + what + ": " + err.Error()}
}

// tooLarge is the input_too_large error for an input the module cannot even be given.
func tooLarge(what string, n int, limit int64) error {
	return &Error{status: StatusInputTooLarge, kind: "input_too_large", message: fmt.Sprintf(
		"%s: %d bytes, more than the input-size limit of %d bytes (SetMaxInputBytes changes it)", what, n, limit)}
}

// instance is one instantiation of the module; one goroutine uses it at a time.
type instance struct {
	mod api.Module
	mem api.Memory

	fCall, fFnIDs, fMatches, fCompile, fCompileStrict, fEval, fExprFree api.Function
	fScale, fSetMax, fAlloc, fFree, fBufFree, fLive, fVersion           api.Function
	fScaleValue, fVarIndex, fVarsNew, fVarsFree, fVarsSetQ, fVarsSetN   api.Function
	fVarsUnset, fEvalInto, fVarsError, fVarCount                        api.Function

	slots    uint32 // slotSize bytes for out parameters
	arena    uint32 // a reusable region for inputs
	arenaCap uint32
	limit    int64 // the input-size limit last set in this instance (-1: not yet)
	broken   bool  // it trapped: drop it
	stack    [8]uint64
	scratch  []byte

	// mu guards the expressions compiled in this instance (their owners free them from any
	// goroutine: the frees wait in pending until the instance is next borrowed).
	mu      sync.Mutex
	exprs   map[*wasmExpr]uint32
	pending []pendingFree
	dead    bool
}

// pendingFree is a library object to free at the instance's next use: an expression, or an
// Evaluator's bound values (vars).
type pendingFree struct {
	p    uint32
	vars bool
}

func newInstance() (*instance, error) {
	mod, err := wasmEngine.rt.InstantiateModule(wasmCtx, wasmEngine.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize"))
	if err != nil {
		return nil, wasmError("instantiate", err)
	}
	i := &instance{mod: mod, mem: mod.Memory(), limit: -1, exprs: map[*wasmExpr]uint32{}}
	for _, f := range []struct {
		p    *api.Function
		name string
	}{
		{&i.fCall, "kruise_call"}, {&i.fFnIDs, "kruise_fn_ids"}, {&i.fMatches, "kruise_matches"},
		{&i.fCompile, "kruise_expr_compile"}, {&i.fCompileStrict, "kruise_expr_compile_strict"},
		{&i.fEval, "kruise_expr_eval"}, {&i.fExprFree, "kruise_expr_free"},
		{&i.fScale, "kruise_scale_int_or_percent"}, {&i.fSetMax, "kruise_set_max_input_bytes"},
		{&i.fAlloc, "kruise_wasm_alloc"}, {&i.fFree, "kruise_wasm_free"},
		{&i.fBufFree, "kruise_wasm_buf_free"}, {&i.fLive, "kruise_expr_live_count"},
		{&i.fVersion, "kruise_version"}, {&i.fScaleValue, "kruise_scale_int_or_percent_value"},
		{&i.fVarIndex, "kruise_expr_var_index"}, {&i.fVarsNew, "kruise_expr_vars_new"},
		{&i.fVarsFree, "kruise_expr_vars_free"}, {&i.fVarsSetQ, "kruise_expr_vars_set_quantity"},
		{&i.fVarsSetN, "kruise_expr_vars_set_number"}, {&i.fVarsUnset, "kruise_expr_vars_unset"},
		{&i.fEvalInto, "kruise_expr_eval_into"}, {&i.fVarsError, "kruise_expr_vars_error"},
		{&i.fVarCount, "kruise_expr_var_count"},
	} {
		if *f.p = mod.ExportedFunction(f.name); *f.p == nil || i.mem == nil {
			mod.Close(wasmCtx)
			return nil, wasmError("instantiate", fmt.Errorf("the module lacks %s or its memory", f.name))
		}
	}
	p, err := i.invoke(i.fAlloc, slotSize)
	if err != nil || p == 0 {
		mod.Close(wasmCtx)
		return nil, wasmError("instantiate", fmt.Errorf("no memory for the out slots (%v)", err))
	}
	i.slots = uint32(p)
	return i, nil
}

// getInstance borrows an idle instance (or makes one); give it back with release.
func getInstance() (*instance, error) {
	if err := wasmInit(); err != nil {
		return nil, err
	}
	for {
		select {
		case i := <-wasmEngine.pool:
			if i.drain(); !i.broken {
				return i, nil
			}
			i.discard()
		default:
			return newInstance()
		}
	}
}

// release returns i to the pool, or drops it when it trapped, grew large or the pool is full.
func (i *instance) release() {
	if !i.broken && i.mem.Size() <= wasmKeepBytes {
		if i.arenaCap > 1<<20 { // do not keep a big input region around
			i.invoke(i.fFree, uint64(i.arena), uint64(i.arenaCap))
			i.arena, i.arenaCap = 0, 0
		}
		if !i.broken {
			select {
			case wasmEngine.pool <- i:
				return
			default:
			}
		}
	}
	i.discard()
}

// discard closes the instance; the expressions compiled in it forget it.
func (i *instance) discard() {
	i.mu.Lock()
	i.dead = true
	exprs := i.exprs
	i.exprs, i.pending = nil, nil
	i.mu.Unlock()
	for x := range exprs {
		x.forget(i)
	}
	i.mod.Close(wasmCtx)
}

// drain frees the expressions whose owners released them since the last use.
func (i *instance) drain() {
	i.mu.Lock()
	pending := i.pending
	i.pending = nil
	i.mu.Unlock()
	for _, p := range pending {
		f := i.fExprFree
		if p.vars {
			f = i.fVarsFree
		}
		if _, err := i.invoke(f, uint64(p.p)); err != nil {
			return
		}
	}
}

// invoke calls f with args; the first result is returned (and left in i.stack[0]). An error is a
// trap: the instance is marked broken.
func (i *instance) invoke(f api.Function, args ...uint64) (uint64, error) {
	copy(i.stack[:], args)
	if err := f.CallWithStack(wasmCtx, i.stack[:]); err != nil {
		i.broken = true
		return 0, wasmError("trap in "+f.Definition().Name(), err)
	}
	return i.stack[0], nil
}

// syncLimit gives the instance the process-wide input-size limit.
func (i *instance) syncLimit() error {
	lim := maxInput.Load()
	if lim == i.limit {
		return nil
	}
	if _, err := i.invoke(i.fSetMax, uint64(min(lim, math.MaxUint32))); err != nil {
		return err
	}
	i.limit = lim
	return nil
}

// ensureArena makes the input region at least n bytes long.
func (i *instance) ensureArena(n uint64) error {
	if n <= uint64(i.arenaCap) {
		return nil
	}
	if n > math.MaxUint32-7 {
		return tooLarge("input", int(n), wasmMemoryLimitBytes)
	}
	if i.arenaCap > 0 {
		if _, err := i.invoke(i.fFree, uint64(i.arena), uint64(i.arenaCap)); err != nil {
			return err
		}
		i.arena, i.arenaCap = 0, 0
	}
	c := max(align8(n), 4096)
	p, err := i.invoke(i.fAlloc, c)
	if err != nil {
		return err
	}
	if p == 0 {
		return &Error{status: StatusInputTooLarge, kind: "input_too_large", message: fmt.Sprintf(
			"input: %d bytes do not fit in the WebAssembly module's memory (%d bytes)", n, wasmMemoryLimitBytes)}
	}
	i.arena, i.arenaCap = uint32(p), uint32(c)
	return nil
}

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// piece is one (pointer, length) argument; limited pieces longer than the input-size limit are
// passed with their length and no bytes (the library refuses them before reading).
type piece struct {
	b       []byte
	limited bool
}

func strBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// place writes the pieces into the arena and sets args[2k], args[2k+1] to piece k's pointer and
// length.
func (i *instance) place(args []uint64, pieces ...piece) error {
	if err := i.syncLimit(); err != nil {
		return err
	}
	var need uint64
	for _, p := range pieces {
		if uint64(len(p.b)) > math.MaxUint32 {
			return tooLarge("input", len(p.b), i.limit)
		}
		if !p.limited || int64(len(p.b)) <= i.limit {
			need += align8(uint64(len(p.b)))
		}
	}
	if err := i.ensureArena(need); err != nil {
		return err
	}
	off := i.arena
	for k, p := range pieces {
		args[2*k], args[2*k+1] = 0, uint64(len(p.b))
		if len(p.b) == 0 || (p.limited && int64(len(p.b)) > i.limit) {
			continue
		}
		i.mem.Write(off, p.b)
		args[2*k] = uint64(off)
		off += uint32(align8(uint64(len(p.b))))
	}
	return nil
}

// readBuf copies the kruise_buf at addr out of the module and frees it.
func (i *instance) readBuf(addr uint32) ([]byte, error) {
	ptr, _ := i.mem.ReadUint32Le(addr)
	n, _ := i.mem.ReadUint32Le(addr + 4)
	if ptr == 0 || n == 0 {
		return nil, nil
	}
	view, ok := i.mem.Read(ptr, n)
	if !ok {
		i.broken = true
		return nil, wasmError("read", fmt.Errorf("buffer %d+%d outside memory", ptr, n))
	}
	out := append([]byte(nil), view...)
	if _, err := i.invoke(i.fBufFree, uint64(ptr), uint64(n)); err != nil {
		return nil, err
	}
	return out, nil
}

// cString reads a NUL-terminated string at p.
func (i *instance) cString(p uint32) string {
	var b []byte
	for ; ; p++ {
		c, ok := i.mem.ReadByte(p)
		if !ok || c == 0 {
			return string(b)
		}
		b = append(b, c)
	}
}

// finish reads the out buffer at slot and turns the status into (bytes, error).
func (i *instance) finish(st uint64, slot uint32) ([]byte, error) {
	body, err := i.readBuf(i.slots + slot)
	if err != nil {
		return nil, err
	}
	return result(Status(uint32(st)), body)
}

func (wasmBackend) call(fnID string, input []byte) ([]byte, error) {
	i, err := getInstance()
	if err != nil {
		return nil, err
	}
	defer i.release()
	var a [5]uint64
	if err := i.place(a[:], piece{strBytes(fnID), false}, piece{input, true}); err != nil {
		return nil, err
	}
	a[4] = uint64(i.slots + slotOut)
	st, err := i.invoke(i.fCall, a[:]...)
	if err != nil {
		return nil, err
	}
	return i.finish(st, slotOut)
}

func (wasmBackend) fnIDs() ([]byte, error) {
	i, err := getInstance()
	if err != nil {
		return nil, err
	}
	defer i.release()
	st, err := i.invoke(i.fFnIDs, uint64(i.slots+slotOut))
	if err != nil {
		return nil, err
	}
	return i.finish(st, slotOut)
}

func (wasmBackend) matches(fnID string, expected, got []byte) (bool, error) {
	i, err := getInstance()
	if err != nil {
		return false, err
	}
	defer i.release()
	var a [8]uint64
	if err := i.place(a[:], piece{strBytes(fnID), false}, piece{expected, true}, piece{got, true}); err != nil {
		return false, err
	}
	a[6], a[7] = uint64(i.slots+slotSmall), uint64(i.slots+slotErr)
	st, err := i.invoke(i.fMatches, a[:]...)
	if err != nil {
		return false, err
	}
	if _, err := i.finish(st, slotErr); err != nil {
		return false, err
	}
	r, _ := i.mem.ReadByte(i.slots + slotSmall)
	return r == 1, nil
}

func (wasmBackend) scale(s string, total int64, roundUp bool, mode uint32) (int64, error) {
	i, err := getInstance()
	if err != nil {
		return 0, err
	}
	defer i.release()
	var a [7]uint64
	if err := i.place(a[:], piece{strBytes(s), false}); err != nil {
		return 0, err
	}
	a[2] = uint64(total)
	if roundUp {
		a[3] = 1
	}
	a[4] = uint64(mode)
	// The scalar form first (no out slots to read); its one ambiguous answer (an error, or the
	// value INT64_MIN) is settled by the full form.
	if v, err := i.invoke(i.fScaleValue, a[:5]...); err != nil {
		return 0, err
	} else if int64(v) != math.MinInt64 {
		return int64(v), nil
	}
	a[5], a[6] = uint64(i.slots+slotI64), uint64(i.slots+slotErr)
	st, err := i.invoke(i.fScale, a[:]...)
	if err != nil {
		return 0, err
	}
	if _, err := i.finish(st, slotErr); err != nil {
		return 0, err
	}
	v, _ := i.mem.ReadUint64Le(i.slots + slotI64)
	return int64(v), nil
}

func (wasmBackend) setMaxInputBytes(int) {} // each instance reads maxInput before a call

func (wasmBackend) version() string {
	if wasmInit() != nil {
		return ""
	}
	return wasmEngine.version
}

// liveExpressions sums the library's live-expression count over the idle instances (after
// running their pending frees). A test hook: instances busy in other goroutines are not counted.
func (wasmBackend) liveExpressions() int {
	if wasmInit() != nil {
		return 0
	}
	var held []*instance
	for len(held) < cap(wasmEngine.pool) {
		select {
		case i := <-wasmEngine.pool:
			held = append(held, i)
			continue
		default:
		}
		break
	}
	n := 0
	for _, i := range held {
		i.drain()
		if v, err := i.invoke(i.fLive); err == nil {
			n += int(uint32(v))
		}
		i.release()
	}
	return n
}

// wasmExpr is a compiled expression of the wasm backend. It is compiled in each instance that
// evaluates it (on first use there), so concurrent Evals run in parallel instances; homes maps
// each instance to the expression's address in it.
type wasmExpr struct {
	src    string
	strict bool

	mu     sync.Mutex
	closed bool
	homes  map[*instance]uint32
}

func (wasmBackend) compile(src string, strict bool) (exprImpl, error) {
	i, err := getInstance()
	if err != nil {
		return nil, err
	}
	defer i.release()
	p, err := i.compileExpr(src, strict)
	if err != nil {
		return nil, err
	}
	x := &wasmExpr{src: src, strict: strict, homes: map[*instance]uint32{}}
	x.adopt(i, p)
	return x, nil
}

// compileExpr compiles src in this instance and returns the expression's address.
func (i *instance) compileExpr(src string, strict bool) (uint32, error) {
	var a [4]uint64
	if err := i.place(a[:], piece{strBytes(src), true}); err != nil {
		return 0, err
	}
	a[2], a[3] = uint64(i.slots+slotSmall), uint64(i.slots+slotErr)
	f := i.fCompile
	if strict {
		f = i.fCompileStrict
	}
	st, err := i.invoke(f, a[:]...)
	if err != nil {
		return 0, err
	}
	if _, err := i.finish(st, slotErr); err != nil {
		return 0, err
	}
	p, _ := i.mem.ReadUint32Le(i.slots + slotSmall)
	return p, nil
}

// adopt records that x lives at p in i (which the caller holds); false when x was closed
// meanwhile, and then p is freed.
func (x *wasmExpr) adopt(i *instance, p uint32) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		i.invoke(i.fExprFree, uint64(p))
		return false
	}
	i.mu.Lock()
	i.exprs[x] = p
	i.mu.Unlock()
	x.homes[i] = p
	return true
}

// forget drops a discarded instance.
func (x *wasmExpr) forget(i *instance) {
	x.mu.Lock()
	delete(x.homes, i)
	x.mu.Unlock()
}

// free releases the expression in every instance that holds it (at their next use).
func (x *wasmExpr) free() {
	x.mu.Lock()
	x.closed = true
	homes := x.homes
	x.homes = nil
	x.mu.Unlock()
	for i, p := range homes {
		i.mu.Lock()
		if !i.dead {
			delete(i.exprs, x)
			i.pending = append(i.pending, pendingFree{p: p})
		}
		i.mu.Unlock()
	}
}

func (x *wasmExpr) eval(vars []Var) (string, error) {
	i, err := getInstance()
	if err != nil {
		return "", err
	}
	defer i.release()
	x.mu.Lock()
	closed := x.closed
	p, ok := x.homes[i]
	x.mu.Unlock()
	if closed {
		return "", ErrClosed
	}
	if !ok {
		if p, err = i.compileExpr(x.src, x.strict); err != nil {
			return "", err
		}
		if !x.adopt(i, p) {
			return "", ErrClosed
		}
	}
	return i.evalExpr(p, vars)
}

// evalExpr writes the kruise_var array (and the strings after it) and calls kruise_expr_eval.
func (i *instance) evalExpr(p uint32, vars []Var) (string, error) {
	total := uint64(len(vars)) * wasmVarSize
	for _, v := range vars {
		total += uint64(len(v.Name))
		if !v.IsNumber {
			total += uint64(len(v.Quantity))
		}
	}
	if err := i.ensureArena(total); err != nil {
		return "", err
	}
	base := i.arena
	buf := i.scratch[:0]
	if uint64(cap(buf)) < total {
		buf = make([]byte, 0, total)
	}
	buf = buf[:len(vars)*wasmVarSize]
	clear(buf)
	le := binary.LittleEndian
	str := func(s string) uint32 {
		if s == "" {
			return 0
		}
		at := base + uint32(len(buf))
		buf = append(buf, s...)
		return at
	}
	for k, v := range vars {
		rec := k * wasmVarSize
		name := str(v.Name)
		le.PutUint32(buf[rec:], name)
		le.PutUint32(buf[rec+4:], uint32(len(v.Name)))
		if v.IsNumber {
			le.PutUint32(buf[rec+8:], wasmVarNumber)
			le.PutUint64(buf[rec+24:], math.Float64bits(v.Number))
		} else {
			q := str(v.Quantity)
			le.PutUint32(buf[rec+8:], wasmVarQuantity)
			le.PutUint32(buf[rec+12:], q)
			le.PutUint32(buf[rec+16:], uint32(len(v.Quantity)))
		}
	}
	if cap(buf) <= 4096 {
		i.scratch = buf
	}
	varsPtr := uint64(0)
	if len(buf) > 0 {
		i.mem.Write(base, buf)
		if len(vars) > 0 {
			varsPtr = uint64(base)
		}
	}
	st, err := i.invoke(i.fEval, uint64(p), varsPtr, uint64(len(vars)), uint64(i.slots+slotOut))
	if err != nil {
		return "", err
	}
	body, err := i.finish(st, slotOut)
	if err != nil {
		return "", err
	}
	return string(body), nil
}

func (x *wasmExpr) bind() (boundImpl, error) {
	b := &wasmBound{x: x, homes: map[*instance]boundHome{}, names: map[string]int{}}
	i, p, _, err := b.home()
	if err != nil {
		return nil, err
	}
	defer i.release()
	n, err := i.invoke(i.fVarCount, uint64(p))
	if err != nil {
		return nil, err
	}
	b.vals = make([]boundVal, int(uint32(n)))
	return b, nil
}

// wasmBound is an Evaluator of the wasm backend. The bound values live in Go (vals) and in a
// kruise_expr_vars in each instance that evaluated it (homes), refreshed from vals when the
// instance's copy is older than the last Set (gen). Only the Evaluator's goroutine touches it.
type wasmBound struct {
	x     *wasmExpr
	vals  []boundVal
	gen   uint64
	homes map[*instance]boundHome
	names map[string]int
}

type boundVal struct {
	set, isNum bool
	q          string
	n          float64
}

// boundHome is the kruise_expr_vars of a wasmBound in one instance, and the gen it holds.
type boundHome struct {
	p   uint32
	gen uint64
}

// home borrows an instance and returns the expression's and the vars' addresses in it.
func (b *wasmBound) home() (*instance, uint32, boundHome, error) {
	i, err := getInstance()
	if err != nil {
		return nil, 0, boundHome{}, err
	}
	b.x.mu.Lock()
	closed := b.x.closed
	p, ok := b.x.homes[i]
	b.x.mu.Unlock()
	if closed {
		i.release()
		return nil, 0, boundHome{}, ErrClosed
	}
	if !ok {
		if p, err = i.compileExpr(b.x.src, b.x.strict); err != nil {
			i.release()
			return nil, 0, boundHome{}, err
		}
		if !b.x.adopt(i, p) {
			i.release()
			return nil, 0, boundHome{}, ErrClosed
		}
	}
	h, ok := b.homes[i]
	if !ok {
		v, err := i.invoke(i.fVarsNew, uint64(p))
		if err != nil || v == 0 {
			i.release()
			if err == nil {
				err = wasmError("kruise_expr_vars_new", fmt.Errorf("no memory"))
			}
			return nil, 0, boundHome{}, err
		}
		h = boundHome{p: uint32(v), gen: math.MaxUint64}
		if len(b.homes) >= 2*cap(wasmEngine.pool)+2 {
			b.prune()
		}
		b.homes[i] = h
	}
	return i, p, h, nil
}

// prune forgets the instances that were discarded.
func (b *wasmBound) prune() {
	for i := range b.homes {
		i.mu.Lock()
		dead := i.dead
		i.mu.Unlock()
		if dead {
			delete(b.homes, i)
		}
	}
}

func (b *wasmBound) index(name string) int {
	if j, ok := b.names[name]; ok {
		return j
	}
	i, p, _, err := b.home()
	if err != nil {
		return -1
	}
	defer i.release()
	var a [3]uint64
	if err := i.place(a[1:], piece{strBytes(name), false}); err != nil {
		return -1
	}
	a[0] = uint64(p)
	v, err := i.invoke(i.fVarIndex, a[:]...)
	if err != nil {
		return -1
	}
	j := int(int64(v))
	if len(b.names) < 64 {
		b.names[name] = j
	}
	return j
}

func (b *wasmBound) at(i int) error {
	if i < 0 || i >= len(b.vals) {
		return errPosition()
	}
	b.gen++
	return nil
}

func (b *wasmBound) setQuantity(i int, q string) error {
	if err := b.at(i); err != nil {
		return err
	}
	b.vals[i] = boundVal{set: true, q: q}
	return nil
}

func (b *wasmBound) setNumber(i int, x float64) error {
	if err := b.at(i); err != nil {
		return err
	}
	b.vals[i] = boundVal{set: true, isNum: true, n: x}
	return nil
}

func (b *wasmBound) unset(i int) error {
	if err := b.at(i); err != nil {
		return err
	}
	b.vals[i] = boundVal{}
	return nil
}

// sync copies the Go-side values into the instance's kruise_expr_vars.
func (b *wasmBound) sync(i *instance, h boundHome) error {
	var a [4]uint64
	for k, v := range b.vals {
		a[0], a[1] = uint64(h.p), uint64(k)
		var f api.Function
		switch {
		case !v.set:
			f = i.fVarsUnset
		case v.isNum:
			f, a[2] = i.fVarsSetN, math.Float64bits(v.n)
		default:
			if err := i.place(a[2:], piece{strBytes(v.q), false}); err != nil {
				return err
			}
			f = i.fVarsSetQ
		}
		n := 2
		if v.set {
			n = 3
			if !v.isNum {
				n = 4
			}
		}
		st, err := i.invoke(f, a[:n]...)
		if err != nil {
			return err
		}
		if Status(uint32(st)) != StatusOK {
			return &Error{status: Status(uint32(st)), kind: "invalid_utf8", message: fmt.Sprintf("variable %d: the value is not valid UTF-8", k)}
		}
	}
	h.gen = b.gen
	b.homes[i] = h
	return nil
}

// wasmOutMin is the least room eval_into gets for the printed result.
const wasmOutMin = 64

func (b *wasmBound) appendEval(dst []byte) ([]byte, error) {
	i, p, h, err := b.home()
	if err != nil {
		return dst, err
	}
	defer i.release()
	if h.gen != b.gen {
		if err := b.sync(i, h); err != nil {
			return dst, err
		}
	}
	need := uint64(wasmOutMin)
	for {
		if err := i.ensureArena(need); err != nil {
			return dst, err
		}
		n, err := i.invoke(i.fEvalInto, uint64(p), uint64(h.p), uint64(i.arena), uint64(i.arenaCap))
		if err != nil {
			return dst, err
		}
		switch r := int64(n); {
		case r < 0:
			st, err := i.invoke(i.fVarsError, uint64(h.p), uint64(i.slots+slotErr))
			if err != nil {
				return dst, err
			}
			_, err = i.finish(st, slotErr)
			if err == nil {
				err = &Error{status: Status(-r), kind: "internal", message: "no error recorded"}
			}
			return dst, err
		case r <= int64(i.arenaCap):
			view, ok := i.mem.Read(i.arena, uint32(r))
			if !ok {
				i.broken = true
				return dst, wasmError("read", fmt.Errorf("result %d+%d outside memory", i.arena, r))
			}
			return append(dst, view...), nil
		default:
			need = uint64(r)
		}
	}
}

func (b *wasmBound) free() {
	for i, h := range b.homes {
		i.mu.Lock()
		if !i.dead {
			i.pending = append(i.pending, pendingFree{p: h.p, vars: true})
		}
		i.mu.Unlock()
	}
	b.homes = nil
}
