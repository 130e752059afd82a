//! The `rollout` decision family: partitions, maxUnavailable/maxSurge budgets and CloneSet
//! progress accounting of OpenKruise v1.9.
//!
//! - [`partition`]: CloneSet / Advanced DaemonSet / Advanced StatefulSet partitions;
//! - [`active_pods`]: Kubernetes' `ActivePods` deletion-preference order of pods;
//! - [`pods`], [`cloneset_budget`], [`update_count`]: the CloneSet scale/update budget;
//! - [`daemonset`]: Advanced DaemonSet budget and node selection;
//! - [`progress`]: the `Progressing` condition and `progressDeadlineSeconds`;
//! - [`validate`]: webhook checks;
//! - [`statefulset`]: Advanced StatefulSet maxUnavailable resolution;
//! - [`health`]: the rollout health of a workload object;
//! - [`status`], [`sts_status`]: the CloneSet and Advanced StatefulSet status computed from
//!   their pods;
//! - [`rounding`]: the per-field rounding table generated for `docs/rounding.md`;
//! - [`inplace`] (with [`jsonpatch`]): in place or recreate, and in-place update completion;
//! - [`cloneset_pods`]: which CloneSet pods one pass updates or deletes, in the controller's order;
//! - [`ds_status`]: the Advanced DaemonSet status computed from its nodes and pods;
//! - [`inplace_patch`]: what the controller writes to a pod it updates in place.
//!
//! Int-or-percent parsing is the one shared parser of [`crate::intstr`]
//! (`rollout.scale_int_or_percent` is registered there).

pub mod active_pods;
pub mod cloneset_budget;
pub mod cloneset_pods;
pub mod container_hash;
pub mod daemonset;
pub mod ds_status;
pub mod health;
pub mod inplace;
pub mod inplace_patch;
pub mod inplace_refresh;
pub mod jsonpatch;
pub mod partition;
pub mod pods;
pub mod progress;
pub mod rounding;
pub mod statefulset;
pub mod status;
pub mod sts_status;
pub mod update_count;
pub mod validate;

use crate::error::{Error, Result};
use crate::registry::{Entry, decode};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Decodes the member `v` found at `path` of the input (null reads as `{}`, Go's zero value); a
/// shape error names the full path (`spec.updateStrategy.partition`).
pub(crate) fn decode_member<T: DeserializeOwned>(v: &Value, path: &str) -> Result<T> {
    let empty = Value::Object(serde_json::Map::new());
    let v = if v.is_null() { &empty } else { v };
    decode(v).map_err(|e| {
        let inner = e.field.as_deref().filter(|f| *f != "input");
        let field = inner.map_or_else(|| path.to_string(), |f| format!("{path}.{f}"));
        let detail = match inner {
            Some(f) => e
                .message
                .strip_prefix(&format!("{f}: "))
                .unwrap_or(&e.message)
                .to_string(),
            None => e
                .message
                .strip_prefix("input: ")
                .unwrap_or(&e.message)
                .to_string(),
        };
        Error::invalid_input(field, detail)
    })
}

/// The typed decisions of this family (`rollout.scale_int_or_percent` is
/// [`crate::intstr::fns::ScaleIntOrPercent`]).
///
/// ```
/// use kruise_core::intstr::IntOrPercent;
/// use kruise_core::rollout::fns::{DaemonsetUpdateNodes, DaemonsetUpdateNodesInput, Partition, PartitionInput};
/// use kruise_core::rollout::daemonset::{Node, NodeState};
///
/// let p = kruise_core::decide::<Partition>(PartitionInput::CloneSet {
///     partition: Some(IntOrPercent::String("30%".into())),
///     replicas: Some(10),
/// })?;
/// assert_eq!((p.partition, p.max_updated), (3, 7));
///
/// let node = |name: &str, state| Node { name: name.into(), state, selected: false };
/// let nodes = kruise_core::decide::<DaemonsetUpdateNodes>(DaemonsetUpdateNodesInput {
///     partition: Some(IntOrPercent::Int(1)),
///     nodes: vec![node("a", NodeState::Old), node("b", NodeState::Old), node("a", NodeState::Old)],
///     ..Default::default()
/// })?;
/// assert_eq!(nodes, ["b"]);
/// # Ok::<(), kruise_core::Error>(())
/// ```
pub mod fns {
    use super::{active_pods, cloneset_budget, daemonset, partition, progress, validate};
    use crate::error::Result;
    use crate::intstr::{INVALID_NUMBER, NOT_A_PERCENTAGE};
    use crate::registry::Decision;
    use serde_json::Value;

    pub use super::active_pods::ActivePodsOrderInput;
    pub use super::cloneset_budget::{
        Budget as ClonesetUpdateBudgetOutput, ClonesetUpdateBudgetInput,
    };
    pub use super::cloneset_pods::{
        ClonesetPodsInput, ClonesetPodsToDelete, ClonesetPodsToUpdate, PodsToDeleteOutput,
        PodsToUpdateOutput,
    };
    pub use super::daemonset::{
        Budget as DaemonsetBudgetOutput, DaemonsetBudgetInput, DaemonsetNodesNeedingPodsInput,
        DaemonsetUpdateNodesInput,
    };
    pub use super::ds_status::{DaemonsetStatus, DaemonsetStatusInput, DaemonsetStatusOutput};
    pub use super::health::{HealthInput, HealthOutput, RolloutHealth};
    pub use super::inplace::{InplaceUpdateInput, InplaceUpdateOutput};
    pub use super::partition::{Partition as PartitionOutput, PartitionInput};
    pub use super::progress::{ProgressInput, ProgressOutput};
    pub use super::status::{ClonesetStatus, ClonesetStatusInput, ClonesetStatusOutput};
    pub use super::sts_status::{
        StatefulsetStatus, StatefulsetStatusInput, StatefulsetStatusOutput,
    };
    pub use super::validate::{Finding, ValidateInput};

    /// `rollout.inplace_update`: in place or recreate, what changes, and whether an in-place
    /// update recorded on the pod has completed.
    pub struct InplaceUpdate;

    impl Decision for InplaceUpdate {
        const ID: &'static str = "rollout.inplace_update";
        const DOC: &'static str = "In place or recreate between two revisions, the containers' new images/resources/env metadata and in-place completion (kruise inplace_update_defaults.go defaultCalculateInPlaceUpdateSpec)";
        const SOURCE: &'static str = "pkg/util/inplaceupdate/inplace_update_defaults.go defaultCalculateInPlaceUpdateSpec, \
            DefaultCheckInPlaceUpdateCompleted, defaultCheckContainersInPlaceUpdateCompleted; \
            pkg/util/inplaceupdate/inplace_update_vertical.go; pkg/util/containermeta IsContainerReferenceToMeta; \
            pkg/util/volumeclaimtemplate CanVCTemplateInplaceUpdate; pkg/controller/cloneset/sync/cloneset_update.go updatePod; \
            github.com/appscode/jsonpatch v1.0.1 CreatePatch; checkAllContainersHashConsistent with \
            k8s.io/kubernetes v1.32 pkg/kubelet/container HashContainer and pkg/util/containermeta GetExpectHash";
        const ERRORS: &'static [&'static str] = &[];
        type Input = InplaceUpdateInput;
        type Output = InplaceUpdateOutput;

        fn decide(input: InplaceUpdateInput) -> Result<InplaceUpdateOutput> {
            super::inplace::decide(&input)
        }
    }

    pub use super::inplace_patch::{InplacePodPatchInput, InplacePodPatchOutput};

    /// `rollout.inplace_pod_patch`: what the controller writes to a pod it updates in place
    /// (images, resources, labels/annotations, the revision labels, the in-place update state
    /// and grace annotations, the `InPlaceUpdateReady` condition).
    pub struct InplacePodPatch;

    impl Decision for InplacePodPatch {
        const ID: &'static str = "rollout.inplace_pod_patch";
        const DOC: &'static str = "The pod an in-place update writes: images, resources, labels/annotations, revision labels, the inplace-update-state/grace annotations, the InPlaceUpdateReady condition and, from Kubernetes 1.32, the pods/resize patch (kruise inplace_update.go Update, inplace_update_defaults.go defaultPatchUpdateSpecToPod)";
        const SOURCE: &'static str = "pkg/util/inplaceupdate/inplace_update.go Update, updatePodInPlace, updateCondition; \
            pkg/util/inplaceupdate/inplace_update_defaults.go defaultPatchUpdateSpecToPod, addMetadataSharedContainersToUpdate, \
            defaultCheckPodNeedsBeUnready; pkg/util/inplaceupdate/inplace_update_vertical.go NativeVerticalUpdate.UpdateResource, GenerateResourcePatch; \
            pkg/client/registry.go ShouldUpdateResourceByResize; \
            pkg/util/pods.go SetPodCondition, SetPodReadyCondition; pkg/util/containerlaunchpriority GetContainerPriority; \
            pkg/controller/cloneset/utils/cloneset_utils.go WriteRevisionHash";
        const ERRORS: &'static [&'static str] = &[super::inplace_patch::UNSUPPORTED];
        type Input = InplacePodPatchInput;
        type Output = InplacePodPatchOutput;

        fn decide(input: InplacePodPatchInput) -> Result<InplacePodPatchOutput> {
            super::inplace_patch::decide(&input)
        }
    }

    pub use super::inplace_refresh::{InplaceRefreshInput, InplaceRefreshOutput, RefreshAction};

    /// `rollout.inplace_refresh`: what a later reconcile does to a pod updated in place (grace
    /// period, next batch by launch priority, `InPlaceUpdateReady` back to True).
    pub struct InplaceRefresh;

    impl Decision for InplaceRefresh {
        const ID: &'static str = "rollout.inplace_refresh";
        const DOC: &'static str = "A later reconcile of a pod updated in place: the grace period (pending, applied, dropped), the next batch of containers by launch priority once the previous batch is ready, or InPlaceUpdateReady set back to True once the update completed (kruise inplace_update.go Refresh)";
        const SOURCE: &'static str = "pkg/util/inplaceupdate/inplace_update.go Refresh, finishGracePeriod, updateNextBatch, \
            doPreCheckBeforeNext, hasEqualCondition, updateCondition; pkg/util/inplaceupdate/inplace_update_defaults.go \
            defaultPatchUpdateSpecToPod, defaultCheckContainersInPlaceUpdateCompleted; pkg/util/inplaceupdate/inplace_update_vertical.go \
            GenerateResourcePatch; pkg/client/registry.go ShouldUpdateResourceByResize; \
            pkg/controller/cloneset/utils/cloneset_utils.go EqualToRevisionHash; pkg/util/pods.go SetPodCondition";
        const ERRORS: &'static [&'static str] = &[
            super::inplace_refresh::INVALID_ANNOTATION,
            super::inplace_patch::UNSUPPORTED,
        ];
        type Input = InplaceRefreshInput;
        type Output = InplaceRefreshOutput;

        fn decide(input: InplaceRefreshInput) -> Result<InplaceRefreshOutput> {
            super::inplace_refresh::decide(&input)
        }
    }

    /// `rollout.partition`: the resolved partition and the pods (nodes) allowed on the update
    /// revision.
    pub struct Partition;

    impl Decision for Partition {
        const ID: &'static str = "rollout.partition";
        const DOC: &'static str = "Resolved partition and max pods on the update revision for CloneSet/DaemonSet/StatefulSet (kruise pkg/util/tools.go CalculatePartitionReplicas, daemonset_update.go, stateful_update_utils.go)";
        const SOURCE: &'static str = "pkg/util/tools.go CalculatePartitionReplicas; \
            pkg/controller/daemonset/daemonset_update.go filterDaemonPodsNodeToUpdate; \
            pkg/controller/statefulset/stateful_update_utils.go sortPodsToUpdate";
        const ERRORS: &'static [&'static str] = &[
            NOT_A_PERCENTAGE,
            INVALID_NUMBER,
            partition::NOT_AN_INTEGER,
            partition::NEGATIVE_PARTITION,
        ];
        type Input = PartitionInput;
        type Output = PartitionOutput;

        fn decide(input: PartitionInput) -> Result<PartitionOutput> {
            partition::resolve(&input)
        }
    }

    /// `rollout.cloneset_update_budget`: the CloneSet scale/update diffs and the pods updated now.
    pub struct ClonesetUpdateBudget;

    impl Decision for ClonesetUpdateBudget {
        const ID: &'static str = "rollout.cloneset_update_budget";
        const DOC: &'static str = "CloneSet scale/update diffs and pods updated now (kruise cloneset_sync_utils.go calculateDiffsWithExpectation, cloneset_update.go limitUpdateIndexes)";
        const SOURCE: &'static str = "pkg/controller/cloneset/sync/cloneset_sync_utils.go calculateDiffsWithExpectation; \
            pkg/controller/cloneset/sync/cloneset_update.go Update, limitUpdateIndexes";
        const ERRORS: &'static [&'static str] = &[];
        type Input = ClonesetUpdateBudgetInput;
        type Output = ClonesetUpdateBudgetOutput;

        fn decide(i: ClonesetUpdateBudgetInput) -> Result<ClonesetUpdateBudgetOutput> {
            Ok(cloneset_budget::budget_for_type(
                &i.update_type,
                &i.spec(),
                &i.pods,
            ))
        }
    }

    /// `rollout.progress`: the CloneSet `Progressing` condition, change flag and requeue seconds.
    pub struct Progress;

    impl Decision for Progress {
        const ID: &'static str = "rollout.progress";
        const DOC: &'static str = "CloneSet Progressing condition, change flag and requeue seconds (kruise cloneset_status.go calculateProgressingStatus)";
        const SOURCE: &'static str = "pkg/controller/cloneset/cloneset_status.go calculateProgressingStatus, \
            hasProgressingConditionChanged, getRequeueSecondsFromCondition";
        const ERRORS: &'static [&'static str] = &[];
        type Input = ProgressInput;
        type Output = ProgressOutput;

        fn decide(input: ProgressInput) -> Result<ProgressOutput> {
            progress::progress(&input)
        }
    }

    /// `rollout.validate`: the webhook's findings on the rollout fields, in its order.
    pub struct Validate;

    impl Decision for Validate {
        const ID: &'static str = "rollout.validate";
        const DOC: &'static str = "Webhook checks on CloneSet/Advanced DaemonSet/Advanced StatefulSet rollout fields (kruise pkg/webhook/*/validating)";
        const SOURCE: &'static str = "pkg/webhook/cloneset/validating/validation.go validateCloneSetSpec, validateUpdateStrategy; \
            pkg/webhook/daemonset/validating/daemonset_validation.go validateDaemonSetSpecV1beta1; \
            pkg/webhook/statefulset/validating/statefulset_validation.go validateStatefulSetSpec";
        const ERRORS: &'static [&'static str] = &[];
        type Input = ValidateInput;
        type Output = Vec<Finding>;

        /// The kind is checked before the spec is decoded, and a spec member that does not decode
        /// is named with its full path (`spec.updateStrategy.partition`).
        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> { ValidateInput::from_json(input).map(drop) });

        fn decide(input: ValidateInput) -> Result<Vec<Finding>> {
            Ok(validate::validate(&input))
        }
    }

    /// `rollout.daemonset_budget`: the Advanced DaemonSet maxSurge/maxUnavailable in nodes.
    pub struct DaemonsetBudget;

    impl Decision for DaemonsetBudget {
        const ID: &'static str = "rollout.daemonset_budget";
        const DOC: &'static str = "Advanced DaemonSet maxSurge/maxUnavailable in nodes (kruise daemonset_update.go updatedDesiredNodeCounts)";
        const SOURCE: &'static str = "pkg/controller/daemonset/daemonset_update.go updatedDesiredNodeCounts; \
            pkg/controller/daemonset/daemonset_util.go unavailableCount, surgeCount";
        const ERRORS: &'static [&'static str] = &[
            daemonset::INVALID_MAX_UNAVAILABLE,
            daemonset::INVALID_MAX_SURGE,
        ];
        type Input = DaemonsetBudgetInput;
        type Output = DaemonsetBudgetOutput;

        fn decide(i: DaemonsetBudgetInput) -> Result<DaemonsetBudgetOutput> {
            daemonset::budget(&i.update_strategy, i64::from(i.desired_number_scheduled))
        }
    }

    /// `rollout.daemonset_nodes_needing_pods`: the nodes that get a daemon pod now, sorted by name.
    pub struct DaemonsetNodesNeedingPods;

    impl Decision for DaemonsetNodesNeedingPods {
        const ID: &'static str = "rollout.daemonset_nodes_needing_pods";
        const DOC: &'static str = "Nodes that get a daemon pod under partitioned scaling (kruise daemonset_util.go GetNodesNeedingPods)";
        const SOURCE: &'static str =
            "pkg/controller/daemonset/daemonset_util.go GetNodesNeedingPods";
        const ERRORS: &'static [&'static str] = &[];
        type Input = DaemonsetNodesNeedingPodsInput;
        type Output = Vec<String>;

        fn decide(i: DaemonsetNodesNeedingPodsInput) -> Result<Vec<String>> {
            Ok(daemonset::nodes_needing_pods(
                i64::from(i.new_pods_num),
                i64::from(i.desired),
                i64::from(i.partition),
                i.progressive,
                &i.nodes_needing_pods,
            ))
        }
    }

    /// `rollout.daemonset_update_nodes`: the node names eligible for a rolling update this sync,
    /// in update order.
    pub struct DaemonsetUpdateNodes;

    impl Decision for DaemonsetUpdateNodes {
        const ID: &'static str = "rollout.daemonset_update_nodes";
        const DOC: &'static str = "Ordered nodes eligible for a DaemonSet rolling update (kruise daemonset_update.go filterDaemonPodsNodeToUpdate)";
        const SOURCE: &'static str =
            "pkg/controller/daemonset/daemonset_update.go filterDaemonPodsNodeToUpdate";
        const ERRORS: &'static [&'static str] = &[NOT_A_PERCENTAGE, INVALID_NUMBER];
        type Input = DaemonsetUpdateNodesInput;
        type Output = Vec<String>;

        fn decide(i: DaemonsetUpdateNodesInput) -> Result<Vec<String>> {
            let p = partition::daemonset_partition(
                i.partition.as_ref(),
                i64::from(i.desired_number_scheduled),
            )?;
            Ok(daemonset::update_nodes(p, i.selector, &i.nodes))
        }
    }

    /// `rollout.active_pods_order`: pod names in Kubernetes' `ActivePods` order.
    pub struct ActivePodsOrder;

    impl Decision for ActivePodsOrder {
        const ID: &'static str = "rollout.active_pods_order";
        const DOC: &'static str = "Pod names in Kubernetes' ActivePods order, deletion preference first (k8s pkg/controller/controller_utils.go ActivePods.Less)";
        const SOURCE: &'static str =
            "k8s.io/kubernetes v1.32.10 pkg/controller/controller_utils.go ActivePods.Less";
        const ERRORS: &'static [&'static str] = &[];
        type Input = ActivePodsOrderInput;
        type Output = Vec<String>;

        fn decide(input: ActivePodsOrderInput) -> Result<Vec<String>> {
            active_pods::active_pods_order(&input)
        }
    }
}

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::Partition>(),
    Entry::of::<fns::ClonesetUpdateBudget>(),
    Entry::of::<fns::Progress>(),
    Entry::of::<fns::Validate>(),
    Entry::of::<fns::DaemonsetBudget>(),
    Entry::of::<fns::DaemonsetNodesNeedingPods>(),
    Entry::of::<fns::DaemonsetUpdateNodes>(),
    Entry::of::<fns::ActivePodsOrder>(),
    Entry::of::<fns::ClonesetStatus>(),
    Entry::of::<fns::RolloutHealth>(),
    Entry::of::<fns::StatefulsetStatus>(),
    Entry::of::<fns::InplaceUpdate>(),
    Entry::of::<fns::ClonesetPodsToUpdate>(),
    Entry::of::<fns::ClonesetPodsToDelete>(),
    Entry::of::<fns::DaemonsetStatus>(),
    Entry::of::<fns::InplacePodPatch>(),
    Entry::of::<fns::InplaceRefresh>(),
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    /// Every fn of the family is typed, and one `$defs` name means one shape across them (the code
    /// generator merges a family's definitions by name).
    #[test]
    fn family_is_typed_and_schema_names_are_unambiguous() {
        let mut seen: BTreeMap<String, (&str, serde_json::Value)> = BTreeMap::new();
        let mut n = 0;
        for e in crate::registry::entries().filter(|e| e.id.starts_with("rollout.")) {
            let schema = e
                .schema()
                .unwrap_or_else(|| panic!("{} is not typed", e.id));
            n += 1;
            for (name, def) in schema["$defs"].as_object().expect("$defs") {
                if name == "input" || name == "output" {
                    continue;
                }
                if let Some((other, d)) = seen.get(name) {
                    assert_eq!(d, def, "$defs.{name} differs between {other} and {}", e.id);
                } else {
                    seen.insert(name.clone(), (e.id, def.clone()));
                }
            }
        }
        assert_eq!(
            n,
            super::ENTRIES.len() + 1,
            "the rollout fns (with rollout.scale_int_or_percent)"
        );
        for name in [
            "PartitionOutput",
            "DaemonsetBudgetOutput",
            "ClonesetUpdateBudgetOutput",
            "PodView",
            "Node",
        ] {
            assert!(seen.contains_key(name), "{name} missing");
        }
    }

    /// The typed decisions answer what the JSON handler answers.
    #[test]
    fn typed_and_json_calls_agree() {
        use super::fns::*;
        use crate::registry::{call, decide, encode};
        use serde_json::json;
        let input = ClonesetUpdateBudgetInput {
            replicas: 10,
            pods: vec![super::pods::PodView::available_old(); 10],
            ..Default::default()
        };
        let typed = decide::<ClonesetUpdateBudget>(input).unwrap();
        assert_eq!(
            (
                typed.max_unavailable,
                typed.diffs.update_num,
                typed.pods_to_update_now
            ),
            (2, 10, 2)
        );
        let pods: Vec<_> = (0..10)
            .map(|_| json!({"updated": false, "lifecycleState": "Normal", "available": true}))
            .collect();
        assert_eq!(
            call(
                "rollout.cloneset_update_budget",
                &json!({"replicas": 10, "pods": pods})
            )
            .unwrap(),
            encode(&typed).unwrap()
        );

        let b = decide::<DaemonsetBudget>(DaemonsetBudgetInput {
            desired_number_scheduled: 4,
            ..Default::default()
        })
        .unwrap();
        assert_eq!((b.max_surge, b.max_unavailable), (0, 1));
        let v = decide::<Validate>(ValidateInput::StatefulSet {
            spec: Default::default(),
        })
        .unwrap();
        let fields: Vec<_> = v.iter().map(|f| (f.field.as_str(), f.reason)).collect();
        assert_eq!(
            fields,
            [
                ("spec.podManagementPolicy", "required"),
                ("spec.updateStrategy", "required")
            ]
        );
        assert_eq!(
            encode(&v).unwrap(),
            call(
                "rollout.validate",
                &json!({"kind": "StatefulSet", "spec": null})
            )
            .unwrap()
        );
    }
}
