//go:build !kruise_cgo

package kruisecore

// defaultBackend is the embedded WebAssembly module (build with -tags kruise_cgo for the native
// library instead).
var defaultBackend backend = wasmBackend{}

// allBackends lists every backend compiled in.
var allBackends = []backend{wasmBackend{}}
