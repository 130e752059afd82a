//! The JSON patch OpenKruise v1.9.0 computes between two ControllerRevisions:
//! `github.com/appscode/jsonpatch` v1.0.1 `CreatePatch` (the module `pkg/util/inplaceupdate`
//! imports; not `gomodules.xyz/jsonpatch/v2`, whose array handling differs).
//!
//! Rules reproduced here (read from that module's `jsonpatch.go`, written anew):
//!
//! - objects: a member only in the new document is `add`, only in the old one `remove`, in both
//!   it is compared by value; an old `null` against a new non-null value is `add`; values of
//!   different JSON types are `replace` with the new value (so a new `null` is `replace` with
//!   `null`); strings, numbers (compared as float64) and booleans that differ are `replace`;
//! - arrays where both sides are "simple" (scalars, or where the first non-scalar element is an
//!   object whose members are all scalars or null: the check stops at that object) get an edit
//!   distance (Wagner-Fischer, deep equality) and the operations of its backtrace: remove, then
//!   add, then substitution preferred in that order at each step; a substitution is a whole
//!   `replace` when the old array's first element is a scalar, else the recursive difference of
//!   the two elements;
//! - other arrays are positional: `remove` of the surplus old indexes from the last down, `add`
//!   of the surplus new ones, then the recursive difference of each common index;
//! - paths are RFC 6901 (`~` as `~0`, `/` as `~1`); a path ending in `/` (an empty key) is
//!   extended without another `/`.
//!
//! Go walks maps in random order, so the reference's operation order is unspecified; here
//! object members are walked in key order (added/changed first, then removed).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One JSON patch operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "JsonPatchOperation")]
pub struct Operation {
    /// `add`, `remove` or `replace`.
    pub op: String,
    /// RFC 6901 path of the member.
    pub path: String,
    /// The new value (`add`, `replace`; may be `null`); absent for `remove`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

impl Operation {
    fn new(op: &str, path: String, value: Option<&Value>) -> Self {
        Operation {
            op: op.to_string(),
            path,
            value: value.cloned().map(Some).unwrap_or(if op == "remove" {
                None
            } else {
                Some(Value::Null)
            }),
        }
    }
}

/// The operations turning object `a` into object `b`.
pub fn create_patch(a: &Map<String, Value>, b: &Map<String, Value>) -> Vec<Operation> {
    let mut out = Vec::new();
    diff(a, b, "", &mut out);
    out
}

fn make_path(path: &str, part: &str) -> String {
    let key = part.replace('~', "~0").replace('/', "~1");
    if path.is_empty() {
        format!("/{key}")
    } else if path.ends_with('/') {
        format!("{path}{key}")
    } else {
        format!("{path}/{key}")
    }
}

fn diff(a: &Map<String, Value>, b: &Map<String, Value>, path: &str, out: &mut Vec<Operation>) {
    let mut keys: Vec<&String> = b.keys().collect();
    keys.sort();
    for key in keys {
        let p = make_path(path, key);
        match a.get(key) {
            None => out.push(Operation::new("add", p, b.get(key))),
            Some(av) => handle_values(av, &b[key], &p, out),
        }
    }
    let mut removed: Vec<&String> = a.keys().filter(|k| !b.contains_key(*k)).collect();
    removed.sort();
    for key in removed {
        out.push(Operation::new("remove", make_path(path, key), None));
    }
}

/// Go's `reflect.TypeOf` of a decoded JSON value.
fn kind(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

/// A JSON number as Go's `float64` reads it.
fn f64_of(n: &serde_json::Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

/// `reflect.DeepEqual` of two decoded JSON values (numbers as float64).
pub fn deep_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => f64_of(x) == f64_of(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| deep_eq(v, w)))
        }
        _ => a == b,
    }
}

fn is_basic(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

fn handle_values(av: &Value, bv: &Value, p: &str, out: &mut Vec<Operation>) {
    match (av, bv) {
        (Value::Null, Value::Null) => {}
        (Value::Null, _) => out.push(Operation::new("add", p.to_string(), Some(bv))),
        _ if kind(av) != kind(bv) => {
            out.push(Operation::new("replace", p.to_string(), Some(bv)));
        }
        (Value::Object(a), Value::Object(b)) => diff(a, b, p, out),
        (Value::Array(a), Value::Array(b)) => {
            if is_simple_array(a) && is_simple_array(b) {
                edit_distance(a, b, p, out);
            } else {
                let n = a.len().min(b.len());
                for i in (n..a.len()).rev() {
                    out.push(Operation::new("remove", make_path(p, &i.to_string()), None));
                }
                for (i, v) in b.iter().enumerate().skip(n) {
                    out.push(Operation::new("add", make_path(p, &i.to_string()), Some(v)));
                }
                for i in 0..n {
                    handle_values(&a[i], &b[i], &make_path(p, &i.to_string()), out);
                }
            }
        }
        _ => {
            if !deep_eq(av, bv) {
                out.push(Operation::new("replace", p.to_string(), Some(bv)));
            }
        }
    }
}

/// The reference's `isSimpleArray`: scalars up to the first non-scalar; an object there decides
/// (all members scalar or null), anything else (array, null) makes the array not simple.
fn is_simple_array(a: &[Value]) -> bool {
    for v in a {
        match v {
            Value::String(_) | Value::Number(_) | Value::Bool(_) => {}
            Value::Object(m) => return m.values().all(|x| x.is_null() || is_basic(x)),
            _ => return false,
        }
    }
    true
}

fn edit_distance(s: &[Value], t: &[Value], p: &str, out: &mut Vec<Operation>) {
    let (m, n) = (s.len(), t.len());
    let mut d = vec![vec![0usize; n + 1]; m + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for j in 1..=n {
        for i in 1..=m {
            d[i][j] = if deep_eq(&s[i - 1], &t[j - 1]) {
                d[i - 1][j - 1]
            } else {
                (d[i - 1][j - 1] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j] + 1)
            };
        }
    }
    // the backtrace, iteratively: each step's operations come before the rest's
    let (mut i, mut j) = (m, n);
    loop {
        if i > 0 && d[i - 1][j] + 1 == d[i][j] {
            out.push(Operation::new(
                "remove",
                make_path(p, &(i - 1).to_string()),
                None,
            ));
            i -= 1;
        } else if j > 0 && d[i][j - 1] + 1 == d[i][j] {
            out.push(Operation::new(
                "add",
                make_path(p, &i.to_string()),
                Some(&t[j - 1]),
            ));
            j -= 1;
        } else if i > 0 && j > 0 && d[i - 1][j - 1] + 1 == d[i][j] {
            let at = make_path(p, &(i - 1).to_string());
            if is_basic(&s[0]) {
                out.push(Operation::new("replace", at, Some(&t[j - 1])));
            } else {
                handle_values(&s[i - 1], &t[j - 1], &at, out);
            }
            i -= 1;
            j -= 1;
        } else if i > 0 && j > 0 && d[i - 1][j - 1] == d[i][j] {
            i -= 1;
            j -= 1;
        } else {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ops(a: Value, b: Value) -> Vec<(String, String, Option<Value>)> {
        let (Value::Object(a), Value::Object(b)) = (a, b) else {
            panic!("objects")
        };
        create_patch(&a, &b)
            .into_iter()
            .map(|o| (o.op, o.path, o.value))
            .collect()
    }

    fn op(o: &str, p: &str, v: Option<Value>) -> (String, String, Option<Value>) {
        (o.into(), p.into(), v)
    }

    #[test]
    fn objects_scalars_and_types() {
        assert_eq!(
            ops(
                json!({"a": 1, "b": "x", "c": null, "d": true, "e": 1}),
                json!({"a": 1.0, "b": "y", "c": 2, "d": null, "f": "n"})
            ),
            [
                op("replace", "/b", Some(json!("y"))),
                op("add", "/c", Some(json!(2))),
                op("replace", "/d", Some(Value::Null)),
                op("add", "/f", Some(json!("n"))),
                op("remove", "/e", None),
            ]
        );
        assert_eq!(
            ops(json!({"a/b": {"~": 1}}), json!({"a/b": {"~": 2}})),
            [op("replace", "/a~1b/~0", Some(json!(2)))]
        );
        assert_eq!(
            ops(json!({"": {"x": 1}}), json!({"": {"x": 2}})),
            [op("replace", "/x", Some(json!(2)))]
        );
    }

    #[test]
    fn arrays() {
        // simple arrays: edit distance
        assert_eq!(
            ops(json!({"l": ["a", "b", "c"]}), json!({"l": ["a", "c", "d"]})),
            [
                op("add", "/l/3", Some(json!("d"))),
                op("remove", "/l/1", None),
            ]
        );
        assert_eq!(
            ops(json!({"l": ["a"]}), json!({"l": ["b"]})),
            [op("replace", "/l/0", Some(json!("b")))]
        );
        // objects of scalars are simple; the substitution recurses
        assert_eq!(
            ops(
                json!({"c": [{"name": "a", "image": "x"}]}),
                json!({"c": [{"name": "a", "image": "y"}]})
            ),
            [op("replace", "/c/0/image", Some(json!("y")))]
        );
        // nested: positional
        assert_eq!(
            ops(
                json!({"c": [{"e": []}, {"e": []}, {"e": []}]}),
                json!({"c": [{"e": [1]}]})
            ),
            [
                op("remove", "/c/2", None),
                op("remove", "/c/1", None),
                op("add", "/c/0/e/0", Some(json!(1))),
            ]
        );
    }
}
