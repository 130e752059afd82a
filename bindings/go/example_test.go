package kruisecore_test

import (
	"errors"
	"fmt"

	kruisecore "github.com/kruise-core/kruise-core/bindings/go"
)

// Call reaches every decision function with JSON in and out.
func ExampleCall() {
	out, err := kruisecore.Call("rollout.scale_int_or_percent",
		[]byte(`{"value": "90%", "total": 95, "roundUp": true, "mode": "scaled"}`))
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(string(out))

	_, err = kruisecore.Call("no.such_fn", []byte(`{}`))
	var kerr *kruisecore.Error
	if errors.As(err, &kerr) {
		fmt.Println(kerr.Kind())
	}
	// Output:
	// 86
	// unknown_fn
}

// Compile once, evaluate many times; Close releases the Rust memory.
func ExampleCompile() {
	expr, err := kruisecore.Compile("max(cpu*50%, 50m)")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer expr.Close()
	for _, cpu := range []string{"200m", "20m"} {
		out, err := expr.Eval(kruisecore.Quantity("cpu", cpu))
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println(cpu, "->", out)
	}
	// Output:
	// 200m -> 100m
	// 20m -> 50m
}
