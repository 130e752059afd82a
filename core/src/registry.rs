//! The registry of decision functions, keyed by the conformance-vector fn ids.
//!
//! One table feeds the generic [`call`], the CLI (`kruise-core call`, `conformance`), the conformance
//! runner and every language binding. Each family module exports a `const ENTRIES: &[Entry]`; adding
//! a decision function means adding one [`Entry`] to its family's table.

use crate::error::{Error, Result, UNKNOWN_FN};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// How a conformance runner compares a function's output with a vector's `expect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// Exact JSON equality (object key order ignored, numbers by value).
    Exact,
    /// Zero-pruned equality (`api.convert`): object members that are null/false/0/""/{}/[] are dropped.
    ZeroPruned,
    /// Null-pruned equality (`api.default`): object members that are null/{}/[] are dropped.
    NullPruned,
}

/// A JSON-in, JSON-out decision handler.
pub type Handler = fn(&Value) -> Result<Value>;

/// One registered decision function.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The fn id, e.g. `resources.eval`.
    pub id: &'static str,
    /// One line saying what it decides and which OpenKruise source it mirrors.
    pub doc: &'static str,
    /// The handler.
    pub handler: Handler,
    /// How vectors for this function are compared.
    pub compare: Compare,
}

impl Entry {
    /// An entry compared exactly.
    pub const fn new(id: &'static str, doc: &'static str, handler: Handler) -> Self {
        Entry { id, doc, handler, compare: Compare::Exact }
    }

    /// The same entry with another comparison rule.
    pub const fn with_compare(mut self, compare: Compare) -> Self {
        self.compare = compare;
        self
    }
}

const FAMILIES: &[&[Entry]] = &[
    crate::intstr::ENTRIES,
    crate::resources::ENTRIES,
    crate::allocation::ENTRIES,
    crate::rollout::ENTRIES,
    crate::cron::ENTRIES,
    crate::pub_budget::ENTRIES,
    crate::api::ENTRIES,
    crate::compat::ENTRIES,
];

/// Every registered entry, family by family.
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    FAMILIES.iter().flat_map(|f| f.iter())
}

/// Every registered fn id.
pub fn fn_ids() -> impl Iterator<Item = &'static str> {
    entries().map(|e| e.id)
}

/// Looks up an entry by fn id.
pub fn lookup(fn_id: &str) -> Option<&'static Entry> {
    entries().find(|e| e.id == fn_id)
}

/// Calls decision function `fn_id` on `input` (the vector `input` shape of its spec).
///
/// Errors: `unknown_fn` for an unregistered id, `invalid_input` for a wrong JSON shape (naming the
/// field), otherwise the function's own error kinds.
///
/// ```
/// let out = kruise_core::registry::call("rollout.scale_int_or_percent",
///     &serde_json::json!({"value": "25%", "total": 10, "roundUp": true, "mode": "scaled"}));
/// # let _ = out;
/// ```
pub fn call(fn_id: &str, input: &Value) -> Result<Value> {
    match lookup(fn_id) {
        Some(e) => (e.handler)(input),
        None => Err(Error::new(UNKNOWN_FN, format!("unknown fn id {fn_id:?}"))),
    }
}

/// Decodes a handler's input into a typed struct; a shape error is `invalid_input` naming the path
/// of the offending field (e.g. `spec.subsets[1].name`).
///
/// The JSON number `-0` is read as `0` first, as Go's `encoding/json` reads it into an integer
/// field (serde_json holds `-0` as the float `-0.0`, which no integer field would take). JSON
/// values cannot tell `-0` from `-0.0`, so `-0.0` (which Go refuses for an integer field) is read
/// as `0` too.
pub fn decode<T: DeserializeOwned>(input: &Value) -> Result<T> {
    let normalised;
    let input = if has_negative_zero(input) {
        normalised = without_negative_zero(input);
        &normalised
    } else {
        input
    };
    serde_path_to_error::deserialize(input).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { "input".to_string() } else { path };
        Error::invalid_input(path, e.into_inner())
    })
}

fn is_negative_zero(n: &serde_json::Number) -> bool {
    n.as_f64().is_some_and(|x| x == 0.0 && x.is_sign_negative()) && !n.is_i64() && !n.is_u64()
}

/// Whether `v` holds the number `-0` anywhere (an explicit stack: no recursion on deep input).
fn has_negative_zero(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if is_negative_zero(n) => return true,
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    false
}

/// A copy of `v` with every `-0` replaced by the integer `0`.
fn without_negative_zero(v: &Value) -> Value {
    let mut out = v.clone();
    let mut stack = vec![&mut out];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if is_negative_zero(n) => *v = Value::from(0u8),
            Value::Array(a) => stack.extend(a.iter_mut()),
            Value::Object(m) => stack.extend(m.values_mut()),
            _ => {}
        }
    }
    out
}

/// Encodes a typed output as JSON.
pub fn encode<T: Serialize>(value: &T) -> Result<Value> {
    serde_json::to_value(value).map_err(|e| Error::new("internal", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(fn_id: &str, input: Value) -> &'static str {
        call(fn_id, &input).unwrap_err().kind
    }

    /// Go's encoding/json reads the JSON number `-0` into an integer field as 0; so does decode.
    #[test]
    fn negative_zero_is_zero_for_integer_fields() {
        let scale = |text: &str| {
            let input: Value = serde_json::from_str(text).unwrap();
            call("rollout.scale_int_or_percent", &input)
        };
        let text = r#"{"value": "50%", "total": -0, "roundUp": true, "mode": "scaled"}"#;
        assert!(has_negative_zero(&serde_json::from_str(text).unwrap()), "serde_json holds -0 as -0.0");
        assert_eq!(scale(text).unwrap(), json!(0));
        let text = r#"{"value": "50%", "total": 0, "roundUp": true, "mode": "scaled"}"#;
        assert_eq!(scale(text).unwrap(), json!(0));
        // An int-or-percent member takes -0 as the integer 0 too (intstr's UnmarshalJSON).
        let text = r#"{"value": -0, "total": 10, "roundUp": true, "mode": "scaled"}"#;
        assert_eq!(scale(text).unwrap(), json!(0));
        // Another family's int-or-percent field.
        let input: Value = serde_json::from_str(r#"{"replicas": 4, "value": -0}"#).unwrap();
        assert_eq!(call("allocation.parse_replicas", &input).unwrap(), json!(0));
    }

    /// Other non-integers stay refused for integer fields, as in Go.
    #[test]
    fn other_floats_are_still_invalid_for_integer_fields() {
        for total in [json!(0.5), json!(1.0), json!(0.0), json!(-1.5)] {
            let input = json!({"value": "50%", "total": total, "roundUp": true, "mode": "scaled"});
            assert_eq!(kind("rollout.scale_int_or_percent", input), "invalid_input", "{total}");
        }
    }

    #[test]
    fn negative_zero_is_found_and_replaced_at_any_depth() {
        let v: Value = serde_json::from_str(r#"{"a": [1, {"b": [-0, 2.5, -0.0]}], "c": -0.5}"#).unwrap();
        assert!(has_negative_zero(&v));
        let n = without_negative_zero(&v);
        assert!(!has_negative_zero(&n));
        assert_eq!(n, json!({"a": [1, {"b": [0, 2.5, 0]}], "c": -0.5}));
        assert!(!has_negative_zero(&json!({"a": [0, 0.0, -1, "-0"]})));
    }
}
