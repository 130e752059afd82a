//! Typed C functions of the `resources` family: compiled resource expressions
//! (`kruise_core::resources::Expression`, OpenKruise `pkg/util/calculator`).
//!
//! Compile once with [`kruise_expr_compile`], evaluate many times with [`kruise_expr_eval`], release
//! with [`kruise_expr_free`]. A compiled expression is immutable: evaluating it from several threads
//! at once is safe.

use crate::buf::kruise_buf;
use crate::panic::{boundary, boundary_void, fail, fail_null, put, text};
use crate::status::kruise_status;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Live expressions (compiled, not yet freed).
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// `kruise_var.kind`: the variable is a Kubernetes quantity given as text in `value`/`value_len`
/// (e.g. "200m", "1Gi").
pub const KRUISE_VAR_QUANTITY: u32 = 0;
/// `kruise_var.kind`: the variable is a plain number given in `number`.
pub const KRUISE_VAR_NUMBER: u32 = 1;

/// A compiled resource expression (opaque). Created by `kruise_expr_compile`, released by
/// `kruise_expr_free`.
pub struct kruise_expr {
    #[cfg(feature = "expr")]
    inner: kcore::resources::Expression,
    #[cfg(not(feature = "expr"))]
    _private: (),
}

/// One variable binding for `kruise_expr_eval`. The caller owns all memory; it is only read during
/// the call.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct kruise_var {
    /// Variable name (e.g. "cpu"), UTF-8, not NUL-terminated.
    pub name: *const u8,
    /// Length of `name` in bytes.
    pub name_len: usize,
    /// `KRUISE_VAR_QUANTITY` or `KRUISE_VAR_NUMBER`; anything else gives `KRUISE_INVALID_ARGUMENT`.
    pub kind: u32,
    /// Quantity text when `kind == KRUISE_VAR_QUANTITY` (ignored otherwise), UTF-8.
    pub value: *const u8,
    /// Length of `value` in bytes.
    pub value_len: usize,
    /// The number when `kind == KRUISE_VAR_NUMBER` (ignored otherwise).
    pub number: f64,
}

/// Compiles the expression `src` (UTF-8, e.g. "max(cpu*50%, 50m)") with OpenKruise's semantics
/// (a NUMBER token the reference cannot read counts as 0, as in v1.9.0).
///
/// On `KRUISE_OK`, `*out_expr` receives a new expression the caller owns (free it with
/// `kruise_expr_free`) and `err` is set to `{NULL, 0}`. On `KRUISE_DECISION_ERROR` (a syntax error
/// that no variable can change; kinds as in the resources spec), `KRUISE_INVALID_UTF8`,
/// `KRUISE_INPUT_TOO_LARGE` (`src_len` above `kruise_max_input_bytes()`), `KRUISE_NULL_PARAMETER`
/// or `KRUISE_PANIC`, `*out_expr` is set to NULL (when `out_expr` is not
/// NULL) and `err` (may be NULL) receives the error JSON, freed with `kruise_buf_free`.
///
/// # Safety
/// A non-NULL `src` must point to `src_len` readable bytes; `out_expr` must point to a writable
/// pointer; `err` must be NULL or point to a writable `kruise_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_compile(
    src: *const u8,
    src_len: usize,
    out_expr: *mut *mut kruise_expr,
    err: *mut kruise_buf,
) -> kruise_status {
    // SAFETY: forwarded caller contract.
    unsafe { compile_entry(src, src_len, false, out_expr, err) }
}

/// Like `kruise_expr_compile`, but strict: also rejects every syntax error (kind `syntax_error`)
/// and every NUMBER token the reference silently misreads (kind `suspicious_number`, e.g. `1K`,
/// `2cpu`, `1e400`). Same ownership and statuses.
///
/// # Safety
/// As for `kruise_expr_compile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_compile_strict(
    src: *const u8,
    src_len: usize,
    out_expr: *mut *mut kruise_expr,
    err: *mut kruise_buf,
) -> kruise_status {
    // SAFETY: forwarded caller contract.
    unsafe { compile_entry(src, src_len, true, out_expr, err) }
}

/// The shared body of the two compile functions.
///
/// # Safety
/// As for `kruise_expr_compile`.
unsafe fn compile_entry(
    src: *const u8,
    src_len: usize,
    strict: bool,
    out_expr: *mut *mut kruise_expr,
    err: *mut kruise_buf,
) -> kruise_status {
    boundary(err, || {
        put(err, kruise_buf::EMPTY);
        if out_expr.is_null() {
            return fail_null(err, "out_expr");
        }
        // SAFETY: checked non-NULL; caller guarantees it is writable.
        unsafe { out_expr.write(std::ptr::null_mut()) };
        if let Err(st) = crate::limits::check(err, "src", src_len) {
            return st;
        }
        // SAFETY: caller contract.
        let src = match unsafe { text(src, src_len, "src") } {
            Ok(s) => s,
            Err((st, msg)) => return fail(err, st, msg),
        };
        compile(src, strict, out_expr, err)
    })
}

#[cfg(feature = "expr")]
fn compile(
    src: &str,
    strict: bool,
    out_expr: *mut *mut kruise_expr,
    err: *mut kruise_buf,
) -> kruise_status {
    let compiled = if strict {
        kcore::resources::Expression::compile_strict(src)
    } else {
        kcore::resources::Expression::compile(src)
    };
    match compiled {
        Ok(inner) => {
            let b = Box::new(kruise_expr { inner });
            LIVE.fetch_add(1, Ordering::Relaxed);
            // SAFETY: `out_expr` was checked non-NULL by the caller of this helper.
            unsafe { out_expr.write(Box::into_raw(b)) };
            kruise_status::KRUISE_OK
        }
        Err(e) => crate::panic::fail_core(err, &e),
    }
}

#[cfg(not(feature = "expr"))]
fn compile(
    _src: &str,
    _strict: bool,
    _out_expr: *mut *mut kruise_expr,
    err: *mut kruise_buf,
) -> kruise_status {
    fail(
        err,
        kruise_status::KRUISE_UNSUPPORTED,
        "built without the `expr` feature of kruise-core-c",
    )
}

/// Evaluates a compiled expression with the variables `vars[0..vars_len]` (`vars` may be NULL when
/// `vars_len` is 0).
///
/// On `KRUISE_OK`, `out` holds the printed result exactly as `resources.eval` returns it (UTF-8 text
/// such as `100m` or `2.5`, not JSON). On an error status it holds the error JSON (kinds as in the
/// resources spec, e.g. `unknown_variable`, `division_by_zero`; or `invalid_utf8`,
/// `invalid_argument`, `null_parameter`). The caller frees `out` with `kruise_buf_free`.
///
/// # Safety
/// `expr` must be NULL or a live pointer from `kruise_expr_compile`; `vars` must point to `vars_len`
/// readable `kruise_var`s whose pointers obey the `(ptr, len)` rule; `out` must be NULL (gives
/// `KRUISE_NULL_PARAMETER`) or point to a writable `kruise_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_eval(
    expr: *const kruise_expr,
    vars: *const kruise_var,
    vars_len: usize,
    out: *mut kruise_buf,
) -> kruise_status {
    boundary(out, || {
        if out.is_null() {
            return kruise_status::KRUISE_NULL_PARAMETER;
        }
        put(out, kruise_buf::EMPTY);
        if expr.is_null() {
            return fail_null(out, "expr");
        }
        let vars: &[kruise_var] = if vars.is_null() {
            if vars_len != 0 {
                return fail(
                    out,
                    kruise_status::KRUISE_NULL_PARAMETER,
                    format!("vars: NULL pointer with length {vars_len}"),
                );
            }
            &[]
        } else {
            // SAFETY: caller contract.
            unsafe { std::slice::from_raw_parts(vars, vars_len) }
        };
        // SAFETY: caller contract: a live expression from `kruise_expr_compile`.
        let expr = unsafe { &*expr };
        eval(expr, vars, out)
    })
}

/// A variable read from C: its name and either quantity text or a number.
#[cfg_attr(not(feature = "expr"), allow(dead_code))]
enum Value<'a> {
    Quantity(&'a str),
    Number(f64),
}

/// Reads the C variables; `Err` carries the status and message to report.
fn read_vars(vars: &[kruise_var]) -> Result<Vec<(&str, Value<'_>)>, (kruise_status, String)> {
    let mut out = Vec::with_capacity(vars.len());
    for (i, v) in vars.iter().enumerate() {
        // SAFETY: caller contract of `kruise_expr_eval`.
        let name = unsafe { text(v.name, v.name_len, &format!("vars[{i}].name")) }?;
        let value = match v.kind {
            KRUISE_VAR_QUANTITY => {
                // SAFETY: caller contract of `kruise_expr_eval`.
                Value::Quantity(unsafe { text(v.value, v.value_len, &format!("vars[{i}].value")) }?)
            }
            KRUISE_VAR_NUMBER => Value::Number(v.number),
            k => {
                return Err((
                    kruise_status::KRUISE_INVALID_ARGUMENT,
                    format!("vars[{i}].kind: unknown kind {k}"),
                ));
            }
        };
        out.push((name, value));
    }
    Ok(out)
}

#[cfg(feature = "expr")]
fn eval(expr: &kruise_expr, vars: &[kruise_var], out: *mut kruise_buf) -> kruise_status {
    use kcore::resources::Var;
    let vars = match read_vars(vars) {
        Ok(v) => v,
        Err((st, msg)) => return fail(out, st, msg),
    };
    let bound: Vec<(&str, Var<'_>)> = vars
        .iter()
        .map(|(n, v)| {
            (
                *n,
                match v {
                    Value::Quantity(q) => Var::Quantity(q),
                    Value::Number(x) => Var::Number(*x),
                },
            )
        })
        .collect();
    match expr.inner.eval_to_string(&bound) {
        Ok(s) => {
            put(out, kruise_buf::from_vec(s.into_bytes()));
            kruise_status::KRUISE_OK
        }
        Err(e) => crate::panic::fail_core(out, &e),
    }
}

#[cfg(not(feature = "expr"))]
fn eval(_expr: &kruise_expr, vars: &[kruise_var], out: *mut kruise_buf) -> kruise_status {
    if let Err((st, msg)) = read_vars(vars) {
        return fail(out, st, msg);
    }
    fail(
        out,
        kruise_status::KRUISE_UNSUPPORTED,
        "built without the `expr` feature of kruise-core-c",
    )
}

/// Releases an expression from `kruise_expr_compile`. NULL is fine. Must not be called twice, nor
/// while another thread is still evaluating it.
///
/// # Safety
/// `expr` must be NULL or a pointer returned by `kruise_expr_compile` and not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_free(expr: *mut kruise_expr) {
    boundary_void(|| {
        if !expr.is_null() {
            // SAFETY: caller contract: produced by `Box::into_raw` in `compile`, freed once.
            unsafe { drop(Box::from_raw(expr)) }
            LIVE.fetch_sub(1, Ordering::Relaxed);
        }
    })
}

/// Number of expressions from `kruise_expr_compile` / `kruise_expr_compile_strict` not yet
/// released with `kruise_expr_free`, process-wide. For leak checks (the Go binding's tests use it
/// to see that the garbage collector releases expressions that were never closed).
#[unsafe(no_mangle)]
pub extern "C" fn kruise_expr_live_count() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Variable values bound by position to one compiled expression (opaque), for
/// [`kruise_expr_eval_into`]: bind once, evaluate many times without passing names or text.
/// Created by `kruise_expr_vars_new`, released by `kruise_expr_vars_free`. Not thread-safe: one
/// thread uses it at a time (it keeps the last error).
pub struct kruise_expr_vars {
    values: Vec<Bound>,
    /// The error JSON of the last failed `kruise_expr_eval_into`.
    error: Vec<u8>,
    last: kruise_status,
}

/// One bound value.
#[cfg_attr(not(feature = "expr"), allow(dead_code))]
enum Bound {
    Unset,
    Number(f64),
    Quantity(String),
}

/// The number of distinct variables `expr` reads (0 for NULL). Their positions are what
/// `kruise_expr_var_index` returns and `kruise_expr_vars_set_*` take.
///
/// # Safety
/// `expr` must be NULL or a live pointer from `kruise_expr_compile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_var_count(expr: *const kruise_expr) -> usize {
    // SAFETY: caller contract.
    match unsafe { expr.as_ref() } {
        Some(e) => var_count(e),
        None => 0,
    }
}

#[cfg(feature = "expr")]
fn var_count(e: &kruise_expr) -> usize {
    e.inner.variables().len()
}

#[cfg(not(feature = "expr"))]
fn var_count(_e: &kruise_expr) -> usize {
    0
}

/// The position of the variable `name` (UTF-8, matched exactly against the lower-cased names the
/// expression reads) among the expression's variables, or -1 when the expression does not read
/// it (or `expr` is NULL, or `name` is not UTF-8).
///
/// # Safety
/// `expr` must be NULL or a live pointer from `kruise_expr_compile`; a non-NULL `name` must point
/// to `name_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_var_index(
    expr: *const kruise_expr,
    name: *const u8,
    name_len: usize,
) -> i64 {
    // SAFETY: caller contract.
    let Some(e) = (unsafe { expr.as_ref() }) else {
        return -1;
    };
    // SAFETY: caller contract.
    match unsafe { text(name, name_len, "name") } {
        Ok(n) => var_index(e, n),
        Err(_) => -1,
    }
}

#[cfg(feature = "expr")]
fn var_index(e: &kruise_expr, name: &str) -> i64 {
    e.inner
        .variable_index(name)
        .map_or(-1, |i| i64::try_from(i).unwrap_or(-1))
}

#[cfg(not(feature = "expr"))]
fn var_index(_e: &kruise_expr, _name: &str) -> i64 {
    -1
}

/// A new set of variable values for `expr`, every variable unbound; NULL when `expr` is NULL.
/// The caller owns it (free with `kruise_expr_vars_free`) and must use it only with this `expr`.
///
/// # Safety
/// `expr` must be NULL or a live pointer from `kruise_expr_compile`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_vars_new(expr: *const kruise_expr) -> *mut kruise_expr_vars {
    // SAFETY: caller contract.
    let Some(e) = (unsafe { expr.as_ref() }) else {
        return std::ptr::null_mut();
    };
    let n = var_count(e);
    Box::into_raw(Box::new(kruise_expr_vars {
        values: (0..n).map(|_| Bound::Unset).collect(),
        error: Vec::new(),
        last: kruise_status::KRUISE_OK,
    }))
}

/// Releases a set from `kruise_expr_vars_new`. NULL is fine; must not be called twice.
///
/// # Safety
/// `vars` must be NULL or a pointer from `kruise_expr_vars_new` not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_vars_free(vars: *mut kruise_expr_vars) {
    if !vars.is_null() {
        // SAFETY: caller contract: produced by `Box::into_raw` in `kruise_expr_vars_new`.
        drop(unsafe { Box::from_raw(vars) });
    }
}

/// Binds variable `index` to the quantity text `value` (UTF-8, copied; parsed at evaluation, so
/// text that is not a quantity gives `invalid_quantity` from `kruise_expr_eval_into`, as with
/// `kruise_expr_eval`). Returns `KRUISE_OK`, `KRUISE_NULL_PARAMETER` (`vars` NULL, or `value` NULL
/// with a length), `KRUISE_INVALID_ARGUMENT` (index out of range) or `KRUISE_INVALID_UTF8`.
///
/// # Safety
/// `vars` must be NULL or a live pointer from `kruise_expr_vars_new`; a non-NULL `value` must
/// point to `value_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_vars_set_quantity(
    vars: *mut kruise_expr_vars,
    index: usize,
    value: *const u8,
    value_len: usize,
) -> kruise_status {
    // SAFETY: caller contract.
    let Some(v) = (unsafe { vars.as_mut() }) else {
        return kruise_status::KRUISE_NULL_PARAMETER;
    };
    // SAFETY: caller contract.
    let s = match unsafe { text(value, value_len, "value") } {
        Ok(s) => s,
        Err((st, _)) => return st,
    };
    match v.values.get_mut(index) {
        Some(Bound::Quantity(q)) => {
            q.clear();
            q.push_str(s);
        }
        Some(b) => *b = Bound::Quantity(s.to_owned()),
        None => return kruise_status::KRUISE_INVALID_ARGUMENT,
    }
    kruise_status::KRUISE_OK
}

/// Binds variable `index` to the plain number `value`. Returns `KRUISE_OK`,
/// `KRUISE_NULL_PARAMETER` or `KRUISE_INVALID_ARGUMENT` (index out of range).
///
/// # Safety
/// `vars` must be NULL or a live pointer from `kruise_expr_vars_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_vars_set_number(
    vars: *mut kruise_expr_vars,
    index: usize,
    value: f64,
) -> kruise_status {
    // SAFETY: caller contract.
    let Some(v) = (unsafe { vars.as_mut() }) else {
        return kruise_status::KRUISE_NULL_PARAMETER;
    };
    match v.values.get_mut(index) {
        Some(b) => *b = Bound::Number(value),
        None => return kruise_status::KRUISE_INVALID_ARGUMENT,
    }
    kruise_status::KRUISE_OK
}

/// Unbinds variable `index` (evaluating then gives `undefined_variable` if it is read). Returns
/// `KRUISE_OK`, `KRUISE_NULL_PARAMETER` or `KRUISE_INVALID_ARGUMENT`.
///
/// # Safety
/// `vars` must be NULL or a live pointer from `kruise_expr_vars_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_vars_unset(
    vars: *mut kruise_expr_vars,
    index: usize,
) -> kruise_status {
    // SAFETY: caller contract.
    let Some(v) = (unsafe { vars.as_mut() }) else {
        return kruise_status::KRUISE_NULL_PARAMETER;
    };
    match v.values.get_mut(index) {
        Some(b) => *b = Bound::Unset,
        None => return kruise_status::KRUISE_INVALID_ARGUMENT,
    }
    kruise_status::KRUISE_OK
}

/// Evaluates `expr` with the values bound in `vars` and prints the result (the text
/// `kruise_expr_eval` returns) into the caller's buffer `out[0..cap]`, without allocating.
///
/// Returns the result's length in bytes when it is 0 or more: when it is at most `cap` the text
/// is in `out`, otherwise nothing useful was written and the call should be repeated with a
/// buffer of at least that length. A negative return is minus a `kruise_status` (e.g.
/// `-KRUISE_DECISION_ERROR`); the error JSON is then kept in `vars` and read with
/// `kruise_expr_vars_error`. `out` may be NULL when `cap` is 0.
///
/// # Safety
/// `expr` must be NULL or a live pointer from `kruise_expr_compile`; `vars` NULL or a live pointer
/// from `kruise_expr_vars_new` made for this `expr` and not used by another thread at the same
/// time; a non-NULL `out` must point to `cap` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_eval_into(
    expr: *const kruise_expr,
    vars: *mut kruise_expr_vars,
    out: *mut u8,
    cap: usize,
) -> i64 {
    // SAFETY: caller contract.
    let Some(v) = (unsafe { vars.as_mut() }) else {
        return -(kruise_status::KRUISE_NULL_PARAMETER as i64);
    };
    // SAFETY: caller contract.
    let Some(e) = (unsafe { expr.as_ref() }) else {
        return v.failed(kruise_status::KRUISE_NULL_PARAMETER, "expr: NULL pointer");
    };
    if out.is_null() && cap != 0 {
        return v.failed(
            kruise_status::KRUISE_NULL_PARAMETER,
            format!("out: NULL pointer with capacity {cap}"),
        );
    }
    let mut w = OutBuf {
        ptr: out,
        cap,
        len: 0,
    };
    let st = match catch_unwind(AssertUnwindSafe(|| eval_into(e, v, &mut w))) {
        Ok(st) => st,
        Err(_) => {
            return v.failed(
                kruise_status::KRUISE_PANIC,
                "panic caught at the C boundary",
            );
        }
    };
    if st == kruise_status::KRUISE_OK {
        i64::try_from(w.len).unwrap_or(i64::MAX)
    } else {
        -(st as i64)
    }
}

/// The error JSON of the last `kruise_expr_eval_into` on `vars` that failed, copied into `out`
/// (caller frees with `kruise_buf_free`); the return value is that call's status (`KRUISE_OK`
/// and an empty buffer when none failed yet).
///
/// # Safety
/// `vars` must be NULL (gives `KRUISE_NULL_PARAMETER`) or a live pointer from
/// `kruise_expr_vars_new`; `out` must be NULL or point to a writable `kruise_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kruise_expr_vars_error(
    vars: *const kruise_expr_vars,
    out: *mut kruise_buf,
) -> kruise_status {
    boundary(out, || {
        put(out, kruise_buf::EMPTY);
        // SAFETY: caller contract.
        let Some(v) = (unsafe { vars.as_ref() }) else {
            return fail_null(out, "vars");
        };
        put(out, kruise_buf::from_vec(v.error.clone()));
        v.last
    })
}

impl kruise_expr_vars {
    /// Records a failure and returns its negated status.
    fn failed(&mut self, st: kruise_status, message: impl Into<String>) -> i64 {
        let json = serde_json::json!({"error": {"kind": st.kind(), "message": message.into()}});
        self.error = json.to_string().into_bytes();
        self.last = st;
        -(st as i64)
    }
}

/// A caller's byte buffer as a `fmt::Write` that counts what does not fit.
struct OutBuf {
    ptr: *mut u8,
    cap: usize,
    len: usize,
}

impl std::fmt::Write for OutBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len.saturating_add(s.len());
        if end <= self.cap {
            // SAFETY: `ptr` points to `cap` writable bytes (the caller contract of
            // `kruise_expr_eval_into`) and `len..end` lies within them.
            unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), self.ptr.add(self.len), s.len()) };
        }
        self.len = end;
        Ok(())
    }
}

#[cfg(feature = "expr")]
fn eval_into(e: &kruise_expr, v: &mut kruise_expr_vars, w: &mut OutBuf) -> kruise_status {
    use kcore::resources::Var;
    fn bind(b: &Bound) -> Option<Var<'_>> {
        match b {
            Bound::Unset => None,
            Bound::Number(x) => Some(Var::Number(*x)),
            Bound::Quantity(q) => Some(Var::Quantity(q.as_str())),
        }
    }
    let res = if v.values.len() <= 8 {
        let mut tmp = [None; 8];
        for (t, b) in tmp.iter_mut().zip(&v.values) {
            *t = bind(b);
        }
        e.inner
            .eval_indexed(&tmp[..v.values.len()])
            .map(|val| val.write_to(w))
    } else {
        let tmp: Vec<Option<Var<'_>>> = v.values.iter().map(bind).collect();
        e.inner.eval_indexed(&tmp).map(|val| val.write_to(w))
    };
    match res {
        Ok(_) => kruise_status::KRUISE_OK,
        Err(err) => {
            let st = kruise_status::of_core(&err);
            v.error = err.to_json().to_string().into_bytes();
            v.last = st;
            st
        }
    }
}

#[cfg(not(feature = "expr"))]
fn eval_into(_e: &kruise_expr, v: &mut kruise_expr_vars, _w: &mut OutBuf) -> kruise_status {
    v.failed(
        kruise_status::KRUISE_UNSUPPORTED,
        "built without the `expr` feature of kruise-core-c",
    );
    kruise_status::KRUISE_UNSUPPORTED
}
