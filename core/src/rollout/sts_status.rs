//! Advanced StatefulSet status from its pods: the counting of OpenKruise v1.9.0
//! `pkg/controller/statefulset/stateful_set_control.go` (`updateStatefulSet` builds the status:
//! generation, revisions, selector string; `updateStatus` / `computeReplicaStatus` count the pods)
//! and `updateStatefulSetStatus` (`completeRollingUpdate`, `inconsistentStatus` of
//! `stateful_set_utils.go`).
//!
//! Per pod given (every pod of the set, terminating ones included):
//!
//! - **replicas**: created (`status.phase` not empty);
//! - **ready**: phase `Running` and the first `Ready` condition `True` (`isRunningAndReady`);
//! - **available**: ready, the lifecycle label absent, empty or `Normal`, and with
//!   `spec.updateStrategy.rollingUpdate.minReadySeconds` ≠ 0 a `Ready` `lastTransitionTime` set and
//!   at least that many seconds before `now` (`isRunningAndAvailable`: exactly then counts, unlike
//!   the CloneSet);
//! - **current** / **updated**: created, not terminating, and the `controller-revision-hash` label
//!   equal to the current / update revision (exact match, no short hash);
//! - **updatedReady** / **updatedAvailable**: ready / available and on the update revision.
//!
//! With `updateStrategy.type` `RollingUpdate` (absent: the API default `RollingUpdate`), once every
//! pod is updated and ready (`updatedReplicas == replicas == readyReplicas`) the rolling update is
//! complete: `currentRevision` becomes the update revision and `currentReplicas` the updated count.

use super::status::{
    CloneSetCondition, ObjectMeta, Pod, REVISION_LABEL, lifecycle_normal, revisions,
    running_ready_for, selector_string,
};
use crate::error::Result;
use crate::k8s::null_as_default as null_default;
use crate::k8s::selector::LabelSelector;
use crate::time::parse_time;
use serde::{Deserialize, Serialize};

/// `spec.updateStrategy.rollingUpdate` of the Advanced StatefulSet (other members ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "StsStatusRollingUpdate")]
pub struct RollingUpdate {
    /// `minReadySeconds`; absent: 0.
    pub min_ready_seconds: Option<i32>,
}

/// `spec.updateStrategy` of the Advanced StatefulSet (other members ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "StsStatusUpdateStrategy")]
pub struct UpdateStrategy {
    /// `type`: `RollingUpdate` (absent or empty reads as the API default `RollingUpdate`) or
    /// `OnDelete`.
    #[serde(rename = "type", deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `rollingUpdate`.
    pub rolling_update: Option<RollingUpdate>,
}

/// The Advanced StatefulSet `spec` members read (others ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "StsStatusSpec")]
pub struct Spec {
    /// `selector`; absent or null: its string form is `""`.
    pub selector: Option<LabelSelector>,
    /// `updateStrategy`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<UpdateStrategy>")]
    pub update_strategy: UpdateStrategy,
}

/// The Advanced StatefulSet `status` on entry, the members read (others ignored; absent: zero).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default, rename_all = "camelCase")]
#[schemars(rename = "StsStatusIn")]
pub struct StatusIn {
    /// `observedGeneration` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i64>")]
    pub observed_generation: i64,
    /// `replicas` written last time (the counters are compared for `changed`).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub replicas: i32,
    /// `readyReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub ready_replicas: i32,
    /// `availableReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub available_replicas: i32,
    /// `currentReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub current_replicas: i32,
    /// `updatedReplicas` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<i32>")]
    pub updated_replicas: i32,
    /// `currentRevision`: the default of the input's `currentRevision`.
    pub current_revision: Option<String>,
    /// `updateRevision`: the default of the input's `updateRevision`.
    pub update_revision: Option<String>,
    /// `labelSelector` written last time.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<String>")]
    pub label_selector: String,
    /// `conditions` (not read; accepted as kubectl prints them).
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<CloneSetCondition>>")]
    pub conditions: Vec<CloneSetCondition>,
}

/// The Advanced StatefulSet as `kubectl get -o json` prints it (`apps.kruise.io/v1beta1`), reduced
/// to the members read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(default)]
#[schemars(rename = "StsStatusStatefulSet")]
pub struct StatefulSet {
    /// `metadata`: generation.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<ObjectMeta>")]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<Spec>")]
    pub spec: Spec,
    /// `status` on entry.
    #[serde(deserialize_with = "null_default")]
    #[schemars(with = "Option<StatusIn>")]
    pub status: StatusIn,
}

/// Input of `rollout.statefulset_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatefulsetStatusInput {
    /// The Advanced StatefulSet.
    pub stateful_set: StatefulSet,
    /// Its pods (all of them, terminating ones included); absent: none.
    #[serde(default, deserialize_with = "null_default")]
    #[schemars(with = "Option<Vec<Pod>>")]
    pub pods: Vec<Pod>,
    /// The update revision's name; absent or null: `statefulSet.status.updateRevision`.
    #[serde(default)]
    pub update_revision: Option<String>,
    /// The current revision's name; absent or null: `statefulSet.status.currentRevision`; empty:
    /// the update revision.
    #[serde(default)]
    pub current_revision: Option<String>,
    /// The reconcile time, RFC 3339 (availability under `minReadySeconds`).
    pub now: String,
}

/// The computed Advanced StatefulSet `status` fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "StatefulsetStatusFields")]
pub struct StatusFields {
    /// `metadata.generation`.
    pub observed_generation: i64,
    /// Created pods (phase set).
    pub replicas: i32,
    /// Running and ready pods.
    pub ready_replicas: i32,
    /// Ready pods ready for `minReadySeconds`, lifecycle state `Normal` (or none).
    pub available_replicas: i32,
    /// Created, not terminating pods on the current revision (the updated count once the rolling
    /// update is complete).
    pub current_replicas: i32,
    /// Created, not terminating pods on the update revision.
    pub updated_replicas: i32,
    /// Ready pods on the update revision.
    pub updated_ready_replicas: i32,
    /// Available pods on the update revision.
    pub updated_available_replicas: i32,
    /// The current revision (the update revision once the rolling update is complete).
    pub current_revision: String,
    /// The update revision.
    pub update_revision: String,
    /// `spec.selector` in Kubernetes' selector string form.
    pub label_selector: String,
}

/// Output of `rollout.statefulset_status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatefulsetStatusOutput {
    /// The computed fields.
    pub status: StatusFields,
    /// The controller writes the status (`inconsistentStatus`, volume claims aside): the observed
    /// generation grew, or a counter (replicas, current, ready, available, updated), a revision or
    /// the selector differs from the entry status.
    pub changed: bool,
}

/// `rollout.statefulset_status` on typed input. Errors: `invalid_revision`, `invalid_selector`,
/// `invalid_input` (a time that is not RFC 3339).
pub fn statefulset_status(i: &StatefulsetStatusInput) -> Result<StatefulsetStatusOutput> {
    let set = &i.stateful_set;
    let now = parse_time(&i.now, "now")?;
    let (update, current) = revisions(
        (
            i.update_revision.as_deref(),
            set.status.update_revision.as_deref(),
        ),
        (
            i.current_revision.as_deref(),
            set.status.current_revision.as_deref(),
        ),
    )?;
    let label_selector = selector_string(set.spec.selector.as_ref(), "statefulSet.spec.selector")?;
    let us = &set.spec.update_strategy;
    let mrs = us
        .rolling_update
        .as_ref()
        .and_then(|r| r.min_ready_seconds)
        .unwrap_or(0);
    let mut s = StatusFields {
        observed_generation: set.metadata.generation,
        current_revision: current,
        update_revision: update,
        label_selector,
        ..Default::default()
    };
    for (n, p) in i.pods.iter().enumerate() {
        let at = format!("pods[{n}]");
        if let Some(d) = &p.metadata.deletion_timestamp {
            parse_time(d, &format!("{at}.metadata.deletionTimestamp"))?;
        }
        let created = !p.status.phase.is_empty();
        let ready = running_ready_for(p, 0, now, false, &at)?;
        let available = ready && lifecycle_normal(p) && running_ready_for(p, mrs, now, false, &at)?;
        let rev = p
            .metadata
            .labels
            .get(REVISION_LABEL)
            .map_or("", String::as_str);
        let on_update = rev == s.update_revision;
        s.replicas += i32::from(created);
        s.ready_replicas += i32::from(ready);
        s.available_replicas += i32::from(available);
        s.updated_ready_replicas += i32::from(ready && on_update);
        s.updated_available_replicas += i32::from(available && on_update);
        if created && p.metadata.deletion_timestamp.is_none() {
            s.current_replicas += i32::from(rev == s.current_revision);
            s.updated_replicas += i32::from(on_update);
        }
    }
    if matches!(us.type_.as_str(), "" | "RollingUpdate")
        && s.updated_replicas == s.replicas
        && s.ready_replicas == s.replicas
    {
        s.current_replicas = s.updated_replicas;
        s.current_revision = s.update_revision.clone();
    }
    let old = &set.status;
    let changed = s.observed_generation > old.observed_generation
        || (s.replicas, s.current_replicas, s.ready_replicas)
            != (old.replicas, old.current_replicas, old.ready_replicas)
        || (s.available_replicas, s.updated_replicas)
            != (old.available_replicas, old.updated_replicas)
        || old.current_revision.as_deref().unwrap_or("") != s.current_revision
        || old.update_revision.as_deref().unwrap_or("") != s.update_revision
        || old.label_selector != s.label_selector;
    Ok(StatefulsetStatusOutput { status: s, changed })
}

/// `rollout.statefulset_status`: the Advanced StatefulSet status computed from its pods.
pub struct StatefulsetStatus;

impl crate::registry::Decision for StatefulsetStatus {
    const ID: &'static str = "rollout.statefulset_status";
    const DOC: &'static str = "Advanced StatefulSet status from its pods: replicas, ready, available, current, updated counts, rolling-update completion (kruise stateful_set_control.go updateStatus, completeRollingUpdate)";
    const SOURCE: &'static str = "pkg/controller/statefulset/stateful_set_control.go updateStatefulSet (new status), updateStatus, computeReplicaStatus, updateStatefulSetStatus; \
        pkg/controller/statefulset/stateful_set_utils.go isRunningAndAvailable, isRunningAndReady, isCreated, isTerminating, getPodRevision, getMinReadySeconds, completeRollingUpdate, inconsistentStatus";
    const ERRORS: &'static [&'static str] = &[
        super::status::INVALID_REVISION,
        super::status::INVALID_SELECTOR,
    ];
    type Input = StatefulsetStatusInput;
    type Output = StatefulsetStatusOutput;

    fn decide(input: StatefulsetStatusInput) -> Result<StatefulsetStatusOutput> {
        statefulset_status(&input)
    }
}
