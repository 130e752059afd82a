//! `KruiseError`: the one Python exception for decision errors.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    kruise_core,
    KruiseError,
    PyValueError,
    "A kruise-core decision error (a ValueError). Attributes: `kind` (stable snake_case error kind, the \
     vectors' `expect_error`), `message` (human text naming the field), `field` (dotted input path or None)."
);

/// Registers `KruiseError` in the module, with class-level defaults for its attributes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let ty = m.py().get_type::<KruiseError>();
    ty.setattr("kind", "")?;
    ty.setattr("message", "")?;
    ty.setattr("field", m.py().None())?;
    m.add("KruiseError", ty)
}

/// Converts a core error into a raised `KruiseError` with `kind`, `message`, `field` set.
pub(crate) fn to_py_err(py: Python<'_>, e: &kcore::Error) -> PyErr {
    let err = KruiseError::new_err(e.to_string());
    let v = err.value(py);
    let set = || -> PyResult<()> {
        v.setattr("kind", e.kind)?;
        v.setattr("message", e.message.as_ref())?;
        v.setattr("field", e.field.as_deref())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(other) => other,
    }
}
