//! The generic entry points: `kruise_call` reaches every registered fn id.

use crate::buf::kruise_buf;
use crate::panic::{boundary, fail, fail_core, fail_null, put, text};
use crate::status::kruise_status;
use std::ffi::c_char;

/// Calls decision function `fn` (e.g. `resources.eval`) on the JSON document `input`.
///
/// - `fn`, `fn_len`: the fn id, UTF-8, not NUL-terminated.
/// - `input`, `input_len`: the input JSON (the vector `input` shape of the function's spec), UTF-8.
/// - `out`: receives a buffer the caller owns and frees with `kruise_buf_free`: the result JSON on
///   `KRUISE_OK`, `{"error": {"kind", "message"[, "field"]}}` on any other status.
///
/// Returns `KRUISE_OK`, `KRUISE_DECISION_ERROR` (the function rejected the input; see the kind),
/// `KRUISE_UNKNOWN_FN`, `KRUISE_INVALID_UTF8`, `KRUISE_INVALID_JSON` (also for arrays and objects
/// nested 128 deep, the JSON parser's limit), `KRUISE_INPUT_TOO_LARGE` (`input_len` above
/// `kruise_max_input_bytes()`, checked before the input is read), `KRUISE_NULL_PARAMETER` (`out`
/// NULL: nothing written) or `KRUISE_PANIC`. Thread-safe; the only global state is the input-size
/// limit.
///
/// # Safety
/// Non-NULL pointers must point to the given number of readable bytes; `out` must be NULL or point
/// to a writable `kruise_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_call(
    r#fn: *const u8,
    fn_len: usize,
    input: *const u8,
    input_len: usize,
    out: *mut kruise_buf,
) -> kruise_status {
    boundary(out, || {
        if out.is_null() {
            return kruise_status::KRUISE_NULL_PARAMETER;
        }
        put(out, kruise_buf::EMPTY);
        if let Err(st) = crate::limits::check(out, "input", input_len) {
            return st;
        }
        // SAFETY: caller contract.
        let fn_id = match unsafe { text(r#fn, fn_len, "fn") } {
            Ok(s) => s,
            Err((st, msg)) => return fail(out, st, msg),
        };
        // SAFETY: caller contract.
        let input = match unsafe { text(input, input_len, "input") } {
            Ok(s) => s,
            Err((st, msg)) => return fail(out, st, msg),
        };
        // The text path: a successful call decoded straight from the text (the same answer).
        if let Some(text) = kcore::registry::lookup(fn_id).and_then(|e| (e.text)(input)) {
            put(out, kruise_buf::from_vec(text.into_bytes()));
            return kruise_status::KRUISE_OK;
        }
        let value: serde_json::Value = match serde_json::from_str(input) {
            Ok(v) => v,
            Err(e) => {
                return fail(
                    out,
                    kruise_status::KRUISE_INVALID_JSON,
                    format!("input: {e}"),
                );
            }
        };
        match kcore::registry::call(fn_id, &value) {
            Ok(v) => {
                put(out, kruise_buf::from_vec(v.to_string().into_bytes()));
                kruise_status::KRUISE_OK
            }
            Err(e) => fail_core(out, &e),
        }
    })
}

/// Writes the JSON array of every registered fn id into `out` (caller frees with `kruise_buf_free`).
///
/// # Safety
/// `out` must be NULL (gives `KRUISE_NULL_PARAMETER`) or point to a writable `kruise_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_fn_ids(out: *mut kruise_buf) -> kruise_status {
    boundary(out, || {
        if out.is_null() {
            return kruise_status::KRUISE_NULL_PARAMETER;
        }
        let ids: Vec<&str> = kcore::registry::fn_ids().collect();
        let json = serde_json::to_string(&ids).unwrap_or_else(|_| "[]".to_owned());
        put(out, kruise_buf::from_vec(json.into_bytes()));
        kruise_status::KRUISE_OK
    })
}

/// Whether the JSON `got` matches the JSON `expected` under the comparison rule the core registers
/// for `fn` (exact JSON equality with key order ignored and numbers by value; zero-pruned for
/// `api.convert`, null-pruned for `api.default`). This is the rule the conformance vectors use.
///
/// On `KRUISE_OK`, `*result` is set to 1 (match) or 0. On an error status `*result` is untouched and
/// `err` (may be NULL) receives the error JSON, to be freed with `kruise_buf_free`. Either document
/// longer than `kruise_max_input_bytes()` is `KRUISE_INPUT_TOO_LARGE`.
///
/// # Safety
/// Non-NULL pointers must point to the given number of readable bytes; `result` must point to a
/// writable `uint8_t`; `err` must be NULL or point to a writable `kruise_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_matches(
    r#fn: *const u8,
    fn_len: usize,
    expected: *const u8,
    expected_len: usize,
    got: *const u8,
    got_len: usize,
    result: *mut u8,
    err: *mut kruise_buf,
) -> kruise_status {
    boundary(err, || {
        put(err, kruise_buf::EMPTY);
        if result.is_null() {
            return fail_null(err, "result");
        }
        for (what, n) in [("expected", expected_len), ("got", got_len)] {
            if let Err(st) = crate::limits::check(err, what, n) {
                return st;
            }
        }
        let mut docs = [serde_json::Value::Null, serde_json::Value::Null];
        for (slot, (p, n, what)) in docs
            .iter_mut()
            .zip([(expected, expected_len, "expected"), (got, got_len, "got")])
        {
            // SAFETY: caller contract.
            let s = match unsafe { text(p, n, what) } {
                Ok(s) => s,
                Err((st, msg)) => return fail(err, st, msg),
            };
            *slot = match serde_json::from_str(s) {
                Ok(v) => v,
                Err(e) => {
                    return fail(
                        err,
                        kruise_status::KRUISE_INVALID_JSON,
                        format!("{what}: {e}"),
                    );
                }
            };
        }
        // SAFETY: caller contract.
        let fn_id = match unsafe { text(r#fn, fn_len, "fn") } {
            Ok(s) => s,
            Err((st, msg)) => return fail(err, st, msg),
        };
        let [expected, got] = &docs;
        let m = kcore::conformance::matches(fn_id, expected, got);
        // SAFETY: checked non-NULL above; caller guarantees it is writable.
        unsafe { result.write(u8::from(m)) };
        kruise_status::KRUISE_OK
    })
}

/// The library version (`KRUISE_CORE_VERSION`, e.g. "0.1.0") as a static NUL-terminated string.
/// Never NULL; the caller must not free it.
#[unsafe(no_mangle)]
pub extern "C" fn kruise_version() -> *const c_char {
    const V: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    V.as_ptr().cast()
}
