package kruisecore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/kruise-core/kruise-core/bindings/go/internal/wasm"
)

// compileFreshRuntime compiles the embedded module in a new runtime (BenchmarkWasmCompile).
func compileFreshRuntime() error {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		return err
	}
	_, err := rt.CompileModule(ctx, wasm.Module)
	return err
}

var wasmBE = wasmBackend{}

// Many goroutines share the pool: every call gets its own instance, results stay right.
func TestWasmConcurrentCalls(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				total := 10 * (g + j + 1)
				in := fmt.Sprintf(`{"value":"50%%","total":%d,"roundUp":true,"mode":"scaled"}`, total)
				out, err := wasmBE.call(scale, []byte(in))
				if err != nil || string(out) != fmt.Sprint(total/2) {
					errs <- fmt.Errorf("total %d: %s %v", total, out, err)
					return
				}
				v := FromString("25%")
				if n, err := scaleWith(wasmBE, &v, int64(total), false, ScaleModeScaled); err != nil || n != int64(total/4) {
					errs <- fmt.Errorf("scale %d: %d %v", total, n, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// An expression evaluated from many goroutines is compiled in each instance that runs it; Close
// frees it in all of them.
func TestWasmExpressionAcrossInstances(t *testing.T) {
	base := wasmBE.liveExpressions()
	e, err := compileWith(wasmBE, "max(cpu*50%, 50m)", false)
	if err != nil {
		t.Fatal(err)
	}
	x := e.h.Load().impl.(*wasmExpr)
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, 16)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for j := 0; j < 200; j++ {
				if got, err := e.Eval(Quantity("cpu", "200m")); err != nil || got != "100m" {
					errs <- fmt.Errorf("%q %v", got, err)
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	x.mu.Lock()
	homes := len(x.homes)
	x.mu.Unlock()
	if homes < 1 {
		t.Fatalf("compiled in %d instances", homes)
	}
	if got := wasmBE.liveExpressions(); got < base+1 || got > base+homes {
		t.Fatalf("live %d, base %d, homes %d", got, base, homes)
	}
	e.Close()
	if got := wasmBE.liveExpressions(); got != base {
		t.Fatalf("after Close: live %d, want %d", got, base)
	}
	if _, err := e.Eval(); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// The limit set once reaches instances made before and after it.
func TestWasmLimitReachesEveryInstance(t *testing.T) {
	prev := SetMaxInputBytes(len(scaleInput))
	defer SetMaxInputBytes(prev)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := wasmBE.call(scale, []byte(scaleInput+" "))
			var kerr *Error
			if !errors.As(err, &kerr) || kerr.Kind() != "input_too_large" || kerr.Status() != StatusInputTooLarge {
				errs <- fmt.Errorf("want input_too_large, got %v", err)
			}
			if out, err := wasmBE.call(scale, []byte(scaleInput)); err != nil || string(out) != "5" {
				errs <- fmt.Errorf("at the limit: %s %v", out, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// An instance that traps is dropped and the next call works: the trap is an *Error of Kind
// "panic". A call to a function of the module with a pointer outside its memory traps.
func TestWasmTrapIsAPanicErrorAndTheInstanceIsDropped(t *testing.T) {
	i, err := getInstance()
	if err != nil {
		t.Fatal(err)
	}
	_, err = i.invoke(i.fCall, 0, 3, 0, 0, 0xFFFFFFF0)
	var kerr *Error
	if !errors.As(err, &kerr) || kerr.Kind() != "panic" || kerr.Status() != StatusPanic || !i.broken {
		t.Fatalf("want a panic error and a broken instance, got %v (broken %v)", err, i.broken)
	}
	i.release()
	if out, err := wasmBE.call(scale, []byte(scaleInput)); err != nil || string(out) != "5" {
		t.Fatalf("after a trap: %s %v", out, err)
	}
}
