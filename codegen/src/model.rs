//! The registry's JSON Schemas read into a small type model that every emitter shares.
//!
//! A schema (as `kruise_core::registry::Entry::schema` builds it, draft 2020-12) is read into
//! [`Ty`] (a field's type) and [`Def`] (a named type: an object, a string enum or an alias).
//! Inline objects are hoisted into named definitions (`<Parent><Field>`), so every object an
//! emitter writes has a name.

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// A value's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// Free-form JSON (schema `true` / `{}`): carried verbatim.
    Any,
    /// JSON boolean.
    Bool,
    /// JSON integer with its schema format (`int32`, `uint64`, ...; `None`: any integer).
    Int(Option<String>),
    /// JSON number (float64).
    Number,
    /// JSON string.
    Str,
    /// JSON null only.
    Null,
    /// One of these strings.
    Enum(Vec<String>),
    /// JSON array of one type.
    Array(Box<Ty>),
    /// JSON array of fixed positions.
    Tuple(Vec<Ty>),
    /// JSON object with string keys and one value type.
    Map(Box<Ty>),
    /// A named definition of the family.
    Named(String),
    /// The type or null.
    Nullable(Box<Ty>),
    /// A JSON integer or a JSON string (Kubernetes `IntOrString`).
    IntOrString,
    /// Any of these types (untagged or tagged unions).
    Union(Vec<Ty>),
}

impl Ty {
    /// Whether null is a valid value.
    pub fn nullable(&self) -> bool {
        match self {
            Ty::Nullable(_) | Ty::Null | Ty::Any => true,
            Ty::Union(v) => v.iter().any(Ty::nullable),
            _ => false,
        }
    }

    /// The type without its null alternative.
    pub fn non_null(&self) -> &Ty {
        match self {
            Ty::Nullable(t) => t,
            t => t,
        }
    }
}

/// One member of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The JSON member name (camelCase).
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Whether the member must be present (the schema's `required`).
    pub required: bool,
    /// Its description.
    pub doc: Option<String>,
}

/// A named type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Def {
    /// A JSON object with known members (alphabetical).
    Object {
        /// Description.
        doc: Option<String>,
        /// Members.
        fields: Vec<Field>,
        /// Whether other members are allowed (and kept: `additionalProperties` not false).
        open: bool,
    },
    /// A string enum: (value, description) in schema order.
    Enum {
        /// Description.
        doc: Option<String>,
        /// (value, description).
        values: Vec<(String, Option<String>)>,
    },
    /// Another name for a type.
    Alias {
        /// Description.
        doc: Option<String>,
        /// The type it names.
        ty: Ty,
    },
}

impl Def {
    /// The definition's description.
    pub fn doc(&self) -> Option<&str> {
        match self {
            Def::Object { doc, .. } | Def::Enum { doc, .. } | Def::Alias { doc, .. } => {
                doc.as_deref()
            }
        }
    }
}

/// One typed fn, read from its schema.
#[derive(Debug, Clone)]
pub struct TypedFn {
    /// The schema as `Entry::schema` gives it.
    pub schema: Value,
    /// OpenKruise source it mirrors.
    pub source: String,
    /// Declared error kinds (besides invalid_input).
    pub errors: Vec<String>,
    /// Comparison rule (`exact`, `zeroPruned`, `nullPruned`).
    pub compare: String,
    /// The input type (usually [`Ty::Named`]).
    pub input: Ty,
    /// The output type.
    pub output: Ty,
    /// Every named type of the fn (the schema's `$defs` and the hoisted inline objects).
    pub defs: BTreeMap<String, Def>,
}

/// One registered fn.
#[derive(Debug, Clone)]
pub struct FnInfo {
    /// `family.name`.
    pub id: String,
    /// The family (the id before the dot).
    pub family: String,
    /// The name part (after the dot), as in the id.
    pub name: String,
    /// One line saying what it decides.
    pub doc: String,
    /// Its typed side, `None` while its family is not typed.
    pub typed: Option<TypedFn>,
}

impl FnInfo {
    /// UpperCamel of the name part: `jobState` -> `JobState`, `admit_review` -> `AdmitReview`.
    pub fn camel(&self) -> String {
        upper_camel(&self.name)
    }

    /// UpperCamel of the family: `pub` -> `Pub`.
    pub fn family_camel(&self) -> String {
        upper_camel(&self.family)
    }

    /// snake_case of the name part: `jobState` -> `job_state`.
    pub fn snake(&self) -> String {
        snake_case(&self.name)
    }
}

/// `admit_review` / `jobState` / `pod-state` -> `AdmitReview` / `JobState` / `PodState`.
pub fn upper_camel(s: &str) -> String {
    let mut out = String::new();
    let mut up = true;
    for c in s.chars() {
        if !c.is_ascii_alphanumeric() {
            up = true;
            continue;
        }
        if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `jobState` -> `job_state`; `scale_int_or_percent` stays.
pub fn snake_case(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out
}

/// Reads every registered fn (typed or not) in registry order.
pub fn registry() -> Result<Vec<FnInfo>, String> {
    let mut out = Vec::new();
    for e in kcore::registry::entries() {
        let (family, name) =
            e.id.split_once('.')
                .ok_or_else(|| format!("fn id {:?} has no family", e.id))?;
        let typed = match e.schema() {
            Some(schema) => Some(read_fn(e.id, &upper_camel(name), schema)?),
            None => None,
        };
        out.push(FnInfo {
            id: e.id.into(),
            family: family.into(),
            name: name.into(),
            doc: e.doc.into(),
            typed,
        });
    }
    Ok(out)
}

fn read_fn(id: &str, camel: &str, schema: Value) -> Result<TypedFn, String> {
    let err = |m: &str| format!("{id}: {m}");
    let defs_json = schema
        .get("$defs")
        .and_then(Value::as_object)
        .ok_or_else(|| err("no $defs"))?;
    let mut r = Reader {
        id,
        defs: BTreeMap::new(),
    };
    for (name, s) in defs_json {
        if name == "input" || name == "output" {
            continue;
        }
        let def = r.def(name, s)?;
        r.insert(name, def)?;
    }
    let input = r.ty(
        &format!("{camel}Input"),
        defs_json
            .get("input")
            .ok_or_else(|| err("no $defs.input"))?,
    )?;
    let output = r.ty(
        &format!("{camel}Output"),
        defs_json
            .get("output")
            .ok_or_else(|| err("no $defs.output"))?,
    )?;
    let strings = |k: &str| -> Vec<String> {
        schema
            .get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let text = |k: &str| {
        schema
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    Ok(TypedFn {
        source: text("x-kruise-source"),
        errors: strings("x-kruise-errors"),
        compare: text("x-kruise-compare"),
        input,
        output,
        defs: r.defs,
        schema,
    })
}

struct Reader<'a> {
    id: &'a str,
    defs: BTreeMap<String, Def>,
}

fn doc_of(s: &Value) -> Option<String> {
    s.get("description")
        .and_then(Value::as_str)
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
}

/// Keywords that say nothing about the shape.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

impl Reader<'_> {
    fn insert(&mut self, name: &str, def: Def) -> Result<(), String> {
        match self.defs.get(name) {
            Some(d) if *d != def => {
                Err(format!("{}: two different types are named {name}", self.id))
            }
            _ => {
                self.defs.insert(name.to_string(), def);
                Ok(())
            }
        }
    }

    /// A named definition.
    fn def(&mut self, name: &str, s: &Value) -> Result<Def, String> {
        let doc = doc_of(s);
        if let Some(o) = s.as_object() {
            if is_object(o) && o.contains_key("properties") {
                return Ok(Def::Object {
                    doc,
                    fields: self.fields(name, o)?,
                    open: is_open(o),
                });
            }
            if let Some(values) = string_enum(s) {
                return Ok(Def::Enum { doc, values });
            }
        }
        // Union variants are hoisted as <Name><Tag> (or <Name><n>), array items as <Name>Item.
        let ty = self.ty(name, s)?;
        if ty == Ty::Named(name.to_string()) {
            return Err(format!("{}: cannot read the type {name}", self.id));
        }
        Ok(Def::Alias { doc, ty })
    }

    fn fields(&mut self, parent: &str, o: &Map<String, Value>) -> Result<Vec<Field>, String> {
        let required: Vec<&str> = o
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        if let Some(props) = o.get("properties").and_then(Value::as_object) {
            let mut names: Vec<&String> = props.keys().collect();
            names.sort();
            for n in names {
                let p = &props[n];
                let ty = self.ty(&format!("{parent}{}", upper_camel(n)), p)?;
                fields.push(Field {
                    name: n.clone(),
                    ty,
                    required: required.contains(&n.as_str()),
                    doc: doc_of(p),
                });
            }
        }
        Ok(fields)
    }

    /// The type of schema `s`; an inline object is hoisted under `hint`.
    fn ty(&mut self, hint: &str, s: &Value) -> Result<Ty, String> {
        let o = match s {
            Value::Bool(true) => return Ok(Ty::Any),
            Value::Bool(false) => return Err(format!("{}: schema `false` at {hint}", self.id)),
            Value::Object(o) => o,
            _ => return Err(format!("{}: schema at {hint} is not an object", self.id)),
        };
        if let Some(r) = o.get("$ref").and_then(Value::as_str) {
            let name = r
                .strip_prefix("#/$defs/")
                .ok_or_else(|| format!("{}: unsupported $ref {r}", self.id))?;
            return Ok(Ty::Named(name.to_string()));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(alts) = o.get(key).and_then(Value::as_array) {
                return self.union(hint, s, alts);
            }
        }
        if let Some(all) = o.get("allOf").and_then(Value::as_array) {
            if all.len() == 1 {
                return self.ty(hint, &all[0]);
            }
            return Err(format!(
                "{}: allOf with {} members at {hint}",
                self.id,
                all.len()
            ));
        }
        if let Some(values) = string_enum(s) {
            return Ok(Ty::Enum(values.into_iter().map(|v| v.0).collect()));
        }
        if let Some(c) = o.get("const") {
            return match c {
                Value::Null => Ok(Ty::Null),
                _ => Err(format!("{}: non-string const at {hint}", self.id)),
            };
        }
        match o.get("type") {
            None => {
                if o.keys().all(|k| ANNOTATIONS.contains(&k.as_str())) {
                    Ok(Ty::Any)
                } else if o.contains_key("properties") {
                    self.object(hint, s, o)
                } else {
                    Err(format!(
                        "{}: cannot read the schema at {hint}: {s}",
                        self.id
                    ))
                }
            }
            Some(Value::String(t)) => self.typed(hint, s, o, t),
            Some(Value::Array(ts)) => {
                let ts: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                let non_null: Vec<&str> = ts.iter().copied().filter(|t| *t != "null").collect();
                let inner = match non_null.as_slice() {
                    [] => Ty::Null,
                    [t] => self.typed(hint, s, o, t)?,
                    [a, b]
                        if (*a == "integer" && *b == "string")
                            || (*a == "string" && *b == "integer") =>
                    {
                        Ty::IntOrString
                    }
                    many => {
                        let mut v = Vec::new();
                        for t in many {
                            v.push(self.typed(hint, s, o, t)?);
                        }
                        Ty::Union(v)
                    }
                };
                Ok(if ts.contains(&"null") && inner != Ty::Null {
                    Ty::Nullable(Box::new(inner))
                } else {
                    inner
                })
            }
            Some(t) => Err(format!("{}: odd type {t} at {hint}", self.id)),
        }
    }

    fn typed(
        &mut self,
        hint: &str,
        s: &Value,
        o: &Map<String, Value>,
        t: &str,
    ) -> Result<Ty, String> {
        let format = o.get("format").and_then(Value::as_str).map(String::from);
        Ok(match t {
            "boolean" => Ty::Bool,
            "integer" => Ty::Int(format),
            "number" => Ty::Number,
            "string" => Ty::Str,
            "null" => Ty::Null,
            "array" => {
                if let Some(items) = o.get("prefixItems").and_then(Value::as_array) {
                    let mut v = Vec::new();
                    for (i, it) in items.iter().enumerate() {
                        v.push(self.ty(&format!("{hint}{i}"), it)?);
                    }
                    Ty::Tuple(v)
                } else {
                    match o.get("items") {
                        Some(items) => Ty::Array(Box::new(self.ty(&format!("{hint}Item"), items)?)),
                        None => Ty::Array(Box::new(Ty::Any)),
                    }
                }
            }
            "object" => return self.object(hint, s, o),
            other => return Err(format!("{}: unknown type {other} at {hint}", self.id)),
        })
    }

    fn object(&mut self, hint: &str, s: &Value, o: &Map<String, Value>) -> Result<Ty, String> {
        if o.contains_key("properties") {
            let def = Def::Object {
                doc: doc_of(s),
                fields: self.fields(hint, o)?,
                open: is_open(o),
            };
            self.insert(hint, def)?;
            return Ok(Ty::Named(hint.to_string()));
        }
        Ok(match o.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Ty::Map(Box::new(Ty::Any)),
            Some(v) => Ty::Map(Box::new(self.ty(&format!("{hint}Value"), v)?)),
        })
    }

    fn union(&mut self, hint: &str, s: &Value, alts: &[Value]) -> Result<Ty, String> {
        let is_null = |a: &Value| {
            a.get("type").and_then(Value::as_str) == Some("null")
                || a.get("const") == Some(&Value::Null)
        };
        let has_null = alts.iter().any(is_null);
        let rest: Vec<&Value> = alts.iter().filter(|a| !is_null(a)).collect();
        let inner = if rest.is_empty() {
            Ty::Null
        } else if let Some(values) = string_enum(s) {
            Ty::Enum(values.into_iter().map(|v| v.0).collect())
        } else if rest.len() == 1 {
            self.ty(hint, rest[0])?
        } else {
            let mut tys = Vec::new();
            for (i, a) in rest.iter().enumerate() {
                let name = variant_name(a)
                    .map(|t| format!("{hint}{}", upper_camel(&t)))
                    .unwrap_or_else(|| format!("{hint}{}", i + 1));
                tys.push(self.ty(&name, a)?);
            }
            let int = |t: &Ty| {
                matches!(t, Ty::Int(_))
                    || matches!(t, Ty::Named(n) if self.alias_of(n).is_some_and(|a| matches!(a, Ty::Int(_))))
            };
            if tys.len() == 2
                && ((int(&tys[0]) && tys[1] == Ty::Str) || (tys[0] == Ty::Str && int(&tys[1])))
            {
                Ty::IntOrString
            } else {
                Ty::Union(tys)
            }
        };
        Ok(if has_null && inner != Ty::Null {
            Ty::Nullable(Box::new(inner))
        } else {
            inner
        })
    }

    fn alias_of(&self, name: &str) -> Option<&Ty> {
        match self.defs.get(name) {
            Some(Def::Alias { ty, .. }) => Some(ty),
            _ => None,
        }
    }
}

/// Whether an object schema with properties allows other members (`additionalProperties` given and
/// not `false`; schemars writes it for a flattened map).
fn is_open(o: &Map<String, Value>) -> bool {
    o.get("additionalProperties")
        .is_some_and(|v| *v != Value::Bool(false))
}

fn is_object(o: &Map<String, Value>) -> bool {
    o.get("type").and_then(Value::as_str) == Some("object")
        || (o.get("type").is_none() && o.contains_key("properties"))
}

/// The tag of a tagged-union variant: the one `const` string property, if any.
fn variant_name(s: &Value) -> Option<String> {
    let props = s.get("properties")?.as_object()?;
    let mut tags = props
        .values()
        .filter_map(|p| p.get("const").and_then(Value::as_str).map(String::from));
    let t = tags.next()?;
    if tags.next().is_some() { None } else { Some(t) }
}

/// The values of a string enum (`enum: [..]`, `const`, or `oneOf`/`anyOf` of string consts), with
/// each value's description.
fn string_enum(s: &Value) -> Option<Vec<(String, Option<String>)>> {
    let o = s.as_object()?;
    if let Some(vals) = o.get("enum").and_then(Value::as_array) {
        return vals
            .iter()
            .map(|v| v.as_str().map(|v| (v.to_string(), None)))
            .collect();
    }
    if let Some(Value::String(c)) = o.get("const") {
        return Some(vec![(c.clone(), None)]);
    }
    let alts = o.get("oneOf").or_else(|| o.get("anyOf"))?.as_array()?;
    let mut out = Vec::new();
    for a in alts {
        let doc = doc_of(a);
        match (a.get("const"), a.get("enum").and_then(Value::as_array)) {
            (Some(Value::String(c)), _) => out.push((c.clone(), doc)),
            (None, Some(vals)) => {
                for v in vals {
                    out.push((v.as_str()?.to_string(), doc.clone()));
                }
            }
            _ => return None,
        }
    }
    if out.is_empty() { None } else { Some(out) }
}

/// The named types of a family, merged over its fns (one name, one shape).
pub fn family_defs<'a>(
    fns: impl Iterator<Item = &'a FnInfo>,
) -> Result<BTreeMap<String, Def>, String> {
    let mut all: BTreeMap<String, (Def, String)> = BTreeMap::new();
    for f in fns {
        let Some(t) = &f.typed else { continue };
        for (name, def) in &t.defs {
            match all.get(name) {
                Some((d, other)) if d != def => {
                    return Err(format!(
                        "family {}: type {name} of {} differs from the one of {other}; rename one (#[schemars(rename)])",
                        f.family, f.id
                    ));
                }
                Some(_) => {}
                None => {
                    all.insert(name.clone(), (def.clone(), f.id.clone()));
                }
            }
        }
    }
    Ok(all.into_iter().map(|(k, (d, _))| (k, d)).collect())
}

/// The named types that more than one family uses with the same shape: written once, in the shared
/// module (Python `kruise_core/k8s.py`, Go `zz_generated_k8s.go` with the `K8s` prefix), and
/// referred to by the family modules.
#[derive(Debug, Clone, Default)]
pub struct Shared {
    /// Name -> shape.
    pub defs: BTreeMap<String, Def>,
    /// Name -> the families that use it.
    pub families: BTreeMap<String, BTreeSet<String>>,
}

impl Shared {
    /// Whether the family's definition `name` (shape `def`) is the shared one.
    pub fn has(&self, name: &str, def: &Def) -> bool {
        self.defs.get(name) == Some(def)
    }
}

/// The prefix of a shared type's Go name and the name of the shared Python module / Go file.
pub const SHARED_MODULE: &str = "k8s";

/// The definitions shared across families: a name that two or more families give the same shape
/// (when families disagree on a name's shape, the shape most of them use is shared, ties going to
/// the alphabetically first family, and the others keep their own). A fn's input or output type is
/// never shared (it carries the fn-level name), and a type is shared only if every type it refers
/// to is shared with the same shape, so the shared module needs nothing from a family.
pub fn shared_defs(fns: &[FnInfo]) -> Result<Shared, String> {
    let mut per_family: BTreeMap<String, BTreeMap<String, Def>> = BTreeMap::new();
    let mut io: BTreeSet<String> = BTreeSet::new();
    let mut families: BTreeSet<String> = BTreeSet::new();
    for f in fns {
        if let Some(t) = &f.typed {
            families.insert(f.family.clone());
            for ty in [&t.input, &t.output] {
                if let Ty::Named(n) = ty.non_null() {
                    io.insert(n.clone());
                }
            }
        }
    }
    for fam in &families {
        per_family.insert(
            fam.clone(),
            family_defs(fns.iter().filter(|f| &f.family == fam))?,
        );
    }
    // name -> shapes, each with the families that use it.
    let mut shapes: BTreeMap<String, Vec<(Def, BTreeSet<String>)>> = BTreeMap::new();
    for (fam, defs) in &per_family {
        for (n, d) in defs {
            if io.contains(n) {
                continue;
            }
            let v = shapes.entry(n.clone()).or_default();
            match v.iter_mut().find(|(s, _)| s == d) {
                Some((_, fs)) => {
                    fs.insert(fam.clone());
                }
                None => v.push((d.clone(), BTreeSet::from([fam.clone()]))),
            }
        }
    }
    let mut out = Shared::default();
    for (n, v) in shapes {
        let best = v
            .into_iter()
            .filter(|(_, fs)| fs.len() > 1)
            .max_by(|a, b| a.1.len().cmp(&b.1.len()).then_with(|| b.1.cmp(&a.1)));
        if let Some((d, fs)) = best {
            out.defs.insert(n.clone(), d);
            out.families.insert(n, fs);
        }
    }
    // Drop a type whose references are not all shared with the shape its families use.
    loop {
        let drop: Vec<String> = out
            .defs
            .iter()
            .filter(|(n, d)| {
                def_refs(d).iter().any(|r| {
                    !out.defs.contains_key(r)
                        || out.families[*n]
                            .iter()
                            .any(|fam| per_family[fam].get(r) != out.defs.get(r))
                })
            })
            .map(|(n, _)| n.clone())
            .collect();
        if drop.is_empty() {
            break;
        }
        for n in drop {
            out.defs.remove(&n);
            out.families.remove(&n);
        }
    }
    Ok(out)
}

/// The names a type refers to.
pub fn refs(t: &Ty, out: &mut Vec<String>) {
    match t {
        Ty::Named(n) => out.push(n.clone()),
        Ty::Array(t) | Ty::Map(t) | Ty::Nullable(t) => refs(t, out),
        Ty::Tuple(v) | Ty::Union(v) => v.iter().for_each(|t| refs(t, out)),
        _ => {}
    }
}

/// The names a definition refers to.
pub fn def_refs(d: &Def) -> Vec<String> {
    let mut out = Vec::new();
    match d {
        Def::Object { fields, .. } => fields.iter().for_each(|f| refs(&f.ty, &mut out)),
        Def::Alias { ty, .. } => refs(ty, &mut out),
        Def::Enum { .. } => {}
    }
    out
}

/// The definitions in dependency order (a name after the names it uses, where no cycle forbids).
pub fn dependency_order(defs: &BTreeMap<String, Def>) -> Vec<String> {
    fn visit(n: &str, defs: &BTreeMap<String, Def>, seen: &mut Vec<String>, out: &mut Vec<String>) {
        if seen.iter().any(|s| s == n) {
            return;
        }
        seen.push(n.to_string());
        if let Some(d) = defs.get(n) {
            for r in def_refs(d) {
                visit(&r, defs, seen, out);
            }
            out.push(n.to_string());
        }
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for n in defs.keys() {
        visit(n, defs, &mut seen, &mut out);
    }
    out
}

/// Sorts every object's keys (recursively), for a stable text whatever serde_json's map order.
pub fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), sorted(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        v => v.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names() {
        assert_eq!(upper_camel("admit_review"), "AdmitReview");
        assert_eq!(upper_camel("jobState"), "JobState");
        assert_eq!(snake_case("jobState"), "job_state");
        assert_eq!(snake_case("scale_int_or_percent"), "scale_int_or_percent");
        assert_eq!(snake_case("launch_barrier_next"), "launch_barrier_next");
    }

    fn read(s: Value) -> TypedFn {
        let schema =
            json!({"$defs": {"input": s, "output": {"type": "integer"}}, "x-kruise-errors": ["a"]});
        read_fn("t.x", "X", schema).unwrap()
    }

    #[test]
    fn reads_schemars_shapes() {
        let t = read(json!({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"anyOf": [{"type": "integer", "format": "int32"}, {"type": "string"}]},
                "c": {"type": "object", "additionalProperties": {"type": "boolean"}},
                "d": {"oneOf": [{"const": "x"}, {"const": "y"}]},
                "e": true,
                "f": {"type": "object", "properties": {"g": {"type": "array", "items": {"type": "number"}}}, "required": ["g"]},
                "h": {"anyOf": [{"$ref": "#/$defs/Y"}, {"type": "null"}]},
            },
            "required": ["a", "b"],
        }));
        assert_eq!(t.input, Ty::Named("XInput".into()));
        let Def::Object { fields, .. } = &t.defs["XInput"] else {
            panic!()
        };
        let ty = |n: &str| fields.iter().find(|f| f.name == n).unwrap().ty.clone();
        assert_eq!(ty("a"), Ty::Nullable(Box::new(Ty::Str)));
        assert_eq!(ty("b"), Ty::IntOrString);
        assert_eq!(ty("c"), Ty::Map(Box::new(Ty::Bool)));
        assert_eq!(ty("d"), Ty::Enum(vec!["x".into(), "y".into()]));
        assert_eq!(ty("e"), Ty::Any);
        assert_eq!(ty("f"), Ty::Named("XInputF".into()));
        assert_eq!(ty("h"), Ty::Nullable(Box::new(Ty::Named("Y".into()))));
        assert!(fields[0].required && !fields[2].required);
        let Def::Object { fields, .. } = &t.defs["XInputF"] else {
            panic!()
        };
        assert_eq!(fields[0].ty, Ty::Array(Box::new(Ty::Number)));
        assert_eq!(t.output, Ty::Int(None));
    }

    #[test]
    fn one_name_one_shape_per_family() {
        let f = |id: &str, ty: &str| FnInfo {
            id: id.into(),
            family: "t".into(),
            name: "x".into(),
            doc: String::new(),
            typed: Some(read(
                json!({"type": "object", "properties": {"a": {"type": ty}}}),
            )),
        };
        let same = [f("t.a", "string"), f("t.b", "string")];
        assert_eq!(family_defs(same.iter()).unwrap().len(), 1);
        let clash = [f("t.a", "string"), f("t.b", "integer")];
        let e = family_defs(clash.iter()).unwrap_err();
        assert!(e.contains("XInput of t.b differs"), "{e}");
    }

    /// A name two families give one shape is shared; a third family's other shape stays its own; a
    /// type whose reference is not shared stays per family; fn inputs are never shared.
    #[test]
    fn shared_across_families() {
        let f = |family: &str, defs: Value| FnInfo {
            id: format!("{family}.x"),
            family: family.into(),
            name: "x".into(),
            doc: String::new(),
            typed: Some(
                read_fn(
                    &format!("{family}.x"),
                    "X",
                    json!({"$defs": merge(defs, json!({
                        "input": {"type": "object", "properties": {
                            "s": {"$ref": "#/$defs/S"}, "t": {"$ref": "#/$defs/T"}}},
                        "output": {"type": "integer"}}))}),
                )
                .unwrap(),
            ),
        };
        fn merge(a: Value, b: Value) -> Value {
            let (Value::Object(mut a), Value::Object(b)) = (a, b) else {
                unreachable!()
            };
            a.extend(b);
            Value::Object(a)
        }
        let obj = |ty: &str| json!({"type": "object", "properties": {"v": {"type": ty}}});
        let t = json!({"type": "object", "properties": {"u": {"$ref": "#/$defs/U"}}});
        let fns = [
            f("a", json!({"S": obj("string"), "T": t, "U": obj("string")})),
            f(
                "b",
                json!({"S": obj("string"), "T": t, "U": obj("integer")}),
            ),
            f(
                "c",
                json!({"S": obj("integer"), "T": t, "U": obj("integer")}),
            ),
        ];
        let shared = shared_defs(&fns).unwrap();
        assert_eq!(
            shared.defs.keys().collect::<Vec<_>>(),
            ["S", "U"],
            "{shared:?}"
        );
        assert_eq!(
            shared.families["S"],
            BTreeSet::from(["a".into(), "b".into()])
        );
        assert_eq!(
            shared.families["U"],
            BTreeSet::from(["b".into(), "c".into()])
        );
        let c = family_defs(fns[2..].iter()).unwrap();
        assert!(!shared.has("S", &c["S"]) && shared.has("U", &c["U"]));
    }
}
