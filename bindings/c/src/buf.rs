//! Owned byte buffers handed to C.

use std::ptr;

/// A byte buffer owned by the library and lent to the caller.
///
/// Produced by `kruise_call`, `kruise_expr_eval` and friends; the caller owns it and must release it
/// exactly once with [`kruise_buf_free`]. `ptr` is NULL when `len` is 0. The bytes are UTF-8 (JSON
/// or a printed quantity) and are NOT NUL-terminated.
#[repr(C)]
#[derive(Debug)]
pub struct kruise_buf {
    /// Start of the bytes, or NULL for an empty buffer.
    pub ptr: *mut u8,
    /// Number of bytes.
    pub len: usize,
}

impl kruise_buf {
    /// The empty buffer `{NULL, 0}`.
    pub(crate) const EMPTY: kruise_buf = kruise_buf {
        ptr: ptr::null_mut(),
        len: 0,
    };

    /// Moves `bytes` into a C-owned buffer (exact length; freed by [`kruise_buf_free`]).
    pub(crate) fn from_vec(bytes: Vec<u8>) -> kruise_buf {
        if bytes.is_empty() {
            return kruise_buf::EMPTY;
        }
        let boxed: Box<[u8]> = bytes.into_boxed_slice();
        let len = boxed.len();
        kruise_buf {
            ptr: Box::into_raw(boxed).cast::<u8>(),
            len,
        }
    }
}

/// Releases a buffer returned by this library. Calling with `{NULL, 0}` is fine. Must not be called
/// twice on the same buffer, nor on a buffer this library did not produce.
#[unsafe(no_mangle)]
pub extern "C" fn kruise_buf_free(buf: kruise_buf) {
    crate::panic::boundary_void(|| {
        if buf.ptr.is_null() || buf.len == 0 {
            return;
        }
        // SAFETY: per the contract above, (ptr, len) came from `kruise_buf::from_vec`, which leaked a
        // `Box<[u8]>` of exactly `len` bytes; it is released once.
        unsafe {
            drop(Box::from_raw(ptr::slice_from_raw_parts_mut(
                buf.ptr, buf.len,
            )))
        }
    })
}
