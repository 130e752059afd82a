//! The registry of decision functions, keyed by the conformance-vector fn ids.
//!
//! One table feeds the generic [`call`], the CLI (`kruise-core call`, `conformance`), the conformance
//! runner and every language binding. Each family module exports a `const ENTRIES: &[Entry]`; adding
//! a decision function means adding one [`Entry`] to its family's table.

use crate::error::{Error, Result, UNKNOWN_FN};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// How a conformance runner compares a function's output with a vector's `expect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// Exact JSON equality (object key order ignored, numbers by value).
    Exact,
    /// Zero-pruned equality (`api.convert`): object members that are null/false/0/""/{}/[] are dropped.
    ZeroPruned,
    /// Null-pruned equality (`api.default`): object members that are null/{}/[] are dropped.
    NullPruned,
}

/// A JSON-in, JSON-out decision handler.
pub type Handler = fn(&Value) -> Result<Value>;

/// One registered decision function.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The fn id, e.g. `resources.eval`.
    pub id: &'static str,
    /// One line saying what it decides and which OpenKruise source it mirrors.
    pub doc: &'static str,
    /// The handler.
    pub handler: Handler,
    /// How vectors for this function are compared.
    pub compare: Compare,
}

impl Entry {
    /// An entry compared exactly.
    pub const fn new(id: &'static str, doc: &'static str, handler: Handler) -> Self {
        Entry { id, doc, handler, compare: Compare::Exact }
    }

    /// The same entry with another comparison rule.
    pub const fn with_compare(mut self, compare: Compare) -> Self {
        self.compare = compare;
        self
    }
}

const FAMILIES: &[&[Entry]] = &[
    crate::intstr::ENTRIES,
    crate::resources::ENTRIES,
    crate::allocation::ENTRIES,
    crate::rollout::ENTRIES,
    crate::cron::ENTRIES,
    crate::pub_budget::ENTRIES,
    crate::api::ENTRIES,
    crate::compat::ENTRIES,
];

/// Every registered entry, family by family.
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    FAMILIES.iter().flat_map(|f| f.iter())
}

/// Every registered fn id.
pub fn fn_ids() -> impl Iterator<Item = &'static str> {
    entries().map(|e| e.id)
}

/// Looks up an entry by fn id.
pub fn lookup(fn_id: &str) -> Option<&'static Entry> {
    entries().find(|e| e.id == fn_id)
}

/// Calls decision function `fn_id` on `input` (the vector `input` shape of its spec).
///
/// Errors: `unknown_fn` for an unregistered id, `invalid_input` for a wrong JSON shape (naming the
/// field), otherwise the function's own error kinds.
///
/// ```
/// let out = kruise_core::registry::call("rollout.scale_int_or_percent",
///     &serde_json::json!({"value": "25%", "total": 10, "roundUp": true, "mode": "scaled"}));
/// # let _ = out;
/// ```
pub fn call(fn_id: &str, input: &Value) -> Result<Value> {
    match lookup(fn_id) {
        Some(e) => (e.handler)(input),
        None => Err(Error::new(UNKNOWN_FN, format!("unknown fn id {fn_id:?}"))),
    }
}

/// Decodes a handler's input into a typed struct; a shape error is `invalid_input` naming the path
/// of the offending field (e.g. `spec.subsets[1].name`).
pub fn decode<T: DeserializeOwned>(input: &Value) -> Result<T> {
    serde_path_to_error::deserialize(input).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { "input".to_string() } else { path };
        Error::invalid_input(path, e.into_inner())
    })
}

/// Encodes a typed output as JSON.
pub fn encode<T: Serialize>(value: &T) -> Result<Value> {
    serde_json::to_value(value).map_err(|e| Error::new("internal", e.to_string()))
}
