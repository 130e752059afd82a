//! The namespaces OpenKruise's pod webhooks never see: one rule for every pod-webhook decision.
//!
//! OpenKruise v1.9.0's pod handlers (`pkg/webhook/pod/mutating`, `pkg/webhook/pod/validating`)
//! have no namespace exclusion of their own (the `SidecarIgnoredNamespaces` list of
//! `pkg/control/sidecarcontrol/util.go` is commented out). The exclusion is the `namespaceSelector`
//! of the webhook configuration: the API server calls `mpod.kb.io` (mutating: SidecarSet
//! injection, WorkloadSpread, container launch priority) and `vpod.kb.io` /
//! `vpodeviction.kb.io` (validating: PodUnavailableBudget) only for pods in a namespace whose
//! labels that selector matches; elsewhere the request is admitted unchanged, as if the webhook
//! did not exist.
//!
//! - The Helm chart (openkruise/charts `versions/kruise/1.9.0-alpha.3/templates/webhookconfiguration.yaml`,
//!   the same for the three webhooks): `control-plane NotIn [openkruise]` and
//!   `kubernetes.io/metadata.name NotIn [kube-system]`, so `kube-system` and the namespace
//!   labelled `control-plane: openkruise` (kruise-system) are excluded.
//! - The kustomize manifests of the kruise repository (`config/webhook/patch_manifests.yaml`):
//!   `control-plane DoesNotExist` (any `control-plane` label excludes; `kube-system` does not).
//!
//! The selector is matched with apimachinery's rules against the namespace's labels plus
//! `kubernetes.io/metadata.name: <name>` (the API server sets it on every namespace since
//! Kubernetes 1.21). `{}` selects every namespace.

use super::selector::{LabelSelector, Requirement};
use super::selector_match::Selector;
use crate::error::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The label every namespace carries with its own name.
pub const LABEL_METADATA_NAME: &str = "kubernetes.io/metadata.name";

/// Error kind of a webhook selector that apimachinery's `LabelSelectorAsSelector` refuses (the
/// API server refuses such a webhook configuration).
pub const INVALID_LABEL_SELECTOR: &str = "invalid_label_selector";

/// The Helm chart's `namespaceSelector` of the pod webhooks.
pub fn helm_pod_webhook_selector() -> LabelSelector {
    let not_in = |key: &str, value: &str| Requirement {
        key: key.into(),
        operator: "NotIn".into(),
        values: Some(vec![value.into()]),
    };
    LabelSelector {
        match_labels: None,
        match_expressions: Some(vec![
            not_in("control-plane", "openkruise"),
            not_in(LABEL_METADATA_NAME, "kube-system"),
        ]),
    }
}

/// Whether the pod webhooks see a request in a namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The selector selects the namespace (or is `{}`): the webhook is called.
    Selected,
    /// The selector does not select it: the request is admitted without the webhook.
    Excluded,
    /// The selector needs the namespace's labels and no namespace was given.
    NotFound,
}

/// Applies the webhook `selector` (`None`: the Helm chart's) to the namespace `name` with
/// `labels` (`None`: no such namespace). Errors: `invalid_label_selector` naming
/// `<field>.<member>` for a selector apimachinery refuses.
pub fn verdict(
    selector: Option<&LabelSelector>,
    name: &str,
    labels: Option<&BTreeMap<String, String>>,
    field: &str,
) -> Result<Verdict> {
    let helm;
    let sel = match selector {
        Some(s) => s,
        None => {
            helm = helm_pod_webhook_selector();
            &helm
        }
    };
    let sel = Selector::from_option(Some(sel)).map_err(|e| {
        Error::at(
            INVALID_LABEL_SELECTOR,
            format!("{field}.{}", e.field),
            e.detail,
        )
    })?;
    if sel.is_everything() {
        return Ok(Verdict::Selected);
    }
    let Some(labels) = labels else {
        return Ok(Verdict::NotFound);
    };
    let mut l = labels.clone();
    l.insert(LABEL_METADATA_NAME.into(), name.into());
    Ok(if sel.matches(&l) {
        Verdict::Selected
    } else {
        Verdict::Excluded
    })
}

/// The optional `webhookNamespace` input member of the pod-webhook decisions (`pub.admit`,
/// `pub.admit_review`, `api.launch_priority`, `api.workloadspread_subset`): the request's
/// namespace and the webhook configuration's selector. Absent: the webhook is taken to be
/// called (the decision's behaviour without this rule).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookNamespace {
    /// The namespace's name (`metadata.name` of the Namespace). Required, not empty.
    pub name: String,
    /// The namespace's labels (`metadata.labels`); null or absent: none besides
    /// `kubernetes.io/metadata.name`, which is always taken to be `name`.
    #[serde(default, deserialize_with = "super::null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
    /// The webhook configuration's `namespaceSelector`; null or absent: the Helm chart's
    /// (`control-plane NotIn [openkruise]`, `kubernetes.io/metadata.name NotIn [kube-system]`).
    #[serde(default)]
    pub selector: Option<LabelSelector>,
}

impl WebhookNamespace {
    /// Whether the request is excluded from the pod webhooks (the webhook is not called).
    /// `field` names the member for errors: `invalid_input` (empty name),
    /// `invalid_label_selector` (a selector apimachinery refuses).
    pub fn excluded(&self, field: &str) -> Result<bool> {
        if self.name.is_empty() {
            return Err(Error::invalid_input(
                format!("{field}.name"),
                "the namespace name is required",
            ));
        }
        let v = verdict(
            self.selector.as_ref(),
            &self.name,
            Some(&self.labels),
            &format!("{field}.selector"),
        )?;
        Ok(v == Verdict::Excluded)
    }
}

/// [`WebhookNamespace::excluded`] for an optional member (`None`: not excluded).
pub fn excluded(ns: Option<&WebhookNamespace>, field: &str) -> Result<bool> {
    ns.map_or(Ok(false), |n| n.excluded(field))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ns(v: serde_json::Value) -> WebhookNamespace {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn helm_excludes_kube_system_and_kruise_system() {
        assert!(ns(json!({"name": "kube-system"})).excluded("w").unwrap());
        assert!(
            ns(json!({"name": "kruise-system", "labels": {"control-plane": "openkruise"}}))
                .excluded("w")
                .unwrap()
        );
        assert!(!ns(json!({"name": "default"})).excluded("w").unwrap());
        // a label other than openkruise does not exclude under the chart's selector
        assert!(
            !ns(json!({"name": "x", "labels": {"control-plane": "other"}}))
                .excluded("w")
                .unwrap()
        );
        // the metadata.name label is the name, whatever the labels say
        assert!(
            ns(json!({"name": "kube-system", "labels": {"kubernetes.io/metadata.name": "x"}}))
                .excluded("w")
                .unwrap()
        );
    }

    #[test]
    fn kustomize_selector_and_errors() {
        let kustomize =
            json!({"matchExpressions": [{"key": "control-plane", "operator": "DoesNotExist"}]});
        assert!(
            ns(json!({"name": "x", "labels": {"control-plane": "y"}, "selector": kustomize}))
                .excluded("w")
                .unwrap()
        );
        assert!(
            !ns(json!({"name": "kube-system", "selector": kustomize}))
                .excluded("w")
                .unwrap()
        );
        assert!(
            !ns(json!({"name": "kube-system", "selector": {}}))
                .excluded("w")
                .unwrap()
        );
        let e = ns(json!({"name": ""}))
            .excluded("webhookNamespace")
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("webhookNamespace.name"));
        let e = ns(json!({"name": "a", "selector": {"matchExpressions": [{"key": "k", "operator": "Bad"}]}}))
            .excluded("webhookNamespace")
            .unwrap_err();
        assert_eq!(e.kind, INVALID_LABEL_SELECTOR);
        assert!(excluded(None, "w").is_ok_and(|x| !x));
    }
}
