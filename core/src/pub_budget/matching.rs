//! Which PodUnavailableBudget protects a pod, and which pods a PUB covers (OpenKruise v1.9.0).
//!
//! - Pod -> PUB: `GetPubForPod` (`pkg/controller/podunavailablebudget/pub_pod_event_handler.go`),
//!   which the pod mutating webhook calls to write the pod's `kruise.io/related-pub` annotation
//!   (`pkg/webhook/pod/mutating/pod_unavailable_budget.go`). It resolves the pod's controller
//!   reference to its workload (`controllerfinder.GetScaleAndSelectorForRef`), lists the PUBs of
//!   the pod's namespace and takes the first that either has a `targetRef` naming that workload
//!   (same API group, kind and name: `pubcontrol.IsReferenceEqual`; used only when the workload
//!   was resolved) or else has a selector that is neither nil nor empty and matches the pod's
//!   labels.
//! - PUB -> pods: `GetPodsForPub` (`pkg/control/pubcontrol/pub_control.go`): with a `targetRef`,
//!   the active pods of that workload (`controllerfinder.GetPodsForRef`: the pods with an owner
//!   reference, controller or not, to the target, or for a Deployment to its ReplicaSets; here:
//!   an owner reference naming the target, or the resolved workload being it; none when the
//!   target is missing); else with no selector,
//!   none; else the active pods of the PUB's namespace the selector matches (an empty selector
//!   matches every pod here).
//!
//! kruise-core does no I/O: the workload each pod's controller reference resolves to is input
//! data ([`MatchPodEntry::workload`]).

use super::types::TargetRef;
use crate::error::{Error, Result};
use crate::k8s::null_as_default;
use crate::k8s::pod::{MatchOwnerReference, MatchPod, null_items};
use crate::k8s::selector::LabelSelector;
use crate::k8s::selector_match::Selector;
use crate::registry::Decision;
use serde::{Deserialize, Serialize};

/// Error kind of a selector that apimachinery's `LabelSelectorAsSelector` refuses.
pub const INVALID_LABEL_SELECTOR: &str = "invalid_label_selector";

/// `pub.match` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MatchInput {
    /// The candidate PUBs, in the order the client lists them; null or absent: none. A null
    /// entry is the zero PUB (no selector, no targetRef: matches nothing).
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<MatchPub>>>")]
    pub pubs: Vec<MatchPub>,
    /// The pods, each with the workload its controller reference resolves to; null or absent:
    /// none. A null entry is the zero entry.
    #[serde(default, deserialize_with = "null_items")]
    #[schemars(with = "Option<Vec<Option<MatchPodEntry>>>")]
    pub pods: Vec<MatchPodEntry>,
}

/// A PodUnavailableBudget, reduced to the members matching reads (a whole PUB may be passed).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchPub {
    /// `metadata`; absent or null: the zero metadata.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<MatchPubMeta>")]
    pub metadata: MatchPubMeta,
    /// `spec`; absent or null: the zero spec.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<MatchPubSpec>")]
    pub spec: MatchPubSpec,
}

/// PUB `metadata`: the shared [`crate::k8s::meta::ObjectMeta`] (read here: `name`, reported for
/// the pod's match (the `kruise.io/related-pub` value); `namespace`: a PUB covers and protects
/// pods of its own namespace only; null, absent or `""`: listed for every namespace (a client list
/// in namespace `""` spans all)).
pub type MatchPubMeta = crate::k8s::meta::ObjectMeta;

/// PUB `spec` members read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchPubSpec {
    /// `spec.selector`. Null or absent (Go nil): protects and covers no pod by labels. `{}`
    /// (empty): protects no pod, but covers every active pod of the namespace.
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    /// `spec.targetRef`: the workload whose pods it protects; wins over the selector when set.
    #[serde(default)]
    pub target_ref: Option<TargetRef>,
}

/// One pod and the workload the controller finder resolves its controller reference to.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchPodEntry {
    /// The pod (a whole Pod may be passed); absent or null: the zero pod. An empty namespace
    /// lists the PUBs of every namespace.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<MatchPod>")]
    pub pod: MatchPod,
    /// The workload `controllerfinder.GetScaleAndSelectorForRef` answers for the pod's
    /// controller reference: a ReplicaSet owned by a Deployment resolves to the Deployment, other
    /// controllers to themselves. Null or absent: the controller reference itself. Ignored when
    /// the pod has no controller reference (no workload).
    #[serde(default)]
    pub workload: Option<TargetRef>,
    /// The finder found no workload for the controller reference (the object does not exist):
    /// the pod has no workload, and a PUB of its namespace whose `targetRef` names that
    /// controller reference covers no pod. Null or absent: false.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub workload_not_found: bool,
}

/// How a PUB reached a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum MatchMode {
    /// Through `spec.targetRef` and the pod's workload.
    TargetRef,
    /// Through `spec.selector` and the pod's labels.
    Selector,
}

/// The PUB that protects one pod.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodMatch {
    /// Index into `pubs` of the PUB `GetPubForPod` answers (the first candidate); null: none.
    pub pub_index: Option<usize>,
    /// Its `metadata.name` (what the webhook writes to `kruise.io/related-pub`); null: none.
    pub name: Option<String>,
    /// How it matched; null: no PUB.
    pub by: Option<MatchMode>,
    /// Indexes of every PUB that would match, ascending. The reference takes the first in list
    /// order, and an informer cache lists in no fixed order: with more than one, which PUB the
    /// cluster picks is not determined (the PUB webhook refuses overlapping PUBs).
    pub candidates: Vec<usize>,
}

/// The pods one PUB covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PubCover {
    /// How it selects pods; null: it selects none (no targetRef and no selector).
    pub by: Option<MatchMode>,
    /// Indexes into `pods` of the pods `GetPodsForPub` answers, ascending.
    pub pods: Vec<usize>,
}

/// `pub.match` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchOutput {
    /// For each pod (same order), the PUB that protects it.
    pub pods: Vec<PodMatch>,
    /// For each PUB (same order), the pods it covers.
    pub pubs: Vec<PubCover>,
}

/// `schema.ParseGroupVersion(v).Group`, or `None` when it does not parse (more than one `/`).
fn group(api_version: &str) -> Option<&str> {
    if api_version.is_empty() || api_version == "/" {
        return Some("");
    }
    match api_version.split_once('/') {
        None => Some(""),
        Some((_, v)) if v.contains('/') => None,
        Some((g, _)) => Some(g),
    }
}

/// `pubcontrol.IsReferenceEqual`: same API group (both parse), kind and name.
pub fn reference_equal(a: &TargetRef, b: &TargetRef) -> bool {
    match (group(&a.api_version), group(&b.api_version)) {
        (Some(ga), Some(gb)) => ga == gb && a.kind == b.kind && a.name == b.name,
        _ => false,
    }
}

impl MatchPodEntry {
    /// The resolved workload, or `None` when the pod has no controller reference or the finder
    /// found nothing.
    pub fn resolved_workload(&self) -> Option<TargetRef> {
        let cref = self.pod.controller_ref()?;
        if self.workload_not_found {
            return None;
        }
        Some(self.workload.clone().unwrap_or_else(|| TargetRef {
            api_version: cref.api_version.clone(),
            kind: cref.kind.clone(),
            name: cref.name.clone(),
        }))
    }
}

fn owner_ref(r: &MatchOwnerReference) -> TargetRef {
    TargetRef {
        api_version: r.api_version.clone(),
        kind: r.kind.clone(),
        name: r.name.clone(),
    }
}

fn in_namespace(list_namespace: &str, object_namespace: &str) -> bool {
    list_namespace.is_empty() || list_namespace == object_namespace
}

/// Decides `pub.match`. Errors: `invalid_label_selector` naming the first PUB selector that
/// apimachinery refuses (`pubs[i].spec.selector...`).
pub fn match_pubs(input: &MatchInput) -> Result<MatchOutput> {
    let selectors = input
        .pubs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Selector::from_option(p.spec.selector.as_ref()).map_err(|e| {
                Error::at(
                    INVALID_LABEL_SELECTOR,
                    format!("pubs[{i}].spec.selector.{}", e.field),
                    e.detail,
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let workloads: Vec<Option<TargetRef>> = input
        .pods
        .iter()
        .map(MatchPodEntry::resolved_workload)
        .collect();

    let pods = input
        .pods
        .iter()
        .zip(&workloads)
        .map(|(entry, workload)| {
            let meta = &entry.pod.metadata;
            let mut candidates = Vec::new();
            let mut first_by = None;
            for (i, (p, sel)) in input.pubs.iter().zip(&selectors).enumerate() {
                if !in_namespace(&meta.namespace, &p.metadata.namespace) {
                    continue;
                }
                let by = match (&p.spec.target_ref, workload) {
                    (Some(t), Some(w)) => reference_equal(w, t).then_some(MatchMode::TargetRef),
                    _ => (!sel.is_everything() && sel.matches(&meta.labels))
                        .then_some(MatchMode::Selector),
                };
                if let Some(by) = by {
                    if candidates.is_empty() {
                        first_by = Some(by);
                    }
                    candidates.push(i);
                }
            }
            let first = candidates.first().copied();
            PodMatch {
                pub_index: first,
                name: first.map(|i| input.pubs[i].metadata.name.clone()),
                by: first_by,
                candidates,
            }
        })
        .collect();

    let pubs = input
        .pubs
        .iter()
        .zip(&selectors)
        .map(|(p, sel)| {
            let ns = &p.metadata.namespace;
            let covered = |pred: &dyn Fn(usize) -> bool| -> Vec<usize> {
                (0..input.pods.len())
                    .filter(|&j| {
                        let pod = &input.pods[j].pod;
                        in_namespace(ns, &pod.metadata.namespace) && pod.is_active() && pred(j)
                    })
                    .collect()
            };
            match (&p.spec.target_ref, &p.spec.selector) {
                (Some(t), _) => {
                    // The finder looks the target up in the PUB's namespace; a pod whose
                    // controller reference names it with workloadNotFound says it is missing.
                    let missing = input.pods.iter().any(|e| {
                        e.workload_not_found
                            && in_namespace(ns, &e.pod.metadata.namespace)
                            && e.pod
                                .controller_ref()
                                .is_some_and(|r| reference_equal(&owner_ref(r), t))
                    });
                    let owned = |j: usize| {
                        workloads[j].as_ref().is_some_and(|w| reference_equal(w, t))
                            || input.pods[j]
                                .pod
                                .metadata
                                .owner_references
                                .iter()
                                .any(|r| reference_equal(&owner_ref(r), t))
                    };
                    PubCover {
                        by: Some(MatchMode::TargetRef),
                        pods: if missing { Vec::new() } else { covered(&owned) },
                    }
                }
                (None, None) => PubCover {
                    by: None,
                    pods: Vec::new(),
                },
                (None, Some(_)) => PubCover {
                    by: Some(MatchMode::Selector),
                    pods: covered(&|j| sel.matches(&input.pods[j].pod.metadata.labels)),
                },
            }
        })
        .collect();
    Ok(MatchOutput { pods, pubs })
}

/// `pub.match`: which PUB protects each pod, and which pods each PUB covers.
pub struct Match;

impl Decision for Match {
    const ID: &'static str = "pub.match";
    const DOC: &'static str = "which PUB protects each pod (targetRef through the resolved workload, else a non-empty \
        selector; first in list order) and which active pods each PUB covers";
    const SOURCE: &'static str = "pkg/controller/podunavailablebudget/pub_pod_event_handler.go GetPubForPod; \
        pkg/control/pubcontrol/pub_control.go GetPodsForPub; pub_control_utils.go IsReferenceEqual; \
        pkg/util/controllerfinder/pods_finder.go GetPodsForRef";
    const ERRORS: &'static [&'static str] = &[INVALID_LABEL_SELECTOR];
    type Input = MatchInput;
    type Output = MatchOutput;

    fn decide(i: MatchInput) -> Result<MatchOutput> {
        match_pubs(&i)
    }
}
