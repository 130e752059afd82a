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
    /// The variables the expression reads, interned (kwargs keys are interned too, so the dict
    /// lookups of the fast path compare pointers).
    #[cfg(feature = "expr")]
    names: Vec<Py<PyString>>,
    /// Per variable: the last `str` value seen and its text (the object is kept alive, so the
    /// same object again means the same text; a constant quantity is converted once).
    #[cfg(feature = "expr")]
    seen: std::sync::Mutex<Vec<Option<Seen>>>,
}

/// A `str` variable value seen by `eval`'s fast path, and its text.
#[cfg(feature = "expr")]
type Seen = (Py<PyString>, String);

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
            let names: Vec<Py<PyString>> = inner
                .variables()
                .map(|n| PyString::intern(py, n).unbind())
                .collect();
            let seen = std::sync::Mutex::new(names.iter().map(|_| None).collect());
            Ok(Expression {
                source: src.to_owned(),
                inner,
                names,
                seen,
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
        #[cfg(feature = "expr")]
        if let Some(r) = self.fast_eval(py, vars) {
            return r;
        }
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
    /// The fast path of `eval`: the variables are looked up by the expression's interned names
    /// and passed by position (`eval_indexed`), `str` values converted once per object. `None`
    /// hands the call to the general path, which gives the same result and reports every
    /// argument error: an argument the expression does not read, a value that is not a plain
    /// `str`/`int`/`float`, text that is not Unicode, a number out of range, or the cache busy.
    #[cfg(feature = "expr")]
    fn fast_eval(
        &self,
        py: Python<'_>,
        vars: Option<&Bound<'_, PyDict>>,
    ) -> Option<PyResult<String>> {
        use kcore::resources::Var;
        const MAX: usize = 8;
        if self.names.len() > MAX {
            return None;
        }
        let mut seen = self.seen.try_lock().ok()?;
        let mut nums = [None::<f64>; MAX];
        let mut given = [false; MAX];
        let mut matched = 0;
        if let Some(d) = vars {
            for (i, name) in self.names.iter().enumerate() {
                let Some(v) = d.get_item(name.bind(py)).ok()? else {
                    continue;
                };
                matched += 1;
                given[i] = true;
                if v.is_exact_instance_of::<PyString>() {
                    let slot = seen.get_mut(i)?;
                    if !matches!(slot, Some((o, _)) if o.as_ptr() == v.as_ptr()) {
                        let text = v.cast::<PyString>().ok()?.to_cow().ok()?.into_owned();
                        *slot = Some((v.cast_into::<PyString>().ok()?.unbind(), text));
                    }
                } else if (v.is_exact_instance_of::<PyInt>() || v.is_exact_instance_of::<PyFloat>())
                    && let Ok(x) = v.extract::<f64>()
                {
                    *nums.get_mut(i)? = Some(x);
                } else {
                    return None;
                }
            }
            if matched != d.len() {
                return None;
            }
        }
        let mut bound = [None::<Var<'_>>; MAX];
        for (i, b) in bound.iter_mut().enumerate().take(self.names.len()) {
            if !given[i] {
                continue;
            }
            *b = match nums[i] {
                Some(x) => Some(Var::Number(x)),
                None => seen
                    .get(i)
                    .and_then(|s| s.as_ref())
                    .map(|(_, t)| Var::Quantity(t.as_str())),
            };
        }
        let out = match self.inner.eval_indexed(&bound[..self.names.len()]) {
            Ok(v) => {
                let mut s = String::with_capacity(16);
                let _ = v.write_to(&mut s);
                Ok(s)
            }
            Err(e) => Err(to_py_err(py, &e)),
        };
        Some(out)
    }

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
