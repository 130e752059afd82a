//go:build kruise_cgo && !cgo

package kruisecore

// The build tag kruise_cgo selects the native library through cgo, which needs CGO_ENABLED=1 and
// a C compiler. Without cgo, drop the tag: the default backend (WebAssembly) needs neither.
var _ = kruise_cgo_build_tag_needs_CGO_ENABLED_1
