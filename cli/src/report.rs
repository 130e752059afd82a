//! What an `explain` run collects besides its text: the decision errors it met (the command then
//! exits 1 after printing the whole explanation), the notes on surprising v1.9 answers, and the
//! structured results printed by `-o json` / `-o yaml`.
//!
//! The collector is per thread (the binary runs one command on the main thread; unit tests run
//! commands on several threads at once).

use serde_json::{Map, Value};
use std::cell::RefCell;

/// What one command collected.
#[derive(Debug, Default)]
pub struct Collected {
    /// Decision errors met while explaining (each also shown in the text).
    pub errors: Vec<kruise_core::Error>,
    /// Notes on answers of v1.9 that surprise (each also shown in the text).
    pub notes: Vec<String>,
    /// Results by name, for `-o json|yaml`.
    pub results: Map<String, Value>,
}

thread_local! {
    static COLLECTED: RefCell<Collected> = RefCell::new(Collected::default());
}

/// Records a decision error (the command exits 1).
pub fn error(e: &kruise_core::Error) {
    COLLECTED.with(|c| c.borrow_mut().errors.push(e.clone()));
}

/// Records a note (returns it, for the text).
pub fn note(n: impl Into<String>) -> String {
    let n = n.into();
    COLLECTED.with(|c| c.borrow_mut().notes.push(n.clone()));
    n
}

/// Records the structured result `key`.
pub fn result(key: &str, v: Value) {
    COLLECTED.with(|c| {
        c.borrow_mut().results.insert(key.to_owned(), v);
    });
}

/// Records an item of the array result `key`.
pub fn push(key: &str, v: Value) {
    COLLECTED.with(|c| {
        let mut c = c.borrow_mut();
        match c
            .results
            .entry(key.to_owned())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            Value::Array(a) => a.push(v),
            other => *other = Value::Array(vec![other.take(), v]),
        }
    });
}

/// Takes what was collected (and starts afresh).
pub fn take() -> Collected {
    COLLECTED.with(|c| std::mem::take(&mut *c.borrow_mut()))
}
