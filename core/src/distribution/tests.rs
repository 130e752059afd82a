use serde_json::{Value, json};

fn call(input: &Value) -> crate::error::Result<Value> {
    crate::call("distribution.targets", input)
}

fn rd(targets: Value) -> Value {
    json!({
        "metadata": {"name": "rd", "generation": 3},
        "spec": {"resource": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"a": "1"}},
                 "targets": targets}
    })
}

fn ns(name: &str, labels: Value) -> Value {
    json!({"metadata": {"name": name, "labels": labels}})
}

fn owned(ns: &str, data: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "data": data,
           "metadata": {"name": "cm", "namespace": ns, "ownerReferences": [
               {"apiVersion": "apps.kruise.io/v1alpha1", "kind": "ResourceDistribution", "name": "rd", "controller": true}]}})
}

#[test]
fn actions_per_namespace() {
    let input = json!({
        "resourceDistribution": rd(json!({"includedNamespaces": {"list": [{"name": "a"}, {"name": "gone"}]},
                                          "namespaceLabelSelector": {"matchLabels": {"team": "x"}},
                                          "excludedNamespaces": {"list": [{"name": "c"}]}})),
        "namespaces": [ns("a", json!({})), ns("b", json!({"team": "x"})), ns("c", json!({"team": "x"})), ns("d", json!({}))],
        "copies": [owned("b", json!({"a": "1"})), owned("c", json!({"a": "1"})), owned("a", json!({"a": "2"}))],
        "now": "2024-05-01T00:00:00Z"
    });
    let out = call(&input).unwrap();
    assert_eq!(out["matchedNamespaces"], json!(["a", "b", "gone"]));
    assert_eq!(out["unmatchedNamespaces"], json!(["c", "d"]));
    let actions: Vec<_> = out["namespaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        actions,
        [
            "update",
            "unchanged",
            "namespace_not_found",
            "delete",
            "none"
        ]
    );
    assert_eq!(out["status"]["desired"], 3);
    assert_eq!(out["status"]["succeeded"], 2);
    assert_eq!(out["status"]["observedGeneration"], 3);
    let not_exists = &out["status"]["conditions"][5];
    assert_eq!(not_exists["type"], "NamespaceNotExists");
    assert_eq!(not_exists["status"], "True");
    assert_eq!(not_exists["failedNamespace"], json!(["gone"]));
    assert_eq!(not_exists["lastTransitionTime"], "2024-05-01T00:00:00Z");
}

#[test]
fn conflict_when_another_owner() {
    let mut copy = owned("a", json!({"a": "1"}));
    copy["metadata"]["ownerReferences"][0]["apiVersion"] = json!("apps.kruise.io/v1beta1");
    let input = json!({
        "resourceDistribution": rd(json!({"allNamespaces": true})),
        "namespaces": [ns("a", json!({}))],
        "copies": [copy]
    });
    let out = call(&input).unwrap();
    assert_eq!(out["namespaces"][0]["action"], "conflict");
    assert_eq!(out["status"]["failed"], 1);
}

#[test]
fn typed_errors_name_the_field() {
    let mut input = json!({"resourceDistribution": rd(json!({})), "namespaces": []});
    input["resourceDistribution"]["spec"]["resource"] = json!({"apiVersion": "v1"});
    let e = call(&input).unwrap_err();
    assert_eq!(e.kind, "invalid_resource");
    assert_eq!(
        e.field.as_deref(),
        Some("resourceDistribution.spec.resource.kind")
    );
    let input = json!({"resourceDistribution": rd(json!({"namespaceLabelSelector": {"matchExpressions": [{"key": "k", "operator": "In"}]}})), "namespaces": []});
    assert_eq!(call(&input).unwrap_err().kind, "invalid_label_selector");
    let mut input = json!({"resourceDistribution": rd(json!({})), "namespaces": []});
    input["resourceDistribution"]["status"] =
        json!({"conditions": [{"type": "GetResourceFailed", "status": "False"}]});
    assert_eq!(call(&input).unwrap_err().kind, "invalid_status");
    let input = json!({"resourceDistribution": rd(json!({})), "namespaces": [ns("a", json!({})), ns("a", json!({}))]});
    assert_eq!(call(&input).unwrap_err().kind, "invalid_input");
}

mod validate {
    use crate::distribution::validate::{ValidateInput, validate};
    use serde_json::json;

    fn run(v: serde_json::Value) -> Vec<(String, &'static str, String)> {
        let i: ValidateInput = serde_json::from_value(v).unwrap();
        validate(&i)
            .unwrap()
            .errors
            .into_iter()
            .map(|e| (e.field, e.error_type, e.detail))
            .collect()
    }

    #[test]
    fn admits_a_secret_and_reports_each_problem_in_order() {
        let secret = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}});
        assert!(
            run(json!({"resourceDistribution": {"metadata": {"name": "rd"},
            "spec": {"resource": secret}}}))
            .is_empty()
        );
        let errs = run(
            json!({"resourceDistribution": {"metadata": {"name": "rd", "generateName": "x-"},
            "spec": {"resource": secret, "targets": {
                "includedNamespaces": {"list": [{"name": "a"}, {"name": "A"}]},
                "excludedNamespaces": {"list": [{"name": "a"}]}}}},
            "dryRunError": {"reason": "Invalid", "message": "bad"}}),
        );
        let fields: Vec<_> = errs.iter().map(|e| (e.0.as_str(), e.1)).collect();
        assert_eq!(
            fields,
            vec![
                ("spec.resource", "InternalError"),
                ("spec.targets.includedNamespaces", "FieldValueInvalid"),
                ("spec.targets", "FieldValueInvalid"),
            ]
        );
        assert_eq!(
            errs[0].2,
            "failed to dry-run to validate spec.resource, error: bad"
        );
        assert!(errs[2].2.contains("namespace [a] is in both"));
    }

    #[test]
    fn update_keeps_kind_and_name() {
        let old = json!({"metadata": {"name": "rd"}, "spec": {"resource":
            {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}}});
        let new = json!({"metadata": {"name": "rd"}, "spec": {"resource":
            {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "t"}}}});
        let errs = run(json!({"resourceDistribution": new, "oldResourceDistribution": old}));
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].2,
            "resource apiVersion, kind, and name are immutable"
        );
        let errs = run(
            json!({"resourceDistribution": {"metadata": {"name": "rd"}, "spec": {"resource":
            {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}}},
            "oldResourceDistribution": old}),
        );
        assert!(errs.is_empty());
    }

    #[test]
    fn dns_label_messages() {
        let errs = run(
            json!({"resourceDistribution": {"metadata": {"name": "rd"}, "spec": {
            "resource": {"apiVersion": "v1", "kind": "ConfigMap"},
            "targets": {"excludedNamespaces": {"list": [{"name": "a.b"}, {"name": "x".repeat(64)}]}}}}}),
        );
        let details: Vec<_> = errs.iter().map(|e| e.2.as_str()).collect();
        assert_eq!(
            details,
            vec![
                "must not contain dots",
                "must be no more than 63 characters"
            ]
        );
    }
}
