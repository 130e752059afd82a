//! Python: `kruise_core/<family>.py` (TypedDicts with the JSON's camelCase keys and one function per
//! fn calling the native `call`), `kruise_core/k8s.py` (the TypedDicts several families share, which
//! the family modules import and re-export) and `kruise_core/_typed.py` (`ErrorKind`, the typed-fn
//! table).
//!
//! The modules run on Python 3.9+: no `X | Y` at runtime (`Optional`/`Union`), `TypedDict`,
//! `NotRequired` and `TypeAlias` from typing_extensions, forward references quoted.

use crate::model::{Def, FnInfo, SHARED_MODULE, Shared, Ty, dependency_order, family_defs};
use crate::{Files, HEADER, error_kinds, typed_by_family};
use std::collections::{BTreeMap, BTreeSet};

const DIR: &str = "bindings/python/python/kruise_core";

/// Hand-written additions a generated module re-exports: (family, module, names). They are the
/// native fast paths and thin conveniences over the generated functions; they must not import
/// their family module at import time.
pub const EXTRAS: &[(&str, &str, &[&str])] = &[
    ("rollout", "_rollout_extras", &["scale"]),
    (
        "api",
        "_api_extras",
        &[
            "REVIEW_VERSIONS",
            "V1ALPHA1",
            "V1BETA1",
            "conversion_review",
        ],
    ),
];

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Whether `s` can be a Python attribute / keyword-argument name.
pub fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

/// The Python function name of an fn.
pub fn function_name(f: &FnInfo) -> String {
    let s = f.snake();
    if KEYWORDS.contains(&s.as_str()) {
        format!("{s}_")
    } else {
        s
    }
}

/// The Markdown table of docs/python.md: one row per family module, its functions in registry order.
pub fn functions_table(fns: &[FnInfo]) -> String {
    let mut out = String::from("| module | functions |\n|---|---|\n");
    for (family, list) in crate::typed_by_family(fns) {
        let names: Vec<String> = list
            .iter()
            .map(|f| format!("`{}`", function_name(f)))
            .collect();
        out.push_str(&format!(
            "| `kruise_core.{}` | {} |\n",
            family,
            names.join(", ")
        ));
    }
    out
}

/// `kruise_core.<family>.<function>`.
pub fn qualified_name(f: &FnInfo) -> String {
    format!("kruise_core.{}.{}", f.family, function_name(f))
}

pub(crate) fn generate(fns: &[FnInfo], files: &mut Files) -> Result<(), String> {
    let shared = crate::model::shared_defs(fns)?;
    files.insert(format!("{DIR}/{SHARED_MODULE}.py"), shared_module(&shared));
    for (family, fs) in typed_by_family(fns) {
        files.insert(format!("{DIR}/{family}.py"), module(&family, &fs, &shared)?);
    }
    files.insert(format!("{DIR}/_typed.py"), typed_module(fns));
    Ok(())
}

fn str_lit(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn docstring(text: &str, indent: &str) -> String {
    let t = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let t = t.trim_end();
    let mut out = format!("{indent}\"\"\"");
    for (i, line) in t.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(indent);
            }
        }
        out.push_str(line);
    }
    if t.ends_with('"') {
        out.push(' ');
    }
    if t.contains('\n') {
        out.push('\n');
        out.push_str(indent);
    }
    out.push_str("\"\"\"\n");
    out
}

fn comment(text: &str, indent: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| {
            if l.is_empty() {
                format!("{indent}#\n")
            } else {
                format!("{indent}# {l}\n")
            }
        })
        .collect()
}

struct Ctx<'a> {
    defined: &'a BTreeSet<String>,
}

impl Ctx<'_> {
    fn ty(&self, t: &Ty) -> String {
        match t {
            Ty::Any => "Any".into(),
            Ty::Bool => "bool".into(),
            Ty::Int(_) => "int".into(),
            Ty::Number => "float".into(),
            Ty::Str => "str".into(),
            Ty::Null => "None".into(),
            Ty::Enum(v) => format!(
                "Literal[{}]",
                v.iter().map(|s| str_lit(s)).collect::<Vec<_>>().join(", ")
            ),
            Ty::Array(t) => format!("List[{}]", self.ty(t)),
            Ty::Tuple(v) => format!(
                "Tuple[{}]",
                v.iter().map(|t| self.ty(t)).collect::<Vec<_>>().join(", ")
            ),
            Ty::Map(t) => format!("Dict[str, {}]", self.ty(t)),
            Ty::Named(n) => {
                if self.defined.contains(n) {
                    n.clone()
                } else {
                    str_lit(n)
                }
            }
            Ty::Nullable(t) => format!("Optional[{}]", self.ty(t)),
            Ty::IntOrString => "Union[int, str]".into(),
            Ty::Union(v) => format!(
                "Union[{}]",
                v.iter().map(|t| self.ty(t)).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

fn def_text(name: &str, d: &Def, ctx: &Ctx<'_>) -> String {
    let mut out = String::new();
    match d {
        Def::Object { doc, fields, .. } => {
            let functional = fields.iter().any(|f| !is_identifier(&f.name));
            let ann = |f: &crate::model::Field| {
                let t = ctx.ty(&f.ty);
                if f.required {
                    t
                } else {
                    format!("NotRequired[{t}]")
                }
            };
            if functional {
                if let Some(doc) = doc {
                    out.push_str(&comment(doc, ""));
                }
                out.push_str(&format!(
                    "{name} = TypedDict(\n    {},\n    {{\n",
                    str_lit(name)
                ));
                for f in fields {
                    if let Some(doc) = &f.doc {
                        out.push_str(&comment(doc, "        "));
                    }
                    out.push_str(&format!("        {}: {},\n", str_lit(&f.name), ann(f)));
                }
                out.push_str("    },\n)\n");
            } else {
                out.push_str(&format!("class {name}(TypedDict):\n"));
                out.push_str(&docstring(doc.as_deref().unwrap_or(name), "    "));
                for f in fields {
                    out.push_str(&format!("\n    {}: {}\n", f.name, ann(f)));
                    if let Some(doc) = &f.doc {
                        out.push_str(&docstring(doc, "    "));
                    }
                }
            }
        }
        Def::Enum { doc, values } => {
            if let Some(doc) = doc {
                out.push_str(&comment(doc, ""));
            }
            for (v, d) in values {
                if let Some(d) = d {
                    out.push_str(&comment(
                        &format!("{}: {}", str_lit(v), d.replace('\n', " ")),
                        "",
                    ));
                }
            }
            let vals = values
                .iter()
                .map(|(v, _)| str_lit(v))
                .collect::<Vec<_>>()
                .join(", ");
            out.push_str(&format!("{name}: TypeAlias = Literal[{vals}]\n"));
        }
        Def::Alias { doc, ty } => {
            if let Some(doc) = doc {
                out.push_str(&comment(doc, ""));
            }
            out.push_str(&format!("{name}: TypeAlias = {}\n", ctx.ty(ty)));
        }
    }
    out
}

const TYPING_IMPORTS: &str = "\nfrom typing import Any, Dict, List, Literal, Optional, Tuple, Union, cast\n\n\
     from typing_extensions import NotRequired, TypeAlias, TypedDict\n\n";

/// `kruise_core/k8s.py`: the TypedDicts and aliases that several families share, written once; the
/// family modules import (and re-export) them.
fn shared_module(shared: &Shared) -> String {
    let mut out = format!("# {HEADER}\n");
    out.push_str(&docstring(
        "Kubernetes shapes that several families' fns take or answer, written once (TypedDicts with\n\
         the JSON's camelCase keys); each family module re-exports the ones it uses.",
        "",
    ));
    out.push_str(TYPING_IMPORTS.trim_end_matches('\n'));
    out.push('\n');
    let mut defined = BTreeSet::new();
    for name in dependency_order(&shared.defs) {
        defined.insert(name.clone());
        let ctx = Ctx { defined: &defined };
        out.push_str("\n\n");
        out.push_str(&def_text(&name, &shared.defs[&name], &ctx));
    }
    out.push_str("\n\n__all__ = [\n");
    for n in shared.defs.keys() {
        out.push_str(&format!("    {},\n", str_lit(n)));
    }
    out.push_str("]\n");
    out
}

fn module(family: &str, fs: &[&FnInfo], shared: &Shared) -> Result<String, String> {
    let mut defs = family_defs(fs.iter().copied())?;
    let imported: BTreeSet<String> = defs
        .iter()
        .filter(|(n, d)| shared.has(n, d))
        .map(|(n, _)| n.clone())
        .collect();
    defs.retain(|n, _| !imported.contains(n));
    let mut out = format!("# {HEADER}\n");
    out.push_str(&docstring(
        &format!(
            "Typed functions of the ``{family}`` family (one per fn id ``{family}.<name>``, calling\n\
             ``kruise_core.call``) and TypedDicts of its JSON shapes; ``docs/fns.md`` lists them all."
        ),
        "",
    ));
    out.push_str(TYPING_IMPORTS);
    out.push_str("from ._kruise_core import call\n");
    if !imported.is_empty() {
        // one line: the re-exports are the family's names for the shared types
        let names: Vec<String> = imported.iter().map(|n| format!("{n} as {n}")).collect();
        out.push_str(&format!(
            "from .{SHARED_MODULE} import {}  # shared shapes, re-exported\n",
            names.join(", ")
        ));
    }
    let extras: Vec<&(&str, &str, &[&str])> = EXTRAS.iter().filter(|e| e.0 == family).collect();
    for (_, m, names) in &extras {
        let names = names
            .iter()
            .map(|n| format!("{n} as {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!("from .{m} import {names}  # hand-written\n"));
    }

    // Fn-level names: <Name>Input / <Name>Output aliases where the schema's type is named otherwise.
    let mut aliases: BTreeMap<String, Ty> = BTreeMap::new();
    for f in fs {
        let t = f.typed.as_ref().expect("typed");
        for (suffix, ty) in [("Input", &t.input), ("Output", &t.output)] {
            let name = format!("{}{suffix}", f.camel());
            // The type itself, or null: the function's annotation is Optional[<Name>Output].
            if *ty.non_null() == Ty::Named(name.clone()) {
                continue;
            }
            if defs.contains_key(&name) || imported.contains(&name) {
                return Err(format!(
                    "{}: a type is named {name} but it is not the fn's {suffix}",
                    f.id
                ));
            }
            if aliases
                .insert(name.clone(), ty.clone())
                .is_some_and(|old| old != *ty)
            {
                return Err(format!("family {family}: two fns want {name}"));
            }
        }
    }
    let mut defined = imported.clone();
    for name in dependency_order(&defs) {
        defined.insert(name.clone());
        let ctx = Ctx { defined: &defined };
        out.push_str("\n\n");
        out.push_str(&def_text(&name, &defs[&name], &ctx));
    }
    let ctx = Ctx { defined: &defined };
    for (name, ty) in &aliases {
        out.push_str(&format!("\n\n{name}: TypeAlias = {}\n", ctx.ty(ty)));
    }
    let mut all: Vec<String> = defs
        .keys()
        .cloned()
        .chain(imported.iter().cloned())
        .chain(aliases.keys().cloned())
        .collect();
    for f in fs {
        let t = f.typed.as_ref().expect("typed");
        let fname = function_name(f);
        all.push(fname.clone());
        let mut doc = format!("{}\n\nfn ``{}``", f.doc, f.id);
        if !t.source.is_empty() {
            doc.push_str(&format!("; OpenKruise source: {}", t.source));
        }
        doc.push_str(".\n\nRaises ``KruiseError`` with kind ");
        let mut kinds: Vec<String> = t.errors.iter().map(|k| format!("``{k}``")).collect();
        kinds.push("``invalid_input`` (naming the field)".into());
        doc.push_str(&kinds.join(", "));
        doc.push('.');
        let io = |suffix: &str, ty: &Ty| {
            let name = format!("{}{suffix}", f.camel());
            if *ty != Ty::Named(name.clone()) && *ty.non_null() == Ty::Named(name.clone()) {
                format!("Optional[{name}]")
            } else {
                name
            }
        };
        let (i, o) = (io("Input", &t.input), io("Output", &t.output));
        out.push_str(&format!("\n\ndef {fname}(input: {i}) -> {o}:\n"));
        out.push_str(&docstring(&doc, "    "));
        out.push_str(&format!(
            "    return cast({o}, call({}, input))\n",
            str_lit(&f.id)
        ));
    }
    for (_, _, names) in &extras {
        all.extend(names.iter().map(|n| n.to_string()));
    }
    all.sort();
    all.dedup();
    out.push_str("\n\n__all__ = [\n");
    for n in all {
        out.push_str(&format!("    {},\n", str_lit(&n)));
    }
    out.push_str("]\n");
    Ok(out)
}

fn typed_module(fns: &[FnInfo]) -> String {
    let mut out = format!("# {HEADER}\n");
    out.push_str(&docstring(
        "The error kinds and the table of typed functions, from the Rust registry.\n\n\
         ``ErrorKind`` is every ``KruiseError.kind``: the declared kinds of every typed fn and the front\n\
         doors' own (``invalid_input``, ``invalid_json``, ``unknown_fn``, ``input_too_large``, ``internal``).",
        "",
    ));
    out.push_str("\nfrom typing import Dict, Literal, Tuple\n\nfrom typing_extensions import TypeAlias, get_args\n\n");
    let kinds = error_kinds(fns);
    out.push_str("ErrorKind: TypeAlias = Literal[\n");
    for k in &kinds {
        out.push_str(&format!("    {},\n", str_lit(k)));
    }
    out.push_str("]\n\n#: The same kinds as a tuple, read off the Literal.\nERROR_KINDS: Tuple[ErrorKind, ...] = get_args(ErrorKind)\n\n");
    out.push_str("#: fn id -> (module, function) of every typed fn.\nTYPED_FNS: Dict[str, Tuple[str, str]] = {\n");
    for f in fns.iter().filter(|f| f.typed.is_some()) {
        out.push_str(&format!(
            "    {}: ({}, {}),\n",
            str_lit(&f.id),
            str_lit(&f.family),
            str_lit(&function_name(f))
        ));
    }
    out.push_str("}\n\n");
    let all = fns.iter().all(|f| f.typed.is_some());
    out.push_str(&format!(
        "#: Whether every registered fn is typed (then every fn id must have a typed function).\nALL_TYPED = {}\n\n",
        if all { "True" } else { "False" }
    ));
    out.push_str("__all__ = [\"ALL_TYPED\", \"ERROR_KINDS\", \"ErrorKind\", \"TYPED_FNS\"]\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Field;

    fn field(name: &str, ty: Ty, required: bool) -> Field {
        Field {
            name: name.into(),
            ty,
            required,
            doc: Some("Doc.".into()),
        }
    }

    #[test]
    fn keywords_and_odd_keys_use_the_functional_syntax() {
        let defined = BTreeSet::new();
        let ctx = Ctx { defined: &defined };
        let d = Def::Object {
            doc: Some("Upgrade input.".into()),
            fields: vec![
                field("from", Ty::Str, true),
                field("to", Ty::Nullable(Box::new(Ty::Str)), false),
            ],
            open: false,
        };
        let text = def_text("UpgradeInput", &d, &ctx);
        assert!(
            text.starts_with(
                "# Upgrade input.\nUpgradeInput = TypedDict(\n    \"UpgradeInput\",\n"
            ),
            "{text}"
        );
        assert!(text.contains("        \"from\": str,\n"), "{text}");
        assert!(
            text.contains("        \"to\": NotRequired[Optional[str]],\n"),
            "{text}"
        );
        let d = Def::Object {
            doc: None,
            fields: vec![
                field("roundUp", Ty::Bool, true),
                field("x", Ty::Named("Later".into()), false),
            ],
            open: false,
        };
        let text = def_text("In", &d, &ctx);
        assert!(
            text.starts_with("class In(TypedDict):\n    \"\"\"In\"\"\"\n"),
            "{text}"
        );
        assert!(
            text.contains("\n    roundUp: bool\n    \"\"\"Doc.\"\"\"\n"),
            "{text}"
        );
        // a type defined later is a quoted forward reference
        assert!(text.contains("    x: NotRequired[\"Later\"]\n"), "{text}");
    }

    #[test]
    fn names_and_docstrings() {
        assert!(
            is_identifier("roundUp")
                && !is_identifier("from")
                && !is_identifier("a-b")
                && !is_identifier("1a")
        );
        assert_eq!(docstring("say \"hi\"", ""), "\"\"\"say \"hi\" \"\"\"\n");
        assert_eq!(docstring("a\\b", ""), "\"\"\"a\\\\b\"\"\"\n");
    }
}
