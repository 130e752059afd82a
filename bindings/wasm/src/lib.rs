//! kruise-core's C ABI as a WebAssembly module (`wasm32-wasip1`), run by the Go binding's default
//! backend (wazero, bindings/go/wasm.go). Build it with `scripts/build-wasm`, which writes
//! bindings/go/internal/wasm/kruise_core.wasm.
//!
//! Every `kruise_*` function of `bindings/c` (kruise_call, kruise_fn_ids, kruise_matches, the
//! `kruise_expr_*` functions, kruise_scale_int_or_percent, the input-size limit, ...) is exported
//! unchanged: this crate links that crate and adds only what a host that cannot call `malloc`
//! needs to move bytes in and out of the module's memory:
//!
//! - [`kruise_wasm_alloc`] / [`kruise_wasm_free`]: a host-owned byte region (inputs, out slots);
//! - [`kruise_wasm_buf_free`]: `kruise_buf_free` with the buffer as two scalars (the wasm C ABI
//!   passes a struct argument by pointer, which a host would otherwise have to build in memory).
//!
//! On wasm32, `size_t` and pointers are 32 bits: `kruise_buf` is `{u32 ptr, u32 len}` (8 bytes)
//! and `kruise_var` is 32 bytes (`number` at offset 24). A panic aborts (a trap): the host drops
//! the instance.

#![deny(missing_docs)]

pub use kcapi::*;

use std::alloc::{Layout, alloc, dealloc};

/// The alignment of every host region (enough for `kruise_var`'s f64 and `kruise_buf`).
const ALIGN: usize = 8;

/// Allocates `len` bytes (8-aligned) for the host to write into; NULL when `len` is 0 or memory is
/// exhausted. Release with [`kruise_wasm_free`] and the same `len`.
#[unsafe(no_mangle)]
pub extern "C" fn kruise_wasm_alloc(len: usize) -> *mut u8 {
    match Layout::from_size_align(len, ALIGN) {
        // SAFETY: the layout has a non-zero size.
        Ok(layout) if len > 0 => unsafe { alloc(layout) },
        _ => std::ptr::null_mut(),
    }
}

/// Releases a region from [`kruise_wasm_alloc`] (`len` as given there). NULL is fine.
///
/// # Safety
/// `ptr` must be NULL or come from `kruise_wasm_alloc(len)` and not be freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_wasm_free(ptr: *mut u8, len: usize) {
    if ptr.is_null() || len == 0 {
        return;
    }
    if let Ok(layout) = Layout::from_size_align(len, ALIGN) {
        // SAFETY: caller contract: allocated by `kruise_wasm_alloc` with this layout.
        unsafe { dealloc(ptr, layout) }
    }
}

/// `kruise_buf_free({ptr, len})`: releases a buffer the library returned.
#[unsafe(no_mangle)]
pub extern "C" fn kruise_wasm_buf_free(ptr: *mut u8, len: usize) {
    kruise_buf_free(kruise_buf { ptr, len });
}
