//! Objects stay objects: serde's derived `Deserialize` for a struct also takes a JSON array (its
//! fields by position), which Go's encoding/json refuses (`cannot unmarshal array into Go value of
//! type ...`). Before a typed fn decodes its input, [`check`] walks the input beside the fn's input
//! JSON Schema and refuses an array wherever the schema wants only an object, as `invalid_input`
//! naming the member. The schema of each fn is built once and kept.
//!
//! The walk is conservative: it follows `$ref`, `properties`, `additionalProperties`, `items`,
//! `prefixItems`, `allOf`, and an `anyOf`/`oneOf` with one alternative besides `null`; where the
//! schema is open (`true`, `{}`, a verbatim `serde_json::Value`) or ambiguous it stops.

use crate::error::{Error, Result};
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

/// The input schema of one fn: the root and its `$defs`.
struct Shape {
    root: Value,
    defs: Map<String, Value>,
}

type Cache = RwLock<HashMap<&'static str, Arc<Shape>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn shape<T: JsonSchema>(id: &'static str) -> Arc<Shape> {
    if let Some(s) = cache().read().unwrap_or_else(|e| e.into_inner()).get(id) {
        return s.clone();
    }
    let mut g = SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator();
    let root = g.subschema_for::<T>().to_value();
    let defs = g.take_definitions(true);
    let s = Arc::new(Shape { root, defs });
    cache()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, s.clone());
    s
}

/// Refuses a JSON array where fn `id`'s input type `T` wants an object.
pub(crate) fn check<T: JsonSchema>(id: &'static str, input: &Value) -> Result<()> {
    if !has_array(input) {
        return Ok(());
    }
    let s = shape::<T>(id);
    let mut path = String::new();
    walk(&s, input, &s.root, &mut path, 0)
}

/// Whether `v` holds an array anywhere (most small inputs hold none: no schema walk then).
fn has_array(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(_) => return true,
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    false
}

/// Follows `$ref`s (at most 32 in a row) to the schema they name.
fn resolve<'s>(s: &'s Shape, mut schema: &'s Value) -> Option<&'s Value> {
    for _ in 0..32 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => schema = s.defs.get(r.strip_prefix("#/$defs/")?)?,
            None => return Some(schema),
        }
    }
    None
}

/// The one alternative of an `anyOf`/`oneOf` that is not `{"type": "null"}`, when there is one.
fn single_alternative(schema: &Value) -> Option<&Value> {
    let alts = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))?
        .as_array()?;
    let mut rest = alts
        .iter()
        .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"));
    let one = rest.next()?;
    rest.next().is_none().then_some(one)
}

fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether the schema takes only objects (and maybe null): a `type` naming object but not array,
/// or no `type` and object keywords.
fn object_only(schema: &Value) -> bool {
    let t = types(schema);
    if !t.is_empty() {
        return t.contains(&"object") && !t.contains(&"array");
    }
    schema.get("properties").is_some()
        && schema.get("items").is_none()
        && schema.get("prefixItems").is_none()
}

fn walk(s: &Shape, v: &Value, schema: &Value, path: &mut String, depth: usize) -> Result<()> {
    // The registry's depth limit has already been applied to the input; this is a second guard.
    if depth > 256 {
        return Ok(());
    }
    let Some(schema) = resolve(s, schema) else {
        return Ok(());
    };
    if !schema.is_object() {
        return Ok(()); // `true` / `false`
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for sub in all {
            walk(s, v, sub, path, depth + 1)?;
        }
    }
    if let Some(one) = single_alternative(schema) {
        walk(s, v, one, path, depth + 1)?;
    }
    match v {
        Value::Array(items) => {
            if object_only(schema) {
                let at = if path.is_empty() {
                    "input".to_string()
                } else {
                    path.clone()
                };
                return Err(Error::invalid_input(
                    at,
                    "invalid type: array, expected an object",
                ));
            }
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            let rest = schema.get("items");
            for (i, item) in items.iter().enumerate() {
                let sub = match prefix.and_then(|p| p.get(i)) {
                    Some(p) => Some(p),
                    None => rest,
                };
                if let Some(sub) = sub {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    walk(s, item, sub, path, depth + 1)?;
                    path.truncate(len);
                }
            }
        }
        Value::Object(m) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let extra = schema.get("additionalProperties");
            for (k, item) in m {
                let sub = props.and_then(|p| p.get(k)).or(extra);
                if let Some(sub) = sub {
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                    walk(s, item, sub, path, depth + 1)?;
                    path.truncate(len);
                }
            }
        }
        _ => {}
    }
    Ok(())
}
