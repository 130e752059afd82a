//! Which child objects belong to an AdvancedCronJob: the listing every reconcile starts from.
//!
//! The controller picks the child kind from `spec.template` (`FindTemplateKind`,
//! `pkg/controller/advancedcronjob/advancedcronjob_utils.go`) and lists the children of that kind
//! in the AdvancedCronJob's namespace whose `.metadata.controller` field index equals the
//! AdvancedCronJob's name (`client.InNamespace(ns)`, `client.MatchingFields{".metadata.controller":
//! name}` in `advancedcronjob_job_controller.go`, `advancedcronjob_broadcastjob_controller.go`,
//! `advancedcronjob_imagelistpulljob_controller.go`). The index is built in
//! `pkg/util/fieldindex/register.go` (`indexJob`, `indexBroadcastCronJobV1Beta1`,
//! `indexImageListPullJobV1Beta1`): the child's controller reference (apimachinery
//! `metav1.GetControllerOf`: the first owner reference with `controller: true`) when it names an
//! AdvancedCronJob by `apiVersion` and `kind`, indexed by its `name`. The uid is not compared.

use super::decide::TemplateRefs;
use super::job_state::ChildKind;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The AdvancedCronJob kind that owner references must name.
pub const ADVANCED_CRON_JOB_KIND: &str = "AdvancedCronJob";
/// `apps.kruise.io/v1alpha1`.
pub const V1ALPHA1: &str = "apps.kruise.io/v1alpha1";
/// `apps.kruise.io/v1beta1`.
pub const V1BETA1: &str = "apps.kruise.io/v1beta1";

/// The AdvancedCronJob `metadata` members that pick its children; other members are ignored.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnerMeta {
    /// `metadata.name`: what a child's controller reference must name.
    pub name: String,
    /// `metadata.namespace`: children are listed in this namespace only; null, absent or `""`:
    /// every namespace (`client.InNamespace("")` lists across namespaces).
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<String>")]
    pub namespace: String,
}

/// The AdvancedCronJob `spec` members that pick the child kind; other members are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnerSpec {
    /// `spec.template`: the child kind is Job if `jobTemplate` is set, else ImageListPullJob if
    /// `imageListPullJobTemplate` is set, else BroadcastJob; absent: no template (BroadcastJob).
    #[serde(default)]
    pub template: TemplateRefs,
}

/// The AdvancedCronJob object (a whole object may be passed; members not listed are ignored).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnerObject {
    /// Its `metadata`.
    pub metadata: OwnerMeta,
    /// Its `spec`; absent: the zero spec.
    #[serde(default)]
    pub spec: OwnerSpec,
}

/// One `metadata.ownerReferences` entry of a child: the shared
/// [`crate::k8s::meta::OwnerReference`] (read here: `apiVersion` (`apps.kruise.io/v1beta1` for
/// any child kind, `apps.kruise.io/v1alpha1` for Job children only), `kind` (`AdvancedCronJob`),
/// `name`, `controller`; `uid` is not compared by the controller's listing).
pub use crate::k8s::meta::OwnerReference;

/// The child `metadata`: the shared [`crate::k8s::meta::ObjectMeta`] (read here: `name`,
/// `namespace` (compared with the AdvancedCronJob's), `ownerReferences` (null or absent: none,
/// the child is not owned; a null entry is the zero reference)).
pub type ChildMeta = crate::k8s::meta::ObjectMeta;

/// One candidate child object (a whole Job / BroadcastJob / ImageListPullJob may be passed;
/// members not listed are ignored).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChildObject {
    /// `apiVersion`; when given (non-empty), its group must be the child kind's (`batch` for Job,
    /// `apps.kruise.io` otherwise). Null, absent or `""`: not stated (items of a typed List
    /// reply carry none).
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<String>")]
    pub api_version: String,
    /// `kind`; when given (non-empty), it must be the listed child kind. Null, absent or `""`:
    /// not stated, taken as the listed kind.
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<String>")]
    pub kind: String,
    /// `metadata`; absent: the zero metadata (no owner, so not owned).
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<ChildMeta>")]
    pub metadata: ChildMeta,
}

/// `cron.children` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChildrenInput {
    /// The AdvancedCronJob.
    pub advanced_cron_job: OwnerObject,
    /// The candidate children (any kinds, any owners), in listing order; null or absent: none. A
    /// null entry is the zero object (not owned).
    #[serde(default, deserialize_with = "null_items_as_default")]
    #[schemars(with = "Option<Vec<Option<ChildObject>>>")]
    pub jobs: Vec<ChildObject>,
}

/// `cron.children` output: the children the controller lists for the AdvancedCronJob.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChildrenOutput {
    /// The child kind the controller lists (from `spec.template`), the `kind` to give
    /// `cron.jobState` for each owned child.
    pub kind: ChildKind,
    /// Indexes into `jobs` of the owned children, ascending.
    pub owned: Vec<usize>,
    /// Their `metadata.name`s, in the same order.
    pub names: Vec<String>,
}

use crate::k8s::meta::null_items as null_items_as_default;

/// Go decodes a JSON object (or `null`) into a struct and refuses an array, which serde's derived
/// decoders would read as the struct's members in order: the objects of the input must be
/// objects. Errors: `invalid_input` naming an unknown top-level member, or else the first member
/// that is not an object.
pub fn objects_only(input: &Value) -> Result<()> {
    use crate::k8s::object_or_null as check;
    check(Some(input), "input")?;
    // An unknown member is named first, whatever else is wrong (as the derived decoder would if
    // it met it first).
    if let Some(k) = input.as_object().and_then(|m| {
        m.keys()
            .find(|k| !["advancedCronJob", "jobs"].contains(&k.as_str()))
    }) {
        return Err(Error::invalid_input(
            k.as_str(),
            format!("unknown field `{k}`, expected `advancedCronJob` or `jobs`"),
        ));
    }
    let acj = input.get("advancedCronJob");
    check(acj, "advancedCronJob")?;
    let spec = acj.and_then(|a| a.get("spec"));
    check(
        acj.and_then(|a| a.get("metadata")),
        "advancedCronJob.metadata",
    )?;
    check(spec, "advancedCronJob.spec")?;
    check(
        spec.and_then(|s| s.get("template")),
        "advancedCronJob.spec.template",
    )?;
    let Some(Value::Array(jobs)) = input.get("jobs") else {
        return Ok(());
    };
    for (i, job) in jobs.iter().enumerate() {
        check(Some(job), &format!("jobs[{i}]"))?;
        let meta = job.get("metadata");
        check(meta, &format!("jobs[{i}].metadata"))?;
        if let Some(Value::Array(refs)) = meta.and_then(|m| m.get("ownerReferences")) {
            for (j, r) in refs.iter().enumerate() {
                check(Some(r), &format!("jobs[{i}].metadata.ownerReferences[{j}]"))?;
            }
        }
    }
    Ok(())
}

/// The owner-reference `apiVersion`s the field index of `kind` accepts for an AdvancedCronJob
/// (`indexJob` takes both versions, the v1beta1 BroadcastJob and ImageListPullJob indexes only
/// v1beta1).
pub fn owner_api_versions(kind: ChildKind) -> &'static [&'static str] {
    match kind {
        ChildKind::Job => &[V1ALPHA1, V1BETA1],
        ChildKind::BroadcastJob | ChildKind::ImageListPullJob => &[V1BETA1],
    }
}

/// The AdvancedCronJob name a child of `kind` is indexed under (`.metadata.controller`), or
/// `None` when it has no controller reference to an AdvancedCronJob.
pub fn controller_index(kind: ChildKind, meta: &ChildMeta) -> Option<&str> {
    let owner = meta
        .owner_references
        .iter()
        .find(|r| r.controller == Some(true))?;
    let ok = owner_api_versions(kind).contains(&owner.api_version.as_str())
        && owner.kind == ADVANCED_CRON_JOB_KIND;
    ok.then_some(owner.name.as_str())
}

/// Whether `job` is an object of the listed `kind` (unstated kind / apiVersion count as it).
fn of_kind(kind: ChildKind, job: &ChildObject) -> bool {
    let group = match job.api_version.rsplit_once('/') {
        Some((g, _)) => g,
        None => "", // "v1" is the core group
    };
    (job.kind.is_empty() || job.kind == kind.as_str())
        && (job.api_version.is_empty() || group == kind.group())
}

/// The children of `input.advanced_cron_job` among `input.jobs`: of the listed kind, in its
/// namespace (any namespace when it has none), indexed under its name. Never fails.
pub fn children(input: &ChildrenInput) -> ChildrenOutput {
    let acj = &input.advanced_cron_job;
    let kind = acj.spec.template.kind();
    let mut out = ChildrenOutput {
        kind,
        owned: Vec::new(),
        names: Vec::new(),
    };
    for (i, job) in input.jobs.iter().enumerate() {
        if of_kind(kind, job)
            && (acj.metadata.namespace.is_empty()
                || job.metadata.namespace == acj.metadata.namespace)
            && controller_index(kind, &job.metadata) == Some(acj.metadata.name.as_str())
        {
            out.owned.push(i);
            out.names.push(job.metadata.name.clone());
        }
    }
    out
}
