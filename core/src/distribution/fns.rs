//! The registered decisions of the ResourceDistribution family.

use super::targets::{TargetsInput, TargetsOutput};
use super::types::{INVALID_LABEL_SELECTOR, INVALID_RESOURCE, INVALID_STATUS};
use crate::error::Result;
use crate::registry::Decision;

pub use super::targets::{Action, NamespaceAction};
pub use super::types::{
    Condition, DistributionMeta, DistributionSpec, DistributionStatus, NamespaceObject,
    ResourceDistribution, TargetNamespace, TargetNamespaces, TargetsSpec,
};

/// `distribution.targets`: one ResourceDistribution controller pass.
pub struct Targets;

impl Decision for Targets {
    const ID: &'static str = "distribution.targets";
    const DOC: &'static str = "one ResourceDistribution controller pass: the matched and unmatched namespaces \
        (included, excluded, label selector, all namespaces), per namespace create, update, unchanged, conflict, \
        missing namespace or delete of the copy, and the status (desired, succeeded, failed, conditions)";
    const SOURCE: &'static str = "pkg/controller/resourcedistribution/resourcedistribution_controller.go doReconcile, \
        distributeResource, cleanResource, handleErrors; utils.go listNamespacesForDistributor, matchViaTargets, \
        needToUpdate, isControlledByDistributor, calculateNewStatus, initConditionType; \
        pkg/webhook/resourcedistribution/validating/utils.go DeserializeResource";
    const ERRORS: &'static [&'static str] =
        &[INVALID_RESOURCE, INVALID_LABEL_SELECTOR, INVALID_STATUS];
    type Input = TargetsInput;
    type Output = TargetsOutput;

    fn decide(i: TargetsInput) -> Result<TargetsOutput> {
        super::targets::targets(&i)
    }
}
