//! The registered decisions of the ImagePullJob family.

use super::status::{INVALID_IMAGE, INVALID_SELECTOR, StatusInput, StatusOutput, UNSUPPORTED};
use crate::error::Result;
use crate::registry::Decision;

pub use super::status::{Action, TagPullPolicy};
pub use super::types::{
    CompletionPolicy, ImagePullJob, ImageSpec, ImageStatus, JobMeta, JobSpec, JobStatus, NodeImage,
    NodeImageMeta, NodeImageSpec, NodeImageStatus, NodeSelector, OwnerRef, PullPolicy,
    ReferenceObject, TagSpec, TagStatus,
};

/// `imagepull.status`: one ImagePullJob controller pass.
pub struct Status;

impl Decision for Status {
    const ID: &'static str = "imagepull.status";
    const DOC: &'static str = "one ImagePullJob controller pass: the target NodeImages (all, by names or by label \
        selector), the status (desired, active, succeeded, failed, failedNodes, startTime, completionTime, message), \
        completion (Always) or none (Never), the active deadline, the TTL deletion, the NodeImages synced next \
        (parallelism), the requeue, and the pull policy (timeout, backoff, TTL range, active deadline) of the tags";
    const SOURCE: &'static str = "pkg/controller/imagepulljob/imagepulljob_controller.go Reconcile, calculateStatus, \
        syncNodeImages; imagepulljob_utils.go getImagePullPolicy, getTTLSecondsForAlways, getTTLSecondsForNever, \
        getActiveDeadlineSecondsForNever, formatStatusMessage; pkg/util/imagejob/imagejob_reader.go \
        GetNodeImagesForJob; pkg/daemon/util/util.go NormalizeImageRefToNameTag";
    const ERRORS: &'static [&'static str] = &[UNSUPPORTED, INVALID_SELECTOR, INVALID_IMAGE];
    type Input = StatusInput;
    type Output = StatusOutput;

    fn decide(i: StatusInput) -> Result<StatusOutput> {
        super::status::status(&i)
    }
}
