//! C ABI for kruise-core (`libkruise_core.a` / `libkruise_core.so`, header `include/kruise_core.h`).
//!
//! Shaped after rustls-ffi:
//! - free functions `kruise_<noun>_<verb>`, strings as `(const uint8_t *ptr, size_t len)` (UTF-8,
//!   not NUL-terminated), results in a [`kruise_buf`] the caller frees with [`kruise_buf_free`];
//! - every function returns a [`kruise_status`] whose numbers never change; on an error status the
//!   `out` buffer (when one is given) holds `{"error": {"kind": "...", "message": "..."}}` with the
//!   same stable `kind` strings as the core, the CLI, Python and Go;
//! - inputs longer than [`kruise_max_input_bytes`] (default 16 MiB, set with
//!   [`kruise_set_max_input_bytes`]) give `KRUISE_INPUT_TOO_LARGE`; JSON nested 128 deep gives
//!   `KRUISE_INVALID_JSON`;
//! - every body runs inside a panic boundary ([`KRUISE_PANIC`](kruise_status::KRUISE_PANIC)); NULL
//!   pointers give [`KRUISE_NULL_PARAMETER`](kruise_status::KRUISE_NULL_PARAMETER).
//!
//! The layer is generic: [`kruise_call`] reaches every fn id of `kruise_core::registry`; no decision
//! is made here. Typed helpers per family live in `src/<family>.rs` (`resources.rs`: expressions).

#![allow(non_camel_case_types)]
// The C ABI takes raw pointers; every unsafe block states its safety argument.
#![allow(unsafe_code)]
#![deny(missing_docs)]

mod buf;
mod call;
mod limits;
mod panic;
mod resources;
mod rollout;
mod status;

pub use buf::{kruise_buf, kruise_buf_free};
pub use call::{kruise_call, kruise_fn_ids, kruise_matches, kruise_version};
pub use limits::{
    KRUISE_DEFAULT_MAX_INPUT_BYTES, kruise_max_input_bytes, kruise_set_max_input_bytes,
};
pub use resources::{
    KRUISE_VAR_NUMBER, KRUISE_VAR_QUANTITY, kruise_expr, kruise_expr_compile,
    kruise_expr_compile_strict, kruise_expr_eval, kruise_expr_eval_into, kruise_expr_free,
    kruise_expr_live_count, kruise_expr_var_count, kruise_expr_var_index, kruise_expr_vars,
    kruise_expr_vars_error, kruise_expr_vars_free, kruise_expr_vars_new,
    kruise_expr_vars_set_number, kruise_expr_vars_set_quantity, kruise_expr_vars_unset, kruise_var,
};
pub use rollout::{
    KRUISE_SCALE_ERROR, KRUISE_SCALE_KRUISE, KRUISE_SCALE_LEGACY, KRUISE_SCALE_SCALED,
    kruise_scale_int_or_percent, kruise_scale_int_or_percent_value,
};
pub use status::kruise_status;
