//! Reading manifests the way kubectl prints them: JSON, or YAML (one or more documents).

use crate::CliError;
use serde_json::Value;
use std::path::Path;

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
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| CliError::Usage(format!("invalid YAML: {e}")))?;
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
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Usage(format!("cannot read {}: {e}", path.display())))?;
    parse_one(&text, &path.display().to_string())
}

/// Reads a file of pods (or jobs): a JSON/YAML `List`, an array, or several documents; returns the items.
pub fn read_items(path: &Path) -> Result<Vec<Value>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Usage(format!("cannot read {}: {e}", path.display())))?;
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
