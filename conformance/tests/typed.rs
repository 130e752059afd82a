//! Checks of the typed registry over every vector (see `core/src/registry.rs`, `Decision`):
//! each error kind a vector expects from a typed fn is one the fn declares in `Decision::ERRORS`
//! (or `invalid_input`), so the generated error-kind types and `docs/fns.md` cannot miss one.

use std::collections::BTreeSet;
use std::path::PathBuf;

fn vector_docs() -> Vec<(PathBuf, serde_json::Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("conformance/vectors exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("readable vector file");
            let doc = serde_json::from_str(&text).expect("vector file is JSON");
            (f, doc)
        })
        .collect()
}

#[test]
fn vector_error_kinds_are_declared() {
    let mut undeclared = BTreeSet::new();
    let mut checked = 0;
    for (_, doc) in vector_docs() {
        for case in doc["cases"].as_array().expect("cases") {
            let (Some(fn_id), Some(kind)) = (case["fn"].as_str(), case["expect_error"].as_str())
            else {
                continue;
            };
            let entry = kruise_core::registry::lookup(fn_id).expect("registered fn id");
            let Some(typed) = entry.typed else { continue };
            checked += 1;
            if kind != "invalid_input" && !typed.errors.contains(&kind) {
                undeclared.insert(format!("{fn_id}: {kind}"));
            }
        }
    }
    assert!(checked > 0, "no error vector of a typed fn");
    assert!(
        undeclared.is_empty(),
        "error kinds missing from Decision::ERRORS: {undeclared:#?}"
    );
}

/// Each fn's declared error kinds are distinct and snake_case.
#[test]
fn declared_error_kinds_are_snake_case() {
    for e in kruise_core::registry::entries() {
        let Some(t) = e.typed else { continue };
        let set: BTreeSet<_> = t.errors.iter().collect();
        assert_eq!(set.len(), t.errors.len(), "{}: duplicate error kinds", e.id);
        for k in t.errors {
            assert!(
                !k.is_empty()
                    && k.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{}: error kind {k:?} is not snake_case",
                e.id
            );
            assert_ne!(*k, "invalid_input", "{}: invalid_input is implied", e.id);
        }
    }
}

/// Every registered fn is a typed Decision (no untyped `Entry::new` is left), so every front end
/// gets a schema and a generated typed function for it.
#[test]
fn every_fn_is_typed() {
    let untyped: Vec<&str> = kruise_core::registry::entries()
        .filter(|e| e.typed.is_none())
        .map(|e| e.id)
        .collect();
    assert!(untyped.is_empty(), "untyped fns: {untyped:?}");
    assert!(kruise_core::registry::entries().count() >= 48);
}

/// `registry::call_text` (the generic call of every binding) answers every vector exactly as
/// `registry::call` does: the same text on success, the same kind and message on error; and its
/// text path (straight decoding into the typed input) is taken by a share of the successful cases.
#[test]
fn text_path_answers_as_the_value_path() {
    let (mut cases, mut direct) = (0, 0);
    let mut direct_fns = BTreeSet::new();
    for (path, doc) in vector_docs() {
        for case in doc["cases"].as_array().expect("cases") {
            let (Some(fn_id), Some(input)) = (case["fn"].as_str(), case.get("input")) else {
                continue;
            };
            let text = input.to_string();
            let full = kruise_core::registry::call(fn_id, input).map(|v| v.to_string());
            let via_text = kruise_core::registry::call_text(fn_id, &text);
            let name = format!("{}: {}", path.display(), case["name"]);
            match (&full, &via_text) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}"),
                (Err(a), Err(b)) => {
                    assert_eq!(
                        (a.kind, &a.message, &a.field),
                        (b.kind, &b.message, &b.field),
                        "{name}"
                    )
                }
                _ => panic!("{name}: call {full:?}, call_text {via_text:?}"),
            }
            cases += 1;
            let entry = kruise_core::registry::lookup(fn_id).expect("registered fn id");
            if let Some(out) = (entry.text)(&text) {
                assert_eq!(Ok(&out), full.as_ref(), "{name}: text path");
                direct += 1;
                direct_fns.insert(fn_id.to_owned());
            }
        }
    }
    assert!(cases > 1000, "{cases} cases");
    assert!(direct > 100, "text path taken by {direct} of {cases} cases");
    for id in [
        "resources.eval",
        "rollout.scale_int_or_percent",
        "cron.parse",
    ] {
        assert!(direct_fns.contains(id), "{id} never took the text path");
    }
}
