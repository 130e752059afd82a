//go:build cgo

package kruisecore

import "testing"

func BenchmarkCall(b *testing.B) {
	input := []byte(`{"value":"90%","total":95,"roundUp":true,"mode":"scaled"}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Call(scale, input); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCallResourcesEval(b *testing.B) {
	input := []byte(`{"expr":"max(cpu*50%, 50m)","variables":{"cpu":"200m"}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Call("resources.eval", input); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEval(b *testing.B) {
	e, err := Compile("max(cpu*50%, 50m)")
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
}
