//! Conversion in the demo and `kruise-core convert`.
//!
//! `convert FILE --to apps.kruise.io/v1beta1` reads JSON or YAML (several documents and kubectl
//! `List`s too), converts every apps.kruise.io object with `api.convert` and prints the result in
//! the input's format. In a `List` or with several documents, those the webhook would never
//! convert (other API groups, kinds without conversion, objects already at the target version) are
//! passed through unchanged, each noted on stderr (`note: items[2] v1/Service s: skipped, ...`), and
//! the command exits 0; a single document is converted or fails with the core's error (exit 1).

use super::{ConvertArgs, DemoArgs};
use crate::CliError;
use crate::input::{is_json, parse_documents};
use kruise_core::api::convert::{
    SAME_VERSION, UNSUPPORTED_KIND, UNSUPPORTED_VERSION, V1BETA1, convert as convert_one,
};
use serde_json::Value;
use std::fmt::Write as _;

const SIDECARSET: &str = include_str!("../../examples/api/sidecarset.yaml");
const DAEMONSET: &str = include_str!("../../examples/api/daemonset.yaml");

/// Errors that mean "this document is not for the conversion webhook" (pass-through in batches).
fn not_convertible(e: &kruise_core::Error) -> bool {
    e.kind == SAME_VERSION
        || e.kind == UNSUPPORTED_KIND
        || (e.kind == UNSUPPORTED_VERSION && e.field.as_deref() == Some("object.apiVersion"))
}

/// `apiVersion/kind name` of a document, for notes.
fn describe(doc: &Value) -> String {
    let s = |k: &str| doc.get(k).and_then(Value::as_str).unwrap_or("");
    let name = doc
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    format!("{}/{} {name}", s("apiVersion"), s("kind")).replace("//", "/")
}

/// Converts one document; `lenient` (`Some(label)`: an item of a List or of several documents)
/// passes a document the webhook would not convert through, noting it on stderr.
fn convert_doc(doc: Value, to: &str, lenient: Option<&str>) -> Result<Value, CliError> {
    if let Value::Object(m) = &doc
        && m.get("kind").and_then(Value::as_str) == Some("List")
        && let Some(Value::Array(items)) = m.get("items")
    {
        let prefix = lenient.map_or(String::new(), |l| format!("{l}."));
        let items = items
            .iter()
            .enumerate()
            .map(|(i, item)| convert_doc(item.clone(), to, Some(&format!("{prefix}items[{i}]"))))
            .collect::<Result<Vec<_>, _>>()?;
        let mut m = m.clone();
        m.insert("items".into(), Value::Array(items));
        return Ok(Value::Object(m));
    }
    match convert_one(&doc, to) {
        Ok(v) => Ok(v),
        Err(e) if not_convertible(&e) && lenient.is_some() => {
            let label = lenient.unwrap_or_default();
            eprintln!(
                "note: {label} {}: skipped, passed through unchanged ({}: {})",
                describe(&doc),
                e.kind,
                e.message
            );
            Ok(doc)
        }
        Err(e) => Err(match lenient {
            Some(label) => kruise_core::pub_budget::review::reroot(e, label).into(),
            None => e.into(),
        }),
    }
}

fn yaml(docs: &[Value]) -> Result<String, CliError> {
    serde_saphyr::to_string_multiple(docs)
        .map_err(|e| CliError::Usage(format!("cannot print YAML: {e}")))
}

/// Converts a manifest text to `to`; output in the same format (JSON pretty-printed, YAML with one
/// document per input document).
pub fn convert_text(text: &str, to: &str) -> Result<String, CliError> {
    let docs = parse_documents(text)?;
    let several = docs.len() > 1;
    let out = docs
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            let label = format!("document[{i}]");
            convert_doc(d, to, several.then_some(label.as_str()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if is_json(text) {
        let mut s = serde_json::to_string_pretty(out.first().unwrap_or(&Value::Null))
            .map_err(|e| CliError::Usage(format!("cannot print JSON: {e}")))?;
        s.push('\n');
        Ok(s)
    } else {
        yaml(&out)
    }
}

/// `kruise-core convert`.
pub fn convert(args: &ConvertArgs) -> Result<String, CliError> {
    let text = crate::input::read_text(args.manifest())?;
    convert_text(&text, &args.to)
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

fn server_version_line(out: &mut String, version: &str) -> Result<(), CliError> {
    let v = kruise_core::call("compat.server_version", &Value::String(version.to_owned()))?;
    let f = &v["features"];
    let stage = |k: &str| f[k]["stage"].as_str().unwrap_or("?").to_owned();
    let _ = writeln!(
        out,
        "  {version:<24} -> {} (provider {:?}): resize subresource {}, native sidecars {}, in-place VPA {}",
        v["version"]["normalized"].as_str().unwrap_or("?"),
        v["version"]["provider"].as_str().unwrap_or(""),
        f["resizeSubresource"],
        stage("nativeSidecarContainers"),
        stage("inPlacePodVerticalScaling"),
    );
    Ok(())
}

fn upgrade_line(
    out: &mut String,
    from: &str,
    to: &str,
    k8s: &str,
    daemon_off: bool,
) -> Result<(), CliError> {
    let input = serde_json::json!({"from": from, "to": to, "kubernetes": k8s, "kruiseDaemonDisabled": daemon_off});
    let v = kruise_core::call("compat.kruise_upgrade", &input)?;
    let why: Vec<&str> = v["blockers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["code"].as_str())
        .collect();
    let daemon = if daemon_off {
        ", KruiseDaemon=false"
    } else {
        ""
    };
    let verdict = if v["allowed"] == Value::Bool(true) {
        "allowed".to_owned()
    } else {
        format!("refused: {}", why.join(", "))
    };
    let _ = writeln!(
        out,
        "  OpenKruise {from} -> {to} on Kubernetes {k8s}{daemon}: {verdict}"
    );
    Ok(())
}

/// Demo section: converts the seed's v1alpha1 SidecarSet and Advanced DaemonSet to v1beta1 and
/// shows compat decisions for a few cloud version strings.
pub fn demo(args: &DemoArgs) -> Result<String, CliError> {
    let sidecarset = match &args.sidecarset {
        Some(p) => crate::input::read_text(p)?,
        None => SIDECARSET.to_owned(),
    };
    let mut out = String::new();
    for (title, text) in [
        ("SidecarSet (seed 000)", sidecarset.as_str()),
        ("Advanced DaemonSet (seed 000)", DAEMONSET),
    ] {
        let _ = writeln!(out, "{title}, v1alpha1 -> {V1BETA1}:");
        out.push_str(&indent(&convert_text(text, V1BETA1)?));
    }
    out.push_str("Kubernetes /version strings (compat.server_version):\n");
    for v in [
        "v1.32.3-eks-4096722",
        "v1.33.2-gke.1240000",
        "v1.28+",
        "v1.29.7",
        "v1.30.2+k3s1",
    ] {
        server_version_line(&mut out, v)?;
    }
    out.push_str("Upgrade rules (compat.kruise_upgrade, seed 001):\n");
    upgrade_line(&mut out, "v1.3.0", "v1.6.0", "v1.28.3-eks-4096722", false)?;
    upgrade_line(&mut out, "v1.5.0", "v1.6.0", "v1.17.17", false)?;
    upgrade_line(&mut out, "v1.5.0", "v1.6.0", "v1.17.17", true)?;
    upgrade_line(&mut out, "v1.8.0", "v1.9.0", "v1.33.2-gke.1240000", false)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_sidecarset_gets_selector_and_custom_version() {
        let out = convert_text(SIDECARSET, V1BETA1).unwrap();
        let v: Value = serde_saphyr::from_str(&out).unwrap();
        assert_eq!(v["apiVersion"], V1BETA1);
        assert_eq!(v["spec"]["customVersion"], "v1");
        assert_eq!(
            v["spec"]["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"],
            "default"
        );
        assert!(v["metadata"].get("labels").is_none());
    }

    #[test]
    fn seed_daemonset_gets_scale_strategy() {
        let out = convert_text(DAEMONSET, V1BETA1).unwrap();
        let v: Value = serde_saphyr::from_str(&out).unwrap();
        assert_eq!(v["spec"]["scaleStrategy"]["partitionedScaling"], true);
        assert_eq!(
            v["spec"]["updateStrategy"]["rollingUpdate"]["rollingUpdateType"],
            "Standard"
        );
        assert_eq!(
            v["spec"]["updateStrategy"]["rollingUpdate"]["partition"],
            "50%"
        );
        assert_eq!(v["status"]["updateRevision"], "log-agent-6d4f8b");
    }

    #[test]
    fn multi_document_yaml_passes_foreign_documents_through() {
        let text =
            format!("{DAEMONSET}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n");
        let out = convert_text(&text, V1BETA1).unwrap();
        let docs: Vec<Value> = serde_saphyr::from_multiple(&out).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0]["apiVersion"], V1BETA1);
        assert_eq!(docs[1]["kind"], "Service");
    }

    #[test]
    fn json_in_json_out_and_single_doc_errors() {
        let out = convert_text(r#"{"apiVersion":"apps.kruise.io/v1beta1","kind":"BroadcastJob","spec":{"paused":true}}"#, "apps.kruise.io/v1alpha1").unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["apiVersion"], "apps.kruise.io/v1alpha1");
        let e = convert_text(
            "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\n",
            V1BETA1,
        )
        .unwrap_err();
        assert!(matches!(e, CliError::Decision(ref e) if e.kind == UNSUPPORTED_KIND));
    }
}
