//! Input-shape properties checked over every conformance vector:
//!
//! - `absent_fields_read_as_zero_values`: a validator or defaulter reads an absent member of a
//!   Kubernetes object the way Go's `encoding/json` does (the zero value), so deleting any one
//!   member of any vector's input never makes the call fail with `invalid_input`; it answers
//!   with the webhook's own findings or a value. Only the members listed in [`VALIDATORS`] (the
//!   function's own input fields, and what selects the Go type) may be required.
//! - `unknown_top_level_member_is_rejected`: every function rejects an unknown member of its own
//!   input with `invalid_input` naming the member (a misspelt `maxunavailable` must not fall
//!   back to a default), except the functions whose input is itself a Kubernetes object or a
//!   verbatim document ([`VERBATIM_INPUT`]).

use serde_json::Value;
use std::path::PathBuf;

/// Validators and defaulters, with the dotted paths (array indices written `[]`) that are the
/// function's own required members and so may be `invalid_input` when deleted.
const VALIDATORS: &[(&str, &[&str])] = &[
    ("allocation.validate", &[]),
    ("rollout.validate", &["kind"]),
    ("pub.validate", &["pub"]),
    ("cron.validate", &[]),
    ("cron.defaults", &[]),
    // the object's apiVersion and kind pick the Go type that is decoded; `now` is the clock.
    (
        "api.default",
        &["object", "now", "object.apiVersion", "object.kind"],
    ),
    ("resources.validate", &["container"]),
    // the expression and the variable it is checked for are the function's own parameters
    ("resources.validate_expr", &["expr", "variable"]),
];

/// Functions whose whole input is a verbatim document (a Kubernetes `/version` reply, a workload
/// object as kubectl prints it).
const VERBATIM_INPUT: &[&str] = &["compat.server_version", "rollout.health"];

const UNKNOWN: &str = "noSuchMemberForTest";

fn cases() -> Vec<(String, String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("conformance/vectors exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(&f).expect("readable")).expect("json");
        for (i, c) in doc["cases"].as_array().expect("cases").iter().enumerate() {
            let name = c
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| format!("case {i}"), str::to_owned);
            let fn_id = c["fn"].as_str().expect("fn").to_owned();
            out.push((
                fn_id,
                format!("{}: {name}", f.file_name().unwrap().to_string_lossy()),
                c["input"].clone(),
            ));
        }
    }
    out
}

/// Every object member of `v`, as (path with indices, path with `[]`).
fn member_paths(v: &Value, path: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(Seg::Key(k.clone()));
                out.push(path.clone());
                member_paths(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Seg::Index(i));
                member_paths(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn render(path: &[Seg], indices: bool) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) if indices => s.push_str(&format!("[{i}]")),
            Seg::Index(_) => s.push_str("[]"),
        }
    }
    s
}

fn delete(v: &Value, path: &[Seg]) -> Value {
    let mut v = v.clone();
    let mut cur = &mut v;
    for seg in &path[..path.len() - 1] {
        cur = match seg {
            Seg::Key(k) => cur.get_mut(k.as_str()).expect("path exists"),
            Seg::Index(i) => cur.get_mut(*i).expect("path exists"),
        };
    }
    match path.last() {
        Some(Seg::Key(k)) => {
            cur.as_object_mut().expect("object").remove(k.as_str());
        }
        _ => unreachable!("member paths end in a key"),
    }
    v
}

#[test]
fn absent_fields_read_as_zero_values() {
    let mut tried = 0;
    let mut failures = Vec::new();
    for (fn_id, name, input) in cases() {
        let Some((_, required)) = VALIDATORS.iter().find(|(f, _)| *f == fn_id) else {
            continue;
        };
        let mut paths = Vec::new();
        member_paths(&input, &mut Vec::new(), &mut paths);
        for p in paths {
            if required.contains(&render(&p, false).as_str()) {
                continue;
            }
            tried += 1;
            let got = kruise_core::call(&fn_id, &delete(&input, &p));
            if let Err(e) = got
                && e.kind == "invalid_input"
            {
                failures.push(format!(
                    "{fn_id} [{name}] without {}: {e}",
                    render(&p, true)
                ));
            }
        }
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(tried > 500, "only {tried} deletions tried");
    assert!(
        failures.is_empty(),
        "{} deletions gave invalid_input",
        failures.len()
    );
}

#[test]
fn unknown_top_level_member_is_rejected() {
    let mut tried = 0;
    let mut failures = Vec::new();
    for (fn_id, name, input) in cases() {
        if VERBATIM_INPUT.contains(&fn_id.as_str()) {
            continue;
        }
        let Value::Object(mut m) = input else {
            continue;
        };
        m.insert(UNKNOWN.into(), Value::from(1));
        tried += 1;
        match kruise_core::call(&fn_id, &Value::Object(m)) {
            Err(e)
                if e.kind == "invalid_input"
                    && (e.field.as_deref() == Some(UNKNOWN) || e.message.contains(UNKNOWN)) => {}
            other => failures.push(format!(
                "{fn_id} [{name}]: {:?}",
                other.map_err(|e| e.to_json())
            )),
        }
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(tried > 500, "only {tried} cases tried");
    assert!(
        failures.is_empty(),
        "{} cases accepted an unknown member",
        failures.len()
    );
}

#[test]
fn misspelt_max_unavailable_is_rejected() {
    // `maxunavailable` used to be ignored, falling back to the 20% default.
    let e = kruise_core::call(
        "rollout.cloneset_update_budget",
        &serde_json::json!({"replicas": 10, "maxunavailable": 5, "pods": []}),
    )
    .unwrap_err();
    assert_eq!(e.kind, "invalid_input");
    assert_eq!(e.field.as_deref(), Some("maxunavailable"));
}

/// serde's derived `Deserialize` takes a JSON array for a struct (its fields by position, all of
/// them defaulted when the array is empty); Go's encoding/json refuses an array for a struct.
/// Every fn's own input is an object: `[]` in its place is `invalid_input` at `input`, never an
/// answer read from defaults.
#[test]
fn array_for_the_input_object_is_rejected() {
    let mut fns: Vec<String> = cases().into_iter().map(|(f, _, _)| f).collect();
    fns.sort();
    fns.dedup();
    let mut failures = Vec::new();
    for fn_id in &fns {
        if VERBATIM_INPUT.contains(&fn_id.as_str()) {
            continue;
        }
        for input in [serde_json::json!([]), serde_json::json!([null])] {
            match kruise_core::call(fn_id, &input) {
                Err(e) if e.kind == "invalid_input" => {}
                other => failures.push(format!(
                    "{fn_id} {input}: {:?}",
                    other.map_err(|e| e.to_json())
                )),
            }
        }
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(fns.len() > 40, "only {} fns", fns.len());
    assert!(
        failures.is_empty(),
        "{} inputs accepted an array for an object",
        failures.len()
    );
}

/// The same one level down: a member that is a struct in the reference.
#[test]
fn array_for_a_nested_object_is_rejected() {
    let cases = [
        (
            "rollout.cloneset_update_budget",
            serde_json::json!({"replicas": 3, "pods": [[]]}),
            "pods[0]",
        ),
        (
            "pub.admit_review",
            serde_json::json!({"request": [], "now": "2026-01-01T00:00:00Z"}),
            "request",
        ),
        (
            "allocation.validate",
            serde_json::json!({"spec": []}),
            "spec",
        ),
    ];
    for (fn_id, input, field) in cases {
        let e = kruise_core::call(fn_id, &input).expect_err(fn_id);
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some(field)),
            "{fn_id}: {e}"
        );
    }
}
