//! A tiny schema language for the Go structs that conversion decodes into and re-encodes from:
//! the apps.kruise.io kinds (`apis/apps/v1alpha1/*_types.go`, `apis/apps/v1beta1/*_types.go`,
//! [`super::types`]) and the Kubernetes types they embed (k8s.io/api v0.32.10,
//! [`super::core_types`]).
//!
//! [`normalize`] walks a JSON value against a [`Shape`] the way Go's JSON decoder followed by the
//! encoder would: object members not in the schema are dropped, `null` members disappear, scalar
//! types are checked (a wrong type is `invalid_input` naming the field path), `metav1.Time` values
//! are re-emitted as RFC 3339 UTC with whole seconds, `resource.Quantity` values are parsed and
//! re-printed (canonical form unless apimachinery keeps the text as written), and [`Shape::Any`]
//! members (kruise-only sub-structs without quantities or times) are carried verbatim.
//!
//! Errors follow the Go decoder's precedence: a value whose own `UnmarshalJSON` fails (a
//! quantity, a time, an int-or-string) stops decoding at once, while a plain type mismatch is
//! remembered and reported only when decoding finishes without such a failure.

use crate::error::{Error, Result};
use crate::quantity::Quantity as Qty;
use serde_json::{Map, Value};

/// The shape of one field of a Go struct, as JSON sees it.
#[derive(Debug)]
pub enum Shape {
    /// A member carried verbatim (kruise-only sub-structs, `metav1.FieldsV1`).
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
    /// `*resource.Quantity`: re-printed; `null` is absent.
    Quantity,
    /// `resource.Quantity` held by value (a struct member or a `ResourceList` value): re-printed;
    /// `null`, and as a struct member also absence, give the zero quantity `"0"`.
    QuantityValue,
    /// A Go struct with these JSON members (all others are dropped).
    Obj(&'static [Field]),
    /// A Go struct with the members of both lists (one struct inlined into another).
    Obj2(&'static [Field], &'static [Field]),
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
/// Errors (precedence as in the module doc): `invalid_quantity` / `quantity_out_of_range` naming
/// the path for a quantity apimachinery's `ParseQuantity` rejects (or kruise-core refuses to
/// materialise); `invalid_input` naming the path when a time is not RFC 3339, an int-or-string is
/// neither a string nor an int32, a scalar has the wrong JSON type, or an integer does not fit
/// its Go width.
pub fn normalize(v: &Value, shape: &Shape, path: &str) -> Result<Option<Value>> {
    let mut saved = None;
    let out = walk(v, shape, path, &mut saved)?;
    match saved {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// One step of [`normalize`]: `Err` stops at once; type mismatches go to `saved` (the first one
/// is kept) and the member is left out.
fn walk(v: &Value, shape: &Shape, path: &str, saved: &mut Option<Error>) -> Result<Option<Value>> {
    if v.is_null() {
        return Ok(None);
    }
    let mismatch = |saved: &mut Option<Error>, e: Error| {
        saved.get_or_insert(e);
        Ok(None)
    };
    let out = match shape {
        Shape::Ref(inner) => return walk(v, inner, path, saved),
        Shape::Any => v.clone(),
        Shape::Str => match v {
            Value::String(_) => v.clone(),
            _ => return mismatch(saved, wrong(path, "a string", v)),
        },
        Shape::Bool => match v {
            Value::Bool(_) => v.clone(),
            _ => return mismatch(saved, wrong(path, "a boolean", v)),
        },
        Shape::Int32 => match int(v, path, i64::from(i32::MIN), i64::from(i32::MAX)) {
            Ok(n) => Value::from(n),
            Err(e) => return mismatch(saved, e),
        },
        Shape::Int64 => match int(v, path, i64::MIN, i64::MAX) {
            Ok(n) => Value::from(n),
            Err(e) => return mismatch(saved, e),
        },
        Shape::IntOrStr => match v {
            Value::String(_) => v.clone(),
            _ => Value::from(
                int(v, path, i64::from(i32::MIN), i64::from(i32::MAX))
                    .map_err(|_| wrong(path, "an integer (int32) or a string", v))?,
            ),
        },
        Shape::Time => Value::String(time(v, path)?),
        Shape::Quantity | Shape::QuantityValue => Value::String(quantity(v, path)?),
        Shape::Obj(fields) => {
            let Some(m) = v.as_object() else {
                return mismatch(saved, wrong(path, "an object", v));
            };
            let mut out = Map::new();
            members(m, fields, &[], path, &mut out, saved)?;
            Value::Object(out)
        }
        Shape::Obj2(a, b) => {
            let Some(m) = v.as_object() else {
                return mismatch(saved, wrong(path, "an object", v));
            };
            let mut out = Map::new();
            members(m, a, b, path, &mut out, saved)?;
            Value::Object(out)
        }
        Shape::List(item) | Shape::ListSkipNull(item) => {
            let Some(a) = v.as_array() else {
                return mismatch(saved, wrong(path, "an array", v));
            };
            let skip = matches!(shape, Shape::ListSkipNull(_));
            let mut out = Vec::with_capacity(a.len());
            for (i, e) in a.iter().enumerate() {
                match walk(e, item, &format!("{path}[{i}]"), saved)? {
                    Some(n) => out.push(n),
                    None if skip => {}
                    None => out.push(zero(item)),
                }
            }
            Value::Array(out)
        }
        Shape::Map(item) => {
            let Some(m) = v.as_object() else {
                return mismatch(saved, wrong(path, "an object", v));
            };
            let mut out = Map::new();
            for (k, e) in m {
                let n = walk(e, item, &join(path, k), saved)?.unwrap_or_else(|| zero(item));
                out.insert(k.clone(), n);
            }
            Value::Object(out)
        }
    };
    Ok(Some(out))
}

/// The members of the JSON object `m` that `fields` (and `more`) declare, normalised into `out`
/// in the object's key order, which is sorted: the order of the document an API server sends
/// (its encoder sorts the keys of an unstructured object), and so the order in which Go's
/// decoder meets the errors.
fn members(
    m: &Map<String, Value>,
    fields: &[Field],
    more: &[Field],
    path: &str,
    out: &mut Map<String, Value>,
    saved: &mut Option<Error>,
) -> Result<()> {
    let declared = || fields.iter().chain(more.iter());
    for (name, fv) in m {
        let Some((_, fshape)) = declared().find(|(n, _)| n == name) else {
            continue;
        };
        if let Some(n) = walk(fv, fshape, &join(path, name), saved)? {
            out.insert(name.clone(), n);
        }
    }
    // A quantity held by value is encoded even when unset or null (`omitempty` does not apply to
    // a struct): `"divisor": "0"`.
    for (name, fshape) in declared() {
        if matches!(fshape, Shape::QuantityValue) && !out.contains_key(*name) {
            out.insert((*name).to_owned(), Value::String("0".into()));
        }
    }
    Ok(())
}

/// Reads a quantity the way `resource.Quantity.UnmarshalJSON` does and prints it the way
/// `MarshalJSON` does. Go receives the raw JSON text: a string loses its quotes but not its
/// escapes, anything else is parsed as written (a number's digits; `true` or an object fail), and
/// surrounding white space is trimmed (`strings.TrimSpace`). A JSON number arrives here as
/// serde_json holds it: integers exactly, other numbers as the shortest text of their f64 value.
pub fn quantity(v: &Value, path: &str) -> Result<String> {
    let raw = match v {
        Value::String(s) => std::borrow::Cow::Borrowed(s.as_str()),
        other => std::borrow::Cow::Owned(other.to_string()),
    };
    let text = raw.trim_matches(raw_space);
    match Qty::parse(text) {
        Ok(q) => Ok(q.to_string()),
        Err(e) => Err(e.to_error(path, text)),
    }
}

/// White space `strings.TrimSpace` removes from the raw JSON text of a string, as it can arrive
/// there: JSON escapes control characters (`\t`, `\n`, ...), and Go's encoder (the API server's)
/// also escapes U+2028 and U+2029, so Go sees a backslash for those and trims nothing; a space
/// and the other Unicode spaces arrive as themselves.
fn raw_space(c: char) -> bool {
    c == ' ' || (!c.is_ascii() && c.is_whitespace() && c != '\u{2028}' && c != '\u{2029}')
}

/// The JSON form of a Go zero value of `shape` (what a `null` list element or map value decodes to).
fn zero(shape: &Shape) -> Value {
    match shape {
        Shape::Str => Value::String(String::new()),
        Shape::Bool => Value::Bool(false),
        Shape::Int32 | Shape::Int64 | Shape::IntOrStr => Value::from(0),
        Shape::QuantityValue => Value::String("0".into()),
        Shape::Obj(_) | Shape::Obj2(..) | Shape::Map(_) => Value::Object(Map::new()),
        Shape::Ref(inner) => zero(inner),
        Shape::Any | Shape::Time | Shape::Quantity | Shape::List(_) | Shape::ListSkipNull(_) => {
            Value::Null
        }
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

/// The JSON type of `v` with its article, for messages ("a string", "null").
pub(crate) fn kind_of(v: &Value) -> &'static str {
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
    let ts = crate::time::parse_time(s, path)?;
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

    #[test]
    fn quantities_reprinted_trimmed_and_zero_when_null() {
        const Q: Shape = Shape::Obj(&[
            ("p", Shape::Quantity),
            ("v", Shape::QuantityValue),
            ("m", Shape::Map(&Shape::QuantityValue)),
        ]);
        let got = normalize(
            &json!({"p": " 1.5 ", "m": {"a": null, "b": 2, "c": "1.500m"}}),
            &Q,
            "o",
        );
        assert_eq!(
            got.unwrap(),
            Some(json!({"p": "1500m", "v": "0", "m": {"a": "0", "b": "2", "c": "1.500m"}}))
        );
        // A pointer quantity that is null is absent; a held one is zero.
        let got = normalize(&json!({"p": null, "v": null}), &Q, "o").unwrap();
        assert_eq!(got, Some(json!({"v": "0"})));
        // Escaped control characters reach Go as a backslash: not trimmed.
        let e = normalize(&json!({"p": "\t1"}), &Q, "o").unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_quantity", Some("o.p"))
        );
        let e = normalize(&json!({"m": {"cpu": [1]}}), &Q, "o").unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_quantity", Some("o.m.cpu"))
        );
    }

    #[test]
    fn decode_errors_stop_type_mismatches_wait() {
        const P: Shape =
            Shape::Obj(&[("a", Shape::Int32), ("b", Shape::Time), ("c", Shape::Int32)]);
        // "a" (a mismatch) comes first, but the time error stops the decode.
        let e = normalize(&json!({"a": "x", "b": "yesterday"}), &P, "o").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("o.b"));
        // Of two mismatches the first in key order is reported.
        let e = normalize(&json!({"c": "y", "a": "x"}), &P, "o").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("o.a"));
    }
}
