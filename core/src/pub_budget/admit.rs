//! The pod validating webhook's PUB decision: allow, or deny with the exact reason, plus the
//! status change to write.
//!
//! Mirrors `pkg/webhook/pod/validating/pod_unavailable_budget.go`, `pod_create_update_handler.go`
//! and `PodUnavailableBudgetValidatePod` / the check-and-decrement step in
//! `pkg/control/pubcontrol/pub_control_utils.go` (OpenKruise v1.9.0); the flow is described in
//! `docs/pub.md`. The request as the API server posts it is read by [`super::review`].
//!
//! [`admit`] is allocation-free: it borrows its inputs and returns a [`StatusChange`] (the
//! decrement and the one record to add) instead of a copy of a status that may hold 2,000 records.

use super::classify::classify_update;
use super::protect::Operation;
use super::types::{
    ANN_NO_PROTECT, ANN_RELATED_PUB, FeatureGates, Pod, Pub, PubStatus, RecordTime,
};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// Record maps larger than this (together) deny further disruptions.
pub const MAX_RECORDS: usize = 2000;

/// The admission request's operation (`admission.k8s.io/v1` `AdmissionRequest.operation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum RequestOperation {
    /// `CREATE` (only the `eviction` subresource is checked).
    Create,
    /// `UPDATE` of a pod.
    Update,
    /// `DELETE` of a pod.
    Delete,
}

/// One admission request, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct AdmissionRequest<'a> {
    /// The request operation.
    pub operation: RequestOperation,
    /// `subResource` (`""`, `eviction`, `status`, ...).
    pub sub_resource: &'a str,
    /// Dry run (`dryRun` of the request / `DeleteOptions.dryRun` non-empty).
    pub dry_run: bool,
    /// UPDATE: the old and new pods.
    pub old_pod: Option<&'a Pod>,
    /// UPDATE: the new pod.
    pub new_pod: Option<&'a Pod>,
    /// DELETE: the old object (`None` = the request carried none); CREATE eviction: the pod
    /// being evicted, fetched by name.
    pub pod: Option<&'a Pod>,
}

/// Decision codes (the `decision` of `pub.admit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionCode {
    /// DELETE without an old object.
    NoOldObject,
    /// The relevant PUB gate is off.
    GateDisabled,
    /// The pod has no `kruise.io/related-pub`.
    NoRelatedPub,
    /// UPDATE that changes neither spec nor unavailable label.
    NoUnavailableChange,
    /// DELETE of a subresource / CREATE other than eviction.
    SubresourceIgnored,
    /// An operation the webhook does not check (`CONNECT`; `pub.admit_review` only).
    OperationIgnored,
    /// `pub.kruise.io/no-protect: "true"`.
    NoProtectAnnotation,
    /// The pod is not ready or not consistent: already unavailable.
    PodNotAvailable,
    /// The named PUB does not exist.
    PubNotFound,
    /// `status.desiredAvailable == 0`.
    DesiredAvailableZero,
    /// The PUB does not protect this operation.
    OperationNotProtected,
    /// The pod is already in a record map.
    AlreadyRecorded,
    /// Denied: `unavailableAllowed <= 0`.
    DeniedNoBudget,
    /// Denied: more than 2,000 records.
    DeniedTooManyRecords,
    /// Dry run that would be admitted: nothing written.
    DryRun,
    /// Admitted; the status change is written.
    Admitted,
    /// The pod webhook is not called for the request's namespace (`webhookNamespace`: the
    /// webhook configuration's `namespaceSelector` excludes it); allowed, nothing written.
    NamespaceExcluded,
}

impl DecisionCode {
    /// Whether the request is allowed.
    pub fn allowed(self) -> bool {
        !matches!(
            self,
            DecisionCode::DeniedNoBudget | DecisionCode::DeniedTooManyRecords
        )
    }
    /// The snake_case code.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionCode::NoOldObject => "no_old_object",
            DecisionCode::GateDisabled => "gate_disabled",
            DecisionCode::NoRelatedPub => "no_related_pub",
            DecisionCode::NoUnavailableChange => "no_unavailable_change",
            DecisionCode::SubresourceIgnored => "subresource_ignored",
            DecisionCode::OperationIgnored => "operation_ignored",
            DecisionCode::NoProtectAnnotation => "no_protect_annotation",
            DecisionCode::PodNotAvailable => "pod_not_available",
            DecisionCode::PubNotFound => "pub_not_found",
            DecisionCode::DesiredAvailableZero => "desired_available_zero",
            DecisionCode::OperationNotProtected => "operation_not_protected",
            DecisionCode::AlreadyRecorded => "already_recorded",
            DecisionCode::DeniedNoBudget => "denied_no_budget",
            DecisionCode::DeniedTooManyRecords => "denied_too_many_records",
            DecisionCode::DryRun => "dry_run",
            DecisionCode::Admitted => "admitted",
            DecisionCode::NamespaceExcluded => "namespace_excluded",
        }
    }
}

/// Which record map a change writes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordMap {
    /// `disruptedPods` (DELETE, EVICT, RESIZE).
    Disrupted,
    /// `unavailablePods` (UPDATE).
    Unavailable,
}

/// The status write of an admitted request: `unavailableAllowed` becomes `unavailable_allowed`
/// and `pod` is recorded in `map` at "now".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusChange<'a> {
    /// The decremented `unavailableAllowed`.
    pub unavailable_allowed: i32,
    /// The map receiving the record.
    pub map: RecordMap,
    /// The pod name recorded.
    pub pod: &'a str,
}

impl StatusChange<'_> {
    /// Applies the change to a copy of the status (missing maps are empty maps already).
    pub fn apply(&self, status: &PubStatus, now: &RecordTime) -> PubStatus {
        let mut s = status.clone();
        s.unavailable_allowed = self.unavailable_allowed;
        let m = match self.map {
            RecordMap::Disrupted => &mut s.disrupted_pods,
            RecordMap::Unavailable => &mut s.unavailable_pods,
        };
        m.insert(self.pod.to_owned(), now.clone());
        s
    }
}

/// The webhook's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision<'a> {
    /// The decision code (allowed unless `denied_*`).
    pub code: DecisionCode,
    /// The classified operation once the request is classified.
    pub operation: Option<Operation>,
    /// The status write (`admitted` only).
    pub change: Option<StatusChange<'a>>,
    /// The PUB name (for the denial reason).
    pub pub_name: &'a str,
}

impl Decision<'_> {
    /// Whether the request is allowed.
    pub fn allowed(&self) -> bool {
        self.code.allowed()
    }

    /// The denial reason (`""` when allowed), exactly as the webhook words it.
    pub fn reason(&self) -> String {
        let why = match self.code {
            DecisionCode::DeniedNoBudget => "pub unavailable allowed is negative",
            DecisionCode::DeniedTooManyRecords => {
                "DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller"
            }
            _ => return String::new(),
        };
        format!(
            "podunavailablebudget.policy.kruise.io \"{}\" is forbidden: {why}",
            self.pub_name
        )
    }
}

/// Decides one pod request against the PUB named by the checked pod's `kruise.io/related-pub`
/// (`pb = None`: not found). First match wins (the order of `docs/pub.md`, "Admission").
///
/// Errors: `invalid_input` when a pod the request needs is missing (`oldPod`, `newPod`, `pod`), or
/// from the update classification (unparsable cpu/memory quantity).
pub fn admit<'a>(
    req: &AdmissionRequest<'a>,
    pb: Option<&'a Pub>,
    gates: FeatureGates,
) -> Result<Decision<'a>> {
    let pub_name = pb.map_or("", |p| p.metadata.name.as_str());
    let done = |code, operation| {
        Ok(Decision {
            code,
            operation,
            change: None,
            pub_name,
        })
    };
    let need = |p: Option<&'a Pod>, field: &str| {
        p.ok_or_else(|| crate::Error::invalid_input(field, "required for this operation"))
    };

    // 1-2: no old object, gates
    match req.operation {
        RequestOperation::Delete if req.pod.is_none() => {
            return done(DecisionCode::NoOldObject, None);
        }
        RequestOperation::Update if !gates.update_checked() => {
            return done(DecisionCode::GateDisabled, None);
        }
        RequestOperation::Delete | RequestOperation::Create if !gates.delete_checked() => {
            return done(DecisionCode::GateDisabled, None);
        }
        _ => {}
    }
    // 3: classify
    let (pod, op) = match req.operation {
        RequestOperation::Update => {
            let new = need(req.new_pod, "newPod")?;
            if !has_related_pub(new) {
                return done(DecisionCode::NoRelatedPub, None);
            }
            let old = need(req.old_pod, "oldPod")?;
            let class = classify_update(old, new)?;
            match class.operation {
                None => return done(DecisionCode::NoUnavailableChange, None),
                Some(op) => (old, op),
            }
        }
        RequestOperation::Delete => {
            if !req.sub_resource.is_empty() {
                return done(DecisionCode::SubresourceIgnored, None);
            }
            (need(req.pod, "pod")?, Operation::Delete)
        }
        RequestOperation::Create => {
            if req.sub_resource != "eviction" {
                return done(DecisionCode::SubresourceIgnored, None);
            }
            (need(req.pod, "pod")?, Operation::Evict)
        }
    };
    let op_done = |code| done(code, Some(op));
    // 4-6: the checked pod
    if !has_related_pub(pod) {
        return op_done(DecisionCode::NoRelatedPub);
    }
    if pod
        .metadata
        .annotations
        .get(ANN_NO_PROTECT)
        .is_some_and(|v| v == "true")
    {
        return op_done(DecisionCode::NoProtectAnnotation);
    }
    if !pod.is_ready() || !pod.is_consistent() {
        return op_done(DecisionCode::PodNotAvailable);
    }
    // 7-10: the PUB
    let Some(pb) = pb else {
        return op_done(DecisionCode::PubNotFound);
    };
    let st = &pb.status;
    if st.desired_available == 0 {
        return op_done(DecisionCode::DesiredAvailableZero);
    }
    if !pb
        .protected_operations(gates.in_place_pod_vertical_scaling)
        .contains(op)
    {
        return op_done(DecisionCode::OperationNotProtected);
    }
    let name = pod.metadata.name.as_str();
    if st.unavailable_pods.contains_key(name) || st.disrupted_pods.contains_key(name) {
        return op_done(DecisionCode::AlreadyRecorded);
    }
    // 11: check and decrement
    if st.unavailable_allowed <= 0 {
        return op_done(DecisionCode::DeniedNoBudget);
    }
    if st.disrupted_pods.len() + st.unavailable_pods.len() > MAX_RECORDS {
        return op_done(DecisionCode::DeniedTooManyRecords);
    }
    // 12: dry run or write
    if req.dry_run {
        return op_done(DecisionCode::DryRun);
    }
    let map = if op == Operation::Update {
        RecordMap::Unavailable
    } else {
        RecordMap::Disrupted
    };
    let change = StatusChange {
        unavailable_allowed: st.unavailable_allowed - 1,
        map,
        pod: name,
    };
    Ok(Decision {
        code: DecisionCode::Admitted,
        operation: Some(op),
        change: Some(change),
        pub_name,
    })
}

fn has_related_pub(p: &Pod) -> bool {
    p.metadata
        .annotations
        .get(ANN_RELATED_PUB)
        .is_some_and(|v| !v.is_empty())
}
