//! The input-size limit of every function that takes a document: `kruise_call`'s input,
//! `kruise_matches`' two documents and `kruise_expr_compile`'s source. Longer inputs get
//! `KRUISE_INPUT_TOO_LARGE` (error kind `input_too_large`) before a byte of them is read.
//!
//! Nesting is limited by the JSON parser: the 128th nested array or object of an input is
//! `KRUISE_INVALID_JSON` ("recursion limit exceeded"), so no document deeper than that reaches a
//! decision function.

use crate::buf::kruise_buf;
use crate::panic::fail;
use crate::status::kruise_status;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default input-size limit in bytes (16 MiB), in force until `kruise_set_max_input_bytes`
/// changes it.
pub const KRUISE_DEFAULT_MAX_INPUT_BYTES: usize = 16_777_216;

static MAX_INPUT_BYTES: AtomicUsize = AtomicUsize::new(KRUISE_DEFAULT_MAX_INPUT_BYTES);

/// Sets the input-size limit (bytes) of every function that takes a document and returns the
/// previous limit. Process-wide; thread-safe (calls already running keep the limit they read).
/// `SIZE_MAX` lifts the limit.
#[unsafe(no_mangle)]
pub extern "C" fn kruise_set_max_input_bytes(max: usize) -> usize {
    MAX_INPUT_BYTES.swap(max, Ordering::Relaxed)
}

/// The current input-size limit in bytes (`KRUISE_DEFAULT_MAX_INPUT_BYTES` unless changed).
#[unsafe(no_mangle)]
pub extern "C" fn kruise_max_input_bytes() -> usize {
    MAX_INPUT_BYTES.load(Ordering::Relaxed)
}

/// `Err(status)` (with the error JSON written to `out`) when `len` exceeds the limit.
pub(crate) fn check(out: *mut kruise_buf, what: &str, len: usize) -> Result<(), kruise_status> {
    let max = kruise_max_input_bytes();
    if len > max {
        return Err(fail(
            out,
            kruise_status::KRUISE_INPUT_TOO_LARGE,
            format!(
                "{what}: {len} bytes, more than the input-size limit of {max} bytes (kruise_set_max_input_bytes changes it)"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_is_the_cores() {
        assert_eq!(
            super::KRUISE_DEFAULT_MAX_INPUT_BYTES,
            kcore::error::DEFAULT_MAX_INPUT_BYTES
        );
    }
}
