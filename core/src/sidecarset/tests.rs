use serde_json::{Value, json};

fn call(input: Value) -> Value {
    crate::call("sidecarset.match", &input).unwrap()
}

fn reason(input: Value) -> String {
    call(input)["reason"].as_str().unwrap().to_string()
}

fn pod(ns: &str, labels: Value) -> Value {
    json!({"metadata": {"name": "p", "namespace": ns, "labels": labels}, "status": {"phase": "Running"}})
}

#[test]
fn rules_in_order() {
    let scs = json!({"spec": {"selector": {"matchLabels": {"app": "web"}}}});
    let ns = |n: &str, l: Value| json!({"metadata": {"name": n, "labels": l}});
    let base = json!({"pod": pod("demo", json!({"app": "web"})), "namespace": ns("demo", json!({})), "sidecarSet": scs});
    assert_eq!(
        call(base.clone()),
        json!({"matched": true, "reason": "matched"})
    );
    // kube-system is excluded by the Helm chart's webhook selector, not by an explicit {}.
    let mut ks = base.clone();
    ks["pod"] = pod("kube-system", json!({"app": "web"}));
    ks["namespace"] = ns("kube-system", json!({}));
    assert_eq!(reason(ks.clone()), "webhook_namespace_excluded");
    ks["webhookNamespaceSelector"] = json!({});
    assert_eq!(reason(ks.clone()), "matched");
    // the kustomize selector excludes any control-plane label, the chart only "openkruise".
    let mut cp = base.clone();
    cp["namespace"] = ns("demo", json!({"control-plane": "x"}));
    assert_eq!(reason(cp.clone()), "matched");
    cp["webhookNamespaceSelector"] =
        json!({"matchExpressions": [{"key": "control-plane", "operator": "DoesNotExist"}]});
    assert_eq!(reason(cp), "webhook_namespace_excluded");
    let mut gone = base.clone();
    gone["namespace"] = Value::Null;
    assert_eq!(reason(gone.clone()), "namespace_not_found");
    gone["webhookNamespaceSelector"] = json!({});
    assert_eq!(reason(gone), "matched");
    let mut done = base.clone();
    done["pod"]["status"]["phase"] = json!("Succeeded");
    assert_eq!(reason(done), "pod_inactive");
    let mut term = base.clone();
    term["pod"]["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
    assert_eq!(reason(term), "pod_inactive");
    let mut other = base.clone();
    other["sidecarSet"]["spec"]["namespaceSelector"] =
        json!({"matchLabels": {"kubernetes.io/metadata.name": "prod"}});
    assert_eq!(reason(other.clone()), "not_listed");
    other["sidecarSet"]["spec"]["namespaceSelector"] = json!({"matchLabels": {"env": "prod"}});
    assert_eq!(reason(other.clone()), "namespace_selector_mismatch");
    other["namespace"]["metadata"]["labels"] = json!({"env": "prod"});
    assert_eq!(reason(other), "matched");
    let mut paused = base.clone();
    paused["sidecarSet"]["spec"]["injectionStrategy"] = json!({"paused": true});
    assert_eq!(reason(paused), "paused");
    let mut sel = base.clone();
    sel["sidecarSet"]["spec"]["selector"] = Value::Null;
    assert_eq!(reason(sel.clone()), "selector_absent");
    sel["sidecarSet"]["spec"]["selector"] = json!({});
    assert_eq!(reason(sel.clone()), "selector_empty");
    sel["sidecarSet"]["spec"]["selector"] = json!({"matchLabels": {"app": "db"}});
    assert_eq!(
        call(sel),
        json!({"matched": false, "reason": "selector_mismatch"})
    );
}

#[test]
fn v1alpha1_namespace_and_default_namespace() {
    let input = json!({"pod": pod("", json!({"app": "web"})), "namespace": {"metadata": {"labels": {}}},
        "sidecarSet": {"apiVersion": "apps.kruise.io/v1alpha1", "spec": {"namespace": "default",
        "selector": {"matchLabels": {"app": "web"}}}}});
    assert_eq!(reason(input.clone()), "matched");
    let mut other = input.clone();
    other["sidecarSet"]["spec"]["namespace"] = json!("prod");
    assert_eq!(reason(other.clone()), "not_listed");
    // v1beta1 has no spec.namespace.
    other["sidecarSet"]["apiVersion"] = json!("apps.kruise.io/v1beta1");
    assert_eq!(reason(other), "matched");
}

#[test]
fn errors_name_the_field() {
    let bad = json!({"pod": pod("demo", json!({})), "namespace": {"metadata": {"name": "demo"}},
        "sidecarSet": {"spec": {"selector": {"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]}}}});
    let e = crate::call("sidecarset.match", &bad).unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        (
            "invalid_label_selector",
            Some("sidecarSet.spec.selector.matchExpressions[0].operator")
        )
    );
    let mut ns = bad.clone();
    ns["sidecarSet"]["spec"] =
        json!({"namespaceSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]}});
    let e = crate::call("sidecarset.match", &ns).unwrap_err();
    assert_eq!(
        e.field.as_deref(),
        Some("sidecarSet.spec.namespaceSelector.matchExpressions[0].values")
    );
    let mut wrong = bad.clone();
    wrong["sidecarSet"]["spec"] = json!({});
    wrong["namespace"]["metadata"]["name"] = json!("other");
    let e = crate::call("sidecarset.match", &wrong).unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        ("invalid_input", Some("namespace.metadata.name"))
    );
    let e = crate::call("sidecarset.match", &json!({"pod": [], "sidecarSet": {}})).unwrap_err();
    assert_eq!((e.kind, e.field.as_deref()), ("invalid_input", Some("pod")));
}
