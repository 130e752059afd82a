//! Typed C function of the `rollout` family: scaling an int-or-percent string without JSON
//! (`kruise_core::intstr`, apimachinery `intstr` and OpenKruise `pkg/util/tools.go`). Everything
//! else of the family is reachable through `kruise_call` ("rollout.partition", ...).

use crate::buf::kruise_buf;
use crate::panic::{boundary, fail, fail_core, fail_null, put, text};
use crate::status::kruise_status;
use kcore::intstr::Flavour;

/// `kruise_scale_int_or_percent` mode: apimachinery `GetScaledValueFromIntOrPercent` (must end in
/// `%`, integer before it; Advanced DaemonSet).
pub const KRUISE_SCALE_SCALED: u32 = 0;
/// Mode: apimachinery `GetValueFromIntOrPercent` (every `%` deleted, then an integer; CloneSet
/// maxSurge/maxUnavailable, Advanced StatefulSet).
pub const KRUISE_SCALE_LEGACY: u32 = 1;
/// Mode: OpenKruise's float parser (CloneSet partition and webhook).
pub const KRUISE_SCALE_KRUISE: u32 = 2;

/// Scales the string form of an int-or-percent (`value`, UTF-8, e.g. "25%") against `total`:
/// `ceil` (`round_up` non-zero) or `floor` of `p * total / 100` in float64, as
/// "rollout.scale_int_or_percent" does. The integer form needs no call: it scales to itself.
/// Allocation-free on success.
///
/// On `KRUISE_OK`, `*out_value` receives the result and `err` is set to `{NULL, 0}`. On
/// `KRUISE_DECISION_ERROR` (kinds `not_a_percentage`, `invalid_number`, field `value`),
/// `KRUISE_INVALID_ARGUMENT` (unknown `mode`), `KRUISE_INVALID_UTF8`, `KRUISE_NULL_PARAMETER` or
/// `KRUISE_PANIC`, `*out_value` is left unchanged and `err` (may be NULL) receives the error JSON,
/// freed with `kruise_buf_free`.
///
/// # Safety
/// A non-NULL `value` must point to `value_len` readable bytes; `out_value` must point to a writable
/// `int64_t`; `err` must be NULL or point to a writable `kruise_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_scale_int_or_percent(
    value: *const u8,
    value_len: usize,
    total: i64,
    round_up: u8,
    mode: u32,
    out_value: *mut i64,
    err: *mut kruise_buf,
) -> kruise_status {
    boundary(err, || {
        put(err, kruise_buf::EMPTY);
        if out_value.is_null() {
            return fail_null(err, "out_value");
        }
        let flavour = match mode {
            KRUISE_SCALE_SCALED => Flavour::Scaled,
            KRUISE_SCALE_LEGACY => Flavour::Legacy,
            KRUISE_SCALE_KRUISE => Flavour::Kruise,
            _ => {
                return fail(
                    err,
                    kruise_status::KRUISE_INVALID_ARGUMENT,
                    format!("mode: {mode} is not KRUISE_SCALE_SCALED, _LEGACY or _KRUISE"),
                );
            }
        };
        // SAFETY: caller contract.
        let s = match unsafe { text(value, value_len, "value") } {
            Ok(s) => s,
            Err((st, msg)) => return fail(err, st, msg),
        };
        match kcore::intstr::scale_str(s, total, round_up != 0, flavour) {
            Ok(v) => {
                // SAFETY: checked non-NULL; caller guarantees it is writable.
                unsafe { out_value.write(v) };
                kruise_status::KRUISE_OK
            }
            Err(e) => fail_core(
                err,
                &kcore::Error {
                    field: Some("value".into()),
                    ..e
                },
            ),
        }
    })
}

/// What `kruise_scale_int_or_percent_value` returns when it cannot answer: the input is an
/// error, or the answer is this very number (`INT64_MIN`). Call `kruise_scale_int_or_percent`
/// with the same arguments then, for the value or the error JSON.
pub const KRUISE_SCALE_ERROR: i64 = i64::MIN;

/// `kruise_scale_int_or_percent` with scalar arguments and result, for hosts where out parameters
/// cost (cgo, WebAssembly): returns the scaled value, or `KRUISE_SCALE_ERROR` (`INT64_MIN`) for
/// any error status (bad text, unknown mode, NULL `value` with a length, not UTF-8, a panic) and
/// for the one value `INT64_MIN`; repeat the call with `kruise_scale_int_or_percent` to tell
/// them apart and read the error. Allocation-free.
///
/// # Safety
/// A non-NULL `value` must point to `value_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_scale_int_or_percent_value(
    value: *const u8,
    value_len: usize,
    total: i64,
    round_up: u8,
    mode: u32,
) -> i64 {
    let flavour = match mode {
        KRUISE_SCALE_SCALED => Flavour::Scaled,
        KRUISE_SCALE_LEGACY => Flavour::Legacy,
        KRUISE_SCALE_KRUISE => Flavour::Kruise,
        _ => return KRUISE_SCALE_ERROR,
    };
    // SAFETY: caller contract.
    let Ok(s) = (unsafe { text(value, value_len, "value") }) else {
        return KRUISE_SCALE_ERROR;
    };
    std::panic::catch_unwind(|| kcore::intstr::scale_str(s, total, round_up != 0, flavour))
        .ok()
        .and_then(|r| r.ok())
        .unwrap_or(KRUISE_SCALE_ERROR)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale(s: &str, total: i64, up: u8, mode: u32) -> (kruise_status, i64, String) {
        let mut out = -1i64;
        let mut err = kruise_buf::EMPTY;
        // SAFETY: valid pointers for the duration of the call.
        let st = unsafe {
            kruise_scale_int_or_percent(s.as_ptr(), s.len(), total, up, mode, &mut out, &mut err)
        };
        let text = if err.ptr.is_null() {
            String::new()
        } else {
            // SAFETY: `err` was filled by the call above with `len` bytes owned by the library.
            String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(err.ptr, err.len) })
                .into_owned()
        };
        crate::buf::kruise_buf_free(err);
        (st, out, text)
    }

    #[test]
    fn scales_and_reports_errors() {
        assert_eq!(
            scale("25%", 10, 1, KRUISE_SCALE_SCALED).0,
            kruise_status::KRUISE_OK
        );
        assert_eq!(scale("25%", 10, 1, KRUISE_SCALE_SCALED).1, 3);
        assert_eq!(scale("5%0", 10, 0, KRUISE_SCALE_LEGACY).1, 5);
        assert_eq!(scale("33.3%", 1000, 0, KRUISE_SCALE_KRUISE).1, 333);
        let (st, out, text) = scale("5%0", 10, 1, KRUISE_SCALE_SCALED);
        assert_eq!((st, out), (kruise_status::KRUISE_DECISION_ERROR, -1));
        assert!(
            text.contains("not_a_percentage") && text.contains("\"field\":\"value\""),
            "{text}"
        );
        assert_eq!(
            scale("1%", 10, 1, 9).0,
            kruise_status::KRUISE_INVALID_ARGUMENT
        );
    }

    fn value(s: &str, total: i64, up: u8, mode: u32) -> i64 {
        // SAFETY: valid pointers for the duration of the call.
        unsafe { kruise_scale_int_or_percent_value(s.as_ptr(), s.len(), total, up, mode) }
    }

    #[test]
    fn scalar_form_matches_the_full_one() {
        assert_eq!(value("25%", 10, 1, KRUISE_SCALE_SCALED), 3);
        assert_eq!(value("25%", 10, 0, KRUISE_SCALE_SCALED), 2);
        assert_eq!(value("5%0", 10, 0, KRUISE_SCALE_LEGACY), 5);
        assert_eq!(value("33.3%", 1000, 0, KRUISE_SCALE_KRUISE), 333);
        assert_eq!(value("5%0", 10, 1, KRUISE_SCALE_SCALED), KRUISE_SCALE_ERROR);
        assert_eq!(value("1%", 10, 1, 9), KRUISE_SCALE_ERROR);
        // SAFETY: NULL with a length is refused before it is read.
        let null = unsafe { kruise_scale_int_or_percent_value(std::ptr::null(), 3, 10, 1, 0) };
        assert_eq!(null, KRUISE_SCALE_ERROR);
    }
}
