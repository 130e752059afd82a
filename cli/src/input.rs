//! Reading manifests the way kubectl prints them: JSON, or YAML (one or more documents).
//!
//! Every input (stdin, manifest and vector files) is read through [`read_limited`]: at most
//! `--max-input-bytes` bytes (default 16 MiB, [`kruise_core::error::DEFAULT_MAX_INPUT_BYTES`]) plus
//! one, never the whole stream; a longer input is the error kind `input_too_large`. JSON nests at
//! most 127 arrays and objects deep (serde_json's recursion limit); YAML is parsed with a tight
//! budget ([`yaml_options`]) so alias and merge-key bombs fail fast.

use crate::CliError;
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

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
        .map_err(|e| CliError::Usage(format!("cannot read {what}: {e}")))?;
    if buf.len() > max {
        return Err(CliError::Decision(kruise_core::Error::at(
            kruise_core::error::INPUT_TOO_LARGE,
            what,
            format!("longer than {max} bytes, the input-size limit (--max-input-bytes changes it)"),
        )));
    }
    String::from_utf8(buf).map_err(|e| {
        CliError::Usage(format!("cannot read {what}: not UTF-8 (invalid byte at {})", e.utf8_error().valid_up_to()))
    })
}

/// Reads a whole file as text, within the input-size limit.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let f = std::fs::File::open(path).map_err(|e| CliError::Usage(format!("cannot read {}: {e}", path.display())))?;
    read_limited(f, &path.display().to_string())
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
    if is_json(text) {
        return serde_json::from_str(text).map(|v| vec![v]).map_err(|e| CliError::Usage(format!("invalid JSON: {e}")));
    }
    let docs: Vec<Value> = serde_saphyr::from_multiple_with_options(text, yaml_options())
        .map_err(|e| {
            let e = e.to_string();
            let hint = if e.contains("budget breached") {
                "\n(the YAML expands too much through anchors, aliases or merge keys `<<`; kruise-core reads at most 5,000 events from them)"
            } else {
                ""
            };
            CliError::Usage(format!("invalid YAML: {e}{hint}"))
        })?;
    Ok(docs.into_iter().filter(|d| !d.is_null()).collect())
}

/// Parses a text that must hold exactly one document.
pub fn parse_one(text: &str, what: &str) -> Result<Value, CliError> {
    let mut docs = parse_documents(text)?;
    match docs.len() {
        1 => Ok(docs.remove(0)),
        n => Err(CliError::Usage(format!("{what}: expected one document, found {n}"))),
    }
}

/// Reads and parses a file holding exactly one document.
pub fn read_one(path: &Path) -> Result<Value, CliError> {
    let text = read_text(path)?;
    parse_one(&text, &path.display().to_string())
}

/// Reads a file of pods (or jobs): a JSON/YAML `List`, an array, or several documents; returns the items.
pub fn read_items(path: &Path) -> Result<Vec<Value>, CliError> {
    let text = read_text(path)?;
    let mut out = Vec::new();
    for d in parse_documents(&text)? {
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

/// Parses `--now` (RFC 3339, e.g. `2026-06-21T10:00:00Z`) or `default`, and returns it as an RFC 3339
/// UTC string with second precision (the form every decision function takes).
pub fn parse_now(now: Option<&str>, default: &str) -> Result<String, CliError> {
    let s = now.unwrap_or(default);
    let ts = kruise_core::time::parse_rfc3339(s)
        .ok_or_else(|| CliError::Usage(format!("--now {s:?} is not an RFC 3339 time")))?;
    Ok(ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
}
