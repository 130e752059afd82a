//! Reading manifests the way kubectl prints them: JSON, or YAML (one or more documents).
//!
//! Every input (stdin, manifest and vector files) is read through [`read_limited`]: at most
//! `--max-input-bytes` bytes (default 16 MiB, [`kruise_core::error::DEFAULT_MAX_INPUT_BYTES`]) plus
//! one, never the whole stream; a longer input is the error kind `input_too_large`. JSON nests at
//! most 127 arrays and objects deep (serde_json's recursion limit); YAML is parsed with a tight
//! budget ([`yaml_options`]) so alias and merge-key bombs fail fast.
//!
//! A file argument `-` reads stdin (once per command: a second `-` is a usage error). An input
//! that cannot be read or parsed is an input error (`invalid_input` naming the file, exit 1).

use crate::CliError;
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The file argument that means stdin.
pub const STDIN: &str = "-";

static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

static MAX_INPUT_BYTES: AtomicUsize = AtomicUsize::new(kruise_core::error::DEFAULT_MAX_INPUT_BYTES);

/// Sets the input-size limit (`--max-input-bytes`).
pub fn set_max_input_bytes(n: usize) {
    MAX_INPUT_BYTES.store(n, Ordering::Relaxed);
}

/// Reads at most the input-size limit plus one byte from `r` (so an endless or huge stream is
/// never buffered whole) and returns the text; more is `input_too_large` naming `what`.
pub fn read_limited(r: impl Read, what: &str) -> Result<String, CliError> {
    let max = MAX_INPUT_BYTES.load(Ordering::Relaxed);
    let mut buf = Vec::new();
    r.take(max as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| CliError::input(what, format_args!("cannot read: {e}")))?;
    if buf.len() > max {
        return Err(CliError::Decision(kruise_core::Error::at(
            kruise_core::error::INPUT_TOO_LARGE,
            what,
            format!("longer than {max} bytes, the input-size limit (--max-input-bytes changes it)"),
        )));
    }
    String::from_utf8(buf).map_err(|e| {
        CliError::input(
            what,
            format_args!(
                "not UTF-8 (invalid byte at {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Reads a whole file (`-`: stdin) as text, within the input-size limit.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    if path.as_os_str() == STDIN {
        if STDIN_TAKEN.swap(true, Ordering::Relaxed) {
            return Err(CliError::Usage(
                "stdin (`-`) can be given for one input only".into(),
            ));
        }
        return read_limited(std::io::stdin().lock(), "stdin");
    }
    let f = std::fs::File::open(path).map_err(|e| {
        CliError::input(path.display().to_string(), format_args!("cannot read: {e}"))
    })?;
    read_limited(f, &path.display().to_string())
}

/// The display name of a file argument (`stdin` for `-`).
pub fn name(path: &Path) -> String {
    if path.as_os_str() == STDIN {
        "stdin".into()
    } else {
        path.display().to_string()
    }
}

/// serde-saphyr's options with a budget sized for Kubernetes manifests. With the crate's defaults
/// a 1 KB file of nested merge keys (`<<: [*a, *a, ...]`) or aliases replays up to a million
/// events before the budget stops it (about 10 s in a debug build, the work growing faster than
/// the event count); here at most 5,000 events are recorded into anchors or replayed from
/// aliases, and at most 1,000 aliases, anchors and merge keys appear, so such a file fails in
/// milliseconds. Manifests as kubectl, Helm or Kustomize print them use no anchors at all;
/// hand-written ones use a few. Node, depth and document limits keep the defaults.
pub fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_merge_keys: 1_000,
            max_recorded_anchor_events: 5_000,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 5_000,
        },
    }
}

/// Whether a text looks like JSON (first non-space byte is `{` or `[`).
pub fn is_json(text: &str) -> bool {
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// Parses a JSON or YAML text into JSON values; multi-document YAML gives several values, and a
/// kubectl `List` (`{"kind": "List", "items": [...]}`) is returned as one value.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, CliError> {
    parse_documents_of(text, "input")
}

/// [`parse_documents`], the error naming `what` (the file).
pub fn parse_documents_of(text: &str, what: &str) -> Result<Vec<Value>, CliError> {
    if is_json(text) {
        return serde_json::from_str(text)
            .map(|v| vec![v])
            .map_err(|e| CliError::input(what, format_args!("invalid JSON: {e}")));
    }
    let docs: Vec<Value> = serde_saphyr::from_multiple_with_options(text, yaml_options())
        .map_err(|e| {
            let e = e.to_string();
            let hint = if e.contains("budget breached") {
                "\n(the YAML expands too much through anchors, aliases or merge keys `<<`; kruise-core reads at most 5,000 events from them)"
            } else {
                ""
            };
            CliError::input(what, format_args!("invalid YAML: {e}{hint}"))
        })?;
    Ok(docs.into_iter().filter(|d| !d.is_null()).collect())
}

/// Parses a text that must hold exactly one document.
pub fn parse_one(text: &str, what: &str) -> Result<Value, CliError> {
    let mut docs = parse_documents_of(text, what)?;
    match docs.len() {
        1 => Ok(docs.remove(0)),
        n => Err(CliError::input(
            what,
            format_args!("expected one document, found {n}"),
        )),
    }
}

/// Reads and parses a file holding exactly one document.
pub fn read_one(path: &Path) -> Result<Value, CliError> {
    let text = read_text(path)?;
    parse_one(&text, &name(path))
}

/// Reads a file holding one `kind` manifest at an apiVersion OpenKruise v1.9.0 serves
/// (`kruise_core::api::served::check`; errors `wrong_kind`, `unsupported_version`).
pub fn read_kind(path: &Path, kind: &str) -> Result<Value, CliError> {
    let doc = read_one(path)?;
    check_kind(&doc, kind)?;
    Ok(doc)
}

/// Checks that `doc` is one `kind` manifest at a served apiVersion.
pub fn check_kind(doc: &Value, kind: &str) -> Result<(), CliError> {
    Ok(kruise_core::api::served::check(doc, kind, "", true)?)
}

/// Reads a file of pods (or jobs): a JSON/YAML `List`, an array, or several documents; returns the
/// items. An item with a `kind` or `apiVersion` must be `kind` at a served version (`wrong_kind`,
/// `unsupported_version` naming `items[i]`).
pub fn read_items_of(path: &Path, kind: &str) -> Result<Vec<Value>, CliError> {
    let items = read_items(path)?;
    for (i, item) in items.iter().enumerate() {
        kruise_core::api::served::check(item, kind, &format!("items[{i}]"), false)?;
    }
    Ok(items)
}

/// Reads a file of pods (or jobs): a JSON/YAML `List`, an array, or several documents; returns the items.
pub fn read_items(path: &Path) -> Result<Vec<Value>, CliError> {
    let text = read_text(path)?;
    let mut out = Vec::new();
    for d in parse_documents_of(&text, &name(path))? {
        match d {
            Value::Array(a) => out.extend(a),
            Value::Object(ref m) if m.get("items").is_some_and(Value::is_array) => {
                out.extend(m["items"].as_array().cloned().unwrap_or_default())
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// Parses `--now` (RFC 3339, e.g. `2026-06-21T10:00:00Z`; absent: the wall clock, which the CLI
/// reads and the core never does), and returns it as an RFC 3339 UTC string with second precision
/// (the form every decision function takes). A bad value is a usage error.
pub fn parse_now(now: Option<&str>) -> Result<String, CliError> {
    let ts = match now {
        None => jiff::Timestamp::now(),
        Some(s) => kruise_core::time::parse_rfc3339(s)
            .ok_or_else(|| CliError::Usage(format!("--now {s:?} is not an RFC 3339 time")))?,
    };
    Ok(ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
}
