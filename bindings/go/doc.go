// Package kruisecore gives Go programs OpenKruise v1.9's decision logic (resource expressions,
// rollout budgets, cron schedules, PodUnavailableBudget, UnitedDeployment allocation, API
// conversion) through the C ABI of the Rust library kruise-core. It is standard-library only.
//
// # Building
//
// The package links the static library statically through cgo. Build it once, from the
// repository root, before `go build` or `go test`:
//
//	cargo build --release -p kruise-core-c
//
// which produces target/release/libkruise_core.a; the #cgo directives find it (and the header
// bindings/c/include/kruise_core.h) relative to this directory. Without cgo (CGO_ENABLED=0) the
// package still compiles, and every function returns ErrCgoRequired.
//
// # Two kinds of entry point
//
// Call is generic: JSON in, JSON out, for every fn id the core registers (FnIDs lists them; the
// input and output shapes are the conformance vectors' shapes). Compile gives a typed, compiled
// resource expression that is evaluated many times without JSON.
//
// # Errors
//
// A decision error (bad input, a division by zero, an unknown fn id, ...) is an *Error whose
// Kind() is the stable snake_case kind shared with Rust, Python, C and the vectors'
// "expect_error"; reach it with errors.As.
//
// # Ownership
//
// Call, FnIDs and Matches are stateless: Go memory is lent to the library for the duration of the
// call only, and results are copied into Go memory and freed on the Rust side before returning.
// An *Expression owns Rust memory: call Close when done (there is no finalizer). An Expression may
// be evaluated from many goroutines at once, but Close must not race with Eval.
package kruisecore
