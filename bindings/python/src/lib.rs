//! Python bindings for kruise-core: the native module `kruise_core._kruise_core`.
//!
//! Generic over the registry: `call` reaches every fn id of `kruise_core::registry`, `matches`
//! applies the core's conformance comparison, `fn_ids` lists the ids. No decision is made here;
//! values are converted by `convert.rs` (dict/list/tuple/str/int/float/bool/None, integers exact,
//! with the depth, NaN and input-size checks of every front door) and errors become `kruise_core.KruiseError` (a `ValueError`) carrying `.kind`, `.message`, `.field`.
//! Typed helpers per family live in `src/<family>.rs` (`resources.rs`: `Expression`).
//!
//! Built by maturin (`bindings/python/pyproject.toml`) as one abi3 (CPython >= 3.9) wheel.

#![deny(missing_docs)]

mod convert;
mod cron;
mod errors;
mod resources;
mod rollout;

use errors::to_py_err;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// `call(fn_id, input)`: calls a registered decision function on a JSON-shaped input and returns its
/// JSON-shaped result. Raises `KruiseError` (kind `unknown_fn`, `invalid_input` (also for NaN,
/// infinities and nesting deeper than the JSON parser's limit), `input_too_large`, or the
/// function's own kinds). The GIL is released while the decision runs.
#[pyfunction]
fn call<'py>(
    py: Python<'py>,
    fn_id: &Bound<'py, PyAny>,
    input: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let fn_id = convert::arg_str(py, "fn_id", fn_id)?;
    let input = convert::to_json("input", false, input)?;
    let out = py.detach(|| kcore::registry::call(&fn_id, &input));
    match out {
        Ok(v) => convert::to_py(py, &v),
        Err(e) => Err(to_py_err(py, &e)),
    }
}

/// `call_json(fn_id, input_json)`: like `call`, with the input and result as JSON text (numbers of
/// any size pass through exactly). Raises `KruiseError` (kind `invalid_json` for unparsable text,
/// `input_too_large` for a text longer than the input-size limit).
#[pyfunction]
fn call_json(
    py: Python<'_>,
    fn_id: &Bound<'_, PyAny>,
    input_json: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let fn_id = convert::arg_str(py, "fn_id", fn_id)?;
    let input_json = convert::arg_str(py, "input_json", input_json)?;
    convert::check_text_len(py, "input", &input_json)?;
    let out = py.detach(|| kcore::registry::call_text(&fn_id, &input_json));
    out.map_err(|e| to_py_err(py, &e))
}

/// `set_max_input_bytes(n)`: sets the input-size limit of every entry point of this module (the
/// size of `call`'s input as compact JSON, `call_json`'s text, `Expression` and `Schedule`
/// sources) and returns the previous limit. The default is `DEFAULT_MAX_INPUT_BYTES` (16 MiB);
/// larger inputs raise `KruiseError` with kind `input_too_large`. Process-wide.
#[pyfunction]
fn set_max_input_bytes(py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = convert::arg_usize(py, "n", n)?;
    Ok(convert::set_max_input_bytes(n))
}

/// `max_input_bytes()`: the current input-size limit in bytes.
#[pyfunction]
fn max_input_bytes() -> usize {
    convert::max_input_bytes()
}

/// `fn_ids()`: every registered fn id, family by family.
#[pyfunction]
fn fn_ids(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    PyList::new(py, kcore::registry::fn_ids())
}

/// `matches(fn_id, expected, got)`: whether `got` matches `expected` under the comparison rule the
/// core registers for `fn_id` (exact JSON equality, key order ignored, numbers by value; zero-pruned
/// for `api.convert`, null-pruned for `api.default`), the rule the conformance vectors use.
#[pyfunction]
fn matches(
    py: Python<'_>,
    fn_id: &Bound<'_, PyAny>,
    expected: &Bound<'_, PyAny>,
    got: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let fn_id = convert::arg_str(py, "fn_id", fn_id)?;
    let expected = convert::to_json("expected", true, expected)?;
    let got = convert::to_json("got", true, got)?;
    Ok(kcore::conformance::matches(&fn_id, &expected, &got))
}

/// The native module `kruise_core._kruise_core`.
#[pymodule]
fn _kruise_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("HAS_EXPRESSION", cfg!(feature = "expr"))?;
    m.add(
        "DEFAULT_MAX_INPUT_BYTES",
        kcore::error::DEFAULT_MAX_INPUT_BYTES,
    )?;
    errors::register(m)?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(call_json, m)?)?;
    m.add_function(wrap_pyfunction!(fn_ids, m)?)?;
    m.add_function(wrap_pyfunction!(matches, m)?)?;
    m.add_function(wrap_pyfunction!(set_max_input_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(max_input_bytes, m)?)?;
    m.add_class::<resources::Expression>()?;
    m.add_function(wrap_pyfunction!(rollout::scale_int_or_percent, m)?)?;
    m.add_class::<cron::Schedule>()?;
    Ok(())
}
