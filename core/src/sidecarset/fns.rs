//! The registered decisions of the SidecarSet family.

use super::matching::{INVALID_LABEL_SELECTOR, MatchInput, MatchOutput};
use crate::error::Result;
use crate::registry::Decision;

pub use super::matching::{
    InjectionStrategy, MatchReason, NamespaceMeta, NamespaceObject, SidecarSetObject,
    SidecarSetSpec,
};
pub use super::pod::{MatchOwnerReference, MatchPod, MatchPodMeta, MatchPodStatus};

/// `sidecarset.match`: whether a SidecarSet applies to a pod at injection.
pub struct Match;

impl Decision for Match {
    const ID: &'static str = "sidecarset.match";
    const DOC: &'static str = "whether a SidecarSet applies to a pod at injection (webhook namespace selector, active pod, \
        namespace index, paused, namespaceSelector, selector), with the rule that decided";
    const SOURCE: &'static str = "pkg/control/sidecarcontrol/util.go PodMatchedSidecarSet, IsSelectorNamespace, IsActivePod; \
        pkg/webhook/pod/mutating/sidecarset.go sidecarsetMutatingPod; pkg/util/fieldindex/register.go \
        IndexSidecarSetV1Beta1; apis/apps/v1alpha1/sidecarset_conversion.go ConvertTo; the mpod.kb.io namespaceSelector \
        (openkruise/charts versions/kruise/1.9.0-alpha.3 templates/webhookconfiguration.yaml, config/webhook/patch_manifests.yaml)";
    const ERRORS: &'static [&'static str] = &[INVALID_LABEL_SELECTOR];
    type Input = MatchInput;
    type Output = MatchOutput;

    fn decide(i: MatchInput) -> Result<MatchOutput> {
        super::matching::matches(&i)
    }
}
