// Package wasm holds kruise-core's C ABI compiled to WebAssembly (wasm32-wasip1), the module the
// default backend of package kruisecore runs with wazero.
//
// kruise_core.wasm is built from bindings/wasm by scripts/build-wasm (reproducibly: the same
// sources give the same bytes) and committed; `scripts/build-wasm --check` fails when it is stale.
package wasm

import _ "embed"

// Module is the WebAssembly binary (bindings/wasm built for wasm32-wasip1).
//
//go:embed kruise_core.wasm
var Module []byte
