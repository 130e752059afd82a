//! The one error type of kruise-core.
//!
//! Every decision function fails with an [`Error`]: a stable snake_case `kind` (the same string the
//! conformance vectors use in `expect_error`, Python's `KruiseError.kind`, the C error JSON and Go's
//! `Kind()`), a human message, and where it applies the input field the error is about.

use std::borrow::Cow;

/// Error kind used when the input JSON does not have the shape a function expects.
pub const INVALID_INPUT: &str = "invalid_input";
/// Error kind used by [`crate::registry::call`] for an fn id that is not registered.
pub const UNKNOWN_FN: &str = "unknown_fn";
/// Error kind of an input larger than a front door's size limit (the CLI's `--max-input-bytes`,
/// C `kruise_set_max_input_bytes`, Python `set_max_input_bytes`, Go `SetMaxInputBytes`).
pub const INPUT_TOO_LARGE: &str = "input_too_large";

/// Default input-size limit of every front door (CLI, C, Python, Go): 16 MiB of input text (for
/// Python, of the input as compact JSON). Larger inputs get [`INPUT_TOO_LARGE`].
pub const DEFAULT_MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Nesting limit of arrays and objects: serde_json's parser refuses the 128th nested array or
/// object of a text (`recursion limit exceeded`), so at most `MAX_INPUT_DEPTH - 1` containers
/// nest. Front doors that take values rather than text (Python) apply the same limit.
pub const MAX_INPUT_DEPTH: usize = 128;

/// A decision error: `kind` is stable and machine-readable, `message` is for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {message}")]
pub struct Error {
    /// Stable snake_case error kind, e.g. `division_by_zero`, `invalid_input`.
    pub kind: &'static str,
    /// Human-readable message; names the offending field or token when there is one.
    pub message: Cow<'static, str>,
    /// Dotted path of the input field the error is about (`spec.replicas`), when known.
    pub field: Option<String>,
}

impl Error {
    /// An error of `kind` with `message` and no field.
    pub fn new(kind: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Error {
            kind,
            message: message.into(),
            field: None,
        }
    }

    /// An error of `kind` about input field `field`; the message is prefixed with the field name.
    pub fn at(
        kind: &'static str,
        field: impl Into<String>,
        message: impl std::fmt::Display,
    ) -> Self {
        let field = field.into();
        Error {
            kind,
            message: Cow::Owned(format!("{field}: {message}")),
            field: Some(field),
        }
    }

    /// Shorthand for an [`INVALID_INPUT`] error about `field`.
    pub fn invalid_input(field: impl Into<String>, message: impl std::fmt::Display) -> Self {
        Error::at(INVALID_INPUT, field, message)
    }

    /// The error as the JSON object every binding prints:
    /// `{"error": {"kind": ..., "message": ..., "field"?: ...}}`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut inner = serde_json::Map::new();
        inner.insert("kind".into(), self.kind.into());
        inner.insert("message".into(), self.message.to_string().into());
        if let Some(f) = &self.field {
            inner.insert("field".into(), f.clone().into());
        }
        serde_json::json!({ "error": inner })
    }
}

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
