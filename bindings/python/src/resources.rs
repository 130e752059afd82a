//! Typed Python API of the `resources` family: `kruise_core.Expression`, a compiled resource
//! expression (`kruise_core::resources::Expression`, OpenKruise `pkg/util/calculator`).

use crate::convert::{arg_bool, arg_str, check_text_len};
use crate::errors::to_py_err;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};

/// `Expression(src)`: a resource expression compiled once, evaluated many times.
///
/// `Expression("max(cpu*50%, 50m)").eval(cpu="200m") == "100m"`. Variables are keyword arguments:
/// a `str` value is a Kubernetes quantity, an `int`/`float` a plain number. Raises `KruiseError`
/// with the resources spec's error kinds. Immutable and thread-safe.
#[pyclass(frozen, module = "kruise_core._kruise_core")]
pub(crate) struct Expression {
    source: String,
    #[cfg(feature = "expr")]
    inner: kcore::resources::Expression,
}

/// A variable's value taken from Python.
#[cfg_attr(not(feature = "expr"), allow(dead_code))]
enum Value {
    Quantity(String),
    Number(f64),
}

#[cfg(not(feature = "expr"))]
fn unsupported() -> kcore::Error {
    kcore::Error::new(
        "unsupported",
        "kruise_core was built without the `expr` feature of kruise-core-python (needs kruise_core::resources::Expression)",
    )
}

#[pymethods]
impl Expression {
    /// `Expression(src, *, strict=False)`. `strict=True` also rejects every syntax error and every
    /// number token the reference silently reads as 0 (kind `suspicious_number`).
    #[new]
    #[pyo3(signature = (src, *, strict = None), text_signature = "(src, *, strict=False)")]
    fn new(
        py: Python<'_>,
        src: &Bound<'_, PyAny>,
        strict: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let src = arg_str(py, "src", src)?;
        check_text_len(py, "src", &src)?;
        let src = src.as_str();
        let strict = match strict {
            Some(s) => arg_bool(py, "strict", s)?,
            None => false,
        };
        #[cfg(feature = "expr")]
        {
            let compiled = if strict {
                kcore::resources::Expression::compile_strict(src)
            } else {
                kcore::resources::Expression::compile(src)
            };
            let inner = compiled.map_err(|e| to_py_err(py, &e))?;
            Ok(Expression {
                source: src.to_owned(),
                inner,
            })
        }
        #[cfg(not(feature = "expr"))]
        {
            let _ = (src, strict);
            Err(to_py_err(py, &unsupported()))
        }
    }

    /// The expression text as given.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// Evaluates with the given variables; returns the printed result (what `resources.eval` returns).
    #[pyo3(signature = (**vars))]
    fn eval(&self, py: Python<'_>, vars: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let mut values: Vec<(String, Value)> = Vec::new();
        if let Some(vars) = vars {
            for (k, v) in vars.iter() {
                let name = arg_str(py, "vars", &k)?;
                let value = if v.is_instance_of::<PyString>() {
                    Value::Quantity(arg_str(py, &name, &v)?)
                } else if (v.is_instance_of::<PyInt>() && !v.is_instance_of::<PyBool>())
                    || v.is_instance_of::<PyFloat>()
                {
                    let x: f64 = v.extract().map_err(|e| {
                        to_py_err(
                            py,
                            &kcore::Error::invalid_input(
                                name.clone(),
                                format!("number out of range: {e}"),
                            ),
                        )
                    })?;
                    Value::Number(x)
                } else {
                    let ty = v
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default();
                    return Err(to_py_err(
                        py,
                        &kcore::Error::invalid_input(
                            name,
                            format!("expected a str quantity or an int/float number, got {ty}"),
                        ),
                    ));
                };
                values.push((name, value));
            }
        }
        self.eval_values(py, &values)
    }

    fn __repr__(&self) -> String {
        format!("Expression({:?})", self.source)
    }
}

impl Expression {
    #[cfg(feature = "expr")]
    fn eval_values(&self, py: Python<'_>, values: &[(String, Value)]) -> PyResult<String> {
        use kcore::resources::Var;
        let bound: Vec<(&str, Var<'_>)> = values
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str(),
                    match v {
                        Value::Quantity(q) => Var::Quantity(q.as_str()),
                        Value::Number(x) => Var::Number(*x),
                    },
                )
            })
            .collect();
        self.inner
            .eval_to_string(&bound)
            .map_err(|e| to_py_err(py, &e))
    }

    #[cfg(not(feature = "expr"))]
    fn eval_values(&self, py: Python<'_>, _values: &[(String, Value)]) -> PyResult<String> {
        Err(to_py_err(py, &unsupported()))
    }
}
