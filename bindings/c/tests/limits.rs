//! The C ABI's front-door limits: input size (`kruise_set_max_input_bytes`, status
//! `KRUISE_INPUT_TOO_LARGE`, kind `input_too_large`) and JSON nesting (the parser's limit), plus
//! the live-expression counter. One test changes the process-wide limit, so every test here takes
//! the same lock.
// The tests call the C ABI (raw pointers) as a C program would.
#![allow(unsafe_code)]

use kruise_core::{
    KRUISE_DEFAULT_MAX_INPUT_BYTES, kruise_buf, kruise_buf_free, kruise_call, kruise_expr,
    kruise_expr_compile, kruise_expr_free, kruise_expr_live_count, kruise_matches,
    kruise_max_input_bytes, kruise_set_max_input_bytes, kruise_status,
};
use std::sync::Mutex;

static LOCK: Mutex<()> = Mutex::new(());

fn call(fn_id: &str, input: &[u8]) -> (kruise_status, serde_json::Value) {
    let mut out = kruise_buf {
        ptr: std::ptr::null_mut(),
        len: 0,
    };
    // SAFETY: valid slices and a writable out buffer.
    let st = unsafe {
        kruise_call(
            fn_id.as_ptr(),
            fn_id.len(),
            input.as_ptr(),
            input.len(),
            &mut out,
        )
    };
    // SAFETY: the library filled `out` with `len` bytes.
    let text = unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec();
    kruise_buf_free(out);
    (
        st,
        serde_json::from_slice(&text).unwrap_or(serde_json::Value::Null),
    )
}

const SCALE: &str = r#"{"value": "50%", "total": 10, "roundUp": true, "mode": "scaled"}"#;

#[test]
fn input_size_limit() {
    let _g = LOCK.lock().unwrap();
    assert_eq!(KRUISE_DEFAULT_MAX_INPUT_BYTES, 16 << 20);
    assert_eq!(kruise_max_input_bytes(), KRUISE_DEFAULT_MAX_INPUT_BYTES);
    // 16 MiB + 1 is refused by default, before the text is read (no UTF-8 or JSON error).
    let mut big = SCALE.as_bytes().to_vec();
    big.resize((16 << 20) + 1, b' ');
    let (st, v) = call("rollout.scale_int_or_percent", &big);
    assert_eq!(st, kruise_status::KRUISE_INPUT_TOO_LARGE, "{v}");
    assert_eq!(v["error"]["kind"], "input_too_large", "{v}");
    big.truncate(16 << 20);
    let (st, v) = call("rollout.scale_int_or_percent", &big);
    assert_eq!((st, v), (kruise_status::KRUISE_OK, serde_json::json!(5)));

    // A smaller limit, then restore the default.
    let prev = kruise_set_max_input_bytes(SCALE.len());
    assert_eq!(prev, KRUISE_DEFAULT_MAX_INPUT_BYTES);
    assert_eq!(kruise_max_input_bytes(), SCALE.len());
    assert_eq!(
        call("rollout.scale_int_or_percent", SCALE.as_bytes()).0,
        kruise_status::KRUISE_OK
    );
    let padded = format!("{SCALE} ");
    let (st, v) = call("rollout.scale_int_or_percent", padded.as_bytes());
    assert_eq!(st, kruise_status::KRUISE_INPUT_TOO_LARGE, "{v}");
    // kruise_matches: either document over the limit.
    let mut res = 7u8;
    let mut err = kruise_buf {
        ptr: std::ptr::null_mut(),
        len: 0,
    };
    let f = "rollout.scale_int_or_percent";
    // SAFETY: valid slices, result and err pointers.
    let st = unsafe {
        kruise_matches(
            f.as_ptr(),
            f.len(),
            b"1".as_ptr(),
            1,
            padded.as_ptr(),
            padded.len(),
            &mut res,
            &mut err,
        )
    };
    assert_eq!(st, kruise_status::KRUISE_INPUT_TOO_LARGE);
    assert_eq!(res, 7, "result untouched on error");
    kruise_buf_free(err);
    // kruise_expr_compile: the source.
    let src = "1 + ".repeat(SCALE.len() / 4 + 1) + "1";
    let mut e: *mut kruise_expr = std::ptr::null_mut();
    let mut err = kruise_buf {
        ptr: std::ptr::null_mut(),
        len: 0,
    };
    // SAFETY: valid slice and out pointers.
    let st = unsafe { kruise_expr_compile(src.as_ptr(), src.len(), &mut e, &mut err) };
    assert_eq!(st, kruise_status::KRUISE_INPUT_TOO_LARGE);
    assert!(e.is_null());
    kruise_buf_free(err);
    assert_eq!(kruise_set_max_input_bytes(prev), SCALE.len());
    assert_eq!(kruise_max_input_bytes(), KRUISE_DEFAULT_MAX_INPUT_BYTES);
}

/// serde_json refuses the 128th nested array/object; nothing deeper reaches a decision.
#[test]
fn json_nesting_limit() {
    let _g = LOCK.lock().unwrap();
    let nested = |depth: usize| {
        format!(
            r#"{{"value": "50%", "total": 10, "roundUp": true, "mode": "scaled", "x": {}{}}}"#,
            "[".repeat(depth - 1),
            "]".repeat(depth - 1)
        )
    };
    // 127 containers: valid JSON; the decision runs (and ignores or rejects the extra member).
    let (st, v) = call("rollout.scale_int_or_percent", nested(127).as_bytes());
    assert_ne!(st, kruise_status::KRUISE_INVALID_JSON, "{v}");
    for depth in [128, 20_000] {
        let (st, v) = call("rollout.scale_int_or_percent", nested(depth).as_bytes());
        assert_eq!(st, kruise_status::KRUISE_INVALID_JSON, "{depth}: {v}");
        let msg = v["error"]["message"].as_str().unwrap_or_default();
        assert!(msg.contains("recursion limit exceeded"), "{msg}");
    }
}

#[cfg(feature = "expr")]
#[test]
fn live_expressions_are_counted() {
    let _g = LOCK.lock().unwrap();
    let before = kruise_expr_live_count();
    let mut es = Vec::new();
    for _ in 0..3 {
        let mut e: *mut kruise_expr = std::ptr::null_mut();
        // SAFETY: valid slice and out pointer; err may be NULL.
        let st = unsafe { kruise_expr_compile(b"1+1".as_ptr(), 3, &mut e, std::ptr::null_mut()) };
        assert_eq!(st, kruise_status::KRUISE_OK);
        es.push(e);
    }
    assert_eq!(kruise_expr_live_count(), before + 3);
    // A failed compile creates nothing.
    let mut e: *mut kruise_expr = std::ptr::null_mut();
    // SAFETY: as above.
    let st = unsafe { kruise_expr_compile(b"max(1,".as_ptr(), 6, &mut e, std::ptr::null_mut()) };
    assert_eq!(st, kruise_status::KRUISE_DECISION_ERROR);
    assert_eq!(kruise_expr_live_count(), before + 3);
    for e in es {
        // SAFETY: each pointer came from kruise_expr_compile and is freed once.
        unsafe { kruise_expr_free(e) };
    }
    // SAFETY: NULL is allowed and frees nothing.
    unsafe { kruise_expr_free(std::ptr::null_mut()) };
    assert_eq!(kruise_expr_live_count(), before);
}
