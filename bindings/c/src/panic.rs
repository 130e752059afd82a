//! The panic boundary and argument helpers shared by every `extern "C"` function.

use crate::buf::kruise_buf;
use crate::status::kruise_status;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `body`; a panic becomes `KRUISE_PANIC` (with the error JSON written to `out` when given).
pub(crate) fn boundary(
    out: *mut kruise_buf,
    body: impl FnOnce() -> kruise_status,
) -> kruise_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(status) => status,
        Err(_) => {
            // Writing the error can not panic in practice; guard it anyway.
            let _ = catch_unwind(AssertUnwindSafe(|| {
                fail(
                    out,
                    kruise_status::KRUISE_PANIC,
                    "panic caught at the C boundary",
                )
            }));
            kruise_status::KRUISE_PANIC
        }
    }
}

/// Runs a `void` body; a panic is swallowed (there is no way to report it).
pub(crate) fn boundary_void(body: impl FnOnce()) {
    let _ = catch_unwind(AssertUnwindSafe(body));
}

/// Writes `value` into `*out` (when `out` is not NULL).
pub(crate) fn put(out: *mut kruise_buf, value: kruise_buf) {
    if !out.is_null() {
        // SAFETY: the caller passes either NULL or a pointer to a writable `kruise_buf`.
        unsafe { out.write(value) }
    }
}

/// Writes the error JSON of a binding-level status into `out` and returns the status.
pub(crate) fn fail(
    out: *mut kruise_buf,
    status: kruise_status,
    message: impl Into<String>,
) -> kruise_status {
    let json = serde_json::json!({"error": {"kind": status.kind(), "message": message.into()}});
    put(out, kruise_buf::from_vec(json.to_string().into_bytes()));
    status
}

/// Writes a core error's JSON into `out` and returns its status.
pub(crate) fn fail_core(out: *mut kruise_buf, e: &kcore::Error) -> kruise_status {
    put(
        out,
        kruise_buf::from_vec(e.to_json().to_string().into_bytes()),
    );
    kruise_status::of_core(e)
}

/// Borrows `(ptr, len)` as bytes: NULL with `len == 0` is the empty slice, NULL otherwise is an error.
///
/// # Safety
/// A non-NULL `ptr` must point to `len` readable bytes that stay valid for `'a`.
pub(crate) unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> Option<&'a [u8]> {
    if ptr.is_null() {
        return (len == 0).then_some(&[]);
    }
    // SAFETY: guaranteed by the caller.
    Some(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Borrows `(ptr, len)` as UTF-8 text; `Err` carries the status and message to report.
///
/// # Safety
/// As for [`bytes`].
pub(crate) unsafe fn text<'a>(
    ptr: *const u8,
    len: usize,
    what: &str,
) -> Result<&'a str, (kruise_status, String)> {
    // SAFETY: forwarded contract.
    let b = unsafe { bytes(ptr, len) }.ok_or_else(|| {
        (
            kruise_status::KRUISE_NULL_PARAMETER,
            format!("{what}: NULL pointer with length {len}"),
        )
    })?;
    std::str::from_utf8(b).map_err(|e| {
        (
            kruise_status::KRUISE_INVALID_UTF8,
            format!("{what}: invalid UTF-8 at byte {}", e.valid_up_to()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_the_panic_status_with_error_json() {
        let mut out = kruise_buf::EMPTY;
        let st = boundary(&mut out, || panic!("boom"));
        assert_eq!(st, kruise_status::KRUISE_PANIC);
        // SAFETY: `out` was filled by `fail` from a Vec of `len` bytes.
        let text = unsafe { std::slice::from_raw_parts(out.ptr, out.len) };
        let v: serde_json::Value = serde_json::from_slice(text).unwrap();
        assert_eq!(v["error"]["kind"], "panic");
        crate::buf::kruise_buf_free(out);
    }

    #[test]
    fn a_panic_without_out_still_returns_the_status() {
        assert_eq!(
            boundary(std::ptr::null_mut(), || panic!("boom")),
            kruise_status::KRUISE_PANIC
        );
        boundary_void(|| panic!("boom"));
    }

    #[test]
    fn null_with_zero_length_is_empty_and_null_with_length_is_an_error() {
        // SAFETY: NULL pointers are handled without reading.
        unsafe {
            assert_eq!(bytes(std::ptr::null(), 0), Some(&[][..]));
            assert_eq!(bytes(std::ptr::null(), 3), None);
            assert_eq!(
                text(std::ptr::null(), 2, "x").unwrap_err().0,
                kruise_status::KRUISE_NULL_PARAMETER
            );
            let bad = [0x66u8, 0xff];
            let (st, msg) = text(bad.as_ptr(), 2, "name").unwrap_err();
            assert_eq!(st, kruise_status::KRUISE_INVALID_UTF8);
            assert!(msg.contains("name") && msg.contains("byte 1"), "{msg}");
        }
    }
}
