//! `metav1.LabelSelectorAsSelector` validity (apimachinery v0.32): keys must be qualified names,
//! values valid label values, operators In/NotIn (with values) or Exists/DoesNotExist (without).

use serde::Deserialize;
use std::collections::BTreeMap;

/// One `matchExpressions` entry.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Requirement {
    /// Label key.
    #[serde(default)]
    pub key: String,
    /// Operator.
    #[serde(default)]
    pub operator: String,
    /// Values.
    #[serde(default)]
    pub values: Option<Vec<String>>,
}

/// A label selector (`matchLabels`, `matchExpressions`); `None` = absent, `Some(empty)` = present.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// matchLabels.
    #[serde(default)]
    pub match_labels: Option<BTreeMap<String, String>>,
    /// matchExpressions.
    #[serde(default)]
    pub match_expressions: Option<Vec<Requirement>>,
}

fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, at most 63 bytes (empty allowed when `allow_empty`).
fn label_token(s: &str, allow_empty: bool) -> bool {
    let b = s.as_bytes();
    if b.is_empty() {
        return allow_empty;
    }
    b.len() <= 63
        && alnum(b[0])
        && alnum(b[b.len() - 1])
        && b.iter()
            .all(|&c| alnum(c) || c == b'-' || c == b'_' || c == b'.')
}

/// RFC 1123 subdomain, at most 253 bytes.
fn dns_subdomain(s: &str) -> bool {
    s.len() <= 253
        && !s.is_empty()
        && s.split('.').all(|l| {
            let b = l.as_bytes();
            !b.is_empty()
                && b.iter()
                    .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// `IsQualifiedName`: `[prefix/]name`.
pub fn qualified_name(s: &str) -> bool {
    let mut parts = s.split('/');
    let (prefix, name) = match (parts.next(), parts.next(), parts.next()) {
        (Some(n), None, _) => (None, n),
        (Some(p), Some(n), None) => (Some(p), n),
        _ => return false,
    };
    if let Some(p) = prefix
        && !dns_subdomain(p)
    {
        return false;
    }
    label_token(name, false)
}

/// Whether `LabelSelectorAsSelector` accepts the selector.
pub fn valid(sel: &LabelSelector) -> bool {
    for (k, v) in sel.match_labels.iter().flatten() {
        if !qualified_name(k) || !label_token(v, true) {
            return false;
        }
    }
    for r in sel.match_expressions.iter().flatten() {
        let n = r.values.as_ref().map_or(0, Vec::len);
        let ok_op = match r.operator.as_str() {
            "In" | "NotIn" => n > 0,
            "Exists" | "DoesNotExist" => n == 0,
            _ => false,
        };
        if !ok_op
            || !qualified_name(&r.key)
            || !r.values.iter().flatten().all(|v| label_token(v, true))
        {
            return false;
        }
    }
    true
}
