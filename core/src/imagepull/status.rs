//! One ImagePullJob controller pass: the target NodeImages, the job's status, whether it
//! completed, which NodeImages get the image next, the requeue, the TTL deletion, and the pull
//! policy written onto the NodeImage tags (the v1.6 `Never` completion policy's TTL and active
//! deadline).
//!
//! Mirrors OpenKruise v1.9.0 `pkg/controller/imagepulljob/imagepulljob_controller.go`
//! (`Reconcile`, `calculateStatus`, the count of `syncNodeImages`), `imagepulljob_utils.go`
//! (`getImagePullPolicy`, `getTTLSecondsForAlways`, `getTTLSecondsForNever`,
//! `getActiveDeadlineSecondsForNever`, `formatStatusMessage`, `containsObject`),
//! `pkg/util/imagejob/imagejob_reader.go` (`GetNodeImagesForJob`) and
//! `pkg/daemon/util` (`NormalizeImageRefToNameTag`).

use super::types::{ImagePullJob, JobStatus, NodeImage, ReferenceObject};
use crate::error::{Error, Result};
use crate::intstr::{IntOrPercent, atoi};
use crate::k8s::image_ref;
use crate::k8s::null_as_default;
use crate::time::parse_time;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Error kind: `spec.podSelector` is set (the nodes would come from a pod list).
pub const UNSUPPORTED: &str = "unsupported";
/// Error kind: `spec.selector` has an operator the controller's selector refuses.
pub const INVALID_SELECTOR: &str = "invalid_selector";
/// Error kind: `spec.image` is not a reference the daemon can normalize.
pub const INVALID_IMAGE: &str = "invalid_image";

/// Largest number of NodeImages accepted.
pub const MAX_NODE_IMAGES: usize = 20_000;

/// `--default-ttlseconds-for-always-nodeimage`'s default, seconds.
pub const DEFAULT_TTL_FOR_ALWAYS: i32 = 300;
/// Largest `--default-ttlseconds-for-always-nodeimage` the manager accepts (31 days).
pub const MAX_DEFAULT_TTL_FOR_ALWAYS: i32 = 3600 * 24 * 31;

const NANOS: i64 = 1_000_000_000;

/// Input of `imagepull.status`.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatusInput {
    /// The ImagePullJob (for an ImageListPullJob: the job it generates for one image, its
    /// template inlined into `spec` next to `image`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ImagePullJob>")]
    pub image_pull_job: ImagePullJob,
    /// Every NodeImage of the cluster (names distinct); the job's selector picks its targets.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<NodeImage>>")]
    pub node_images: Vec<NodeImage>,
    /// The secret references the controller synced for `spec.pullSecrets` into the
    /// kruise-daemon-config namespace (its `syncJobPullSecrets` answer); each target NodeImage
    /// must list them all. Ignored when `spec.pullSecrets` is empty; null or absent: none.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<Vec<ReferenceObject>>")]
    pub pull_secrets: Vec<ReferenceObject>,
    /// The controller's clock (RFC 3339).
    pub now: String,
    /// The manager's `--default-ttlseconds-for-always-nodeimage`, seconds, 0 to 2678400; null or
    /// absent: 300.
    #[serde(default)]
    pub default_ttl_seconds_for_always_node_image: Option<i32>,
}

/// What the pass does to the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The job had completed and its TTL ran out: the controller deletes it.
    Delete,
    /// The job had completed; kept (until the TTL, if any).
    Keep,
    /// The status changed: the controller writes `status`.
    UpdateStatus,
    /// Nothing to write.
    None,
}

/// The pull policy the controller writes onto the NodeImage tags it adds
/// (`ImageTagPullPolicy`). The TTL carries a random jitter: its range is given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagPullPolicy {
    /// `timeoutSeconds`, copied from `spec.pullPolicy`; null: none.
    pub timeout_seconds: Option<i32>,
    /// `backoffLimit`, copied from `spec.pullPolicy`; null: none.
    pub backoff_limit: Option<i32>,
    /// Smallest `ttlSecondsAfterFinished`: `Never`: 85800 (one day less 600 s); otherwise
    /// `ttlSecondsAfterFinished`, else `activeDeadlineSeconds` (as int32), else timeout x backoff
    /// (600 and 3 by default), plus the manager's default TTL (int32 arithmetic, wrapping).
    pub ttl_seconds_after_finished_min: i32,
    /// Largest `ttlSecondsAfterFinished`: the smallest plus 1199 (`Never`) or 299.
    pub ttl_seconds_after_finished_max: i32,
    /// `activeDeadlineSeconds`: `Never`: `pullPolicy.timeoutSeconds` when above 1800, else 1800;
    /// otherwise `completionPolicy.activeDeadlineSeconds` (null: none).
    pub active_deadline_seconds: Option<i64>,
}

/// Output of `imagepull.status`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusOutput {
    /// What the pass does to the job.
    pub action: Action,
    /// The status after the pass (the input's when the job had already completed); times are
    /// RFC 3339 UTC seconds.
    pub status: JobStatus,
    /// Whether the job has completed (`status.completionTime` set).
    pub completed: bool,
    /// The image name the NodeImages key it by (`nginx`, `ghcr.io/org/app`); null when the job
    /// had completed and the image does not parse.
    pub image_name: Option<String>,
    /// The tag (`latest` when none; the digest for a digest reference); null as `imageName`.
    pub image_tag: Option<String>,
    /// The target NodeImages, in the controller's order.
    pub target_nodes: Vec<String>,
    /// Target NodeImages without this job's tag or without every synced secret, by name.
    pub not_synced_nodes: Vec<String>,
    /// The NodeImages the controller updates now: the first `parallelism - active` of
    /// `notSyncedNodes` (none once the job completed).
    pub nodes_to_sync: Vec<String>,
    /// Requeue delay in seconds (fractional); null: none.
    pub requeue_after_seconds: Option<f64>,
    /// The pull policy of the NodeImage tags this job adds.
    pub pull_policy: TagPullPolicy,
}

/// Go's `Duration.Seconds()`.
fn seconds(d: i64) -> f64 {
    (d / NANOS) as f64 + (d % NANOS) as f64 / 1e9
}

/// `t2.Sub(t1)` in nanoseconds, saturating like Go.
fn sub(a: Timestamp, b: Timestamp) -> i64 {
    let n = a.as_nanosecond() - b.as_nanosecond();
    n.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// RFC 3339 UTC at whole seconds, as `metav1.Time` serializes.
fn format_time(t: Timestamp) -> String {
    Timestamp::from_second(t.as_second())
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}

/// `NormalizeImageRefToNameTag`: the familiar name and the tag (`latest` when none, the digest
/// when there is one).
pub fn image_name_tag(image: &str) -> Option<(String, String)> {
    if !image_ref::is_valid_normalized(image) {
        return None;
    }
    // the full normalized name (domain, `library/` for a one-component docker.io path)
    let (domain, remainder) = match image.find('/') {
        Some(i) => {
            let first = &image[..i];
            if !first.contains(['.', ':']) && first != "localhost" && first.to_lowercase() == first
            {
                ("docker.io", image)
            } else if first == "index.docker.io" {
                ("docker.io", &image[i + 1..])
            } else {
                (first, &image[i + 1..])
            }
        }
        None => ("docker.io", image),
    };
    let r = image_ref::parse(remainder)?;
    let path = r.name;
    let name = if domain == "docker.io" {
        match path.strip_prefix("library/") {
            Some(rest) if !rest.contains('/') => rest.to_string(),
            _ => path.to_string(),
        }
    } else {
        format!("{domain}/{path}")
    };
    let tag = match (r.digest, r.tag) {
        (Some(d), _) => d.to_string(),
        (None, Some(t)) => t.to_string(),
        (None, None) => "latest".to_string(),
    };
    Some((name, tag))
}

/// `IntOrString.IntValue()`: the integer, or `strconv.Atoi` of the string (0 on a syntax
/// error, clamped on overflow).
fn int_value(v: &IntOrPercent) -> i64 {
    match v {
        IntOrPercent::Int(i) => i64::from(*i),
        IntOrPercent::String(s) => atoi(s.bytes()).unwrap_or_else(|| {
            let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
            if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) {
                if s.starts_with('-') {
                    i64::MIN
                } else {
                    i64::MAX
                }
            } else {
                0
            }
        }),
    }
}

/// The pull policy of the NodeImage tags (`getImagePullPolicy`).
pub fn tag_pull_policy(job: &ImagePullJob, default_ttl: i32) -> TagPullPolicy {
    let spec = &job.spec;
    let timeout = spec.pull_policy.as_ref().and_then(|p| p.timeout_seconds);
    let backoff = spec.pull_policy.as_ref().and_then(|p| p.backoff_limit);
    let cp = &spec.completion_policy;
    if cp.type_ == "Never" {
        let min = 24 * 3600 - 600;
        TagPullPolicy {
            timeout_seconds: timeout,
            backoff_limit: backoff,
            ttl_seconds_after_finished_min: min,
            ttl_seconds_after_finished_max: min + 1199,
            active_deadline_seconds: Some(match timeout {
                Some(t) if i64::from(t) > 1800 => i64::from(t),
                _ => 1800,
            }),
        }
    } else {
        let base = if let Some(t) = cp.ttl_seconds_after_finished {
            t
        } else if let Some(a) = cp.active_deadline_seconds {
            a as i32
        } else {
            timeout.unwrap_or(600).wrapping_mul(backoff.unwrap_or(3))
        };
        let min = base.wrapping_add(default_ttl);
        TagPullPolicy {
            timeout_seconds: timeout,
            backoff_limit: backoff,
            ttl_seconds_after_finished_min: min,
            ttl_seconds_after_finished_max: min.wrapping_add(299),
            active_deadline_seconds: cp.active_deadline_seconds,
        }
    }
}

/// A label requirement of the controller's (unvalidated) selector.
fn requirement_matches(
    key: &str,
    op: &str,
    values: &[String],
    labels: &BTreeMap<String, String>,
) -> bool {
    let got = labels.get(key);
    match op {
        "In" => got.is_some_and(|v| values.contains(v)),
        "NotIn" => got.is_none_or(|v| !values.contains(v)),
        "Exists" => got.is_some(),
        _ => got.is_none(),
    }
}

/// `GetNodeImagesForJob` over the given NodeImages.
fn target_nodes<'a>(job: &ImagePullJob, nodes: &'a [NodeImage]) -> Result<Vec<&'a NodeImage>> {
    if job.spec.pod_selector.as_ref().is_some_and(|v| !v.is_null()) {
        return Err(Error::at(
            UNSUPPORTED,
            "imagePullJob.spec.podSelector",
            "the nodes of a pod selector need the cluster's pods; give the NodeImages of those nodes with spec.selector.names",
        ));
    }
    let by_name = |name: &str| nodes.iter().find(|n| n.metadata.name == name);
    let mut sorted: Vec<&NodeImage> = nodes.iter().collect();
    sorted.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let Some(sel) = &job.spec.selector else {
        return Ok(sorted);
    };
    if let Some(names) = &sel.names {
        return Ok(names.iter().filter_map(|n| by_name(n)).collect());
    }
    for (i, r) in sel.match_expressions.iter().enumerate() {
        if !matches!(
            r.operator.as_str(),
            "In" | "NotIn" | "Exists" | "DoesNotExist"
        ) {
            return Err(Error::at(
                INVALID_SELECTOR,
                format!("imagePullJob.spec.selector.matchExpressions[{i}].operator"),
                format_args!("{:?} is not a valid pod selector operator", r.operator),
            ));
        }
    }
    Ok(sorted
        .into_iter()
        .filter(|n| {
            let l = &n.metadata.labels;
            sel.match_labels
                .iter()
                .all(|(k, v)| l.get(k).is_some_and(|got| got == v))
                && sel.match_expressions.iter().all(|r| {
                    requirement_matches(
                        &r.key,
                        &r.operator,
                        r.values.as_deref().unwrap_or_default(),
                        l,
                    )
                })
        })
        .collect())
}

fn normalize_time(t: &Option<String>, field: &str) -> Result<Option<(String, Timestamp)>> {
    t.as_ref()
        .map(|s| parse_time(s, field).map(|ts| (format_time(ts), ts)))
        .transpose()
}

/// `formatStatusMessage`.
fn status_message(s: &JobStatus) -> String {
    if s.completion_time.is_some() {
        "job has completed".into()
    } else if s.desired == 0 {
        "job is running, no progress".into()
    } else {
        format!(
            "job is running, progress {:.1}%",
            100.0 * f64::from(s.succeeded.wrapping_add(s.failed)) / f64::from(s.desired)
        )
    }
}

/// One controller pass (see the module doc).
///
/// Errors: `invalid_input` (a bad time, duplicate NodeImage names, too many NodeImages, a
/// default TTL out of range); `unsupported` (`spec.podSelector`); `invalid_selector`;
/// `invalid_image`.
pub fn status(input: &StatusInput) -> Result<StatusOutput> {
    let job = &input.image_pull_job;
    let now = parse_time(&input.now, "now")?;
    if input.node_images.len() > MAX_NODE_IMAGES {
        return Err(Error::invalid_input(
            "nodeImages",
            format_args!("more than {MAX_NODE_IMAGES} NodeImages"),
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, n) in input.node_images.iter().enumerate() {
        if !seen.insert(n.metadata.name.as_str()) {
            return Err(Error::invalid_input(
                format!("nodeImages[{i}].metadata.name"),
                format_args!("duplicate NodeImage name {:?}", n.metadata.name),
            ));
        }
    }
    let default_ttl = input
        .default_ttl_seconds_for_always_node_image
        .unwrap_or(DEFAULT_TTL_FOR_ALWAYS);
    if !(0..=MAX_DEFAULT_TTL_FOR_ALWAYS).contains(&default_ttl) {
        return Err(Error::invalid_input(
            "defaultTtlSecondsForAlwaysNodeImage",
            format_args!("must be between 0 and {MAX_DEFAULT_TTL_FOR_ALWAYS}"),
        ));
    }
    let old = &job.status;
    let start = normalize_time(&old.start_time, "imagePullJob.status.startTime")?;
    let completion = normalize_time(&old.completion_time, "imagePullJob.status.completionTime")?;
    let mut old_norm = old.clone();
    old_norm.start_time = start.as_ref().map(|s| s.0.clone());
    old_norm.completion_time = completion.as_ref().map(|s| s.0.clone());
    let pull_policy = tag_pull_policy(job, default_ttl);
    let cp = &job.spec.completion_policy;
    let never = cp.type_ == "Never";

    // the job had completed: TTL
    if let Some((_, done)) = completion {
        let (action, requeue) = match cp.ttl_seconds_after_finished {
            Some(ttl) => {
                let left = (i64::from(ttl) * NANOS).wrapping_sub(sub(now, done));
                if left <= 0 {
                    (Action::Delete, None)
                } else {
                    (Action::Keep, Some(seconds(left)))
                }
            }
            None => (Action::Keep, None),
        };
        let nt = image_name_tag(&job.spec.image);
        return Ok(StatusOutput {
            action,
            status: old_norm,
            completed: true,
            image_name: nt.as_ref().map(|x| x.0.clone()),
            image_tag: nt.map(|x| x.1),
            target_nodes: Vec::new(),
            not_synced_nodes: Vec::new(),
            nodes_to_sync: Vec::new(),
            requeue_after_seconds: requeue,
            pull_policy,
        });
    }

    let targets = target_nodes(job, &input.node_images)?;
    let secrets: &[ReferenceObject] = if job.spec.pull_secrets.is_empty() {
        &[]
    } else {
        &input.pull_secrets
    };
    let start_ts = start.as_ref().map_or(now, |s| s.1);
    let mut new = JobStatus {
        start_time: Some(format_time(start_ts)),
        desired: targets.len() as i32,
        ..JobStatus::default()
    };
    let Some((image_name, image_tag)) = image_name_tag(&job.spec.image) else {
        return Err(Error::at(
            INVALID_IMAGE,
            "imagePullJob.spec.image",
            format_args!("invalid image {:?}", job.spec.image),
        ));
    };

    let (mut pulling, mut succeeded, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    let mut not_synced = BTreeSet::new();
    for n in &targets {
        let name = n.metadata.name.clone();
        let mut version: i64 = -1;
        if let Some(spec) = n.spec.images.get(&image_name) {
            let synced = secrets.iter().all(|s| {
                spec.pull_secrets
                    .iter()
                    .any(|p| p.namespace == s.namespace && p.name == s.name)
            });
            if !synced {
                not_synced.insert(name.clone());
            }
            for t in spec.tags.iter().filter(|t| t.tag == image_tag) {
                if !t.owner_references.iter().any(|r| r.uid == job.metadata.uid) {
                    break;
                }
                version = t.version;
            }
        }
        if version < 0 {
            not_synced.insert(name);
            continue;
        }
        let tag_status = n
            .status
            .image_statuses
            .get(&image_name)
            .and_then(|s| s.tags.iter().find(|t| t.tag == image_tag));
        match tag_status {
            Some(t) if t.version == version => match t.phase.as_str() {
                "Succeeded" => succeeded.push(name),
                "Failed" => failed.push(name),
                _ => pulling.push(name),
            },
            // another round's status, or none yet: still pulling
            _ => pulling.push(name),
        }
    }

    let deadline = (!never).then_some(cp.active_deadline_seconds).flatten();
    let since_start = sub(now, start_ts);
    let mut not_synced_list: Vec<String> = not_synced.into_iter().collect();
    if let Some(ads) = deadline
        && new.desired as usize != succeeded.len() + failed.len()
        && ads.wrapping_mul(NANOS) <= since_start
    {
        new.completion_time = Some(format_time(now));
        new.succeeded = succeeded.len() as i32;
        failed.append(&mut pulling);
        failed.extend(not_synced_list.iter().cloned());
        new.failed = failed.len() as i32;
        new.failed_nodes = failed;
        new.message = "job exceeds activeDeadlineSeconds".into();
        not_synced_list.clear();
    } else {
        new.active = pulling.len() as i32;
        new.succeeded = succeeded.len() as i32;
        new.failed = failed.len() as i32;
        new.failed_nodes = failed;
        if !never && new.desired - new.succeeded - new.failed == 0 {
            new.completion_time = Some(format_time(now));
        }
        new.message = status_message(&new);
        new.failed_nodes.sort();
    }

    // syncNodeImages: how many NodeImages get the image now
    let limit = job.spec.parallelism.as_ref().map_or(1, int_value);
    let room = limit.wrapping_sub(i64::from(new.active));
    let nodes_to_sync: Vec<String> = if room <= 0 {
        Vec::new()
    } else {
        not_synced_list
            .iter()
            .take(usize::try_from(room).unwrap_or(usize::MAX))
            .cloned()
            .collect()
    };

    let changed = new != old_norm;
    let requeue = if changed {
        None
    } else {
        deadline.map(|ads| seconds(ads.wrapping_mul(NANOS).wrapping_sub(since_start).max(NANOS)))
    };
    Ok(StatusOutput {
        action: if changed {
            Action::UpdateStatus
        } else {
            Action::None
        },
        completed: new.completion_time.is_some(),
        status: new,
        image_name: Some(image_name),
        image_tag: Some(image_tag),
        target_nodes: targets.iter().map(|n| n.metadata.name.clone()).collect(),
        not_synced_nodes: not_synced_list,
        nodes_to_sync,
        requeue_after_seconds: requeue,
        pull_policy,
    })
}
