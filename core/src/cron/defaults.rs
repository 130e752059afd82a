//! `SetDefaultsAdvancedCronJob` without pod-template injection (`apis/apps/defaults/v1beta1.go`).
//!
//! Mirrors `apis/apps/defaults/v1beta1.go` (OpenKruise v1.9.0). Works on the JSON spec so that
//! every member it does not default passes through untouched.

use crate::error::{Error, Result};
use serde_json::{Map, Value, json};

fn is_empty_str(v: Option<&Value>) -> bool {
    matches!(v, None | Some(Value::Null)) || v.and_then(Value::as_str) == Some("")
}

fn is_unset(v: Option<&Value>) -> bool {
    matches!(v, None | Some(Value::Null))
}

fn object<'a>(v: &'a mut Value, field: &str) -> Result<&'a mut Map<String, Value>> {
    if v.is_null() {
        *v = Value::Object(Map::new());
    }
    v.as_object_mut()
        .ok_or_else(|| Error::invalid_input(field, "expected an object"))
}

fn member<'a>(
    m: &'a mut Map<String, Value>,
    key: &str,
    field: &str,
) -> Result<&'a mut Map<String, Value>> {
    object(m.entry(key.to_string()).or_insert(Value::Null), field)
}

/// Applies the defaults to an AdvancedCronJob `spec` and returns it:
/// - ImageListPullJob template whose `completionPolicy.type` is empty: type `Always`, and
///   `pullPolicy.timeoutSeconds` 600, `pullPolicy.backoffLimit` 3, `imagePullPolicy`
///   `IfNotPresent` where unset;
/// - `concurrencyPolicy`: `Replace` with an ImageListPullJob template, else `Allow`;
/// - `paused` false; `successfulJobsHistoryLimit` 3; `failedJobsHistoryLimit` 1.
///
/// Errors: `invalid_input` when `spec` or a member it must fill is not an object.
pub fn defaults(spec: Value) -> Result<Value> {
    defaults_map(spec).map(Value::Object)
}

/// [`defaults`], answering the spec as the JSON object it always is.
pub fn defaults_map(mut spec: Value) -> Result<Map<String, Value>> {
    let s = object(&mut spec, "spec")?;
    let ilpj_present = s
        .get("template")
        .and_then(|t| t.get("imageListPullJobTemplate"))
        .is_some_and(|v| !v.is_null());
    if ilpj_present {
        let t = member(s, "template", "spec.template")?;
        let tpl = member(
            t,
            "imageListPullJobTemplate",
            "spec.template.imageListPullJobTemplate",
        )?;
        let ispec = member(tpl, "spec", "spec.template.imageListPullJobTemplate.spec")?;
        let ctype = ispec.get("completionPolicy").and_then(|c| c.get("type"));
        if is_empty_str(ctype) {
            let cp = member(
                ispec,
                "completionPolicy",
                "spec.template.imageListPullJobTemplate.spec.completionPolicy",
            )?;
            cp.insert("type".into(), json!("Always"));
            let pp = member(
                ispec,
                "pullPolicy",
                "spec.template.imageListPullJobTemplate.spec.pullPolicy",
            )?;
            if is_unset(pp.get("timeoutSeconds")) {
                pp.insert("timeoutSeconds".into(), json!(600));
            }
            if is_unset(pp.get("backoffLimit")) {
                pp.insert("backoffLimit".into(), json!(3));
            }
            if is_empty_str(ispec.get("imagePullPolicy")) {
                ispec.insert("imagePullPolicy".into(), json!("IfNotPresent"));
            }
        }
    }
    if is_empty_str(s.get("concurrencyPolicy")) {
        let p = if ilpj_present { "Replace" } else { "Allow" };
        s.insert("concurrencyPolicy".into(), json!(p));
    }
    if is_unset(s.get("paused")) {
        s.insert("paused".into(), json!(false));
    }
    if is_unset(s.get("successfulJobsHistoryLimit")) {
        s.insert("successfulJobsHistoryLimit".into(), json!(3));
    }
    if is_unset(s.get("failedJobsHistoryLimit")) {
        s.insert("failedJobsHistoryLimit".into(), json!(1));
    }
    Ok(std::mem::take(s))
}
