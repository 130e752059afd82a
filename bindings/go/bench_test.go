package kruisecore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Each benchmark runs once per compiled-in backend: "/wasm" always, "/cgo" with -tags kruise_cgo.

// benchCalls runs the generic call of fnID on input through each backend ("/wasm", "/cgo").
func benchCalls(b *testing.B, fnID string, input []byte) {
	for _, be := range allBackends {
		b.Run(be.name(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := be.call(fnID, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCall(b *testing.B) {
	benchCalls(b, scale, []byte(`{"value":"90%","total":95,"roundUp":true,"mode":"scaled"}`))
}

// BenchmarkCallResourcesEval: the generic JSON call of resources.eval on max(cpu * 50%, 50m).
func BenchmarkCallResourcesEval(b *testing.B) {
	benchCalls(b, "resources.eval", []byte(`{"expr":"max(cpu * 50%, 50m)","variables":{"cpu":"200m"}}`))
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

// The realistic-object cases of issue 12, on the inputs the Rust benches
// (benches/benches/realistic.rs) and the Python benchmarks read: benches/data/*.json.

// realisticSidecarInput reads benches/data/sidecar_policy_apply.json: the resources.sidecar input
// {resourcesPolicy, pod: fullPod.spec, sidecarContainerNames} decoded into the generated type
// (which keeps only the fields the decision reads).
func realisticSidecarInput(b *testing.B) ResourcesSidecarInput {
	raw, err := os.ReadFile(filepath.Join("..", "..", "benches", "data", "sidecar_policy_apply.json"))
	if err != nil {
		b.Fatal(err)
	}
	var d struct {
		FullPod struct {
			Spec json.RawMessage `json:"spec"`
		} `json:"fullPod"`
		ResourcesPolicy       json.RawMessage `json:"resourcesPolicy"`
		SidecarContainerNames []string        `json:"sidecarContainerNames"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		b.Fatal(err)
	}
	var in ResourcesSidecarInput
	if err := json.Unmarshal(d.FullPod.Spec, &in.Pod); err != nil {
		b.Fatal(err)
	}
	in.ResourcesPolicy = new(ResourcesResourcesPolicy)
	if err := json.Unmarshal(d.ResourcesPolicy, in.ResourcesPolicy); err != nil {
		b.Fatal(err)
	}
	in.SidecarContainerNames = &d.SidecarContainerNames
	return in
}

// realisticAdmitInput reads benches/data/pub_admit.json: one eviction against a PUB over 1,000
// pods (60 disrupted and 40 unavailable records).
func realisticAdmitInput(b *testing.B) PubAdmitInput {
	raw, err := os.ReadFile(filepath.Join("..", "..", "benches", "data", "pub_admit.json"))
	if err != nil {
		b.Fatal(err)
	}
	var d struct {
		Input PubAdmitInput `json:"input"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		b.Fatal(err)
	}
	return d.Input
}

// benchRealistic runs fnID on the JSON of the typed input through each backend's generic call
// ("/wasm", "/cgo"), then the public typed function on the default backend ("/typed": marshal,
// call, unmarshal the typed output).
func benchRealistic(b *testing.B, fnID string, in any, typed func() error) {
	body, err := json.Marshal(in)
	if err != nil {
		b.Fatal(err)
	}
	benchCalls(b, fnID, body)
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := typed(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSidecarPolicyApply: resources.sidecar (sum over every container, cpu and memory
// limits and requests max(cpu * 50%, 50m) / memory * 50%) on a 3.4 KB pod.
func BenchmarkSidecarPolicyApply(b *testing.B) {
	in := realisticSidecarInput(b)
	out, err := ResourcesSidecar(in)
	if err != nil || out == nil {
		b.Fatalf("ResourcesSidecar: %v, %v", out, err)
	}
	benchRealistic(b, "resources.sidecar", in, func() error {
		_, err := ResourcesSidecar(in)
		return err
	})
}

// BenchmarkPubAdmit: pub.admit for one eviction against a PUB over 1,000 pods.
func BenchmarkPubAdmit(b *testing.B) {
	in := realisticAdmitInput(b)
	out, err := PubAdmit(in)
	if err != nil || !out.Allowed || out.NewStatus == nil {
		b.Fatalf("PubAdmit: %+v, %v", out, err)
	}
	benchRealistic(b, "pub.admit", in, func() error {
		_, err := PubAdmit(in)
		return err
	})
}
