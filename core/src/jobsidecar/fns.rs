//! The registered decisions of the job sidecar terminator family.

use super::decide::{DecideInput, DecideOutput};
use crate::error::Result;
use crate::registry::Decision;

pub use super::decide::{
    ContainerRecreateRequest, ImageUpdate, JobContainer, JobContainerState, JobContainerStatus,
    JobEnvVar, JobNode, JobNodeMeta, JobPod, JobPodMeta, JobPodSpec, JobPodStatus, StatusPatch,
    Terminated,
};

/// `jobsidecar.decide`: one pass of the sidecar terminator controller over a job pod.
pub struct Decide;

impl Decide {
    const SOURCE_FILES: &'static str = "pkg/controller/sidecarterminator/sidecar_terminator_controller.go doReconcile, \
        markJobPodTerminated, containersCompleted, containersSucceeded; utils.go isInterestingPod, \
        groupMainSidecarContainers, getSidecarContainerNames; kill_container_action.go executeKillContainerAction, \
        filterUncompletedSidecars, getCRRName; inplace_update_action.go executeInPlaceUpdateAction, \
        updateSidecarsForInPlaceUpdate; virtual_kubelet_manager.go IsPodRunningOnVirtualKubelet";
}

impl Decision for Decide {
    const ID: &'static str = "jobsidecar.decide";
    const DOC: &'static str = "one sidecar terminator pass over a job pod: whether it is handled, the sidecars stopped by \
        a ContainerRecreateRequest or an in-place image update (virtual kubelet), and the phase written when \
        KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE sidecars are left behind";
    const SOURCE: &'static str = Self::SOURCE_FILES;
    const ERRORS: &'static [&'static str] = &[];
    type Input = DecideInput;
    type Output = DecideOutput;

    fn decide(i: DecideInput) -> Result<DecideOutput> {
        Ok(super::decide::decide(&i))
    }
}
