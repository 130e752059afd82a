//! Whether a SidecarSet applies to a pod at injection: the pod mutating webhook's path in
//! OpenKruise v1.9.0, from the API server's call to `PodMatchedSidecarSet`.
//!
//! The steps, in the order they decide (the first that says no is the `reason`):
//! 1. the API server calls the pod webhook (`mpod.kb.io`) only for pods whose namespace matches the
//!    webhook configuration's `namespaceSelector` (an input here, defaulting to the Helm chart's);
//! 2. `sidecarsetMutatingPod` (`pkg/webhook/pod/mutating/sidecarset.go`) skips pods that are not
//!    active (`sidecarcontrol.IsActivePod` = kube `IsPodActive`);
//! 3. it lists the SidecarSets whose `namespace` field index (`fieldindex.IndexSidecarSetV1Beta1`)
//!    is the pod's namespace or `clusterScope`;
//! 4. it skips paused SidecarSets (`spec.injectionStrategy.paused`);
//! 5. `sidecarcontrol.PodMatchedSidecarSet` (`pkg/control/sidecarcontrol/util.go`): a non-nil
//!    `namespaceSelector` must match the namespace's labels (`IsSelectorNamespace`), then
//!    `selector` must be neither nil nor empty and match the pod's labels.

use super::pod::MatchPod;
use crate::error::{Error, Result};
use crate::k8s::null_as_default;
use crate::k8s::selector::LabelSelector;
use crate::k8s::selector_match::Selector;
use crate::k8s::webhook_namespace::{self, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Error kind of a selector that apimachinery's `LabelSelectorAsSelector` refuses.
pub use crate::k8s::webhook_namespace::INVALID_LABEL_SELECTOR;

/// The label every namespace carries with its own name (set by the API server since Kubernetes
/// 1.21), which SidecarSet namespace selectors and the field index use.
pub use crate::k8s::webhook_namespace::LABEL_METADATA_NAME;

/// The field-index value of a SidecarSet that names no namespace (`IndexValueSidecarSetClusterScope`).
pub const CLUSTER_SCOPE: &str = "clusterScope";

/// `apps.kruise.io/v1alpha1`, whose SidecarSet still has `spec.namespace`.
pub const V1ALPHA1: &str = "apps.kruise.io/v1alpha1";

/// `sidecarset.match` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MatchInput {
    /// The pod being created or updated (a whole Pod may be passed). An empty
    /// `metadata.namespace` is read as `default`, as the webhook does.
    pub pod: MatchPod,
    /// The pod's Namespace object (a whole Namespace may be passed; `metadata.labels` is read).
    /// Its `kubernetes.io/metadata.name` label is taken to be its name, as the API server stores
    /// every namespace. Null or absent: the namespace does not exist. When `metadata.name` is
    /// given it must be the pod's namespace.
    #[serde(default)]
    pub namespace: Option<NamespaceObject>,
    /// The SidecarSet (apps.kruise.io/v1beta1; a v1alpha1 object's `spec.namespace` is converted
    /// as the API server's conversion does: it replaces `namespaceSelector` by
    /// `{matchLabels: {kubernetes.io/metadata.name: <namespace>}}`).
    pub sidecar_set: SidecarSetObject,
    /// The `namespaceSelector` of the pod webhook `mpod.kb.io` in the
    /// MutatingWebhookConfiguration. Null or absent: the Helm chart's (OpenKruise charts
    /// `versions/kruise/1.9.0-alpha.3/templates/webhookconfiguration.yaml`): `control-plane NotIn
    /// [openkruise]` and `kubernetes.io/metadata.name NotIn [kube-system]`. The kustomize
    /// manifests of the kruise repository (`config/webhook/patch_manifests.yaml`) use
    /// `control-plane DoesNotExist`; `{}` selects every namespace.
    #[serde(default)]
    pub webhook_namespace_selector: Option<LabelSelector>,
}

/// A Namespace object: the shared [`crate::k8s::namespace::Namespace`] (read here: `metadata.name` (null, absent or `""`: the pod's namespace) and `labels` (besides `kubernetes.io/metadata.name`)).
pub use crate::k8s::namespace::Namespace as NamespaceObject;
/// Namespace `metadata`: the shared [`crate::k8s::meta::ObjectMeta`].
pub type NamespaceMeta = crate::k8s::meta::ObjectMeta;

/// A SidecarSet object, reduced to the members matching reads.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarSetObject {
    /// `apiVersion`: `apps.kruise.io/v1alpha1` converts `spec.namespace`; anything else (or
    /// absent) is read as v1beta1, where `spec.namespace` does not exist and is ignored.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub api_version: String,
    /// `spec`; absent or null: the zero spec (nil selector: matches no pod).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<SidecarSetSpec>")]
    pub spec: SidecarSetSpec,
}

/// SidecarSet `spec` members matching reads; others are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarSetSpec {
    /// `spec.selector`: the pods to inject. Null or absent (Go nil): matches no pod; `{}`: the
    /// empty selector, which the webhook also treats as matching no pod.
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    /// `spec.namespaceSelector`: the namespaces whose pods it injects, matched against the
    /// Namespace's labels. Null or absent: every namespace; `{}`: every existing namespace.
    #[serde(default)]
    pub namespace_selector: Option<LabelSelector>,
    /// `spec.namespace` (v1alpha1 only, see `apiVersion`); null or absent: `""` (none).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub namespace: String,
    /// `spec.injectionStrategy`; absent or null: not paused.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<InjectionStrategy>")]
    pub injection_strategy: InjectionStrategy,
}

/// SidecarSet `spec.injectionStrategy` members read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InjectionStrategy {
    /// `paused`: a paused SidecarSet injects nothing; null or absent: false.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub paused: bool,
}

/// Which rule decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchReason {
    /// Every rule passed: the SidecarSet is injected into the pod.
    Matched,
    /// The pod's namespace does not match the webhook configuration's `namespaceSelector`: the
    /// API server does not call the pod webhook.
    WebhookNamespaceExcluded,
    /// The namespace does not exist (and a namespace selector had to be matched).
    NamespaceNotFound,
    /// The pod is not active (`Succeeded`, `Failed` or terminating).
    PodInactive,
    /// The SidecarSet's namespace index names other namespaces: the webhook does not list it.
    NotListed,
    /// `spec.injectionStrategy.paused`.
    Paused,
    /// `spec.namespaceSelector` does not match the namespace's labels.
    NamespaceSelectorMismatch,
    /// `spec.selector` is absent (Go nil): it selects no pod.
    SelectorAbsent,
    /// `spec.selector` is empty: the webhook injects no pod for it.
    SelectorEmpty,
    /// `spec.selector` does not match the pod's labels.
    SelectorMismatch,
}

/// `sidecarset.match` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchOutput {
    /// Whether the SidecarSet applies to the pod.
    pub matched: bool,
    /// The rule that decided.
    pub reason: MatchReason,
}

/// The Helm chart's webhook namespace selector (see [`MatchInput::webhook_namespace_selector`]);
/// the rule lives in [`crate::k8s::webhook_namespace`].
pub fn helm_webhook_namespace_selector() -> LabelSelector {
    crate::k8s::webhook_namespace::helm_pod_webhook_selector()
}

/// Converts `sel` as `LabelSelectorAsSelector` does, or the typed error naming `field`.
fn compile<'a>(sel: Option<&'a LabelSelector>, field: &str) -> Result<Selector<'a>> {
    Selector::from_option(sel).map_err(|e| {
        Error::at(
            INVALID_LABEL_SELECTOR,
            format!("{field}.{}", e.field),
            e.detail,
        )
    })
}

/// `fieldindex.IndexSidecarSetV1Beta1`: the namespaces the webhook lists a SidecarSet under.
pub fn index_values(namespace_selector: Option<&LabelSelector>) -> Vec<&str> {
    if let Some(ns) = namespace_selector {
        if let Some(v) = ns
            .match_labels
            .as_ref()
            .and_then(|m| m.get(LABEL_METADATA_NAME))
        {
            return vec![v.as_str()];
        }
        if let Some(r) = ns
            .match_expressions
            .iter()
            .flatten()
            .find(|r| r.key == LABEL_METADATA_NAME && r.operator == "In")
        {
            return r.values.iter().flatten().map(String::as_str).collect();
        }
    }
    vec![CLUSTER_SCOPE]
}

/// Decides `sidecarset.match`. Errors: `invalid_label_selector` naming the first selector
/// (webhook, SidecarSet namespace selector, SidecarSet selector) that apimachinery refuses, and
/// `invalid_input` for a namespace object that is not the pod's.
pub fn matches(input: &MatchInput) -> Result<MatchOutput> {
    let pod_ns = match input.pod.metadata.namespace.as_str() {
        "" => "default",
        ns => ns,
    };
    if let Some(ns) = &input.namespace
        && !ns.metadata.name.is_empty()
        && ns.metadata.name != pod_ns
    {
        return Err(Error::invalid_input(
            "namespace.metadata.name",
            format!(
                "{:?} is not the pod's namespace {pod_ns:?}",
                ns.metadata.name
            ),
        ));
    }
    let spec = &input.sidecar_set.spec;
    let from_namespace = input.sidecar_set.api_version == V1ALPHA1 && !spec.namespace.is_empty();
    let converted = from_namespace.then(|| LabelSelector {
        match_labels: Some(BTreeMap::from([(
            LABEL_METADATA_NAME.to_string(),
            spec.namespace.clone(),
        )])),
        match_expressions: None,
    });
    let namespace_selector = if from_namespace {
        converted.as_ref()
    } else {
        spec.namespace_selector.as_ref()
    };
    let webhook = webhook_namespace::verdict(
        input.webhook_namespace_selector.as_ref(),
        pod_ns,
        input.namespace.as_ref().map(|ns| &ns.metadata.labels),
        "webhookNamespaceSelector",
    )?;
    let ns_sel = match namespace_selector {
        None => None,
        Some(s) if from_namespace => Some(Selector::from_option(Some(s)).map_err(|e| {
            Error::at(
                INVALID_LABEL_SELECTOR,
                "sidecarSet.spec.namespace",
                e.detail,
            )
        })?),
        Some(s) => Some(compile(Some(s), "sidecarSet.spec.namespaceSelector")?),
    };
    let selector = compile(spec.selector.as_ref(), "sidecarSet.spec.selector")?;

    let labels = input.namespace.as_ref().map(|ns| {
        let mut l = ns.metadata.labels.clone();
        l.insert(LABEL_METADATA_NAME.into(), pod_ns.into());
        l
    });
    let done = |reason| {
        Ok(MatchOutput {
            matched: reason == MatchReason::Matched,
            reason,
        })
    };
    // 1. The API server's webhook namespace selector (an empty one selects without a lookup).
    match webhook {
        Verdict::Selected => {}
        Verdict::Excluded => return done(MatchReason::WebhookNamespaceExcluded),
        Verdict::NotFound => return done(MatchReason::NamespaceNotFound),
    }
    // 2. Inactive pods are not injected.
    if !input.pod.is_active() {
        return done(MatchReason::PodInactive);
    }
    // 3. The webhook lists SidecarSets by their namespace index.
    let index = index_values(namespace_selector);
    if !index.iter().any(|v| *v == pod_ns || *v == CLUSTER_SCOPE) {
        return done(MatchReason::NotListed);
    }
    // 4. Paused SidecarSets are skipped.
    if spec.injection_strategy.paused {
        return done(MatchReason::Paused);
    }
    // 5. PodMatchedSidecarSet.
    if let Some(ns_sel) = ns_sel {
        match &labels {
            None => return done(MatchReason::NamespaceNotFound),
            Some(l) if !ns_sel.matches(l) => return done(MatchReason::NamespaceSelectorMismatch),
            Some(_) => {}
        }
    }
    done(match selector {
        Selector::Nothing => MatchReason::SelectorAbsent,
        Selector::Everything => MatchReason::SelectorEmpty,
        s if !s.matches(&input.pod.metadata.labels) => MatchReason::SelectorMismatch,
        _ => MatchReason::Matched,
    })
}
