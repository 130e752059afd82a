//! A tiny schema language for the apps.kruise.io Go structs that conversion decodes into and
//! re-encodes from (`apis/apps/v1alpha1/*_types.go`, `apis/apps/v1beta1/*_types.go`).
//!
//! [`normalize`] walks a JSON value against a [`Shape`] the way Go's JSON decoder followed by the
//! encoder would: object members not in the schema are dropped, `null` members disappear, scalar
//! types are checked (a wrong type is `invalid_input` naming the field path), `metav1.Time` values
//! are re-emitted as RFC 3339 UTC with whole seconds, and embedded Kubernetes core types
//! ([`Shape::Any`]) are carried verbatim.

use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The shape of one field of a Go struct, as JSON sees it.
#[derive(Debug)]
pub enum Shape {
    /// An embedded core type (pod template, volume, probe, ...): carried verbatim.
    Any,
    /// A Go string.
    Str,
    /// A Go bool.
    Bool,
    /// A Go int32.
    Int32,
    /// A Go int64.
    Int64,
    /// `intstr.IntOrString`: a JSON string, or an integer that fits int32.
    IntOrStr,
    /// `metav1.Time`: an RFC 3339 string, re-emitted in UTC with whole seconds.
    Time,
    /// A Go struct with these JSON members (all others are dropped).
    Obj(&'static [Field]),
    /// A Go slice.
    List(&'static Shape),
    /// A Go slice of pointers whose `null` entries are dropped (`failedImageStatuses`).
    ListSkipNull(&'static Shape),
    /// A Go `map[string]T`.
    Map(&'static Shape),
    /// The same as the referenced shape (lets schemas share parts).
    Ref(&'static Shape),
}

/// One struct member: JSON name and shape.
pub type Field = (&'static str, Shape);

/// Normalises `v` against `shape`; `path` is the dotted input path used in error messages.
/// `Ok(None)` means "absent" (a JSON `null`).
///
/// Errors: `invalid_input` naming the path when a scalar has the wrong JSON type, an integer does
/// not fit its Go width, or a time is not RFC 3339.
pub fn normalize(v: &Value, shape: &Shape, path: &str) -> Result<Option<Value>> {
    if v.is_null() {
        return Ok(None);
    }
    let out = match shape {
        Shape::Ref(inner) => return normalize(v, inner, path),
        Shape::Any => v.clone(),
        Shape::Str => match v {
            Value::String(_) => v.clone(),
            _ => return Err(wrong(path, "a string", v)),
        },
        Shape::Bool => match v {
            Value::Bool(_) => v.clone(),
            _ => return Err(wrong(path, "a boolean", v)),
        },
        Shape::Int32 => Value::from(int(v, path, i64::from(i32::MIN), i64::from(i32::MAX))?),
        Shape::Int64 => Value::from(int(v, path, i64::MIN, i64::MAX)?),
        Shape::IntOrStr => match v {
            Value::String(_) => v.clone(),
            _ => Value::from(
                int(v, path, i64::from(i32::MIN), i64::from(i32::MAX))
                    .map_err(|_| wrong(path, "an integer (int32) or a string", v))?,
            ),
        },
        Shape::Time => Value::String(time(v, path)?),
        Shape::Obj(fields) => {
            let m = v.as_object().ok_or_else(|| wrong(path, "an object", v))?;
            let mut out = Map::new();
            for (name, fshape) in fields.iter() {
                if let Some(fv) = m.get(*name)
                    && let Some(n) = normalize(fv, fshape, &join(path, name))?
                {
                    out.insert((*name).to_owned(), n);
                }
            }
            Value::Object(out)
        }
        Shape::List(item) | Shape::ListSkipNull(item) => {
            let a = v.as_array().ok_or_else(|| wrong(path, "an array", v))?;
            let skip = matches!(shape, Shape::ListSkipNull(_));
            let mut out = Vec::with_capacity(a.len());
            for (i, e) in a.iter().enumerate() {
                match normalize(e, item, &format!("{path}[{i}]"))? {
                    Some(n) => out.push(n),
                    None if skip => {}
                    None => out.push(zero(item)),
                }
            }
            Value::Array(out)
        }
        Shape::Map(item) => {
            let m = v.as_object().ok_or_else(|| wrong(path, "an object", v))?;
            let mut out = Map::new();
            for (k, e) in m {
                let n = normalize(e, item, &join(path, k))?.unwrap_or_else(|| zero(item));
                out.insert(k.clone(), n);
            }
            Value::Object(out)
        }
    };
    Ok(Some(out))
}

/// The JSON form of a Go zero value of `shape` (what a `null` list element or map value decodes to).
fn zero(shape: &Shape) -> Value {
    match shape {
        Shape::Str => Value::String(String::new()),
        Shape::Bool => Value::Bool(false),
        Shape::Int32 | Shape::Int64 | Shape::IntOrStr => Value::from(0),
        Shape::Obj(_) | Shape::Map(_) => Value::Object(Map::new()),
        Shape::Ref(inner) => zero(inner),
        Shape::Any | Shape::Time | Shape::List(_) | Shape::ListSkipNull(_) => Value::Null,
    }
}

/// `path.name` (or `name` at the root).
pub fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn wrong(path: &str, want: &str, got: &Value) -> Error {
    Error::invalid_input(path, format!("expected {want}, got {}", kind_of(got)))
}

fn int(v: &Value, path: &str, lo: i64, hi: i64) -> Result<i64> {
    let n = v.as_i64().ok_or_else(|| wrong(path, "an integer", v))?;
    if n < lo || n > hi {
        return Err(Error::invalid_input(
            path,
            format!("integer {n} is out of range [{lo}, {hi}]"),
        ));
    }
    Ok(n)
}

/// Parses an RFC 3339 time and formats it the way `metav1.Time` marshals: UTC, whole seconds
/// (fraction truncated), `Z` suffix.
pub fn time(v: &Value, path: &str) -> Result<String> {
    let s = v
        .as_str()
        .ok_or_else(|| wrong(path, "an RFC 3339 time string", v))?;
    let ts: jiff::Timestamp = s
        .parse()
        .map_err(|e| Error::invalid_input(path, format!("{s:?} is not an RFC 3339 time: {e}")))?;
    let mut secs = ts.as_second();
    if ts.subsec_nanosecond() < 0 {
        secs -= 1;
    }
    let whole = jiff::Timestamp::from_second(secs)
        .map_err(|e| Error::invalid_input(path, format!("{s:?} is out of range: {e}")))?;
    Ok(whole.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const S: Shape = Shape::Obj(&[
        ("a", Shape::Int32),
        ("t", Shape::Time),
        ("l", Shape::ListSkipNull(&Shape::Str)),
    ]);

    #[test]
    fn drops_unknown_and_null_members() {
        let got = normalize(&json!({"a": 1, "zz": 2, "t": null}), &S, "object").unwrap();
        assert_eq!(got, Some(json!({"a": 1})));
    }

    #[test]
    fn times_truncate_to_utc_seconds() {
        let got = normalize(&json!({"t": "2026-06-21T12:00:00.987+02:00"}), &S, "o").unwrap();
        assert_eq!(got, Some(json!({"t": "2026-06-21T10:00:00Z"})));
    }

    #[test]
    fn wrong_types_name_the_field() {
        let e = normalize(&json!({"a": "x"}), &S, "object.spec").unwrap_err();
        assert_eq!(e.kind, "invalid_input");
        assert_eq!(e.field.as_deref(), Some("object.spec.a"));
        let e = normalize(&json!({"a": 3_000_000_000i64}), &S, "o").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("o.a"));
        let e = normalize(&json!({"t": "yesterday"}), &S, "o").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("o.t"));
    }

    #[test]
    fn null_list_entries_dropped_when_asked() {
        let got = normalize(&json!({"l": ["x", null, "y"]}), &S, "o").unwrap();
        assert_eq!(got, Some(json!({"l": ["x", "y"]})));
    }
}
