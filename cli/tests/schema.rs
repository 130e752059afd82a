//! `kruise-core schema FN_ID` prints the checked-in `schemas/<FN_ID>.json` text.

use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn schema_prints_the_checked_in_schema() {
    let (code, text) = run(&["schema", "rollout.scale_int_or_percent"]);
    assert_eq!(code, Some(0));
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../schemas/rollout.scale_int_or_percent.json"
    );
    assert_eq!(
        text,
        std::fs::read_to_string(path).expect("schema is checked in")
    );
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["$defs"]["output"]["type"], "integer");
}

#[test]
fn schema_of_an_unknown_fn_is_misuse() {
    assert_eq!(run(&["schema", "no.such_fn"]).0, Some(2));
}
