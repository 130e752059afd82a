//! One pass of OpenKruise v1.9.0's sidecar terminator controller over a job pod
//! (`pkg/controller/sidecarterminator`, `doReconcile`).
//!
//! A container is a sidecar of the terminator when its `env` says so:
//! - `KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT` = `true` (any letter case): a normal sidecar,
//!   stopped through a ContainerRecreateRequest (CRR) named `sidecar-termination-<pod uid>`;
//! - plus `KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE` = `true` (any case; v1.9): its exit code
//!   is ignored: the pod's phase is written first (from the main containers alone), then it is
//!   stopped through the CRR;
//! - `KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE` non-empty: on a virtual-kubelet node
//!   (node label `type=virtual-kubelet`) it is stopped by replacing its image in place.
//!
//! The pass, in order:
//! 1. `isInterestingPod`: no deletion timestamp, phase not `Pending`, restart policy not
//!    `Always`, at least one sidecar not terminated, and the main containers terminated
//!    (`Never`) or terminated with exit code 0 (`OnFailure`); any other restart policy is
//!    ignored. "Terminated" needs one container status per container (equal counts).
//! 2. The Node named by `spec.nodeName` is read (a missing one fails the pass: requeue).
//! 3. The sidecars are split: on a virtual-kubelet node only the image ones, elsewhere the
//!    ignore-exit-code ones and the normal ones.
//! 4. In-place image update of the image sidecars that are not terminated.
//! 5. CRR for the normal sidecars not terminated, unless the CRR already exists (then wait).
//! 6. When there are ignore-exit-code sidecars and every normal and image sidecar is terminated:
//!    unless the phase is already `Succeeded` or `Failed`, the status is patched with the phase
//!    `Succeeded` (every main container exited 0) or `Failed`, and the condition
//!    `SidecarTerminated`; then the CRR for the ignore-exit-code sidecars not terminated (unless
//!    it exists).

use crate::k8s::null_as_default;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The env switching a container to a sidecar the terminator stops (`KruiseTerminateSidecarEnv`).
pub const ENV_TERMINATE: &str = "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT";
/// The env ignoring the sidecar's exit code (`KruiseIgnoreContainerExitCodeEnv`, v1.9).
pub const ENV_IGNORE_EXIT_CODE: &str = "KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE";
/// The env naming the image that replaces the sidecar's on a virtual-kubelet node
/// (`KruiseTerminateSidecarWithImageEnv`).
pub const ENV_WITH_IMAGE: &str = "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE";
/// The node label marking a virtual-kubelet node (`util.VirtualKubeletLabelKey` / `Value`).
pub const VIRTUAL_KUBELET_LABEL: (&str, &str) = ("type", "virtual-kubelet");
/// The pod condition type the status patch adds.
pub const CONDITION_SIDECAR_TERMINATED: &str = "SidecarTerminated";

/// `jobsidecar.decide` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DecideInput {
    /// The job pod as the controller reads it (a whole Pod may be passed; other members are
    /// ignored).
    pub pod: JobPod,
    /// The Node named by the pod's `spec.nodeName` (a whole Node may be passed; its
    /// `metadata.labels` are read). Null or absent: no such node (also when `spec.nodeName` is
    /// empty); the pass then fails and is retried.
    #[serde(default)]
    pub node: Option<JobNode>,
    /// Whether the ContainerRecreateRequest `sidecar-termination-<pod uid>` already exists in the
    /// pod's namespace. Null or absent: false.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub container_recreate_request_exists: bool,
}

/// The job pod: the shared [`crate::k8s::pod::Pod`] (read here: `metadata.name`, `uid`,
/// `deletionTimestamp`; `spec.nodeName`, `restartPolicy` (`Never` and `OnFailure` pods are
/// handled; `Always`, `""` and any other value are not), `containers` (their `name`, `image`,
/// `env`; init containers are not read); `status.phase`, `containerStatuses` (`name`,
/// `state.terminated.exitCode`; until there is one per container, no container counts as
/// terminated for the main/sidecar checks)), under this module's old names.
pub type JobPod = crate::k8s::pod::Pod;
/// Pod `metadata`: the shared [`crate::k8s::meta::ObjectMeta`].
pub type JobPodMeta = crate::k8s::meta::ObjectMeta;
/// Pod `spec`: the shared [`crate::k8s::pod::PodSpec`].
pub type JobPodSpec = crate::k8s::pod::PodSpec;
/// One container: the shared [`crate::k8s::pod::Container`].
pub type JobContainer = crate::k8s::pod::Container;
/// One `env` entry: the shared [`crate::k8s::pod::EnvVar`].
pub type JobEnvVar = crate::k8s::pod::EnvVar;
/// Pod `status`: the shared [`crate::k8s::pod::PodStatus`].
pub type JobPodStatus = crate::k8s::pod::PodStatus;
/// One container status: the shared [`crate::k8s::pod::ContainerStatus`].
pub type JobContainerStatus = crate::k8s::pod::ContainerStatus;
/// A container status's `state`: the shared [`crate::k8s::pod::ContainerState`].
pub type JobContainerState = crate::k8s::pod::ContainerState;
/// `state.terminated`: the shared [`crate::k8s::pod::ContainerStateTerminated`].
pub type Terminated = crate::k8s::pod::ContainerStateTerminated;

/// A Node, reduced to its labels.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobNode {
    /// `metadata`; absent or null: no labels.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<JobNodeMeta>")]
    pub metadata: JobNodeMeta,
}

/// Node `metadata`: the shared [`crate::k8s::meta::ObjectMeta`] (read here: `labels`, where
/// `type: virtual-kubelet` marks a virtual-kubelet node).
pub type JobNodeMeta = crate::k8s::meta::ObjectMeta;

/// `jobsidecar.decide` output: what the pass does.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecideOutput {
    /// Whether the pod is one the terminator handles (`isInterestingPod`); when false nothing
    /// else happens.
    pub handled: bool,
    /// The pod's node could not be read: the pass stops with an error and is retried; nothing
    /// else happens.
    pub node_not_found: bool,
    /// Whether the pod's node is a virtual-kubelet node (label `type: virtual-kubelet`).
    pub virtual_kubelet: bool,
    /// The containers whose image the pod update replaces (virtual-kubelet node), in container
    /// order; empty: no pod update.
    pub in_place_update: Vec<ImageUpdate>,
    /// The ContainerRecreateRequest created; null: none.
    pub container_recreate_request: Option<ContainerRecreateRequest>,
    /// Sidecars had to be stopped through the CRR but it already exists (given as existing, or
    /// created by this pass's normal-sidecar step): the pass waits for it.
    pub waiting_for_container_recreate_request: bool,
    /// The pod status patch (the ignore-exit-code path); null: none.
    pub status_patch: Option<StatusPatch>,
    /// The pod's phase after the pass (the patched one, or the input's).
    pub phase: String,
}

/// One container's image replacement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImageUpdate {
    /// The container's name.
    pub name: String,
    /// Its new image: the first `KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE` env value.
    pub image: String,
}

/// The ContainerRecreateRequest the pass creates (apps.kruise.io; in the pod's namespace,
/// controlled by the pod, `strategy: {forceRecreate: true, failurePolicy: Ignore}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContainerRecreateRequest {
    /// `metadata.name`: `sidecar-termination-<pod uid>`.
    pub name: String,
    /// `spec.podName`.
    pub pod_name: String,
    /// `spec.containers[].name`: the sidecars not terminated, sorted by name (the reference's
    /// order is a Go set's, unspecified).
    pub containers: Vec<String>,
}

/// The strategic-merge patch of the pod's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusPatch {
    /// `status.phase`: `Succeeded` when every main container terminated with exit code 0,
    /// otherwise `Failed`.
    pub phase: String,
    /// The condition added: `SidecarTerminated`, status `True`.
    pub condition_type: String,
}

type Names<'a> = BTreeSet<&'a str>;

fn env_true(c: &JobContainer, name: &str) -> bool {
    c.env
        .iter()
        .any(|e| e.name == name && e.value.eq_ignore_ascii_case("true"))
}

/// `isNormalSidecar`.
fn is_normal(c: &JobContainer) -> bool {
    env_true(c, ENV_TERMINATE)
}

/// `isIgnoreExitCodeSidecar`.
fn is_ignore_exit_code(c: &JobContainer) -> bool {
    is_normal(c) && env_true(c, ENV_IGNORE_EXIT_CODE)
}

/// `isInplaceUpdateSidecar`.
fn is_image(c: &JobContainer) -> bool {
    c.env
        .iter()
        .any(|e| e.name == ENV_WITH_IMAGE && !e.value.is_empty())
}

/// `getImageFromEnv`: the first entry's value, even empty.
fn image_from_env(c: &JobContainer) -> &str {
    c.env
        .iter()
        .find(|e| e.name == ENV_WITH_IMAGE)
        .map_or("", |e| e.value.as_str())
}

/// Whether every status of a container in `names` satisfies `ok`, given one status per container.
fn statuses_all(pod: &JobPod, names: &Names, ok: impl Fn(Option<&Terminated>) -> bool) -> bool {
    pod.spec.containers.len() == pod.status.container_statuses.len()
        && pod
            .status
            .container_statuses
            .iter()
            .filter(|s| names.contains(s.name.as_str()))
            .all(|s| ok(s.state.terminated.as_ref()))
}

/// `containersCompleted`.
fn completed(pod: &JobPod, names: &Names) -> bool {
    statuses_all(pod, names, |t| t.is_some())
}

/// `containersSucceeded`.
fn succeeded(pod: &JobPod, names: &Names) -> bool {
    statuses_all(pod, names, |t| t.is_some_and(|t| t.exit_code == 0))
}

/// `groupMainSidecarContainers`: (main, sidecar) names.
fn group(pod: &JobPod) -> (Names<'_>, Names<'_>) {
    let (mut mains, mut sidecars) = (Names::new(), Names::new());
    for c in &pod.spec.containers {
        let set = if is_normal(c) || is_image(c) {
            &mut sidecars
        } else {
            &mut mains
        };
        set.insert(c.name.as_str());
    }
    (mains, sidecars)
}

/// `isInterestingPod`.
pub fn is_handled(pod: &JobPod) -> bool {
    if pod.metadata.deletion_timestamp.is_some()
        || pod.status.phase == "Pending"
        || pod.spec.restart_policy == "Always"
    {
        return false;
    }
    let (mains, sidecars) = group(pod);
    if sidecars.is_empty() || completed(pod, &sidecars) {
        return false;
    }
    match pod.spec.restart_policy.as_str() {
        "Never" => completed(pod, &mains),
        "OnFailure" => succeeded(pod, &mains),
        _ => false,
    }
}

/// `filterUncompletedSidecars`: the names without a terminated status.
fn uncompleted<'a>(pod: &JobPod, names: &Names<'a>) -> Names<'a> {
    let done = |name: &str| {
        pod.status
            .container_statuses
            .iter()
            .any(|s| s.name == name && s.state.terminated.is_some())
    };
    names.iter().copied().filter(|n| !done(n)).collect()
}

/// `jobsidecar.decide`: one `doReconcile` pass.
pub fn decide(input: &DecideInput) -> DecideOutput {
    let pod = &input.pod;
    let mut out = DecideOutput {
        phase: pod.status.phase.clone(),
        ..DecideOutput::default()
    };
    if !is_handled(pod) {
        return out;
    }
    out.handled = true;
    let node = match &input.node {
        Some(n) if !pod.spec.node_name.is_empty() => n,
        _ => {
            out.node_not_found = true;
            return out;
        }
    };
    let (key, value) = VIRTUAL_KUBELET_LABEL;
    let vk = node.metadata.labels.get(key).map(String::as_str) == Some(value);
    out.virtual_kubelet = vk;

    let (mut normal, mut ignore_exit, mut image) = (Names::new(), Names::new(), Names::new());
    for c in &pod.spec.containers {
        let set = match (vk, is_image(c), is_ignore_exit_code(c), is_normal(c)) {
            (true, true, _, _) => &mut image,
            (false, _, true, _) => &mut ignore_exit,
            (false, _, _, true) => &mut normal,
            _ => continue,
        };
        set.insert(c.name.as_str());
    }

    let to_update = uncompleted(pod, &image);
    out.in_place_update = pod
        .spec
        .containers
        .iter()
        .filter(|c| to_update.contains(c.name.as_str()))
        .filter_map(|c| {
            let img = image_from_env(c);
            (c.image != img).then(|| ImageUpdate {
                name: c.name.clone(),
                image: img.to_string(),
            })
        })
        .collect();

    kill(input, &normal, &mut out);
    if ignore_exit.is_empty() || !completed(pod, &normal) || !completed(pod, &image) {
        return out;
    }
    if pod.status.phase != "Failed" && pod.status.phase != "Succeeded" {
        let (mains, _) = group(pod);
        let phase = if succeeded(pod, &mains) {
            "Succeeded"
        } else {
            "Failed"
        };
        out.phase = phase.to_string();
        out.status_patch = Some(StatusPatch {
            phase: phase.to_string(),
            condition_type: CONDITION_SIDECAR_TERMINATED.to_string(),
        });
    }
    kill(input, &ignore_exit, &mut out);
    out
}

/// `executeKillContainerAction`: the CRR for the sidecars not terminated, unless it exists.
fn kill(input: &DecideInput, sidecars: &Names, out: &mut DecideOutput) {
    let todo = uncompleted(&input.pod, sidecars);
    if todo.is_empty() {
        return;
    }
    // the CRR made by the normal sidecars' step of this same pass exists too.
    if input.container_recreate_request_exists || out.container_recreate_request.is_some() {
        out.waiting_for_container_recreate_request = true;
        return;
    }
    out.container_recreate_request = Some(ContainerRecreateRequest {
        name: format!("sidecar-termination-{}", input.pod.metadata.uid),
        pod_name: input.pod.metadata.name.clone(),
        containers: todo.into_iter().map(str::to_string).collect(),
    });
}
