//! The registry of decision functions, keyed by the conformance-vector fn ids.
//!
//! One table feeds the generic [`call`], the CLI (`kruise-core call`, `conformance`), the conformance
//! runner and every language binding. Each family module exports a `const ENTRIES: &[Entry]`; adding
//! a decision function means adding one [`Entry`] to its family's table.

use crate::error::{Error, Result, UNKNOWN_FN};

/// Error kind of [`call_text`] for input text that is not JSON.
pub const INVALID_JSON: &str = "invalid_json";
use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
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

/// A check of a decision's JSON input before it is decoded ([`Decision::CHECK_JSON`]).
pub type JsonCheck = fn(&Value) -> Result<()>;

/// A JSON-in, JSON-out decision handler (derived from a [`Decision`] by [`Entry::of`]).
pub type Handler = fn(&Value) -> Result<Value>;

/// A typed decision: the Rust input it reads, the Rust output it answers, and the one function
/// that decides. Everything else (the JSON handler, the schema in `schemas/`, the generated Python
/// and Go functions, `docs/fns.md`) is derived from it; see `docs/design.md` ("Adding a decision").
///
/// Rust callers call [`Decision::decide`] (or [`decide`]) with typed values; every other front end
/// goes through [`call`] with the JSON shapes of the conformance vectors, which are the serde forms
/// of `Input` and `Output`.
pub trait Decision {
    /// The fn id, `family.name` (e.g. `pub.status`).
    const ID: &'static str;
    /// One line saying what it decides.
    const DOC: &'static str;
    /// The OpenKruise (or Kubernetes) source whose behaviour it mirrors: file and function.
    const SOURCE: &'static str;
    /// The error kinds it can answer besides `invalid_input` (which every fn answers for input it
    /// cannot read, naming the field). A conformance test checks every vector against this list.
    const ERRORS: &'static [&'static str];
    /// How conformance vectors compare its output.
    const COMPARE: Compare = Compare::Exact;

    /// What it reads (the vector `input` shape).
    type Input: DeserializeOwned + JsonSchema;
    /// What it answers (the vector `expect` shape).
    type Output: Serialize + JsonSchema;

    /// A check on the JSON value before it is decoded, for what serde cannot tell apart (e.g. a
    /// JSON array where Go's encoding/json wants an object) or to report errors in the
    /// reference's order. Default: none. Written as a constant so that [`call_text`] knows which
    /// decisions have one.
    const CHECK_JSON: Option<JsonCheck> = None;

    /// `true` when [`Decision::CHECK_JSON`] only chooses *which* error an input gets: every input it
    /// refuses is also refused by decoding or deciding. Such a decision keeps [`call_text`]'s
    /// direct decoding of JSON text; a decision whose check refuses inputs that would decode and
    /// decide (e.g. an array where Go wants an object) always goes through a `serde_json::Value`.
    const CHECK_JSON_ONLY_ORDERS_ERRORS: bool = false;

    /// Decides.
    fn decide(input: Self::Input) -> Result<Self::Output>;
}

/// Two lists of error kinds as one (`N` = the sum of their lengths), for a decision whose
/// `ERRORS` are another's plus its own: `const E: &[&str] = &concat_kinds::<{A.len() + B.len()}>(A, B);`.
pub const fn concat_kinds<const N: usize>(
    a: &[&'static str],
    b: &[&'static str],
) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < a.len() { a[i] } else { b[i - a.len()] };
        i += 1;
    }
    out
}

/// Calls decision `D` with a typed input: `kruise_core::decide::<kruise_core::pub_budget::fns::Status>(input)`.
pub fn decide<D: Decision>(input: D::Input) -> Result<D::Output> {
    D::decide(input)
}

mod objects;

fn typed_handler<D: Decision>(input: &Value) -> Result<Value> {
    if let Some(check) = D::CHECK_JSON {
        check(input)?;
    }
    objects::check::<D::Input>(D::ID, input)?;
    let typed: D::Input = decode(input)?;
    encode(&D::decide(typed)?)
}

/// The text path of decision `D`: `Some(output text)` when the input text decodes straight into
/// `D::Input` and `D` decides it; `None` when the text needs the full path of [`call`] (an error to
/// report, or input the direct decoding does not cover). See [`call_text`].
fn typed_text<D: Decision>(input: &str) -> Option<String> {
    // A check that may refuse what would decode and decide.
    if D::CHECK_JSON.is_some() && !D::CHECK_JSON_ONLY_ORDERS_ERRORS {
        return None;
    }
    // Arrays: serde would read a JSON array into a struct, which `objects::check` refuses.
    // `-0`: `decode` reads it as the integer 0, serde_json's text decoder as the float -0.0.
    // Both are found by a byte scan, conservatively (also inside strings).
    let bytes = input.as_bytes();
    let mut prev = 0u8;
    for &b in bytes {
        if b == b'[' || (prev == b'-' && b == b'0') {
            return None;
        }
        prev = b;
    }
    let typed: D::Input = serde_json::from_str(input).ok()?;
    let out = D::decide(typed).ok()?;
    // Through a Value, so the text is the same as the full path's (object members sorted).
    Some(serde_json::to_value(&out).ok()?.to_string())
}

/// The typed side of an entry: where its schemas come from.
#[derive(Debug, Clone, Copy)]
pub struct Typed {
    /// The OpenKruise source it mirrors ([`Decision::SOURCE`]).
    pub source: &'static str,
    /// Its error kinds besides `invalid_input` ([`Decision::ERRORS`]).
    pub errors: &'static [&'static str],
    input_schema: fn(&mut SchemaGenerator) -> schemars::Schema,
    output_schema: fn(&mut SchemaGenerator) -> schemars::Schema,
    input_name: fn() -> std::borrow::Cow<'static, str>,
    output_name: fn() -> std::borrow::Cow<'static, str>,
}

fn subschema<T: JsonSchema>(g: &mut SchemaGenerator) -> schemars::Schema {
    g.subschema_for::<T>()
}

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
    /// The typed decision behind the handler (always set: [`Entry::of`] is the only constructor;
    /// `conformance/tests/typed.rs` checks it).
    pub typed: Option<Typed>,
    /// The text path ([`call_text`]): the output text when the input text decodes straight into
    /// the typed input and the decision succeeds, `None` when the full path must answer.
    pub text: fn(&str) -> Option<String>,
}

impl Entry {
    /// The entry of a typed decision: its handler decodes the input, decides and encodes.
    pub const fn of<D: Decision>() -> Self {
        Entry {
            id: D::ID,
            doc: D::DOC,
            handler: typed_handler::<D>,
            text: typed_text::<D>,
            compare: D::COMPARE,
            typed: Some(Typed {
                source: D::SOURCE,
                errors: D::ERRORS,
                input_schema: subschema::<D::Input>,
                output_schema: subschema::<D::Output>,
                input_name: <D::Input as JsonSchema>::schema_name,
                output_name: <D::Output as JsonSchema>::schema_name,
            }),
        }
    }

    /// The same entry with another comparison rule.
    pub const fn with_compare(mut self, compare: Compare) -> Self {
        self.compare = compare;
        self
    }

    /// The JSON Schema (draft 2020-12) of this fn: `$defs.input` is what it reads (the
    /// deserialising view: members with defaults are optional), `$defs.output` what it answers (the
    /// serialising view), the other `$defs` the named types both use. `None` for an untyped entry.
    ///
    /// A named type whose two views differ (e.g. a status read with defaults and written in full)
    /// appears twice: `$defs.<Name>` for the input and `$defs.<Name>Output` for the output.
    pub fn schema(&self) -> Option<Value> {
        let t = self.typed?;
        let mut gin = SchemaSettings::draft2020_12()
            .for_deserialize()
            .into_generator();
        let mut gout = SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator();
        let input = (t.input_schema)(&mut gin).to_value();
        let mut output = (t.output_schema)(&mut gout).to_value();
        let mut defs = gin.take_definitions(true);
        let mut out_defs = gout.take_definitions(true);
        // Output definitions whose name is taken by a different input definition are renamed.
        let clashes: Vec<String> = out_defs
            .iter()
            .filter(|(k, v)| defs.get(*k).is_some_and(|d| d != *v))
            .map(|(k, _)| k.clone())
            .collect();
        if !clashes.is_empty() {
            let rename = |v: &mut Value| rename_refs(v, &clashes);
            rename(&mut output);
            for v in out_defs.values_mut() {
                rename(v);
            }
            for k in &clashes {
                let v = out_defs
                    .remove(k)
                    .expect("clash name is an output definition");
                out_defs.insert(format!("{k}Output"), v);
            }
        }
        for (k, v) in out_defs {
            defs.entry(k).or_insert(v);
        }
        let mut all = serde_json::Map::new();
        all.insert("input".into(), input);
        all.insert("output".into(), output);
        let mut names: Vec<_> = defs.into_iter().collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (k, v) in names {
            assert!(
                k != "input" && k != "output",
                "{}: a type is named {k}",
                self.id
            );
            all.insert(k, v);
        }
        Some(serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": format!("https://kruise-core.invalid/schemas/{}.json", self.id),
            "title": self.id,
            "description": self.doc,
            "x-kruise-source": t.source,
            "x-kruise-errors": t.errors,
            "x-kruise-compare": match self.compare {
                Compare::Exact => "exact",
                Compare::ZeroPruned => "zeroPruned",
                Compare::NullPruned => "nullPruned",
            },
            "x-kruise-input-type": (t.input_name)(),
            "x-kruise-output-type": (t.output_name)(),
            "$ref": "#/$defs/input",
            "$defs": all,
        }))
    }
}

/// Rewrites `#/$defs/<name>` references to `#/$defs/<name>Output` for the clashing names.
fn rename_refs(v: &mut Value, clashes: &[String]) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get_mut("$ref")
                    && let Some(name) = r.strip_prefix("#/$defs/")
                    && clashes.iter().any(|c| c == name)
                {
                    *r = format!("#/$defs/{name}Output");
                }
                stack.extend(m.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

const FAMILIES: &[&[Entry]] = &[
    crate::intstr::ENTRIES,
    crate::resources::ENTRIES,
    crate::allocation::ENTRIES,
    crate::rollout::ENTRIES,
    crate::cron::ENTRIES,
    crate::pub_budget::ENTRIES,
    crate::sidecarset::ENTRIES,
    crate::jobsidecar::ENTRIES,
    crate::distribution::ENTRIES,
    crate::imagepull::ENTRIES,
    crate::workloadspread::ENTRIES,
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

/// Looks up an entry by fn id (a hash map built on first use: every call through [`call`] looks
/// its fn up, and a scan compares the id with every registered one).
pub fn lookup(fn_id: &str) -> Option<&'static Entry> {
    type ById = std::collections::HashMap<&'static str, &'static Entry, IdHash>;
    static BY_ID: std::sync::OnceLock<ById> = std::sync::OnceLock::new();
    BY_ID
        .get_or_init(|| {
            let mut m = ById::default();
            for e in entries() {
                m.entry(e.id).or_insert(e); // the first registration wins, as the scan found it
            }
            m
        })
        .get(fn_id)
        .copied()
}

/// The hash of [`lookup`]'s map: FNV-1a over the fn id's bytes (the keys are a fixed set of short
/// ids chosen by us, so no flooding resistance is needed; SipHash was a tenth of a small call).
#[derive(Default, Clone, Copy)]
struct IdHash;

struct Fnv(u64);

impl std::hash::BuildHasher for IdHash {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
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

/// Calls decision function `fn_id` on JSON text and answers JSON text: what every binding's generic
/// call does (`kruise_call` in C, Go's `Call`, Python's `call_json`, the wasm module).
///
/// The same answer as `call(fn_id, &serde_json::from_str(input)?)` printed, by a shorter way where it
/// can: a successful call of a decision without a refusing [`Decision::CHECK_JSON`], on text with
/// no array and no `-0`, decodes the text straight into the typed input (no `serde_json::Value`).
/// Everything else, errors included, takes the full path, so messages and error kinds are those of
/// [`call`]. Text that is not JSON is `invalid_json` at `input` (before an unknown fn id).
pub fn call_text(fn_id: &str, input: &str) -> Result<String> {
    if let Some(out) = lookup(fn_id).and_then(|e| (e.text)(input)) {
        return Ok(out);
    }
    let value: Value =
        serde_json::from_str(input).map_err(|err| Error::at(INVALID_JSON, "input", err))?;
    call(fn_id, &value).map(|v| v.to_string())
}

/// Decodes a handler's input into a typed struct; a shape error is `invalid_input` naming the path
/// of the offending field (e.g. `spec.subsets[1].name`).
///
/// The JSON number `-0` is read as `0` first, as Go's `encoding/json` reads it into an integer
/// field (serde_json holds `-0` as the float `-0.0`, which no integer field would take). JSON
/// values cannot tell `-0` from `-0.0`, so `-0.0` (which Go refuses for an integer field) is read
/// as `0` too.
pub fn decode<T: DeserializeOwned>(input: &Value) -> Result<T> {
    let normalised;
    let input = if has_negative_zero(input) {
        normalised = without_negative_zero(input);
        &normalised
    } else {
        input
    };
    serde_path_to_error::deserialize(input).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." {
            "input".to_string()
        } else {
            path
        };
        Error::invalid_input(path, e.into_inner())
    })
}

fn is_negative_zero(n: &serde_json::Number) -> bool {
    n.as_f64().is_some_and(|x| x == 0.0 && x.is_sign_negative()) && !n.is_i64() && !n.is_u64()
}

/// Whether `v` holds the number `-0` anywhere (an explicit stack: no recursion on deep input).
fn has_negative_zero(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if is_negative_zero(n) => return true,
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    false
}

/// A copy of `v` with every `-0` replaced by the integer `0`.
fn without_negative_zero(v: &Value) -> Value {
    let mut out = v.clone();
    let mut stack = vec![&mut out];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if is_negative_zero(n) => *v = Value::from(0u8),
            Value::Array(a) => stack.extend(a.iter_mut()),
            Value::Object(m) => stack.extend(m.values_mut()),
            _ => {}
        }
    }
    out
}

/// Encodes a typed output as JSON.
pub fn encode<T: Serialize>(value: &T) -> Result<Value> {
    serde_json::to_value(value).map_err(|e| Error::new("internal", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(fn_id: &str, input: Value) -> &'static str {
        call(fn_id, &input).unwrap_err().kind
    }

    /// Go's encoding/json reads the JSON number `-0` into an integer field as 0; so does decode.
    #[test]
    fn negative_zero_is_zero_for_integer_fields() {
        let scale = |text: &str| {
            let input: Value = serde_json::from_str(text).unwrap();
            call("rollout.scale_int_or_percent", &input)
        };
        let text = r#"{"value": "50%", "total": -0, "roundUp": true, "mode": "scaled"}"#;
        assert!(
            has_negative_zero(&serde_json::from_str(text).unwrap()),
            "serde_json holds -0 as -0.0"
        );
        assert_eq!(scale(text).unwrap(), json!(0));
        let text = r#"{"value": "50%", "total": 0, "roundUp": true, "mode": "scaled"}"#;
        assert_eq!(scale(text).unwrap(), json!(0));
        // An int-or-percent member takes -0 as the integer 0 too (intstr's UnmarshalJSON).
        let text = r#"{"value": -0, "total": 10, "roundUp": true, "mode": "scaled"}"#;
        assert_eq!(scale(text).unwrap(), json!(0));
        // Another family's int-or-percent field.
        let input: Value = serde_json::from_str(r#"{"replicas": 4, "value": -0}"#).unwrap();
        assert_eq!(call("allocation.parse_replicas", &input).unwrap(), json!(0));
    }

    /// Other non-integers stay refused for integer fields, as in Go.
    #[test]
    fn other_floats_are_still_invalid_for_integer_fields() {
        for total in [json!(0.5), json!(1.0), json!(0.0), json!(-1.5)] {
            let input = json!({"value": "50%", "total": total, "roundUp": true, "mode": "scaled"});
            assert_eq!(
                kind("rollout.scale_int_or_percent", input),
                "invalid_input",
                "{total}"
            );
        }
    }

    /// The text path answers as the full path where their decoders differ: `-0`, an array where
    /// an object is wanted, a refusing check, an unknown fn, text that is not JSON.
    #[test]
    fn call_text_answers_as_call() {
        let both = |id: &str, text: &str| {
            let full = serde_json::from_str::<Value>(text)
                .map_err(|e| Error::at(INVALID_JSON, "input", e))
                .and_then(|v| call(id, &v))
                .map(|v| v.to_string());
            let via_text = call_text(id, text);
            match (&full, &via_text) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{id} {text}"),
                (Err(a), Err(b)) => assert_eq!(
                    (a.kind, &a.message, &a.field),
                    (b.kind, &b.message, &b.field),
                    "{id} {text}"
                ),
                _ => panic!("{id} {text}: call {full:?}, call_text {via_text:?}"),
            }
            via_text
        };
        let scale = "rollout.scale_int_or_percent";
        assert_eq!(
            both(
                scale,
                r#"{"value":"25%","total":10,"roundUp":true,"mode":"scaled"}"#
            )
            .unwrap(),
            "3"
        );
        assert_eq!(
            both(
                scale,
                r#"{"value":-0,"total":10,"roundUp":true,"mode":"scaled"}"#
            )
            .unwrap(),
            "0"
        );
        assert_eq!(
            both(
                scale,
                r#"{"value":"50%","total":-0,"roundUp":true,"mode":"scaled"}"#
            )
            .unwrap(),
            "0"
        );
        assert_eq!(
            both(scale, r#"["50%",10,true,"scaled"]"#).unwrap_err().kind,
            "invalid_input"
        );
        assert_eq!(both(scale, "{").unwrap_err().kind, INVALID_JSON);
        assert_eq!(both("no.such", "{}").unwrap_err().kind, UNKNOWN_FN);
        assert_eq!(both("no.such", "{").unwrap_err().kind, INVALID_JSON);
        let eval = "resources.eval";
        assert_eq!(
            both(
                eval,
                r#"{"expr":"max(cpu * 50%, 50m)","variables":{"cpu":"200m"}}"#
            )
            .unwrap(),
            r#""100m""#
        );
        // The check's order of errors: the unknown member before the bad variable.
        assert_eq!(
            both(eval, r#"{"variables":{"cpu":true},"expr":"1","x":1}"#)
                .unwrap_err()
                .field
                .as_deref(),
            Some("x")
        );
        // A refusing check (cron.children: unknown members) is never skipped.
        let children = r#"{"advancedCronJob":{"metadata":{"name":"a","uid":"u"}},"other":1}"#;
        assert_eq!(
            both("cron.children", children).unwrap_err().kind,
            "invalid_input"
        );
    }

    #[test]
    fn negative_zero_is_found_and_replaced_at_any_depth() {
        let v: Value =
            serde_json::from_str(r#"{"a": [1, {"b": [-0, 2.5, -0.0]}], "c": -0.5}"#).unwrap();
        assert!(has_negative_zero(&v));
        let n = without_negative_zero(&v);
        assert!(!has_negative_zero(&n));
        assert_eq!(n, json!({"a": [1, {"b": [0, 2.5, 0]}], "c": -0.5}));
        assert!(!has_negative_zero(&json!({"a": [0, 0.0, -1, "-0"]})));
    }
}
