//! The CLI's front-door limits: input size (`--max-input-bytes`, stdin and files), JSON nesting,
//! and the YAML budget against merge-key bombs.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kruise-core"))
}

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the CLI with `stdin` written to it (the writer ignores a closed pipe).
fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("binary finishes");
    writer.join().unwrap();
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SCALE: &str = r#"{"value": "50%", "total": 10, "roundUp": true, "mode": "scaled"}"#;

#[test]
fn call_refuses_stdin_over_the_limit_with_input_too_large() {
    let n = SCALE.len().to_string();
    // Exactly at the limit: accepted.
    let ok = run_with_stdin(
        &[
            "--max-input-bytes",
            &n,
            "call",
            "rollout.scale_int_or_percent",
        ],
        SCALE.as_bytes(),
    );
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert_eq!(stdout(&ok).trim(), "5");
    // One byte more: the error JSON with the stable kind, exit 1.
    let padded = format!("{SCALE} ");
    let big = run_with_stdin(
        &[
            "call",
            "rollout.scale_int_or_percent",
            "--max-input-bytes",
            &n,
        ],
        padded.as_bytes(),
    );
    assert_eq!(big.status.code(), Some(1), "{}", stderr(&big));
    let v: serde_json::Value = serde_json::from_str(stdout(&big).trim()).expect("error JSON");
    assert_eq!(v["error"]["kind"], "input_too_large", "{v}");
    assert_eq!(v["error"]["field"], "stdin", "{v}");
}

/// An endless stdin is not buffered whole: the CLI stops reading after limit + 1 bytes.
#[test]
fn call_stops_reading_an_endless_stdin() {
    let mut child = bin()
        .args([
            "--max-input-bytes",
            "4096",
            "call",
            "rollout.scale_int_or_percent",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut pipe = child.stdin.take().unwrap();
    // Writes until the CLI closes its end (a broken pipe); never ends otherwise.
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 16];
        let mut written = 0usize;
        while pipe.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        written
    });
    let out = child.wait_with_output().expect("binary finishes");
    let written = writer.join().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"input_too_large\""),
        "{}",
        stdout(&out)
    );
    assert!(
        written < 64 << 20,
        "wrote {written} bytes before the CLI stopped reading"
    );
}

#[test]
fn the_default_limit_is_16_mib() {
    let help = bin().arg("--help").output().unwrap();
    assert!(
        stdout(&help).contains("--max-input-bytes"),
        "{}",
        stdout(&help)
    );
    assert!(stdout(&help).contains("16777216"), "{}", stdout(&help));
    // 16 MiB + 1 of JSON (a string padded with spaces) is refused without a flag.
    let mut text = SCALE.as_bytes().to_vec();
    text.resize((16 << 20) + 1, b' ');
    let out = run_with_stdin(&["call", "rollout.scale_int_or_percent"], &text);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"input_too_large\""),
        "{}",
        stdout(&out)
    );
    // 16 MiB exactly is read (and is JSON).
    text.truncate(16 << 20);
    let out = run_with_stdin(&["call", "rollout.scale_int_or_percent"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "5");
}

#[test]
fn files_are_limited_too() {
    let file = data("merge-keys.yaml");
    let len = std::fs::metadata(&file).unwrap().len();
    let small = (len - 1).to_string();
    let out = bin()
        .args([
            "convert",
            &file,
            "--to",
            "apps.kruise.io/v1beta1",
            "--max-input-bytes",
            &small,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("input_too_large"), "{}", stderr(&out));
    for args in [
        vec![
            "explain",
            "sidecarset",
            file.as_str(),
            "--pods",
            file.as_str(),
            "--max-input-bytes",
            small.as_str(),
        ],
        vec![
            "--max-input-bytes",
            small.as_str(),
            "conformance",
            file.as_str(),
        ],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(
            stderr(&out).contains("input_too_large"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let exact = len.to_string();
    let out = bin()
        .args([
            "convert",
            &file,
            "--to",
            "apps.kruise.io/v1beta1",
            "--max-input-bytes",
            &exact,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// JSON nests at most 127 arrays/objects deep (serde_json's recursion limit): the 128th is not JSON.
#[test]
fn json_nesting_is_limited_by_the_parser() {
    let nested = |depth: usize| {
        format!(
            r#"{{"value": "50%", "total": 10, "roundUp": true, "mode": "scaled", "x": {}{}}}"#,
            "[".repeat(depth - 1),
            "]".repeat(depth - 1)
        )
    };
    // 127 containers in all (the object + 126 arrays): parsed, and the fn rejects the extra member.
    let ok = run_with_stdin(
        &["call", "rollout.scale_int_or_percent"],
        nested(127).as_bytes(),
    );
    assert_ne!(ok.status.code(), Some(2), "{}", stderr(&ok));
    // 128: the parser refuses it before any decision code runs.
    let deep = run_with_stdin(
        &["call", "rollout.scale_int_or_percent"],
        nested(128).as_bytes(),
    );
    // (an input error: exit 1, the error JSON naming stdin)
    assert_eq!(deep.status.code(), Some(1), "{}", stdout(&deep));
    assert!(
        stdout(&deep).contains("\"invalid_input\""),
        "{}",
        stdout(&deep)
    );
    assert!(
        stderr(&deep).contains("recursion limit exceeded"),
        "{}",
        stderr(&deep)
    );
    // 20,000 deep: the same error, no stack overflow.
    let bomb = run_with_stdin(
        &["call", "rollout.scale_int_or_percent"],
        nested(20_000).as_bytes(),
    );
    assert_eq!(bomb.status.code(), Some(1), "{}", stderr(&bomb));
    assert!(
        stderr(&bomb).contains("recursion limit exceeded"),
        "{}",
        stderr(&bomb)
    );
}

/// A 1.2 KB merge-key bomb fails on the CLI's tight YAML budget (anchor and alias events), not
/// after a quarter of a million expanded nodes as with serde-saphyr's defaults.
#[test]
fn a_merge_key_bomb_fails_on_the_anchor_budget() {
    let out = bin()
        .args([
            "convert",
            &data("merge-bomb.yaml"),
            "--to",
            "apps.kruise.io/v1beta1",
        ])
        .output()
        .unwrap();
    // an input error (exit 1), not misuse
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error [invalid_input]"), "{err}");
    assert!(
        err.contains("invalid YAML") && err.contains("budget breached"),
        "{err}"
    );
    assert!(
        err.contains("RecordedAnchorEvents") || err.contains("replay") || err.contains("Aliases"),
        "{err}"
    );
    assert!(!err.contains("Nodes"), "{err}");
    assert!(err.contains("anchors, aliases or merge keys"), "{err}");
}

#[test]
fn a_manifest_with_a_few_merge_keys_still_parses() {
    let out = bin()
        .args([
            "convert",
            &data("merge-keys.yaml"),
            "--to",
            "apps.kruise.io/v1beta1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let docs: serde_json::Value =
        serde_saphyr::from_str(&stdout(&out)).expect("CLI output is YAML");
    let spec = &docs["spec"];
    assert_eq!(spec["selector"]["matchLabels"]["team"], "payments");
    assert_eq!(spec["selector"]["matchLabels"]["app"], "nginx");
    let c = &spec["containers"];
    assert_eq!(c[1]["name"], "sidecar2");
    assert_eq!(c[1]["image"], "centos:6.7");
    assert_eq!(c[1]["resources"]["limits"]["memory"], "64Mi");
    assert_eq!(c[1]["resources"]["requests"]["cpu"], "50m");
}
