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

// ---- sidecarset.inject: error contract (the answers are covered by the vectors and goref) ----

fn inject_err(input: Value) -> (String, Option<String>) {
    let e = crate::call("sidecarset.inject", &input).unwrap_err();
    (e.kind.to_string(), e.field)
}

fn inject_base() -> Value {
    json!({
        "now": "2026-06-21T10:00:00Z",
        "pod": {"metadata": {"name": "p", "namespace": "demo", "labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": "app:1"}]}},
        "namespace": {"metadata": {"name": "demo"}},
        "sidecarSets": [{"metadata": {"name": "s"}, "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "containers": [{"name": "agent", "image": "agent:1"}]}}]
    })
}

#[test]
fn inject_errors_name_the_field() {
    let mut i = inject_base();
    i["now"] = json!("yesterday");
    assert_eq!(inject_err(i), ("invalid_input".into(), Some("now".into())));

    let mut i = inject_base();
    i["sidecarSets"][0]["spec"]["containers"][0]["env"] = json!("x");
    assert_eq!(
        inject_err(i),
        (
            "invalid_input".into(),
            Some("sidecarSets[0].spec.containers[0].env".into())
        )
    );

    let mut i = inject_base();
    i["sidecarSets"][0]["spec"]["selector"] =
        json!({"matchExpressions": [{"key": "app", "operator": "Bad"}]});
    let (kind, field) = inject_err(i);
    assert_eq!(kind, "invalid_label_selector");
    assert!(field.unwrap().starts_with("sidecarSets[0].spec.selector"));

    let mut i = inject_base();
    i["pod"]["metadata"]["annotations"] = json!({"kruise.io/sidecarset-hash": "[1]"});
    assert_eq!(
        inject_err(i),
        (
            "invalid_annotation".into(),
            Some("pod.metadata.annotations[\"kruise.io/sidecarset-hash\"]".into())
        )
    );

    let mut i = inject_base();
    i["sidecarSets"][0]["spec"]["patchPodMetadata"] =
        json!([{"annotations": {"a": "{}"}, "patchPolicy": "MergePatchJson"}]);
    assert_eq!(
        inject_err(i),
        (
            "unsupported".into(),
            Some("sidecarSets[0].spec.patchPodMetadata[0].patchPolicy".into())
        )
    );

    let mut i = inject_base();
    i["sidecarSets"][0]["spec"]["containers"][0]["resourcesPolicy"] =
        json!({"targetContainersMode": "sum", "resourcesExpr": {"requests": {"cpu": "cpu *"}}});
    let (kind, field) = inject_err(i);
    assert_eq!(kind, "syntax_error");
    assert_eq!(
        field.as_deref(),
        Some("sidecarSets[0].spec.containers[0].resourcesPolicy.resourcesExpr.requests.cpu")
    );
}

#[test]
fn inject_leaves_unmatched_pods_alone() {
    let mut i = inject_base();
    i["pod"]["metadata"]["labels"] = json!({"app": "db"});
    let out = crate::call("sidecarset.inject", &i).unwrap();
    assert_eq!(out["changed"], json!(false));
    assert_eq!(out["pod"], i["pod"]);
}

#[test]
fn subpath_expr_variables() {
    use super::inject::subpath_env_names;
    assert_eq!(subpath_env_names("foo/$(A)/$(POD_NAME)"), ["A", "POD_NAME"]);
    assert_eq!(subpath_env_names("$(-._x9)$(9X)$(A"), ["-._x9"]);
    assert!(subpath_env_names("$()").is_empty());
}
