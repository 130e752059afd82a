package kruisecore

import (
	"errors"
	"testing"
)

// newEvaluator compiles src on be and makes an Evaluator with bind bound (when not nil); both are
// closed when the test ends.
func newEvaluator(t testing.TB, be backend, src string, bind *Var) (*Expression, *Evaluator) {
	t.Helper()
	e, err := compileWith(be, src, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	v, err := e.NewEvaluator()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	if bind != nil {
		if err := v.Bind(*bind); err != nil {
			t.Fatal(err)
		}
	}
	return e, v
}

// The Evaluator gives what Eval gives, on every backend compiled in.
func TestEvaluator(t *testing.T) {
	for _, be := range allBackends {
		t.Run(be.name(), func(t *testing.T) {
			e, v := newEvaluator(t, be, "max(cpu*50%, 50m) + MEM*0", nil)
			if i, j, k := v.Index("cpu"), v.Index("mem"), v.Index("MEM"); i != 0 || j != 1 || k != -1 {
				t.Fatalf("Index: cpu %d mem %d MEM %d", i, j, k)
			}
			var kerr *Error
			if _, err := v.EvalInto(nil); !errors.As(err, &kerr) || kerr.Kind() != "undefined_variable" {
				t.Fatalf("unbound: %v", err)
			}
			if err := v.SetQuantity(2, "1"); !errors.As(err, &kerr) || kerr.Kind() != "invalid_argument" {
				t.Fatalf("position out of range: %v", err)
			}
			for _, c := range [][2]Var{
				{Quantity("cpu", "200m"), Number("mem", 1)},
				{Quantity("cpu", "20m"), Quantity("mem", "1Gi")},
				{Number("cpu", 3), Number("mem", 0)},
				{Quantity("cpu", "2x"), Number("mem", 0)},
				{Quantity("cpu", "1e400"), Number("mem", 0)},
				{Quantity("cpu", "-1"), Number("mem", 0)},
			} {
				want, wantErr := e.Eval(c[0], c[1])
				if err := v.Bind(c[0], c[1], Number("unused", 1)); err != nil {
					t.Fatal(err)
				}
				buf := []byte("x=")
				got, err := v.EvalInto(buf)
				if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
					t.Fatalf("%v: error %v, Eval gives %v", c, err, wantErr)
				}
				if err == nil && string(got) != "x="+want {
					t.Fatalf("%v: %q, Eval gives %q", c, got, want)
				}
			}
			if err := v.Unset(0); err != nil {
				t.Fatal(err)
			}
			if _, err := v.EvalInto(nil); !errors.As(err, &kerr) || kerr.Kind() != "undefined_variable" {
				t.Fatalf("after Unset: %v", err)
			}
			v.Close()
			if _, err := v.EvalInto(nil); !errors.Is(err, ErrClosed) {
				t.Fatalf("after Close: %v", err)
			}
		})
	}
}

// A result longer than the buffer's room grows it; closing the expression stops its evaluators.
func TestEvaluatorGrowsAndClosed(t *testing.T) {
	for _, be := range allBackends {
		t.Run(be.name(), func(t *testing.T) {
			e, err := compileWith(be, "x * 1", false)
			if err != nil {
				t.Fatal(err)
			}
			v, err := e.NewEvaluator()
			if err != nil {
				t.Fatal(err)
			}
			long := "123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
			if err := v.SetQuantity(0, long); err != nil {
				t.Fatal(err)
			}
			want, werr := e.Eval(Quantity("x", long))
			got, err := v.EvalInto(make([]byte, 0, 4))
			if werr != nil || err != nil || string(got) != want {
				t.Fatalf("got %q, %v; Eval %q, %v", got, err, want, werr)
			}
			e.Close()
			if _, err := v.EvalInto(nil); !errors.Is(err, ErrClosed) {
				t.Fatalf("after the expression's Close: %v", err)
			}
			if _, err := e.NewEvaluator(); !errors.Is(err, ErrClosed) {
				t.Fatalf("NewEvaluator after Close: %v", err)
			}
			v.Close()
		})
	}
}

// With the cgo backend, evaluation and int-or-percent scaling allocate nothing in Go.
func TestFastPathsDoNotAllocate(t *testing.T) {
	for _, be := range allBackends {
		if be.name() != "cgo" {
			continue
		}
		_, v := newEvaluator(t, be, "max(cpu*50%, 50m)", &Var{Name: "cpu", Quantity: "200m"})
		buf := make([]byte, 0, 32)
		if n := testing.AllocsPerRun(100, func() {
			out, err := v.EvalInto(buf[:0])
			if err != nil || string(out) != "100m" {
				t.Fatalf("%q %v", out, err)
			}
		}); n != 0 {
			t.Errorf("EvalInto: %v allocations per call", n)
		}
		p := FromString("33%")
		if n := testing.AllocsPerRun(100, func() {
			if got, err := scaleWith(be, &p, 95, true, ScaleModeScaled); err != nil || got != 32 {
				t.Fatalf("%d %v", got, err)
			}
		}); n != 0 {
			t.Errorf("ScaleIntOrPercent: %v allocations per call", n)
		}
	}
}
