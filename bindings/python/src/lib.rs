//! Python bindings for kruise-core: the native module `kruise_core._kruise_core`.
//!
//! Generic over the registry: [`call`] reaches every fn id of `kruise_core::registry`, [`matches`]
//! applies the core's conformance comparison, [`fn_ids`] lists the ids. No decision is made here;
//! values are converted with pythonize (dict/list/str/int/float/bool/None, integers exact) and
//! errors become `kruise_core.KruiseError` (a `ValueError`) carrying `.kind`, `.message`, `.field`.
//! Typed helpers per family live in `src/<family>.rs` (`resources.rs`: `Expression`).
//!
//! Built by maturin (`bindings/python/pyproject.toml`) as one abi3 (CPython >= 3.9) wheel.

#![deny(missing_docs)]

mod cron;
mod errors;
mod resources;
mod rollout;

use errors::to_py_err;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// Converts a Python object (dict/list/str/int/float/bool/None) to JSON; anything else is an
/// `invalid_input` error naming `what`.
fn to_json(what: &str, obj: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    pythonize::depythonize(obj).map_err(|e| {
        to_py_err(
            obj.py(),
            &kcore::Error::invalid_input(what, format!("not JSON-representable: {e}")),
        )
    })
}

/// Converts a JSON value to Python objects.
fn to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, v).map_err(|e| {
        to_py_err(
            py,
            &kcore::Error::new("internal", format!("result conversion: {e}")),
        )
    })
}

/// `call(fn_id, input)`: calls a registered decision function on a JSON-shaped input and returns its
/// JSON-shaped result. Raises `KruiseError` (kind `unknown_fn`, `invalid_input`, or the function's
/// own kinds). The GIL is released while the decision runs.
#[pyfunction]
fn call<'py>(
    py: Python<'py>,
    fn_id: &str,
    input: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let input = to_json("input", input)?;
    let out = py.detach(|| kcore::registry::call(fn_id, &input));
    match out {
        Ok(v) => to_py(py, &v),
        Err(e) => Err(to_py_err(py, &e)),
    }
}

/// `call_json(fn_id, input_json)`: like `call`, with the input and result as JSON text (numbers of
/// any size pass through exactly). Raises `KruiseError` (kind `invalid_json` for unparsable text).
#[pyfunction]
fn call_json(py: Python<'_>, fn_id: &str, input_json: &str) -> PyResult<String> {
    let out = py.detach(|| {
        let input: serde_json::Value = serde_json::from_str(input_json)
            .map_err(|e| kcore::Error::at("invalid_json", "input", e))?;
        kcore::registry::call(fn_id, &input).map(|v| v.to_string())
    });
    out.map_err(|e| to_py_err(py, &e))
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
fn matches(fn_id: &str, expected: &Bound<'_, PyAny>, got: &Bound<'_, PyAny>) -> PyResult<bool> {
    let expected = to_json("expected", expected)?;
    let got = to_json("got", got)?;
    Ok(kcore::conformance::matches(fn_id, &expected, &got))
}

/// The native module `kruise_core._kruise_core`.
#[pymodule]
fn _kruise_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("HAS_EXPRESSION", cfg!(feature = "expr"))?;
    errors::register(m)?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(call_json, m)?)?;
    m.add_function(wrap_pyfunction!(fn_ids, m)?)?;
    m.add_function(wrap_pyfunction!(matches, m)?)?;
    m.add_class::<resources::Expression>()?;
    m.add_function(wrap_pyfunction!(rollout::scale_int_or_percent, m)?)?;
    m.add_class::<cron::Schedule>()?;
    Ok(())
}
