//! The registered decisions of the SidecarSet family.

use super::inject::{INVALID_ANNOTATION, InjectInput, InjectOutput, UNSUPPORTED};
use super::matching::{INVALID_LABEL_SELECTOR, MatchInput, MatchOutput};
use super::next_upgrade::{NextUpgradeInput, NextUpgradeOutput};
use crate::error::Result;
use crate::registry::{Compare, Decision, concat_kinds};
use crate::resources::fns::SIDECAR_ERRORS;

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

/// The error kinds of `sidecarset.inject`: its own, then those of `resources.sidecar`.
const INJECT_ERRORS: &[&str] = &concat_kinds::<{ 3 + SIDECAR_ERRORS.len() }>(
    &[INVALID_LABEL_SELECTOR, INVALID_ANNOTATION, UNSUPPORTED],
    SIDECAR_ERRORS,
);

/// `sidecarset.inject`: the pod after the pod webhook injects the matching SidecarSets at
/// creation.
pub struct Inject;

impl Decision for Inject {
    const ID: &'static str = "sidecarset.inject";
    const DOC: &'static str = "the pod after the pod webhook injects the matching SidecarSets at creation: \
        patched annotations, sidecar and init containers in v1.9's order (hot-upgrade pairs, native sidecars), \
        shared volume mounts, devices and env, transferEnv, volumes, image pull secrets, resourcesPolicy \
        resources and the sidecarset hash, hash-without-image and injected-list annotations";
    const SOURCE: &'static str = "pkg/webhook/pod/mutating/sidecarset.go sidecarsetMutatingPod, buildSidecars, \
        mergeSidecarContainers, mergeSidecarSecrets; pkg/webhook/pod/mutating/sidecarset_hotupgrade.go \
        injectHotUpgradeContainers; pkg/webhook/pod/mutating/sidecarset_resources.go applyResourcesPolicy; \
        pkg/control/sidecarcontrol/util.go GetInjectedVolumeMountsAndEnvs, GetInjectedVolumeDevices, \
        GetSidecarTransferEnvs, ExtractContainerNameFromFieldPath, PatchPodMetadata, PodMatchedSidecarSet; \
        pkg/util/pods.go MergeVolumeMounts, MergeVolumeDevices, MergeEnvVar, MergeVolumes";
    const ERRORS: &'static [&'static str] = INJECT_ERRORS;
    /// Zero-pruned: the API server's view of a pod drops empty members, so vectors written from
    /// the reference's encoding/json output compare without them.
    const COMPARE: Compare = Compare::ZeroPruned;
    type Input = InjectInput;
    type Output = InjectOutput;

    fn decide(i: InjectInput) -> Result<InjectOutput> {
        super::inject::inject(&i)
    }
}

/// `sidecarset.next_upgrade`: which matched pods the SidecarSet controller upgrades in this round,
/// in its order, with the counts and why the others wait.
pub struct NextUpgrade;

impl Decision for NextUpgrade {
    const ID: &'static str = "sidecarset.next_upgrade";
    const DOC: &'static str = "which matched pods the SidecarSet controller upgrades in this round (NotUpdate, paused and \
        finished gates; selector; not-upgradable and in-flight pods; ActivePods, priority and scatter order; partition \
        and maxUnavailable), with the status counts and each pod's reason";
    const SOURCE: &'static str = "pkg/controller/sidecarset/sidecarset_processor.go UpdateSidecarSet, calculateStatus, \
        isSidecarSetNotUpdate, isSidecarSetUpdateFinish; pkg/controller/sidecarset/sidecarset_strategy.go \
        GetNextUpgradePods, SortUpdateIndexes, calculateUpgradeCount, parseUpdateScatterTerms; \
        pkg/control/sidecarcontrol/sidecarset_control.go IsSidecarSetUpgradable, IsPodStateConsistent, IsPodReady, \
        IsSidecarContainerUpdateCompleted; pkg/control/sidecarcontrol/util.go IsPodSidecarUpdated, GetPodsSortFunc; \
        pkg/util/updatesort priority_sort.go, scatter_sort.go; pkg/util/tools.go CalculatePartitionReplicas";
    const ERRORS: &'static [&'static str] = &[INVALID_ANNOTATION, UNSUPPORTED];
    type Input = NextUpgradeInput;
    type Output = NextUpgradeOutput;

    fn decide(i: NextUpgradeInput) -> Result<NextUpgradeOutput> {
        super::next_upgrade::next_upgrade(&i)
    }
}
