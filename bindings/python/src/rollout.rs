//! Typed Python API of the `rollout` family: the native hot path `scale_int_or_percent`
//! (`kruise_core::intstr`, apimachinery intstr / OpenKruise `pkg/util/tools.go`). The other typed
//! helpers (`kruise_core.rollout.partition`, `progress`) are pure Python over `call`.

use crate::convert::{arg_bool, arg_i64, arg_opt_str, arg_str};
use crate::errors::to_py_err;
use kcore::intstr::{Flavour, IntOrPercent};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

fn flavour(mode: &str) -> Result<Flavour, kcore::Error> {
    match mode {
        "scaled" => Ok(Flavour::Scaled),
        "legacy" => Ok(Flavour::Legacy),
        "kruise" => Ok(Flavour::Kruise),
        _ => Err(kcore::Error::invalid_input(
            "mode",
            format!("{mode:?} is not one of scaled, legacy, kruise"),
        )),
    }
}

/// `scale_int_or_percent(value, total, round_up, mode="scaled")`: an int-or-percent (`int` within
/// int32, `str` such as `"25%"`, or `None`) scaled against `total`. Integers come back unchanged;
/// percentages are ceil (`round_up`) or floor of `p * total / 100` in float64. Raises `KruiseError`
/// (`nil_value`, `not_a_percentage`, `invalid_number`, or `invalid_input` naming `value`/`mode`).
#[pyfunction]
#[pyo3(
    signature = (value, total, round_up, mode = None),
    text_signature = "(value, total, round_up, mode='scaled')"
)]
pub(crate) fn scale_int_or_percent(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    total: &Bound<'_, PyAny>,
    round_up: &Bound<'_, PyAny>,
    mode: Option<&Bound<'_, PyAny>>,
) -> PyResult<i64> {
    let total = arg_i64(py, "total", total)?;
    let round_up = arg_bool(py, "round_up", round_up)?;
    let mode = arg_opt_str(py, "mode", mode)?.unwrap_or_else(|| "scaled".to_owned());
    let f = flavour(&mode).map_err(|e| to_py_err(py, &e))?;
    let with_field = |e: kcore::Error| {
        to_py_err(
            py,
            &kcore::Error {
                field: Some("value".into()),
                ..e
            },
        )
    };
    if value.is_none() {
        return Err(with_field(kcore::Error::new(
            "nil_value",
            "nil value for IntOrString",
        )));
    }
    if value.is_instance_of::<PyString>() {
        let s = arg_str(py, "value", value)?;
        return kcore::intstr::scale_str(&s, total, round_up, f).map_err(with_field);
    }
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        let i: i64 = value.extract().map_err(|_| {
            with_field(kcore::Error::invalid_input("value", "integer out of range"))
        })?;
        let i = i32::try_from(i).map_err(|_| {
            with_field(kcore::Error::invalid_input(
                "value",
                "integer outside int32",
            ))
        })?;
        return IntOrPercent::Int(i)
            .scale(total, round_up, f)
            .map_err(with_field);
    }
    Err(with_field(kcore::Error::invalid_input(
        "value",
        "expected an int, a str or None",
    )))
}
