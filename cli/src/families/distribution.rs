//! `kruise-core demo`: the ResourceDistribution section (`distribution.targets`, then the
//! validating webhook `distribution.validate` on the seed and on a bad update of it).

use super::DemoArgs;
use crate::CliError;
use crate::input;
use serde_json::{Value, json};

const SEED: &str = include_str!("../../examples/distribution/resourcedistribution.yaml");

/// The demo: the seed distribution over five namespaces, with an old copy and a foreign one.
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    let rd = input::parse_one(SEED, "cli/examples/distribution/resourcedistribution.yaml")?;
    let ns = |name: &str, labels: Value| json!({"metadata": {"name": name, "labels": labels}});
    let copy = |namespace: &str, owner: &str, data: &str| {
        json!({"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/dockerconfigjson",
               "data": {".dockerconfigjson": data},
               "metadata": {"name": "registry-secret", "namespace": namespace, "ownerReferences": [
                   {"apiVersion": "apps.kruise.io/v1alpha1", "kind": owner, "name": "registry-secret", "controller": true}]}})
    };
    let input = json!({
        "resourceDistribution": rd,
        "namespaces": [ns("web-prod", json!({"team": "web"})), ns("web-dev", json!({"team": "web"})),
                       ns("sandbox", json!({"team": "web"})), ns("tools", json!({})), ns("legacy", json!({}))],
        "copies": [copy("web-prod", "ResourceDistribution", "b2xk"), copy("tools", "SecretSync", "eyJhdXRocyI6e319"),
                   copy("legacy", "ResourceDistribution", "eyJhdXRocyI6e319")],
        "now": "2026-06-21T10:00:00Z"
    });
    let out = kruise_core::call("distribution.targets", &input)?;
    let mut text = String::from(
        "registry-secret: team=web namespaces plus tools and billing, never sandbox; web-prod holds an\n\
         old copy, tools one made by another tool, legacy one left from an earlier target list.\n",
    );
    let list = |k: &str| {
        out[k]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    text.push_str(&format!("  matched:   {}\n", list("matchedNamespaces")));
    text.push_str(&format!("  unmatched: {}\n", list("unmatchedNamespaces")));
    for a in out["namespaces"].as_array().into_iter().flatten() {
        text.push_str(&format!(
            "  {:<10} {}\n",
            a["namespace"].as_str().unwrap_or(""),
            a["action"].as_str().unwrap_or("")
        ));
    }
    let st = &out["status"];
    text.push_str(&format!(
        "  status: desired {}, succeeded {}, failed {}\n",
        st["desired"], st["succeeded"], st["failed"]
    ));
    for c in st["conditions"].as_array().into_iter().flatten() {
        if c["status"] == "True" {
            let failed: Vec<&str> = c["failedNamespace"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            text.push_str(&format!(
                "  condition {}: {} ({})\n",
                c["type"].as_str().unwrap_or(""),
                failed.join(", "),
                c["reason"].as_str().unwrap_or("")
            ));
        }
    }
    validate_story(&rd, &mut text)?;
    Ok(text)
}

/// One admission answer as a line per field error.
fn show_admission(text: &mut String, what: &str, out: &Value) {
    text.push_str(&format!(
        "  {what}: {} ({})\n",
        if out["allowed"] == true {
            "allowed"
        } else {
            "DENIED"
        },
        out["code"]
    ));
    for e in out["errors"].as_array().into_iter().flatten() {
        text.push_str(&format!(
            "    {} [{}]: {}\n",
            e["field"].as_str().unwrap_or(""),
            e["type"].as_str().unwrap_or(""),
            e["detail"].as_str().unwrap_or("")
        ));
    }
}

/// The webhook (`distribution.validate`): the seed on create, then an update that renames the
/// distributed Secret and also includes the excluded `sandbox`.
fn validate_story(rd: &Value, text: &mut String) -> Result<(), CliError> {
    text.push_str("Validating webhook (distribution.validate):\n");
    let out = kruise_core::call(
        "distribution.validate",
        &json!({"resourceDistribution": rd}),
    )?;
    show_admission(text, "create as written", &out);
    let mut bad = rd.clone();
    bad["spec"]["resource"]["metadata"]["name"] = json!("registry-secret-v2");
    if let Some(list) = bad["spec"]["targets"]["includedNamespaces"]["list"].as_array_mut() {
        list.push(json!({"name": "sandbox"}));
        list.push(json!({"name": "Team_B"}));
    }
    let out = kruise_core::call(
        "distribution.validate",
        &json!({"resourceDistribution": bad, "oldResourceDistribution": rd}),
    )?;
    show_admission(
        text,
        "update renaming the Secret, including sandbox and Team_B",
        &out,
    );
    Ok(())
}
