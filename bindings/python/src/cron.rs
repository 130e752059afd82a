//! Typed Python API of the `cron` family: `kruise_core.Schedule`, a parsed AdvancedCronJob schedule
//! (`kruise_core::cron::Schedule`, robfig/cron v3.0.1 `ParseStandard` after OpenKruise's
//! `formatSchedule`) with chained next fire times.

use crate::convert::{arg_i64, arg_opt_str, arg_str, arg_usize, check_text_len};
use crate::errors::to_py_err;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

/// Most fire times one `next` call returns.
const MAX_N: usize = 100_000;

/// `Schedule(spec, time_zone=None, local_time_zone="UTC")`: a schedule as the controller parses it.
///
/// `Schedule("0 */2 * * *", time_zone="Asia/Shanghai").next(after, 3)` gives the next three fire
/// times after `after` as UTC-aware `datetime`s. `time_zone` is the ACJ's `spec.timeZone`;
/// `local_time_zone` is the controller's own zone, used by schedules without a zone. Raises
/// `KruiseError` with the `cron.parse` error kinds. Immutable and thread-safe.
#[pyclass(frozen, module = "kruise_core._kruise_core")]
pub(crate) struct Schedule {
    spec: String,
    time_zone: Option<String>,
    inner: kcore::cron::Schedule,
    local: kcore::cron::Zone,
}

fn after_secs(py: Python<'_>, after: &Bound<'_, PyAny>) -> PyResult<i64> {
    let bad = |m: String| to_py_err(py, &kcore::Error::invalid_input("after", m));
    if after.is_instance_of::<PyString>() {
        let s = arg_str(py, "after", after)?;
        return match kcore::cron::zone::parse_rfc3339(&s) {
            Some((secs, _)) => Ok(secs),
            None => Err(bad(format!("{s:?} is not an RFC 3339 time"))),
        };
    }
    let datetime = py.import("datetime")?.getattr("datetime")?;
    if !after.is_instance(&datetime)? {
        return Err(bad(
            "expected a datetime.datetime or an RFC 3339 str".to_owned()
        ));
    }
    // A datetime: naive values are taken as UTC (the controller's usual zone).
    let ts = (|| -> PyResult<f64> {
        let tzinfo = after.getattr("tzinfo")?;
        let aware = if tzinfo.is_none() {
            let utc = py.import("datetime")?.getattr("timezone")?.getattr("utc")?;
            let kw = pyo3::types::PyDict::new(py);
            kw.set_item("tzinfo", utc)?;
            after.call_method("replace", (), Some(&kw))?
        } else {
            after.clone()
        };
        aware.call_method0("timestamp")?.extract()
    })()
    .map_err(|e| bad(format!("cannot read the datetime: {e}")))?;
    Ok(ts.floor() as i64)
}

#[pymethods]
impl Schedule {
    #[new]
    #[pyo3(
        signature = (spec, time_zone = None, local_time_zone = None),
        text_signature = "(spec, time_zone=None, local_time_zone='UTC')"
    )]
    fn new(
        py: Python<'_>,
        spec: &Bound<'_, PyAny>,
        time_zone: Option<&Bound<'_, PyAny>>,
        local_time_zone: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let spec = arg_str(py, "spec", spec)?;
        check_text_len(py, "spec", &spec)?;
        let time_zone = arg_opt_str(py, "time_zone", time_zone)?;
        let local_time_zone = arg_opt_str(py, "local_time_zone", local_time_zone)?
            .unwrap_or_else(|| "UTC".to_owned());
        let (spec, time_zone, local_time_zone) = (
            spec.as_str(),
            time_zone.as_deref(),
            local_time_zone.as_str(),
        );
        let inner = kcore::cron::Schedule::parse_with_time_zone(spec, time_zone)
            .map_err(|e| to_py_err(py, &e))?;
        let local = match kcore::cron::Location::load(local_time_zone) {
            Ok(kcore::cron::Location::Zone(z)) => z,
            Ok(kcore::cron::Location::Local) => kcore::cron::Zone::utc(),
            Err(e) => {
                return Err(to_py_err(
                    py,
                    &kcore::Error::at(e.kind, "local_time_zone", e.message),
                ));
            }
        };
        Ok(Schedule {
            spec: spec.to_owned(),
            time_zone: time_zone.map(str::to_owned),
            inner,
            local,
        })
    }

    /// The schedule text as given.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The `time_zone` given (the ACJ's `spec.timeZone`), or None.
    #[getter]
    fn time_zone(&self) -> Option<&str> {
        self.time_zone.as_deref()
    }

    /// The zone the schedule is evaluated in: a name, or None for the controller's local zone.
    #[getter]
    fn location(&self) -> Option<&str> {
        self.inner.location().name()
    }

    /// Up to `n` chained fire times strictly after `after` (a `datetime`, naive = UTC, or an RFC 3339
    /// `str`), as UTC-aware `datetime`s; fewer when robfig's five-year window runs out.
    #[pyo3(signature = (after, n = None), text_signature = "($self, after, n=1)")]
    fn next<'py>(
        &self,
        py: Python<'py>,
        after: &Bound<'py, PyAny>,
        n: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let n = arg_n(py, n)?;
        let secs = self.fire_times(py, after_secs(py, after)?, n)?;
        let dt = py.import("datetime")?;
        let utc = dt.getattr("timezone")?.getattr("utc")?;
        let from_ts = dt.getattr("datetime")?.getattr("fromtimestamp")?;
        let items = secs
            .iter()
            .map(|s| from_ts.call1((*s, &utc)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// Like `next`, on Unix seconds: up to `n` chained fire times after `after`.
    #[pyo3(signature = (after, n = None), text_signature = "($self, after, n=1)")]
    fn next_unix(
        &self,
        py: Python<'_>,
        after: &Bound<'_, PyAny>,
        n: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<i64>> {
        let after = arg_i64(py, "after", after)?;
        let n = arg_n(py, n)?;
        self.fire_times(py, after, n)
    }

    /// The parsed form, as `cron.parse` returns it (`kind`, masks as lists, star flags, location).
    fn describe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = kcore::cron::describe(&self.inner);
        pythonize::pythonize(py, &v)
            .map_err(|e| to_py_err(py, &kcore::Error::new("internal", e.to_string())))
    }

    fn __repr__(&self) -> String {
        match &self.time_zone {
            Some(tz) => format!("Schedule({:?}, time_zone={:?})", self.spec, tz),
            None => format!("Schedule({:?})", self.spec),
        }
    }
}

impl Schedule {
    /// Up to `n` chained fire times after the Unix second `after`.
    fn fire_times(&self, py: Python<'_>, after: i64, n: usize) -> PyResult<Vec<i64>> {
        if n > MAX_N {
            return Err(to_py_err(
                py,
                &kcore::Error::invalid_input("n", format!("at most {MAX_N}")),
            ));
        }
        let mut out = Vec::with_capacity(n.min(64));
        let mut t = after;
        py.detach(|| {
            for _ in 0..n {
                let Ok(ts) = jiff_from(t) else { break };
                match self.inner.next_in(ts, &self.local) {
                    Some(next) => {
                        t = next.as_second();
                        out.push(t);
                    }
                    None => break,
                }
            }
        });
        Ok(out)
    }
}

/// Reads the `n` argument of `next` / `next_unix` (default 1).
fn arg_n(py: Python<'_>, n: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match n {
        None => Ok(1),
        Some(n) => arg_usize(py, "n", n),
    }
}

fn jiff_from(secs: i64) -> Result<kcore::cron::Timestamp, ()> {
    kcore::cron::Timestamp::from_second(secs).map_err(|_| ())
}
