//go:build kruise_cgo && cgo

package kruisecore

// defaultBackend is the native library through cgo (build tag kruise_cgo); the WebAssembly
// backend is compiled in too, so tests and benchmarks can compare the two.
var defaultBackend backend = cgoBackend{}

// allBackends lists every backend compiled in.
var allBackends = []backend{cgoBackend{}, wasmBackend{}}
