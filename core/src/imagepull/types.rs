//! The ImagePullJob (apps.kruise.io/v1beta1) and NodeImage members `imagepull.status` reads.

use crate::intstr::IntOrPercent;
use crate::k8s::null_as_default;
use crate::k8s::selector::Requirement;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An ImagePullJob (or the job an ImageListPullJob generates from its template, one per image).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImagePullJob {
    /// `metadata`; absent or null: the zero metadata.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<JobMeta>")]
    pub metadata: JobMeta,
    /// `spec`; absent or null: the zero spec (no image: `invalid_image`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<JobSpec>")]
    pub spec: JobSpec,
    /// `status`: the status the controller wrote last; absent or null: none yet.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<JobStatus>")]
    pub status: JobStatus,
}

/// ImagePullJob `metadata` members read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobMeta {
    /// `metadata.uid`: a NodeImage tag is this job's when one of its owner references carries
    /// this uid; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub uid: String,
}

/// ImagePullJob `spec` (the `ImagePullJobTemplate` members inlined next to `image`).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    /// `image`, e.g. `nginx:1.25`; normalized as the daemon does (docker.io, `library/`,
    /// `latest`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image: String,
    /// `pullSecrets`: names of Secrets in the job's namespace; only their presence matters here
    /// (the synced references come as the input's `pullSecrets`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<String>>")]
    pub pull_secrets: Vec<String>,
    /// `selector`: which NodeImages; null or absent: every NodeImage.
    #[serde(default)]
    pub selector: Option<NodeSelector>,
    /// `podSelector`: the nodes of matching pods; not supported (answers `unsupported`).
    #[serde(default)]
    pub pod_selector: Option<serde_json::Value>,
    /// `parallelism`: how many nodes pull at once; null or absent: 1; a string is read as Go's
    /// `IntValue` reads it (`"3"` is 3, `"50%"` is 0).
    #[serde(default)]
    pub parallelism: Option<IntOrPercent>,
    /// `pullPolicy`; null or absent: none (600 s timeout, 3 attempts for the TTL).
    #[serde(default)]
    pub pull_policy: Option<PullPolicy>,
    /// `completionPolicy`; null or absent: the zero policy (type `""`, which acts as `Always`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<CompletionPolicy>")]
    pub completion_policy: CompletionPolicy,
    /// `imagePullPolicy` (`Always` or `IfNotPresent`), copied onto the NodeImage tags; null or
    /// absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub image_pull_policy: String,
}

/// `selector` (`ImagePullJobNodeSelector`): node names, or a label selector inlined.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelector {
    /// `names`: these NodeImages, in this order (missing ones skipped, repeated ones counted
    /// again); present (even `[]`): the label selector is not used.
    #[serde(default)]
    pub names: Option<Vec<String>>,
    /// Inline `matchLabels`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub match_labels: BTreeMap<String, String>,
    /// Inline `matchExpressions` (operators `In`, `NotIn`, `Exists`, `DoesNotExist`; keys and
    /// values are not validated here, as the controller's selector does not).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<Requirement>>")]
    pub match_expressions: Vec<Requirement>,
}

/// `pullPolicy`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PullPolicy {
    /// `timeoutSeconds` of one pull attempt; null or absent: none.
    #[serde(default)]
    pub timeout_seconds: Option<i32>,
    /// `backoffLimit`, attempts; null or absent: none.
    #[serde(default)]
    pub backoff_limit: Option<i32>,
}

/// `completionPolicy`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompletionPolicy {
    /// `type`: `Always` (the job completes when every node answered) or `Never` (it never
    /// completes: the nodes keep the image pulled); anything else acts as `Always`.
    #[serde(rename = "type", default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub type_: String,
    /// `activeDeadlineSeconds`, seconds after `status.startTime` at which an `Always` job fails
    /// the nodes still pulling; null or absent: none.
    #[serde(default)]
    pub active_deadline_seconds: Option<i64>,
    /// `ttlSecondsAfterFinished`, seconds after `status.completionTime` at which the job is
    /// deleted; null or absent: kept.
    #[serde(default)]
    pub ttl_seconds_after_finished: Option<i32>,
}

/// ImagePullJob `status`, as read and as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    /// `startTime` (RFC 3339); the first pass sets it to `now`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// `completionTime` (RFC 3339): set when the job completes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_time: Option<String>,
    /// `desired`: the number of target NodeImages.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "i32")]
    pub desired: i32,
    /// `active`: nodes pulling.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "i32")]
    pub active: i32,
    /// `succeeded`: nodes that pulled the image.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "i32")]
    pub succeeded: i32,
    /// `failed`: nodes that failed (or, past the deadline, did not finish).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "i32")]
    pub failed: i32,
    /// `message`, e.g. `job is running, progress 50.0%`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// `failedNodes`: the failed nodes' names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_nodes: Vec<String>,
}

/// A NodeImage (one per node, named after it).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeImage {
    /// `metadata` (name and labels).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<NodeImageMeta>")]
    pub metadata: NodeImageMeta,
    /// `spec`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<NodeImageSpec>")]
    pub spec: NodeImageSpec,
    /// `status`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<NodeImageStatus>")]
    pub status: NodeImageStatus,
}

/// NodeImage `metadata` members read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeImageMeta {
    /// `metadata.name` (the node's name).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `metadata.labels` (the node's labels, which the label selector matches).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
}

/// NodeImage `spec`: `images`, keyed by the familiar image name (`nginx`, `ghcr.io/x/y`).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeImageSpec {
    /// `images`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, ImageSpec>>")]
    pub images: BTreeMap<String, ImageSpec>,
}

/// One `spec.images` entry.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImageSpec {
    /// `pullSecrets` already given to the node.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<ReferenceObject>>")]
    pub pull_secrets: Vec<ReferenceObject>,
    /// `tags`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<TagSpec>>")]
    pub tags: Vec<TagSpec>,
}

/// A secret reference (`ReferenceObject`); `mode` is ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceObject {
    /// `namespace`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub namespace: String,
    /// `name`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
}

/// One `tags` entry of an image spec.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagSpec {
    /// `tag` (or the digest, `sha256:…`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub tag: String,
    /// `ownerReferences`: only their `uid` is read.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<OwnerRef>>")]
    pub owner_references: Vec<OwnerRef>,
    /// `version`: the pull round; null or absent: 0.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i64>")]
    pub version: i64,
}

/// An owner reference (`ObjectReference`): only `uid` is read.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnerRef {
    /// `uid`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub uid: String,
}

/// NodeImage `status`: `imageStatuses`, keyed by familiar image name.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeImageStatus {
    /// `imageStatuses`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<BTreeMap<String, ImageStatus>>")]
    pub image_statuses: BTreeMap<String, ImageStatus>,
}

/// One `imageStatuses` entry.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImageStatus {
    /// `tags`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<TagStatus>>")]
    pub tags: Vec<TagStatus>,
}

/// One tag's pull status on the node.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagStatus {
    /// `tag`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub tag: String,
    /// `phase`: `Waiting`, `Pulling`, `Succeeded` or `Failed` (anything but the last two counts
    /// as pulling).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub phase: String,
    /// `version`: the pull round this status is for; null or absent: 0.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<i64>")]
    pub version: i64,
}
