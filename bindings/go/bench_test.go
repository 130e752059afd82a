package kruisecore

import "testing"

// Each benchmark runs once per compiled-in backend: "/wasm" always, "/cgo" with -tags kruise_cgo.

func BenchmarkCall(b *testing.B) {
	input := []byte(`{"value":"90%","total":95,"roundUp":true,"mode":"scaled"}`)
	for _, be := range allBackends {
		b.Run(be.name(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := be.call(scale, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCallResourcesEval: the generic JSON call of resources.eval on max(cpu * 50%, 50m).
func BenchmarkCallResourcesEval(b *testing.B) {
	input := []byte(`{"expr":"max(cpu * 50%, 50m)","variables":{"cpu":"200m"}}`)
	for _, be := range allBackends {
		b.Run(be.name(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := be.call("resources.eval", input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExpressionEval is the fast path: max(cpu * 50%, 50m) compiled once, cpu=200m bound
// once (Evaluator), the result printed into a reused buffer.
func BenchmarkExpressionEval(b *testing.B) {
	for _, be := range allBackends {
		b.Run(be.name(), func(b *testing.B) {
			_, v := newEvaluator(b, be, "max(cpu * 50%, 50m)", &Var{Name: "cpu", Quantity: "200m"})
			var err error
			buf := make([]byte, 0, 32)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if buf, err = v.EvalInto(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExpressionEvalVars is Expression.Eval: the variables passed by name on every call and
// the result returned as a new string.
func BenchmarkExpressionEvalVars(b *testing.B) {
	for _, be := range allBackends {
		b.Run(be.name(), func(b *testing.B) {
			e, err := compileWith(be, "max(cpu * 50%, 50m)", false)
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			v := Quantity("cpu", "200m")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := e.Eval(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleIntOrPercent: "25%" of 1000 rounding up, apimachinery's scaled parser (the
// reference's BenchmarkIntstr/scaled_25% in conformance/goref).
func BenchmarkScaleIntOrPercent(b *testing.B) {
	v := FromString("25%")
	for _, be := range allBackends {
		b.Run(be.name(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := scaleWith(be, &v, 1000, true, ScaleModeScaled); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The first call's cost: compiling the embedded module (only the wasm backend has one). Each
// iteration compiles in a fresh runtime, so it measures what a program pays once at start.
func BenchmarkWasmCompile(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if err := compileFreshRuntime(); err != nil {
			b.Fatal(err)
		}
	}
}
