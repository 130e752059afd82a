//! Python values to JSON and back, with the limits every front door applies.
//!
//! [`to_json`] walks a Python value once, without unbounded recursion: arrays and objects nested
//! as deep as serde_json's parser refuses ([`kcore::error::MAX_INPUT_DEPTH`]) are `invalid_input`,
//! as are NaN and infinities (JSON has no such numbers; they are not `null`), integers beyond 64
//! bits, strings that are not Unicode text (lone surrogates), non-`str` dict keys and types JSON
//! has no form for. The size of the value as compact JSON text is counted on the way; past
//! [`max_input_bytes`] (default [`kcore::error::DEFAULT_MAX_INPUT_BYTES`], changed with
//! `kruise_core.set_max_input_bytes`) it is `input_too_large`. Errors name the path of the
//! offending member (`spec.subsets[1].name`), as the core's own decoder does.
//!
//! Argument helpers ([`arg_str`], [`arg_i64`], [`arg_usize`], [`arg_bool`]) read the typed
//! helpers' arguments so that a wrong argument is a `KruiseError` (kind `invalid_input`, naming
//! the argument) rather than a `TypeError`, `OverflowError` or `UnicodeEncodeError`.

use crate::errors::to_py_err;
use kcore::error::{DEFAULT_MAX_INPUT_BYTES, INPUT_TOO_LARGE, MAX_INPUT_DEPTH};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PyMapping,
    PySequence, PySet, PyString, PyTuple,
};
use serde_json::{Map, Number, Value};
use std::sync::atomic::{AtomicUsize, Ordering};

static MAX_INPUT_BYTES: AtomicUsize = AtomicUsize::new(DEFAULT_MAX_INPUT_BYTES);

/// The current input-size limit in bytes.
pub(crate) fn max_input_bytes() -> usize {
    MAX_INPUT_BYTES.load(Ordering::Relaxed)
}

/// Sets the input-size limit; returns the previous one.
pub(crate) fn set_max_input_bytes(n: usize) -> usize {
    MAX_INPUT_BYTES.swap(n, Ordering::Relaxed)
}

/// The `input_too_large` error about `what` for a limit of `max` bytes.
pub(crate) fn too_large(what: &str, max: usize) -> kcore::Error {
    kcore::Error::at(
        INPUT_TOO_LARGE,
        what,
        format!(
            "larger than {max} bytes (the input-size limit; kruise_core.set_max_input_bytes changes it)"
        ),
    )
}

/// Checks a text argument's length against the input-size limit.
pub(crate) fn check_text_len(py: Python<'_>, what: &str, text: &str) -> PyResult<()> {
    let max = max_input_bytes();
    if text.len() > max {
        return Err(to_py_err(py, &too_large(what, max)));
    }
    Ok(())
}

/// One step of a path into the input.
enum Seg {
    Key(String),
    Index(usize),
}

struct Walker {
    /// Name of the whole value (`input`, `expected`, `got`).
    what: &'static str,
    /// Whether paths start with `what` (`expected.spec`) or not (`spec`, as the core names fields).
    prefixed: bool,
    path: Vec<Seg>,
    size: usize,
    max: usize,
}

impl Walker {
    fn field(&self) -> String {
        if self.path.is_empty() {
            return self.what.to_owned();
        }
        let mut s = String::new();
        if self.prefixed {
            s.push_str(self.what);
        }
        for seg in &self.path {
            match seg {
                Seg::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Seg::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    fn invalid(&self, message: impl std::fmt::Display) -> kcore::Error {
        kcore::Error::invalid_input(self.field(), message)
    }

    fn add(&mut self, n: usize) -> Result<(), kcore::Error> {
        self.size = self.size.saturating_add(n);
        if self.size > self.max {
            return Err(too_large(self.what, self.max));
        }
        Ok(())
    }

    /// Whether `n` more bytes could still fit (a lower bound; nothing is counted).
    fn fits(&self, n: usize) -> Result<(), kcore::Error> {
        if self.size.saturating_add(n) > self.max {
            return Err(too_large(self.what, self.max));
        }
        Ok(())
    }

    fn string(&mut self, obj: &Bound<'_, PyString>) -> Result<String, kcore::Error> {
        let s = obj
            .to_cow()
            .map_err(|e| self.invalid(format!("not Unicode text (a lone surrogate?): {e}")))?;
        self.add(json_str_len(&s))?;
        Ok(s.into_owned())
    }

    /// Converts `obj`, enclosed in `depth` arrays/objects.
    fn value(&mut self, obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, kcore::Error> {
        if obj.is_none() {
            self.add(4)?;
            return Ok(Value::Null);
        }
        if let Ok(b) = obj.cast::<PyBool>() {
            let b = b.is_true();
            self.add(if b { 4 } else { 5 })?;
            return Ok(Value::Bool(b));
        }
        if let Ok(i) = obj.cast::<PyInt>() {
            let n = if let Ok(x) = i.extract::<i64>() {
                Number::from(x)
            } else if let Ok(x) = i.extract::<u64>() {
                Number::from(x)
            } else {
                return Err(self.invalid("integer outside the 64-bit range JSON numbers hold here"));
            };
            self.add(n.to_string().len())?;
            return Ok(Value::Number(n));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return self.string(s).map(Value::String);
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            let x = f.value();
            let n = Number::from_f64(x).ok_or_else(|| {
                self.invalid(format!(
                    "{x} is not a JSON number (NaN and infinities have no JSON form)"
                ))
            })?;
            self.add(n.to_string().len())?;
            return Ok(Value::Number(n));
        }
        if obj.is_instance_of::<PyBytes>()
            || obj.is_instance_of::<PyByteArray>()
            || obj.is_instance_of::<PySet>()
            || obj.is_instance_of::<PyFrozenSet>()
        {
            return Err(self.not_json(obj));
        }
        let is_map = obj.is_instance_of::<PyDict>() || obj.cast::<PyMapping>().is_ok();
        let is_seq = !is_map
            && (obj.is_instance_of::<PyList>()
                || obj.is_instance_of::<PyTuple>()
                || obj.cast::<PySequence>().is_ok());
        if !is_map && !is_seq {
            return Err(self.not_json(obj));
        }
        // serde_json refuses the MAX_INPUT_DEPTH-th nested array or object of a text.
        if depth + 1 >= MAX_INPUT_DEPTH {
            return Err(self.invalid(format!(
                "nested deeper than {} arrays and objects (the JSON parser's limit)",
                MAX_INPUT_DEPTH - 1
            )));
        }
        let py_err = |w: &Walker, e: PyErr| w.invalid(format!("cannot read it: {e}"));
        if is_map {
            let items: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> =
                if let Ok(d) = obj.cast::<PyDict>() {
                    self.fits(d.len().saturating_mul(5))?;
                    d.iter().collect()
                } else {
                    let m = obj
                        .cast::<PyMapping>()
                        .map_err(|e| py_err(self, e.into()))?;
                    let items = m.items().map_err(|e| py_err(self, e))?;
                    items
                        .iter()
                        .map(|kv| kv.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>())
                        .collect::<PyResult<_>>()
                        .map_err(|e| py_err(self, e))?
                };
            // Every member takes at least `"":0` and a comma: refuse early what cannot fit.
            self.fits(items.len().saturating_mul(5))?;
            self.add(2 + items.len().saturating_sub(1))?;
            let mut out = Map::new();
            for (k, v) in items {
                let key = match k.cast::<PyString>() {
                    Ok(k) => self.string(k)?,
                    Err(_) => {
                        let ty = type_name(&k);
                        return Err(self.invalid(format!("object keys must be str, got {ty}")));
                    }
                };
                self.add(1)?;
                self.path.push(Seg::Key(key.clone()));
                let value = self.value(&v, depth + 1)?;
                self.path.pop();
                out.insert(key, value);
            }
            return Ok(Value::Object(out));
        }
        let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = obj.cast::<PyList>() {
            // Every element takes at least one byte and a comma: refuse early what cannot fit.
            self.fits(l.len().saturating_mul(2))?;
            l.iter().collect()
        } else if let Ok(t) = obj.cast::<PyTuple>() {
            t.iter().collect()
        } else {
            let s = obj
                .cast::<PySequence>()
                .map_err(|e| py_err(self, e.into()))?;
            s.try_iter()
                .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                .map_err(|e| py_err(self, e))?
        };
        // Every element takes at least one byte and a comma: refuse early what cannot fit.
        self.fits(items.len().saturating_mul(2))?;
        self.add(2 + items.len().saturating_sub(1))?;
        let mut out = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            self.path.push(Seg::Index(i));
            out.push(self.value(v, depth + 1)?);
            self.path.pop();
        }
        Ok(Value::Array(out))
    }

    fn not_json(&self, obj: &Bound<'_, PyAny>) -> kcore::Error {
        self.invalid(format!(
            "not JSON-representable: {} (expected dict, list, tuple, str, int, float, bool or None)",
            type_name(obj)
        ))
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_owned())
}

/// Length of `s` as a JSON string literal (quotes and serde_json's escapes included).
fn json_str_len(s: &str) -> usize {
    let escapes: usize = s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0..=0x1f => 5,
            _ => 0,
        })
        .sum();
    s.len() + 2 + escapes
}

/// Converts a Python value to JSON (see the module doc). `what` names the whole value in errors;
/// when `prefixed`, member paths start with it (`expected.spec.x`), otherwise they are relative
/// (`spec.x`) as the core names input fields.
pub(crate) fn to_json(
    what: &'static str,
    prefixed: bool,
    obj: &Bound<'_, PyAny>,
) -> PyResult<Value> {
    let mut w = Walker {
        what,
        prefixed,
        path: Vec::new(),
        size: 0,
        max: max_input_bytes(),
    };
    w.value(obj, 0).map_err(|e| to_py_err(obj.py(), &e))
}

/// Converts a JSON value (a decision's output) to Python objects. Outputs are built from inputs
/// that passed [`to_json`] or the JSON parser, so their nesting is bounded.
pub(crate) fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, v).map_err(|e| {
        to_py_err(
            py,
            &kcore::Error::new("internal", format!("result conversion: {e}")),
        )
    })
}

fn arg_error(py: Python<'_>, name: &str, message: impl std::fmt::Display) -> PyErr {
    to_py_err(py, &kcore::Error::invalid_input(name, message))
}

/// Reads a `str` argument; anything else (or a string with lone surrogates) is `invalid_input`.
pub(crate) fn arg_str(py: Python<'_>, name: &str, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| arg_error(py, name, format!("expected a str, got {}", type_name(obj))))?;
    s.to_cow().map(|s| s.into_owned()).map_err(|e| {
        arg_error(
            py,
            name,
            format!("not Unicode text (a lone surrogate?): {e}"),
        )
    })
}

/// Reads an optional `str` argument (`None` is `None`).
pub(crate) fn arg_opt_str(
    py: Python<'_>,
    name: &str,
    obj: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => arg_str(py, name, o).map(Some),
    }
}

/// Reads an `int` argument (anything with `__index__`) that must fit in `i64`.
pub(crate) fn arg_i64(py: Python<'_>, name: &str, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    obj.extract::<i64>().map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(py) {
            arg_error(
                py,
                name,
                format!("{obj} is outside the 64-bit integer range"),
            )
        } else {
            arg_error(py, name, format!("expected an int, got {}", type_name(obj)))
        }
    })
}

/// Reads a non-negative `int` argument.
pub(crate) fn arg_usize(py: Python<'_>, name: &str, obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let i = arg_i64(py, name, obj)?;
    usize::try_from(i).map_err(|_| arg_error(py, name, format!("{i} is negative")))
}

/// Reads a `bool` argument.
pub(crate) fn arg_bool(py: Python<'_>, name: &str, obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    obj.extract::<bool>()
        .map_err(|_| arg_error(py, name, format!("expected a bool, got {}", type_name(obj))))
}
