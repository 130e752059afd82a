// Package kruisecore gives Go programs OpenKruise v1.9's decision logic (resource expressions,
// rollout budgets, cron schedules, PodUnavailableBudget, UnitedDeployment allocation, API
// conversion) from the Rust library kruise-core, through its C ABI.
//
// # Install
//
//	go get github.com/kruise-core/kruise-core/bindings/go@latest
//
// # Two backends
//
// By default the package runs kruise-core compiled to WebAssembly (embedded in the package,
// internal/wasm) on wazero, a pure-Go runtime: it builds with CGO_ENABLED=0, cross-compiles to
// every GOOS/GOARCH, and needs no native library. The module is compiled on the first call (a
// one-time cost of the order of a second; later calls reuse it) and calls run in a pool of
// instances, so the package is safe for concurrent use.
//
// With the build tag kruise_cgo (and cgo on), the package links the native library instead,
// found with pkg-config (`#cgo pkg-config: kruise_core`): install it with
// `scripts/install-c --prefix DIR` from a checkout and set PKG_CONFIG_PATH=DIR/lib/pkgconfig.
// It is faster per call and has no first-call compile cost. Backend reports which one runs.
// docs/go.md in the repository compares the two.
//
// # Two kinds of entry point
//
// Call is generic: JSON in, JSON out, for every fn id the core registers (FnIDs lists them; the
// input and output shapes are the conformance vectors' shapes). The generated typed functions
// (RolloutScaleIntOrPercent, ResourcesEval, ...) wrap it with Go structs. Compile gives a typed,
// compiled resource expression that is evaluated many times without JSON, and
// ScaleIntOrPercent scales an int-or-percent without JSON.
//
// # Errors
//
// A decision error (bad input, a division by zero, an unknown fn id, ...) is an *Error whose
// Kind() is the stable snake_case kind shared with Rust, Python, C and the vectors'
// "expect_error"; reach it with errors.As. Both backends give the same kinds.
//
// # Ownership
//
// Call, FnIDs and Matches are stateless: inputs are copied into (or lent to) the library for the
// duration of the call only, and results are copied into Go memory. An *Expression holds library
// memory: call Close when done (an Expression never closed is released by the garbage collector).
// An Expression may be evaluated from many goroutines at once, but Close must not race with Eval.
package kruisecore
