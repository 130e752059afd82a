//! The registered decisions of the ResourceDistribution family.

use super::targets::{TargetsInput, TargetsOutput};
use super::types::{INVALID_LABEL_SELECTOR, INVALID_RESOURCE, INVALID_STATUS};
use super::validate::{ValidateInput, ValidateOutput};
use crate::error::Result;
use crate::registry::Decision;

pub use super::targets::{Action, NamespaceAction};
pub use super::types::{
    Condition, DistributionMeta, DistributionSpec, DistributionStatus, NamespaceObject,
    ResourceDistribution, TargetNamespace, TargetNamespaces, TargetsSpec,
};
pub use super::validate::{DryRunError, FieldError, ValidatedDistribution, ValidatedMeta};

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

/// `distribution.validate`: the ResourceDistribution validating webhook.
pub struct Validate;

impl Decision for Validate {
    const ID: &'static str = "distribution.validate";
    const DOC: &'static str = "the ResourceDistribution validating webhook on create and update: metadata name and \
        namespace, spec.resource readable, Secret or ConfigMap, apiVersion/kind/name immutable, the dry-run create's \
        answer, target namespace names, namespaces both included and excluded, the namespace label selector; \
        allowed, code and the field errors (field, type, detail)";
    const SOURCE: &'static str = "pkg/webhook/resourcedistribution/validating/resourcedistribution_create_update_handler.go \
        Handle, validateResourceDistribution, validateResourceDistributionSpec, validateResourceDistributionSpecResource, \
        validateResourceDistributionSpecTargets; utils.go DeserializeResource, isSupportedGK, haveSameGVKAndName";
    const ERRORS: &'static [&'static str] = &[INVALID_RESOURCE];
    type Input = ValidateInput;
    type Output = ValidateOutput;

    fn decide(i: ValidateInput) -> Result<ValidateOutput> {
        super::validate::validate(&i)
    }
}
