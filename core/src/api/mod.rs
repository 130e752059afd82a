//! The `api` decision family (`apis/apps/`, `pkg/`): v1alpha1 <-> v1beta1 conversion, v1beta1
//! defaulting and the small admission/controller decisions of OpenKruise v1.9.0.
//!
//! Each fn id is a typed decision in [`fns`] (its JSON shapes are the serde forms of the input
//! and output types, in the CRDs' camelCase); the logic is in the submodules. Registry entries
//! live in [`ENTRIES`].

pub mod convert;
pub mod core_types;
pub mod defaults;
pub mod delete_protection;
pub mod json;
pub mod launch_barrier;
pub mod launch_priority;
pub mod namespace_index;
pub mod schema;
pub mod served;
pub mod sidecar_order;
pub mod types;
pub mod workloadspread;

use crate::registry::Entry;

/// The typed decisions of this family: for each fn id one unit struct implementing
/// [`Decision`](crate::registry::Decision), with its input and output types.
///
/// The Kubernetes objects these decisions read (a manifest to convert or default, a pod, a
/// WorkloadSpread, a SidecarSet, a protected object) stay `serde_json::Value` inside the typed
/// inputs: they are carried verbatim (`api.convert`, `api.default` answer the object itself) or
/// read member by member as the reference reads them (absent or `null` members as Go zero
/// values, other members ignored, a wrongly typed member that is read naming its path).
///
/// ```
/// use kruise_core::api::fns::{SidecarContainer, SidecarOrder, SidecarOrderInput};
/// let input = SidecarOrderInput {
///     pod_containers: Some(vec!["app".into()]),
///     sidecar_containers: Some(vec![SidecarContainer {
///         name: Some("log".into()),
///         pod_inject_policy: Some("BeforeAppContainer".into()),
///         ..Default::default()
///     }]),
///     ..Default::default()
/// };
/// let out = kruise_core::decide::<SidecarOrder>(input)?;
/// assert_eq!(out.containers, ["log", "app"]);
/// # Ok::<(), kruise_core::Error>(())
/// ```
pub mod fns {
    use super::json::{Want, own_input};
    use crate::error::Result;
    use crate::quantity::{INVALID_QUANTITY, QUANTITY_OUT_OF_RANGE};
    use crate::registry::{Compare, Decision};
    use serde_json::Value;

    pub use super::convert::{ConvertInput, ConvertOutput};
    pub use super::defaults::{DefaultFeatureGates, DefaultInput, DefaultOutput};
    pub use super::delete_protection::{
        DeleteProtectionFeatureGates, DeleteProtectionInput, DeleteProtectionOutput, Dependents,
    };
    pub use super::launch_barrier::{
        Barrier, LaunchBarrierNextInput, Next as LaunchBarrierNextOutput,
    };
    pub use super::launch_priority::{LaunchPriorityInput, LaunchPriorityOutput};
    pub use super::namespace_index::SidecarsetNamespaceIndexInput;
    pub use super::sidecar_order::{
        Order as SidecarOrderOutput, SidecarContainer, SidecarOrderInput, SidecarUpgradeStrategy,
    };
    pub use super::workloadspread::{
        Operation as WorkloadSpreadOperation, SubsetStatusRecord, WorkloadspreadSubsetInput,
        WorkloadspreadSubsetOutput,
    };

    /// `api.convert`: the manifest converted to the target version.
    pub struct Convert;

    impl Decision for Convert {
        const ID: &'static str = "api.convert";
        const DOC: &'static str = "v1alpha1 <-> v1beta1 conversion of a whole manifest (apis/apps/v1alpha1/*_conversion.go)";
        const SOURCE: &'static str = "sigs.k8s.io/controller-runtime pkg/webhook/conversion/conversion.go \
            handleConvertRequest (the /convert webhook of pkg/webhook/server.go); openkruise \
            apis/apps/v1alpha1/*_conversion.go ConvertTo/ConvertFrom, v1beta1 the hub";
        const ERRORS: &'static [&'static str] = &[
            super::convert::UNSUPPORTED_VERSION,
            super::convert::SAME_VERSION,
            super::convert::UNSUPPORTED_KIND,
            super::convert::NOT_REPRESENTABLE,
            INVALID_QUANTITY,
            QUANTITY_OUT_OF_RANGE,
        ];
        const COMPARE: Compare = Compare::ZeroPruned;
        type Input = ConvertInput;
        type Output = ConvertOutput;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(
                    input,
                    &[
                        ("object", Want::Any, true),
                        ("targetApiVersion", Want::String, true),
                    ],
                )
            });

        fn decide(i: ConvertInput) -> Result<ConvertOutput> {
            super::convert::convert(&i.object, &i.target_api_version).map(ConvertOutput)
        }
    }

    /// `api.default`: the object with the mutating webhook's defaults.
    pub struct Default;

    impl Decision for Default {
        const ID: &'static str = "api.default";
        const DOC: &'static str =
            "mutating-webhook defaults of v1beta1 objects (apis/apps/defaults/v1beta1.go)";
        const SOURCE: &'static str = "apis/apps/defaults/v1beta1.go SetDefaults*V1beta1, SetDefaultsBroadcastJob, \
            SetDefaultsAdvancedCronJob, SetDefaultsStatefulSet; apis/apps/defaults/v1alpha1.go \
            SetDefaultsDaemonSet (as the pkg/webhook/<kind>/mutating handlers call them, template \
            defaults off)";
        const ERRORS: &'static [&'static str] = &[
            super::convert::UNSUPPORTED_KIND,
            super::defaults::FIELD_REF_MISSING,
        ];
        const COMPARE: Compare = Compare::NullPruned;
        type Input = DefaultInput;
        type Output = DefaultOutput;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(
                    input,
                    &[
                        ("object", Want::Any, true),
                        ("now", Want::Time, false),
                        (
                            "featureGates",
                            Want::Gates(&[
                                "StatefulSetAutoDeletePVC",
                                "StatefulSetAutoResizePVCGate",
                            ]),
                            false,
                        ),
                    ],
                )
            });

        fn decide(i: DefaultInput) -> Result<DefaultOutput> {
            super::defaults::decide_typed(i)
        }
    }

    /// `api.launch_priority`: the barrier envs the pod webhook injects.
    pub struct LaunchPriority;

    impl Decision for LaunchPriority {
        const ID: &'static str = "api.launch_priority";
        const DOC: &'static str = "container launch priority barrier env injection \
            (pkg/webhook/pod/mutating/container_launch_priority_initialization.go)";
        const SOURCE: &'static str = "pkg/webhook/pod/mutating/container_launch_priority_initialization.go \
            containerLaunchPriorityInitialization; pkg/util/containerlaunchpriority/container_launch_priority.go";
        const ERRORS: &'static [&'static str] = &[
            super::launch_priority::INVALID_PRIORITY,
            crate::k8s::webhook_namespace::INVALID_LABEL_SELECTOR,
        ];
        type Input = LaunchPriorityInput;
        type Output = LaunchPriorityOutput;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(
                    input,
                    &[
                        ("operation", Want::String, false),
                        ("subResource", Want::String, false),
                        ("resource", Want::String, false),
                        ("pod", Want::Object, true),
                        ("webhookNamespace", Want::Any, false),
                    ],
                )?;
                crate::k8s::object_or_null(input.get("webhookNamespace"), "webhookNamespace")
            });

        fn decide(i: LaunchPriorityInput) -> Result<LaunchPriorityOutput> {
            super::launch_priority::decide_typed(i)
        }
    }

    /// `api.launch_barrier_next`: the next launch-priority level the controller releases.
    pub struct LaunchBarrierNext;

    impl Decision for LaunchBarrierNext {
        const ID: &'static str = "api.launch_barrier_next";
        const DOC: &'static str =
            "next launch-priority level to release (pkg/controller/containerlaunchpriority)";
        const SOURCE: &'static str = "pkg/controller/containerlaunchpriority/container_launch_priority_controller.go \
            Reconcile, handleContainerLaunchPriority; container_launch_priority_event_handler.go";
        const ERRORS: &'static [&'static str] = &[super::launch_barrier::MALFORMED_BARRIER_ENV];
        type Input = LaunchBarrierNextInput;
        type Output = LaunchBarrierNextOutput;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(
                    input,
                    &[
                        ("pod", Want::Object, true),
                        ("barrier", Want::Object, false),
                    ],
                )
            });

        fn decide(i: LaunchBarrierNextInput) -> Result<LaunchBarrierNextOutput> {
            super::launch_barrier::decide_typed(i)
        }
    }

    /// `api.sidecar_order`: where SidecarSet containers land in a new pod.
    pub struct SidecarOrder;

    impl Decision for SidecarOrder {
        const ID: &'static str = "api.sidecar_order";
        const DOC: &'static str = "SidecarSet container / init container placement order (pkg/webhook/pod/mutating/sidecarset.go)";
        const SOURCE: &'static str = "pkg/webhook/pod/mutating/sidecarset.go mergeSidecarContainers, \
            buildSidecars (hot-upgrade names in pkg/control/sidecarcontrol)";
        const ERRORS: &'static [&'static str] = &[];
        type Input = SidecarOrderInput;
        type Output = SidecarOrderOutput;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(
                    input,
                    &[
                        ("podContainers", Want::Array, false),
                        ("podInitContainers", Want::Array, false),
                        ("sidecarContainers", Want::Array, false),
                        ("sidecarInitContainers", Want::Array, false),
                        ("sortSidecarContainersByName", Want::Bool, false),
                    ],
                )?;
                super::sidecar_order::check_json(input)
            });

        fn decide(i: SidecarOrderInput) -> Result<SidecarOrderOutput> {
            Ok(super::sidecar_order::decide_typed(i))
        }
    }

    /// `api.delete_protection`: whether a deletion is allowed.
    pub struct DeleteProtection;

    impl Decision for DeleteProtection {
        const ID: &'static str = "api.delete_protection";
        const DOC: &'static str =
            "policy.kruise.io/delete-protection admission (pkg/webhook/util/deletionprotection)";
        const SOURCE: &'static str = "pkg/webhook/util/deletionprotection/deletion_protection.go ValidateWorkloadDeletion, \
            ValidateNamespaceDeletion, ValidateCRDDeletion";
        const ERRORS: &'static [&'static str] = &[
            super::delete_protection::FORBIDDEN_ALWAYS,
            super::delete_protection::FORBIDDEN_REPLICAS,
            super::delete_protection::FORBIDDEN_ACTIVE_PODS,
            super::delete_protection::FORBIDDEN_BOUND_PVCS,
            super::delete_protection::FORBIDDEN_ACTIVE_CRS,
            super::delete_protection::CRD_GATE_DISABLED,
        ];
        type Input = DeleteProtectionInput;
        type Output = DeleteProtectionOutput;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(
                    input,
                    &[
                        ("kind", Want::String, true),
                        ("object", Want::Object, true),
                        ("dependents", Want::Object, false),
                        (
                            "featureGates",
                            Want::Gates(&[
                                "ResourcesDeletionProtection",
                                "DeletionProtectionForCRDCascadingGate",
                            ]),
                            false,
                        ),
                        ("operation", Want::String, false),
                        ("subResource", Want::String, false),
                    ],
                )
            });

        fn decide(i: DeleteProtectionInput) -> Result<DeleteProtectionOutput> {
            super::delete_protection::decide_typed(i)
        }
    }

    /// `api.sidecarset_namespace_index`: the namespace index values of a SidecarSet.
    pub struct SidecarsetNamespaceIndex;

    impl Decision for SidecarsetNamespaceIndex {
        const ID: &'static str = "api.sidecarset_namespace_index";
        const DOC: &'static str =
            "namespace index keys of a SidecarSet (pkg/util/fieldindex/register.go)";
        const SOURCE: &'static str =
            "pkg/util/fieldindex/register.go IndexSidecarSet, IndexSidecarSetV1Beta1";
        const ERRORS: &'static [&'static str] = &[];
        type Input = SidecarsetNamespaceIndexInput;
        type Output = Vec<String>;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(input, &[("object", Want::Any, true)])
            });

        fn decide(i: SidecarsetNamespaceIndexInput) -> Result<Vec<String>> {
            super::namespace_index::index(&i.object)
        }
    }

    /// `api.workloadspread_subset`: the WorkloadSpread subset a pod is counted against.
    pub struct WorkloadspreadSubset;

    impl Decision for WorkloadspreadSubset {
        const ID: &'static str = "api.workloadspread_subset";
        const DOC: &'static str =
            "WorkloadSpread subset choice with per-revision accounting (pkg/util/workloadspread)";
        const SOURCE: &'static str = "pkg/util/workloadspread/workloadspread.go \
            HandlePodCreation/HandlePodDeletion, acquireSuitableSubset; utils.go";
        const ERRORS: &'static [&'static str] =
            &[crate::k8s::webhook_namespace::INVALID_LABEL_SELECTOR];
        type Input = WorkloadspreadSubsetInput;
        type Output = WorkloadspreadSubsetOutput;

        const CHECK_JSON: Option<crate::registry::JsonCheck> =
            Some(|input: &Value| -> Result<()> {
                own_input(
                    input,
                    &[
                        ("workloadSpread", Want::Object, true),
                        ("pod", Want::Object, true),
                        ("operation", Want::String, true),
                        ("workloadReplicas", Want::Int, false),
                        ("versionedStatusKinds", Want::Array, false),
                        ("webhookNamespace", Want::Any, false),
                    ],
                )?;
                crate::k8s::object_or_null(input.get("webhookNamespace"), "webhookNamespace")
            });

        fn decide(i: WorkloadspreadSubsetInput) -> Result<WorkloadspreadSubsetOutput> {
            super::workloadspread::decide_typed(i)
        }
    }
}

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::Convert>(),
    Entry::of::<fns::Default>(),
    Entry::of::<fns::LaunchPriority>(),
    Entry::of::<fns::LaunchBarrierNext>(),
    Entry::of::<fns::SidecarOrder>(),
    Entry::of::<fns::DeleteProtection>(),
    Entry::of::<fns::SidecarsetNamespaceIndex>(),
    Entry::of::<fns::WorkloadspreadSubset>(),
];

#[cfg(test)]
mod tests {
    use super::fns;
    use crate::registry::call;
    use serde_json::{Value, json};

    fn err(fn_id: &str, input: Value) -> (&'static str, Option<String>) {
        let e = call(fn_id, &input).unwrap_err();
        (e.kind, e.field)
    }

    /// Typed calls, no JSON at the top level.
    #[test]
    fn decisions_are_callable_typed() {
        let out = crate::decide::<fns::LaunchBarrierNext>(fns::LaunchBarrierNextInput {
            pod: json!({"spec": {"containers": [{"name": "a", "env": [{"name": "KRUISE_CONTAINER_BARRIER",
                "valueFrom": {"configMapKeyRef": {"key": "p_1"}}}]}]}}),
            barrier: Some(fns::Barrier::default()),
        })
        .unwrap();
        assert_eq!(out.next_priorities, [1]);
        assert_eq!(out.add_key.as_deref(), Some("p_1"));
        let out = crate::decide::<fns::DeleteProtection>(fns::DeleteProtectionInput {
            kind: "CloneSet".into(),
            object: json!({"metadata": {"labels": {"policy.kruise.io/delete-protection": "Always"}}}),
            dependents: None,
            feature_gates: Some(fns::DeleteProtectionFeatureGates {
                resources_deletion_protection: Some(true),
                ..Default::default()
            }),
            operation: None,
            sub_resource: None,
        });
        assert_eq!(
            out.unwrap_err().kind,
            super::delete_protection::FORBIDDEN_ALWAYS
        );
    }

    /// A missing or null required member is `invalid_input` naming the member (serde alone
    /// would name the whole input).
    #[test]
    fn missing_members_are_named() {
        assert_eq!(
            err("api.convert", json!({"object": {}})),
            ("invalid_input", Some("targetApiVersion".into()))
        );
        assert_eq!(
            err("api.convert", json!({"targetApiVersion": 5})),
            ("invalid_input", Some("object".into()))
        );
        assert_eq!(
            err("api.launch_priority", json!({"pod": null})),
            ("invalid_input", Some("pod".into()))
        );
        assert_eq!(
            err(
                "api.workloadspread_subset",
                json!({"workloadSpread": {}, "pod": {}})
            ),
            ("invalid_input", Some("operation".into()))
        );
        assert_eq!(
            err("api.delete_protection", json!({"object": {}})),
            ("invalid_input", Some("kind".into()))
        );
        assert_eq!(
            err("api.sidecar_order", json!({"x": 1})),
            ("invalid_input", Some("x".into()))
        );
        assert_eq!(
            err("api.sidecar_order", json!([])),
            ("invalid_input", Some("input".into()))
        );
    }

    /// serde reads an array as a struct; these inputs are objects only, as before.
    #[test]
    fn arrays_are_not_read_as_objects() {
        let e = err(
            "api.sidecar_order",
            json!({"sidecarContainers": [["a", "BeforeAppContainer"]]}),
        );
        assert_eq!(e, ("invalid_input", Some("sidecarContainers[0]".into())));
        let e = err(
            "api.sidecar_order",
            json!({"sidecarInitContainers": [{"upgradeStrategy": ["HotUpgrade"]}]}),
        );
        assert_eq!(
            e,
            (
                "invalid_input",
                Some("sidecarInitContainers[0].upgradeStrategy".into())
            )
        );
        assert_eq!(
            err("api.launch_barrier_next", json!({"pod": {}, "barrier": []}))
                .1
                .as_deref(),
            Some("barrier")
        );
        let e = err(
            "api.delete_protection",
            json!({"kind": "Namespace", "object": {}, "dependents": [[]]}),
        );
        assert_eq!(e.1.as_deref(), Some("dependents"));
        let e = err("api.default", json!({"object": {}, "featureGates": [true]}));
        assert_eq!(e.1.as_deref(), Some("featureGates"));
    }

    /// Members are checked in the order the decision reads them.
    #[test]
    fn first_error_in_reading_order() {
        let e = err(
            "api.sidecar_order",
            json!({"podContainers": [5], "sidecarContainers": [3]}),
        );
        assert_eq!(e.1.as_deref(), Some("podContainers[0]"));
        let e = err(
            "api.delete_protection",
            json!({"kind": "Namespace", "object": {},
            "featureGates": {"ResourcesDeletionProtection": "x"}, "operation": 5}),
        );
        assert_eq!(
            e.1.as_deref(),
            Some("featureGates.ResourcesDeletionProtection")
        );
        let e = err(
            "api.default",
            json!({"object": {}, "now": "bad", "featureGates": {"StatefulSetAutoDeletePVC": 5}}),
        );
        assert_eq!(e.1.as_deref(), Some("now"));
    }

    /// The JSON number `-0` is the integer 0 everywhere, as the registry's decode (and Go's
    /// encoding/json) reads it; `0.5` is still not an integer.
    #[test]
    fn negative_zero_is_zero() {
        let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap();
        let ws =
            r#"{"workloadSpread": {}, "pod": {}, "operation": "Create", "workloadReplicas": -0}"#;
        assert!(call("api.workloadspread_subset", &parse(ws)).is_ok());
        let ws =
            r#"{"workloadSpread": {}, "pod": {}, "operation": "Create", "workloadReplicas": 0.5}"#;
        assert_eq!(
            call("api.workloadspread_subset", &parse(ws))
                .unwrap_err()
                .kind,
            "invalid_input"
        );
        let sts = r#"{"object": {"apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet", "spec": {"replicas": -0}},
            "targetApiVersion": "apps.kruise.io/v1alpha1"}"#;
        assert_eq!(
            call("api.convert", &parse(sts)).unwrap()["spec"]["replicas"],
            json!(0)
        );
    }

    /// Output members absent today stay absent; members that are null stay present.
    #[test]
    fn output_members_as_before() {
        let skip = call(
            "api.launch_priority",
            &json!({"pod": {"spec": {"containers": [{"name": "a"}]}}}),
        )
        .unwrap();
        assert_eq!(skip, json!({"skip": true}));
        let ws = call(
            "api.workloadspread_subset",
            &json!({"workloadSpread": {}, "pod": {}, "operation": "Delete"}),
        )
        .unwrap();
        assert_eq!(
            ws,
            json!({"subset": null, "version": "versionIgnored", "statusChanged": false, "generatedUid": false})
        );
        let b = call(
            "api.launch_barrier_next",
            &json!({"pod": {}, "barrier": {"data": {}}}),
        )
        .unwrap();
        assert_eq!(
            b,
            json!({"nextPriorities": [], "shouldEnqueue": false, "createBarrier": false, "addKey": null, "markCompleted": true})
        );
    }
}
