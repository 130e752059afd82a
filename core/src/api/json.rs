//! Small helpers for reading and writing manifests held as `serde_json::Value`, shared by the api
//! decisions. Reads are lenient about absence and strict about type: a present member of the
//! wrong JSON type is `invalid_input` naming its dotted path.

use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// Rejects a member of a function's own input object that the function does not read (a
/// misspelt option must not silently fall back to its default): `invalid_input` naming the first
/// such member. A non-object input passes, for the handler to report.
pub fn only_members(input: &Value, allowed: &[&str]) -> Result<()> {
    match input
        .as_object()
        .and_then(|m| m.keys().find(|k| !allowed.contains(&k.as_str())))
    {
        Some(k) => Err(Error::invalid_input(
            k.as_str(),
            format_args!(
                "unknown field `{k}`, expected one of {}",
                allowed.join(", ")
            ),
        )),
        None => Ok(()),
    }
}

/// The member `key` of `obj` if present and not `null`.
pub fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

/// `v` as an object, or `invalid_input` at `path`.
pub fn as_obj<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| Error::invalid_input(path, "expected a JSON object"))
}

/// Member `key` of `obj` as an object; absent/null is `None`.
pub fn obj_at<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match get(obj, key) {
        None => Ok(None),
        Some(v) => as_obj(v, &super::schema::join(path, key)).map(Some),
    }
}

/// Member `key` of `obj` as a string; absent/null is `None`.
pub fn str_at<'a>(obj: &'a Map<String, Value>, key: &str, path: &str) -> Result<Option<&'a str>> {
    match get(obj, key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Error::invalid_input(
            super::schema::join(path, key),
            "expected a string",
        )),
    }
}

/// Member `key` of `obj` as a boolean; absent/null is `None`.
pub fn bool_at(obj: &Map<String, Value>, key: &str, path: &str) -> Result<Option<bool>> {
    match get(obj, key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(Error::invalid_input(
            super::schema::join(path, key),
            "expected a boolean",
        )),
    }
}

/// Member `key` of `obj` as an integer; absent/null is `None`.
pub fn int_at(obj: &Map<String, Value>, key: &str, path: &str) -> Result<Option<i64>> {
    match get(obj, key) {
        None => Ok(None),
        Some(v) => v.as_i64().map(Some).ok_or_else(|| {
            Error::invalid_input(super::schema::join(path, key), "expected an integer")
        }),
    }
}

/// Member `key` of `obj` as an array; absent/null is an empty slice.
pub fn list_at<'a>(obj: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a [Value]> {
    match get(obj, key) {
        None => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(Error::invalid_input(
            super::schema::join(path, key),
            "expected an array",
        )),
    }
}

/// The object member `key` of `obj`, created (or replacing a `null`) when absent.
pub fn ensure_obj<'a>(
    obj: &'a mut Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'a mut Map<String, Value>> {
    let slot = obj.entry(key.to_owned()).or_insert(Value::Null);
    if slot.is_null() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().ok_or_else(|| {
        Error::invalid_input(super::schema::join(path, key), "expected a JSON object")
    })
}

/// Whether member `key` is absent or `null` (a Go nil pointer).
pub fn is_nil(obj: &Map<String, Value>, key: &str) -> bool {
    get(obj, key).is_none()
}

/// Whether member `key` is absent, `null` or the Go zero value of its scalar type (`""`, `0`, `false`).
pub fn is_empty(obj: &Map<String, Value>, key: &str) -> bool {
    match get(obj, key) {
        None => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(Value::Number(n)) => n.as_f64() == Some(0.0),
        Some(Value::Bool(b)) => !b,
        Some(_) => false,
    }
}

/// Sets `key` to `v` when it is nil (absent/null).
pub fn default_nil(obj: &mut Map<String, Value>, key: &str, v: Value) {
    if is_nil(obj, key) {
        obj.insert(key.to_owned(), v);
    }
}

/// Sets `key` to `v` when it is empty (absent/null/zero).
pub fn default_empty(obj: &mut Map<String, Value>, key: &str, v: Value) {
    if is_empty(obj, key) {
        obj.insert(key.to_owned(), v);
    }
}

/// The JSON type a member of a function's own input must have when present and not `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Any value (an object carried or read as JSON; its own checks come later).
    Any,
    /// A JSON object.
    Object,
    /// A string.
    String,
    /// A boolean.
    Bool,
    /// An integer within int64.
    Int,
    /// An array.
    Array,
    /// An RFC 3339 time string.
    Time,
    /// A JSON object of feature gates: the gates listed, when present and not `null`, are
    /// booleans (`invalid_input` naming `<member>.<gate>`); others are not read.
    Gates(&'static [&'static str]),
}

impl Want {
    fn accepts(self, v: &Value) -> bool {
        match self {
            Want::Any => true,
            Want::Object => v.is_object(),
            Want::String => v.is_string(),
            Want::Bool => v.is_boolean(),
            // `-0` is the integer 0, as the registry's decode reads it (Go's encoding/json too)
            Want::Int => {
                v.as_i64().is_some() || v.as_f64().is_some_and(|x| x == 0.0 && x.is_sign_negative())
            }
            Want::Array => v.is_array(),
            Want::Time => v.is_string(),
            Want::Gates(_) => v.is_object(),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Want::Any => "a value",
            Want::Object => "a JSON object",
            Want::String => "a string",
            Want::Bool => "a boolean",
            Want::Int => "an integer",
            Want::Array => "an array",
            Want::Time => "an RFC 3339 time string",
            Want::Gates(_) => "a JSON object",
        }
    }
}

/// One member of a function's own input: its name, its JSON type, and whether it is required
/// (absent or `null` is then `invalid_input` "missing").
pub type Member = (&'static str, Want, bool);

/// The checks of a function's own input object that run before it is decoded (the
/// `Decision::CHECK_JSON` of the api family), in this order: a member not in `members`, a
/// non-object input (`input`), then each member in the order given (the order the function reads
/// them): a wrong JSON type, or missing when required. Each error is `invalid_input` naming the
/// member. Members are then decoded by serde, which finds nothing more at the top level; a `null`
/// member reads as absent.
pub fn own_input(input: &Value, members: &[Member]) -> Result<()> {
    let names: Vec<&str> = members.iter().map(|m| m.0).collect();
    only_members(input, &names)?;
    let obj = as_obj(input, "input")?;
    for &(name, want, required) in members {
        match get(obj, name) {
            None if required => return Err(Error::invalid_input(name, "missing")),
            Some(v) if !want.accepts(v) => {
                return Err(Error::invalid_input(
                    name,
                    format_args!("expected {}", want.describe()),
                ));
            }
            Some(v) => match want {
                Want::Time => {
                    super::schema::time(v, name)?;
                }
                Want::Gates(gates) => {
                    let g = as_obj(v, name)?;
                    for gate in gates {
                        bool_at(g, gate, name)?;
                    }
                }
                _ => {}
            },
            None => {}
        }
    }
    Ok(())
}
