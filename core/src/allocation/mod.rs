//! The `allocation` decision family: UnitedDeployment subset replica allocation as OpenKruise v1.9
//! does it (`pkg/controller/uniteddeployment/`). Fixed, elastic min/max, Adaptive and the v1.9
//! `reserveUnschedulablePods` reservation allocators, the per-subset adaptive status, pending and
//! reserved pod checks, and the webhook's allocation rules.
//!
//! Typed entry points: [`parse_subset_replicas`], [`next_replicas_with`], [`allocate()`],
//! [`subset_status()`], [`pending_timeout()`], [`pod_reserved()`], [`remark_recovered()`],
//! [`validate()`]. The registered decisions are in [`fns`] (typed inputs and outputs, the JSON
//! shapes of the conformance vectors); [`ENTRIES`] derives their JSON handlers.

pub mod allocate;
pub mod allocator;
pub mod elastic;
pub mod pending;
pub mod replicas;
pub mod reservation;
pub mod reserved;
pub mod specific;
pub mod subset_status;
pub mod types;
pub mod validate;

pub use allocate::{AdaptiveReport, AllocateOutcome, allocate};
pub use allocator::{Allocation, AllocatorKind, SubsetView, next_replicas_with};
/// The time type of this family's inputs (jiff 1), re-exported for adapters.
pub use jiff::Timestamp;
pub use pending::{PendingCheck, Requeue, Seconds, pending_timeout};
pub use replicas::parse_subset_replicas;
pub use reserved::{ReservedCheck, pod_reserved};
pub use subset_status::{StatusContext, SubsetOutcome, remark_recovered, subset_status};
pub use types::*;
pub use validate::{Violation, validate};

use crate::registry::Entry;

/// Registry entries of this family (input/output shapes: [`fns`], `docs/allocation.md`).
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::ParseReplicas>(),
    Entry::of::<fns::NextReplicas>(),
    Entry::of::<fns::Allocate>(),
    Entry::of::<fns::SubsetStatus>(),
    Entry::of::<fns::PendingTimeout>(),
    Entry::of::<fns::PodReserved>(),
    Entry::of::<fns::RemarkRecovered>(),
    Entry::of::<fns::Validate>(),
];

/// The typed decisions of this family: one unit struct per fn id (`allocation.next_replicas` is
/// [`fns::NextReplicas`]), with its input and output types. Their serde forms are the JSON shapes
/// of the conformance vectors.
///
/// ```
/// use kruise_core::allocation::fns::{NextReplicas, NextReplicasInput};
/// use kruise_core::allocation::{AllocatorKind, Subset, UdSpec};
/// let mut spec = UdSpec { replicas: Some(5), ..Default::default() };
/// for name in ["a", "b"] {
///     spec.topology.subsets.push(Subset { name: name.into(), ..Default::default() });
/// }
/// let out = kruise_core::decide::<NextReplicas>(NextReplicasInput { spec, subsets: Default::default() })?;
/// assert_eq!(out.allocator, AllocatorKind::Specific);
/// assert_eq!(out.replicas, vec![("a".to_string(), 2), ("b".to_string(), 3)]);
/// # Ok::<(), kruise_core::Error>(())
/// ```
pub mod fns {
    use super::allocator::{DUPLICATE_SUBSET_NAME, MIN_GREATER_THAN_MAX};
    use super::replicas::{
        INVALID_PERCENT, NEGATIVE_VALUE, NOT_PERCENT, PERCENT_OUT_OF_RANGE, PERCENT_REQUIRES_TOTAL,
    };
    use super::specific::{
        SPECIFIED_EXCEEDS_TOTAL, SPECIFIED_LESS_THAN_TOTAL, UNSPECIFIED_TOTAL_REQUIRES_ALL,
    };
    use super::types::{self, Condition, Pod, ScheduleStrategy, UdSpec, UdStatus, Workload};
    use super::{AllocateOutcome, StatusContext, SubsetView, parse_time};
    use crate::error::{Error, Result};
    use crate::intstr::IntOrPercent;
    use crate::registry::Decision;
    use jiff::Timestamp;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    pub use super::allocator::{Allocation, AllocatorKind};
    pub use super::pending::Seconds;
    pub use super::types::UnschedulableStatus;

    const ALLOCATOR_ERRORS: &[&str] = &[
        DUPLICATE_SUBSET_NAME,
        SPECIFIED_EXCEEDS_TOTAL,
        SPECIFIED_LESS_THAN_TOTAL,
        UNSPECIFIED_TOTAL_REQUIRES_ALL,
        MIN_GREATER_THAN_MAX,
    ];

    fn now_of(s: &str) -> Result<Timestamp> {
        parse_time(s, "now")
    }

    /// A condition as the answers show it: status, reason and transition time.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct ConditionSummary {
        /// `"True"`, `"False"` or `"Unknown"`.
        pub status: String,
        /// Reason (`""` when none), e.g. `reschedule`, `recover`, `created`.
        pub reason: String,
        /// Last transition time, RFC 3339 UTC (`null` when the condition has none).
        #[serde(serialize_with = "ser_opt_time")]
        #[schemars(with = "Option<String>")]
        pub last_transition_time: Option<Timestamp>,
    }

    impl From<&Condition> for ConditionSummary {
        fn from(c: &Condition) -> Self {
            ConditionSummary {
                status: c.status.clone(),
                reason: c.reason.clone(),
                last_transition_time: c.last_transition_time,
            }
        }
    }

    fn ser_opt_time<S: serde::Serializer>(
        t: &Option<Timestamp>,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&types::format_time(*t)),
            None => s.serialize_none(),
        }
    }

    // ---- allocation.parse_replicas ----

    /// Input of `allocation.parse_replicas`.
    #[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct ParseReplicasInput {
        /// The UnitedDeployment's `spec.replicas` (int32); absent or `null` = unset, which the
        /// reference passes on as -1 (a percentage then fails with `percent_requires_total`).
        #[serde(default)]
        pub replicas: Option<i32>,
        /// The subset's `replicas`, `minReplicas` or `maxReplicas`: an int32 or a `"<p>%"` string.
        /// Required (absent or `null` is `invalid_input`).
        #[serde(default, deserialize_with = "types::de_int_or_percent")]
        pub value: Option<IntOrPercent>,
    }

    /// `allocation.parse_replicas`: the subset's replicas (an integer).
    pub struct ParseReplicas;

    impl Decision for ParseReplicas {
        const ID: &'static str = "allocation.parse_replicas";
        const DOC: &'static str = "Resolve a subset int-or-percent against spec.replicas (ParseSubsetReplicas, uniteddeployment_controller_utils.go)";
        const SOURCE: &'static str = "pkg/controller/uniteddeployment/uniteddeployment_controller_utils.go ParseSubsetReplicas";
        const ERRORS: &'static [&'static str] = &[
            NEGATIVE_VALUE,
            PERCENT_REQUIRES_TOTAL,
            NOT_PERCENT,
            INVALID_PERCENT,
            PERCENT_OUT_OF_RANGE,
        ];
        type Input = ParseReplicasInput;
        type Output = i64;

        fn decide(i: ParseReplicasInput) -> Result<i64> {
            let v = i.value.ok_or_else(|| {
                Error::invalid_input("value", "a subset replicas value is required")
            })?;
            super::parse_subset_replicas(i.replicas.map_or(-1, i64::from), &v, "value")
        }
    }

    // ---- allocation.next_replicas ----

    /// Input of `allocation.next_replicas`.
    #[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct NextReplicasInput {
        /// The UnitedDeployment's `spec` (required; selects the allocator).
        pub spec: UdSpec,
        /// Existing subset workloads by subset name (absent or `null` = none created yet). Their
        /// `unschedulableStatus` is the adaptive status the adaptive and reservation allocators read.
        #[serde(default, deserialize_with = "types::null_as_default")]
        #[schemars(with = "Option<BTreeMap<String, Workload>>")]
        pub subsets: BTreeMap<String, Workload>,
    }

    /// `allocation.next_replicas`: the allocator that ran and the replicas per subset.
    pub struct NextReplicas;

    impl Decision for NextReplicas {
        const ID: &'static str = "allocation.next_replicas";
        const DOC: &'static str =
            "Run the specific/minMax/adaptive/reservation allocator (allocator.go)";
        const SOURCE: &'static str = "pkg/controller/uniteddeployment/allocator.go NewReplicaAllocator, Alloc \
            (specificAllocator, minMaxAllocator, adaptiveAllocator, reservationAllocator)";
        const ERRORS: &'static [&'static str] = ALLOCATOR_ERRORS;
        type Input = NextReplicasInput;
        type Output = Allocation;

        fn decide(i: NextReplicasInput) -> Result<Allocation> {
            super::next_replicas_with(&i.spec, |name| {
                i.subsets.get(name).map(|w| SubsetView {
                    spec_replicas: i64::from(w.spec.replicas),
                    ready_replicas: i64::from(w.status.ready_replicas),
                    status: w.unschedulable_status.unwrap_or_default(),
                })
            })
        }
    }

    // ---- allocation.allocate ----

    /// Input of `allocation.allocate`.
    #[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct AllocateInput {
        /// The UnitedDeployment's `spec` (required).
        pub spec: UdSpec,
        /// The UnitedDeployment's `status` (absent or `null` = empty: no subset statuses, no
        /// conditions).
        #[serde(default)]
        pub status: Option<UdStatus>,
        /// `status.currentRevision` (default `""`).
        #[serde(default)]
        pub current_revision: String,
        /// The revision being rolled out (default `""`); also every workload's updated revision.
        #[serde(default)]
        pub updated_revision: String,
        /// Existing subset workloads with their pods, by subset name (absent or `null` = none).
        /// Their `unschedulableStatus` is ignored and recomputed.
        #[serde(default, deserialize_with = "types::null_as_default")]
        #[schemars(with = "Option<BTreeMap<String, Workload>>")]
        pub subsets: BTreeMap<String, Workload>,
        /// The reconcile time, RFC 3339 (as Go's `time.RFC3339` parses it).
        pub now: String,
    }

    /// Output of `allocation.allocate`: the allocation, plus the adaptive report for the
    /// `Adaptive` schedule type (the four members after `temporaryReplicas` are absent otherwise).
    #[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct AllocateOutput {
        /// The allocator, replicas per subset and (reservation only) temporary replicas.
        #[serde(flatten)]
        pub allocation: Allocation,
        /// Adaptive only: the recomputed status of every existing workload, by subset name.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[schemars(with = "BTreeMap<String, UnschedulableStatus>")]
        pub subsets: Option<BTreeMap<String, UnschedulableStatus>>,
        /// Adaptive only: every subset status's `Schedulable` condition after the reconcile, by
        /// subset name (`null` for a subset without one).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[schemars(with = "BTreeMap<String, Option<ConditionSummary>>")]
        pub subset_conditions: Option<BTreeMap<String, Option<ConditionSummary>>>,
        /// Adaptive only: the requeue delay, seconds (0 = no requeue).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Seconds")]
        pub requeue_after_seconds: Option<Seconds>,
        /// Reservation only: pod name -> the reserved label it must get (`true` = `"true"`).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[schemars(with = "BTreeMap<String, bool>")]
        pub pod_reserved_labels: Option<BTreeMap<String, bool>>,
    }

    impl From<&AllocateOutcome> for AllocateOutput {
        fn from(o: &AllocateOutcome) -> Self {
            let rep = o.adaptive.as_ref();
            AllocateOutput {
                allocation: o.allocation.clone(),
                subsets: rep.map(|r| r.subsets.clone()),
                subset_conditions: rep.map(|_| {
                    o.status
                        .subset_statuses
                        .iter()
                        .map(|s| (s.name.clone(), s.schedulable().map(ConditionSummary::from)))
                        .collect()
                }),
                requeue_after_seconds: rep.map(|r| Seconds(r.requeue.nanos().unwrap_or(0))),
                pod_reserved_labels: rep.and_then(|r| r.pod_reserved_labels.clone()),
            }
        }
    }

    /// `allocation.allocate`: one reconcile's allocation steps.
    pub struct Allocate;

    impl Decision for Allocate {
        const ID: &'static str = "allocation.allocate";
        const DOC: &'static str =
            "One reconcile's allocation steps 1-5 (uniteddeployment_controller.go Reconcile)";
        const SOURCE: &'static str = "pkg/controller/uniteddeployment/uniteddeployment_controller.go Reconcile \
            (initStatus, setUpdatedCondition, calculateSubsetsStatusFor*AdaptiveStrategy, NewReplicaAllocator().Alloc, \
            postProcessSubsetStatusForReservedAdaptiveStrategy)";
        const ERRORS: &'static [&'static str] = ALLOCATOR_ERRORS;
        type Input = AllocateInput;
        type Output = AllocateOutput;

        fn decide(i: AllocateInput) -> Result<AllocateOutput> {
            let now = now_of(&i.now)?;
            let o = super::allocate(
                &i.spec,
                &i.status.unwrap_or_default(),
                &i.current_revision,
                &i.updated_revision,
                &i.subsets,
                now,
            )?;
            Ok(AllocateOutput::from(&o))
        }
    }

    // ---- allocation.subset_status ----

    /// Input of `allocation.subset_status`.
    #[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct SubsetStatusInput {
        /// `spec.topology.scheduleStrategy` (absent = Fixed, nothing is computed).
        #[serde(default)]
        pub schedule_strategy: ScheduleStrategy,
        /// The subset's entry of `status.subsetStatuses` (absent or `null` = none: nothing is
        /// computed).
        #[serde(default)]
        pub subset_status: Option<types::SubsetStatus>,
        /// The subset's workload and its pods (absent or `null` = empty).
        #[serde(default, deserialize_with = "types::null_as_default")]
        #[schemars(with = "Option<Workload>")]
        pub subset: Workload,
        /// The UnitedDeployment's target revision (default `""`).
        #[serde(default)]
        pub updated_revision: String,
        /// The `UnitedDeploymentUpdated` condition (absent or `null` = unknown; reservation mode
        /// then cannot judge old-revision pods: `invalid_input`). A missing
        /// `lastTransitionTime` reads as Go's zero time.
        #[serde(default)]
        pub updated_condition: Option<Condition>,
        /// The reconcile time, RFC 3339.
        pub now: String,
    }

    /// One reserved-label patch: the pod and the label value it must get.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
    pub struct ReservedLabelPatch {
        /// Pod name.
        pub name: String,
        /// The new `apps.kruise.io/united-deployment-reserved-pod` value (`true` = `"true"`).
        pub reserved: bool,
    }

    /// Output of `allocation.subset_status`.
    #[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct SubsetStatusOutput {
        /// The recomputed in-memory status.
        pub unschedulable_status: UnschedulableStatus,
        /// The subset's `Schedulable` condition afterwards (`null` when the subset status has none,
        /// or there is no subset status).
        pub schedulable_condition: Option<ConditionSummary>,
        /// Reserved-label patches in pod order (reservation mode; otherwise empty).
        pub pods_to_patch: Vec<ReservedLabelPatch>,
        /// The requeue delay this subset asks for, seconds (0 = none).
        pub requeue_after_seconds: Seconds,
    }

    /// `allocation.subset_status`: one subset's adaptive status and `Schedulable` condition.
    pub struct SubsetStatus;

    impl Decision for SubsetStatus {
        const ID: &'static str = "allocation.subset_status";
        const DOC: &'static str = "Per-subset adaptive status and Schedulable condition (calculateSubsetsStatusFor*AdaptiveStrategy)";
        const SOURCE: &'static str = "pkg/controller/uniteddeployment/uniteddeployment_controller.go \
            calculateSubsetsStatusForDefaultAdaptiveStrategy, calculateSubsetsStatusForReservedAdaptiveStrategy";
        const ERRORS: &'static [&'static str] = &[];
        type Input = SubsetStatusInput;
        type Output = SubsetStatusOutput;

        fn decide(i: SubsetStatusInput) -> Result<SubsetStatusOutput> {
            let now = now_of(&i.now)?;
            let mut st = i.subset_status;
            let ctx = StatusContext {
                strategy: &i.schedule_strategy,
                updated_revision: &i.updated_revision,
                updated_since: i
                    .updated_condition
                    .as_ref()
                    .map(|c| c.last_transition_time.unwrap_or_else(types::go_zero_time)),
                now,
            };
            let out = super::subset_status(&ctx, st.as_mut(), &i.subset)?;
            Ok(SubsetStatusOutput {
                unschedulable_status: out.status,
                schedulable_condition: st
                    .as_ref()
                    .and_then(|s| s.schedulable())
                    .map(ConditionSummary::from),
                pods_to_patch: out
                    .pods_to_patch
                    .into_iter()
                    .map(|(name, reserved)| ReservedLabelPatch { name, reserved })
                    .collect(),
                requeue_after_seconds: Seconds(out.requeue.nanos().unwrap_or(0)),
            })
        }
    }

    // ---- allocation.pending_timeout ----

    /// Input of `allocation.pending_timeout`.
    #[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct PendingTimeoutInput {
        /// The pod.
        pub pod: Pod,
        /// The timeout, seconds, measured from the pod's `creationTimestamp`.
        pub timeout_seconds: i64,
        /// The current time, RFC 3339.
        pub now: String,
    }

    /// Output of `allocation.pending_timeout`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct PendingTimeoutOutput {
        /// The pod has been unschedulable-pending longer than the timeout.
        pub timed_out: bool,
        /// When to look again, seconds (`null` = no re-check; 0 exactly at the deadline).
        pub next_check_after_seconds: Option<Seconds>,
    }

    /// `allocation.pending_timeout`: whether an unschedulable pending pod timed out.
    pub struct PendingTimeout;

    impl Decision for PendingTimeout {
        const ID: &'static str = "allocation.pending_timeout";
        const DOC: &'static str = "Pending-pod timeout (GetTimeBeforePendingTimeout, pkg/controller/util/pod_condition_utils.go)";
        const SOURCE: &'static str =
            "pkg/controller/util/pod_condition_utils.go GetTimeBeforePendingTimeout";
        const ERRORS: &'static [&'static str] = &[];
        type Input = PendingTimeoutInput;
        type Output = PendingTimeoutOutput;

        fn decide(i: PendingTimeoutInput) -> Result<PendingTimeoutOutput> {
            let p = super::pending_timeout(&i.pod, i.timeout_seconds, now_of(&i.now)?)?;
            Ok(PendingTimeoutOutput {
                timed_out: p.timed_out,
                next_check_after_seconds: p.check_after_nanos.map(Seconds),
            })
        }
    }

    // ---- allocation.pod_reserved ----

    /// Input of `allocation.pod_reserved`.
    #[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct PodReservedInput {
        /// The pod.
        pub pod: Pod,
        /// The UnitedDeployment's target revision (default `""`).
        #[serde(default)]
        pub updated_revision: String,
        /// `lastTransitionTime` of the `UnitedDeploymentUpdated` condition, RFC 3339 (absent or
        /// `null` = no condition: `invalid_input` when an old-revision pod needs it).
        #[serde(default)]
        pub updated_condition_last_transition_time: Option<String>,
        /// `rescheduleCriticalSeconds`: the pending (and rollout) timeout, seconds.
        pub pending_timeout_seconds: i64,
        /// How long a labelled pod must have been Ready to leave the reserved state, seconds.
        pub min_ready_seconds: i64,
        /// The current time, RFC 3339.
        pub now: String,
    }

    /// Output of `allocation.pod_reserved`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct PodReservedOutput {
        /// The pod is (still) reserved.
        pub reserved: bool,
        /// When to look again, seconds (`null` = no re-check).
        pub next_check_after_seconds: Option<Seconds>,
        /// The pod became reserved because the rollout outlasted the pending timeout.
        pub update_timeout: bool,
    }

    /// `allocation.pod_reserved`: whether a pod is really reserved.
    pub struct PodReserved;

    impl Decision for PodReserved {
        const ID: &'static str = "allocation.pod_reserved";
        const DOC: &'static str = "Reserved-pod check (CheckPodReallyInReservedStatus, uniteddeployment_controller_utils.go)";
        const SOURCE: &'static str = "pkg/controller/uniteddeployment/uniteddeployment_controller_utils.go CheckPodReallyInReservedStatus";
        const ERRORS: &'static [&'static str] = &[];
        type Input = PodReservedInput;
        type Output = PodReservedOutput;

        fn decide(i: PodReservedInput) -> Result<PodReservedOutput> {
            let since = i
                .updated_condition_last_transition_time
                .as_deref()
                .map(|s| parse_time(s, "updatedConditionLastTransitionTime"))
                .transpose()?;
            let r = super::pod_reserved(
                &i.pod,
                &i.updated_revision,
                since,
                i.pending_timeout_seconds,
                i.min_ready_seconds,
                now_of(&i.now)?,
            )
            .map_err(|e| {
                if e.field.as_deref() == Some("updatedCondition") {
                    Error {
                        field: Some("updatedConditionLastTransitionTime".into()),
                        ..e
                    }
                } else {
                    e
                }
            })?;
            Ok(PodReservedOutput {
                reserved: r.reserved,
                next_check_after_seconds: r.check_after_nanos.map(Seconds),
                update_timeout: r.update_timeout,
            })
        }
    }

    // ---- allocation.remark_recovered ----

    /// Input of `allocation.remark_recovered`: the subset's status and its replicas before and
    /// after the allocation.
    #[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct RemarkRecoveredInput {
        /// The subset is unschedulable after the status step (default false).
        #[serde(default)]
        pub unschedulable: bool,
        /// The subset's `Schedulable` condition was `"False"` before the reconcile (default false).
        #[serde(default)]
        pub marked_as_unschedulable: bool,
        /// The workload's current `spec.replicas`.
        pub current_replicas: i64,
        /// The replicas the allocator gave the subset.
        pub next_replicas: i64,
    }

    /// Output of `allocation.remark_recovered`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct RemarkRecoveredOutput {
        /// The subset's `Schedulable` condition must go back to `"False"` (reason `reschedule`).
        pub mark_unschedulable: bool,
    }

    /// `allocation.remark_recovered`: whether a just-recovered subset that scales up is re-marked.
    pub struct RemarkRecovered;

    impl Decision for RemarkRecovered {
        const ID: &'static str = "allocation.remark_recovered";
        const DOC: &'static str = "Re-mark a just-recovered subset that scales up (postProcessSubsetStatusForReservedAdaptiveStrategy)";
        const SOURCE: &'static str = "pkg/controller/uniteddeployment/uniteddeployment_controller.go \
            postProcessSubsetStatusForReservedAdaptiveStrategy";
        const ERRORS: &'static [&'static str] = &[];
        type Input = RemarkRecoveredInput;
        type Output = RemarkRecoveredOutput;

        fn decide(i: RemarkRecoveredInput) -> Result<RemarkRecoveredOutput> {
            let st = UnschedulableStatus {
                unschedulable: i.unschedulable,
                marked_as_unschedulable: i.marked_as_unschedulable,
                ..Default::default()
            };
            Ok(RemarkRecoveredOutput {
                mark_unschedulable: super::remark_recovered(
                    &st,
                    i.current_replicas,
                    i.next_replicas,
                ),
            })
        }
    }

    // ---- allocation.validate ----

    /// Input of `allocation.validate`.
    #[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    pub struct ValidateInput {
        /// The UnitedDeployment's `spec` (absent or `null` = the zero spec, which has violations).
        #[serde(default, deserialize_with = "types::null_as_default")]
        #[schemars(with = "Option<UdSpec>")]
        pub spec: UdSpec,
    }

    /// `allocation.validate`: the kinds of the webhook's violations in the reference's order, e.g.
    /// `["sum_replicas_mismatch"]` (empty = valid). [`super::validate()`] also gives each
    /// violation's field.
    pub struct Validate;

    impl Decision for Validate {
        const ID: &'static str = "allocation.validate";
        const DOC: &'static str = "Webhook allocation rules (validateUnitedDeploymentSpec)";
        const SOURCE: &'static str = "pkg/webhook/uniteddeployment/validating/uniteddeployment_validation.go validateUnitedDeploymentSpec";
        const ERRORS: &'static [&'static str] = &[];
        type Input = ValidateInput;
        type Output = Vec<String>;

        fn decide(i: ValidateInput) -> Result<Vec<String>> {
            Ok(super::validate(&i.spec)
                .into_iter()
                .map(|v| v.kind.to_string())
                .collect())
        }
    }
}

#[cfg(test)]
mod tests;
