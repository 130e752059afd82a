//! `docs/fns.md`: every fn id of the registry with its description, OpenKruise source, input and
//! output fields, error kinds, comparison rule and the Python and Go function names.

use crate::model::{Def, FnInfo, Ty};
use crate::{HEADER, go, python, summary};
use std::collections::BTreeMap;

fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// The JSON type of `t`, as the docs print it.
pub fn ty(t: &Ty) -> String {
    match t {
        Ty::Any => "any JSON".into(),
        Ty::Bool => "boolean".into(),
        Ty::Int(None) => "integer".into(),
        Ty::Int(Some(f)) => format!("integer ({f})"),
        Ty::Number => "number".into(),
        Ty::Str => "string".into(),
        Ty::Null => "null".into(),
        Ty::Enum(v) => v
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(" | "),
        Ty::Array(t) => format!("[{}]", ty(t)),
        Ty::Tuple(v) => format!("[{}]", v.iter().map(ty).collect::<Vec<_>>().join(", ")),
        Ty::Map(t) => format!("{{string: {}}}", ty(t)),
        Ty::Named(n) => n.clone(),
        Ty::Nullable(t) => format!("{} | null", ty(t)),
        Ty::IntOrString => "integer | string".into(),
        Ty::Union(v) => v.iter().map(ty).collect::<Vec<_>>().join(" | "),
    }
}

fn field_table(out: &mut String, fields: &[crate::model::Field]) {
    if fields.is_empty() {
        out.push_str("An object with no members.\n");
        return;
    }
    out.push_str("| Field | Type | Required | Description |\n|---|---|---|---|\n");
    for f in fields {
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {} |\n",
            f.name,
            cell(&ty(&f.ty)),
            if f.required { "yes" } else { "no" },
            cell(f.doc.as_deref().unwrap_or(""))
        ));
    }
}

fn def_section(out: &mut String, level: &str, title: &str, name: &str, d: &Def) {
    let title = if title.is_empty() {
        String::new()
    } else {
        format!("{title} ")
    };
    out.push_str(&format!("\n{level} {title}`{name}`\n\n"));
    if let Some(doc) = d.doc() {
        out.push_str(&format!("{}\n\n", doc.trim()));
    }
    match d {
        Def::Object { fields, open, .. } => {
            field_table(out, fields);
            if *open {
                out.push_str("\nOther members are accepted and kept.\n");
            }
        }
        Def::Enum { values, .. } => {
            out.push_str("| Value | Description |\n|---|---|\n");
            for (v, doc) in values {
                out.push_str(&format!(
                    "| `\"{}\"` | {} |\n",
                    cell(v),
                    cell(doc.as_deref().unwrap_or(""))
                ));
            }
        }
        Def::Alias { ty: t, .. } => out.push_str(&format!("Type: `{}`\n", ty(t))),
    }
}

/// The text of `docs/fns.md`.
pub fn fns_md(fns: &[FnInfo]) -> Result<String, String> {
    let mut out = format!("<!-- {HEADER} -->\n# Decision functions\n\n");
    out.push_str(
        "Every fn id of the registry (`kruise-core fns`), generated from the Rust types of each decision\n\
         (`core/src/registry.rs`, `Decision`). Input and output are the JSON shapes of the conformance\n\
         vectors; the JSON Schema of each typed fn is `schemas/<fn id>.json` (`kruise-core schema FN_ID`).\n\
         Every fn also answers `invalid_input` (naming the field) for input it cannot read. Python:\n\
         `kruise_core.<family>.<name>(input)` with TypedDicts; Go: `<Family><Name>(in)` with generated\n\
         structs; both call the generic `call` (see `docs/python.md`, `docs/go.md`).\n\n",
    );
    out.push_str("| fn id | Description | Python | Go |\n|---|---|---|---|\n");
    for f in fns {
        let (py, g) = if f.typed.is_some() {
            (
                format!("`{}`", python::function_name(f)),
                format!("`{}`", go::function_name(f)),
            )
        } else {
            ("not typed yet".into(), "not typed yet".into())
        };
        let anchor = f.id.replace('.', "");
        out.push_str(&format!(
            "| [`{}`](#{}) | {} | {py} | {g} |\n",
            f.id,
            anchor.to_lowercase(),
            cell(&summary(&f.doc))
        ));
    }
    for f in fns {
        out.push_str(&format!("\n## `{}`\n\n{}\n", f.id, f.doc.trim()));
        let Some(t) = &f.typed else {
            out.push_str("\nNot typed yet: reachable through the generic `call` only.\n");
            continue;
        };
        out.push('\n');
        if !t.source.is_empty() {
            out.push_str(&format!("- OpenKruise source: {}\n", t.source));
        }
        out.push_str(&format!(
            "- Python: `{}`; Go: `{}`\n",
            python::qualified_name(f),
            go::function_name(f)
        ));
        let mut kinds: Vec<String> = t.errors.iter().map(|k| format!("`{k}`")).collect();
        kinds.push("`invalid_input`".into());
        out.push_str(&format!("- Error kinds: {}\n", kinds.join(", ")));
        out.push_str(&format!(
            "- Comparison of vector outputs: {}\n",
            match t.compare.as_str() {
                "zeroPruned" =>
                    "zero-pruned (members that are null, false, 0, \"\", {} or [] are dropped)",
                "nullPruned" => "null-pruned (members that are null, {} or [] are dropped)",
                _ => "exact (key order ignored, numbers by value)",
            }
        ));
        out.push_str(&format!(
            "- Schema: [`schemas/{0}.json`](../schemas/{0}.json)\n",
            f.id
        ));
        let mut shown: Vec<&str> = Vec::new();
        for (title, top) in [("Input", &t.input), ("Output", &t.output)] {
            match top {
                Ty::Named(n) if t.defs.contains_key(n) => {
                    def_section(&mut out, "###", title, n, &t.defs[n]);
                    shown.push(n);
                }
                other => out.push_str(&format!("\n### {title}\n\nType: `{}`\n", ty(other))),
            }
        }
        let rest: BTreeMap<&String, &Def> = t
            .defs
            .iter()
            .filter(|(n, _)| !shown.contains(&n.as_str()))
            .collect();
        if !rest.is_empty() {
            out.push_str("\n### Types\n");
            for (n, d) in rest {
                def_section(&mut out, "####", "", n, d);
            }
        }
    }
    Ok(out)
}
