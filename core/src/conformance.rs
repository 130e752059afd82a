//! The conformance runner: replays a vector file (the format of `conformance/vectors/README.md`)
//! through [`crate::registry::call`] and reports each failing case.
//!
//! Pure: it takes the file's text, never reads files itself. The CLI (`kruise-core conformance`),
//! `cargo test -p kruise-conformance` and the bindings' `matches` helpers use it.

use crate::registry::{self, Compare};
use serde_json::Value;

/// One failing case.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The case's fn id.
    pub fn_id: String,
    /// The case's name.
    pub name: String,
    /// What the vector expects: the `expect` value, or `{"error": kind}` for `expect_error`.
    pub expected: Value,
    /// What the function returned: its value, or its error JSON.
    pub got: Value,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "FAIL {} [{}]: expected {} got {}",
            self.fn_id, self.name, self.expected, self.got
        )
    }
}

/// The outcome of replaying one or more files.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Number of passing cases.
    pub passed: usize,
    /// Failing cases, in file order.
    pub failures: Vec<Failure>,
}

impl Report {
    /// Number of failing cases.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }
    /// Adds another report's counts and failures.
    pub fn merge(&mut self, other: Report) {
        self.passed += other.passed;
        self.failures.extend(other.failures);
    }
}

/// Replays every case of a vector file given as text. A file that is not valid JSON of the vector
/// format is an `invalid_input` error.
pub fn run_text(text: &str) -> crate::Result<Report> {
    let doc: Value =
        serde_json::from_str(text).map_err(|e| crate::Error::invalid_input("vector file", e))?;
    run_doc(&doc)
}

/// Replays every case of a parsed vector document (`{"cases": [...]}`).
pub fn run_doc(doc: &Value) -> crate::Result<Report> {
    let cases = doc.get("cases").and_then(Value::as_array).ok_or_else(|| {
        crate::Error::invalid_input("cases", "vector file has no \"cases\" array")
    })?;
    let mut report = Report::default();
    for (i, case) in cases.iter().enumerate() {
        let fn_id = case.get("fn").and_then(Value::as_str).unwrap_or("");
        let name = case
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| format!("case {i}"));
        let input = case.get("input").cloned().unwrap_or(Value::Null);
        let got = registry::call(fn_id, &input);
        let (ok, expected, got) = judge(fn_id, case, got);
        if ok {
            report.passed += 1;
        } else {
            report.failures.push(Failure {
                fn_id: fn_id.to_owned(),
                name,
                expected,
                got,
            });
        }
    }
    Ok(report)
}

/// Judges one outcome against a case (`expect` or `expect_error`); returns (passed, expected, got)
/// with expected/got in printable form.
pub fn judge(fn_id: &str, case: &Value, got: crate::Result<Value>) -> (bool, Value, Value) {
    if let Some(kind) = case.get("expect_error") {
        let expected = serde_json::json!({ "error": kind });
        return match got {
            Ok(v) => (false, expected, v),
            Err(e) => (Some(e.kind) == kind.as_str(), expected, e.to_json()),
        };
    }
    let expected = case.get("expect").cloned().unwrap_or(Value::Null);
    match got {
        Ok(v) => (matches(fn_id, &expected, &v), expected, v),
        Err(e) => (false, expected, e.to_json()),
    }
}

/// Whether `got` matches `expected` under the comparison rule registered for `fn_id`
/// (exact unless the fn registers a looser one).
pub fn matches(fn_id: &str, expected: &Value, got: &Value) -> bool {
    let compare = registry::lookup(fn_id)
        .map(|e| e.compare)
        .unwrap_or(Compare::Exact);
    match compare {
        Compare::Exact => json_eq(expected, got),
        Compare::ZeroPruned => json_eq(&prune(expected, true), &prune(got, true)),
        Compare::NullPruned => json_eq(&prune(expected, false), &prune(got, false)),
    }
}

/// JSON equality with object key order ignored and numbers compared by value
/// (integers exactly, `1 == 1.0`).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(p), Some(q)) = (x.as_i64(), y.as_i64()) {
                p == q
            } else if let (Some(p), Some(q)) = (x.as_u64(), y.as_u64()) {
                p == q
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Normalises a value for pruned comparison: inside objects, members whose normalised value is
/// null, {} or [] (and with `zeros`, also false, 0 and "") are removed; array elements are kept.
pub fn prune(v: &Value, zeros: bool) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), prune(v, zeros)))
                .filter(|(_, v)| !is_pruned(v, zeros))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|v| prune(v, zeros)).collect()),
        other => other.clone(),
    }
}

fn is_pruned(v: &Value, zeros: bool) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Bool(b) => zeros && !b,
        Value::Number(n) => zeros && n.as_f64() == Some(0.0),
        Value::String(s) => zeros && s.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value_and_keys_unordered() {
        assert!(json_eq(
            &json!({"a": 1, "b": [1.0]}),
            &json!({"b": [1], "a": 1.0})
        ));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 2})));
        assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
        assert!(!json_eq(
            &json!(9007199254740993u64),
            &json!(9007199254740992u64)
        ));
    }

    #[test]
    fn pruning_rules() {
        let v =
            json!({"a": 0, "b": false, "c": "", "d": null, "e": {}, "f": [0, {}], "g": {"h": []}});
        assert_eq!(prune(&v, true), json!({"f": [0, {}]}));
        assert_eq!(
            prune(&v, false),
            json!({"a": 0, "b": false, "c": "", "f": [0, {}]})
        );
    }

    #[test]
    fn expect_error_needs_the_same_kind() {
        let case = json!({"expect_error": "division_by_zero"});
        assert!(judge("x", &case, Err(crate::Error::new("division_by_zero", "m"))).0);
        assert!(!judge("x", &case, Err(crate::Error::new("syntax_error", "m"))).0);
        assert!(!judge("x", &case, Ok(json!(1))).0);
    }

    #[test]
    fn unknown_fn_is_a_failure() {
        let doc = json!({"cases": [{"fn": "no.such", "name": "n", "input": {}, "expect": 1}]});
        let r = run_doc(&doc).unwrap();
        assert_eq!((r.passed, r.failed()), (0, 1));
    }
}
