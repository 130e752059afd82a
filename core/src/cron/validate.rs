//! Admission validation of an AdvancedCronJob on create.
//!
//! Mirrors `validateAdvancedCronJob` in
//! `pkg/webhook/advancedcronjob/validating/advancedcronjob_create_update_handler.go` (v1.9.0),
//! including the v1.9 `imageListPullJobTemplate` rules. Pod templates of Job / BroadcastJob
//! templates are taken as valid.

use super::schedule::Schedule;
use super::selector::{LabelSelector, Requirement};
use super::zone::Location;
use crate::error::Result;
use crate::k8s::image_ref;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One validation problem: the field path and the problem kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FieldError {
    /// Field path, e.g. `spec.schedule`.
    pub field: String,
    /// Problem kind (snake_case), e.g. `invalid_schedule`; `docs/cron.md` lists them.
    pub kind: &'static str,
}

/// `selector` of an ImageListPullJob (`ImagePullJobNodeSelector`): node names, or the members of
/// a label selector inlined next to them. Other members are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelector {
    /// `names`, node names (must be distinct); null or absent: none.
    #[serde(default)]
    pub names: Option<Vec<String>>,
    /// Inline `matchLabels`; null or absent: none.
    #[serde(default)]
    pub match_labels: Option<BTreeMap<String, String>>,
    /// Inline `matchExpressions`; null or absent: none.
    #[serde(default)]
    pub match_expressions: Option<Vec<Requirement>>,
}

impl NodeSelector {
    /// The inlined label selector.
    pub fn label_selector(&self) -> LabelSelector {
        LabelSelector {
            match_labels: self.match_labels.clone(),
            match_expressions: self.match_expressions.clone(),
        }
    }
}

/// `completionPolicy` of an ImageListPullJob template. Other members are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompletionPolicy {
    /// `Always` or `Never` (only `Always` is admitted); absent: `""`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// `activeDeadlineSeconds`, in seconds (at most 86400); null or absent: none.
    #[serde(default)]
    pub active_deadline_seconds: Option<i64>,
    /// `ttlSecondsAfterFinished`, in seconds (not supported: any value is a problem); null or
    /// absent: none.
    #[serde(default)]
    pub ttl_seconds_after_finished: Option<i32>,
}

/// `pullPolicy` of an ImageListPullJob template. Other members are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PullPolicy {
    /// `timeoutSeconds`, in seconds; null or absent: none.
    #[serde(default)]
    pub timeout_seconds: Option<i32>,
}

/// The ImageListPullJob spec members the webhook checks. Other members are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IlpjSpec {
    /// `images`, the image references to pull (1 to 255, distinct, valid references); null or
    /// absent: none.
    #[serde(default)]
    pub images: Option<Vec<String>>,
    /// `selector`, the node selector; null or absent: none.
    #[serde(default)]
    pub selector: Option<NodeSelector>,
    /// `podSelector`, a label selector of pods; null or absent: none.
    #[serde(default)]
    pub pod_selector: Option<LabelSelector>,
    /// `completionPolicy`; absent: the zero policy (type `""`).
    #[serde(default)]
    pub completion_policy: CompletionPolicy,
    /// `pullPolicy`; null or absent: none.
    #[serde(default)]
    pub pull_policy: Option<PullPolicy>,
}

/// `imageListPullJobTemplate`. Other members (`metadata`) are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
pub struct IlpjTemplate {
    /// Its `spec`; absent: the zero spec.
    #[serde(default)]
    pub spec: IlpjSpec,
}

/// `spec.template` as the webhook reads it: exactly one member must be set.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ValidateTemplates")]
pub struct Templates {
    /// `jobTemplate`, carried verbatim (its pod template is taken as valid); null or absent: not
    /// set.
    #[serde(default)]
    pub job_template: Option<Value>,
    /// `broadcastJobTemplate`, carried verbatim (its pod template is taken as valid); null or
    /// absent: not set.
    #[serde(default)]
    pub broadcast_job_template: Option<Value>,
    /// `imageListPullJobTemplate`; null or absent: not set.
    #[serde(default)]
    pub image_list_pull_job_template: Option<IlpjTemplate>,
}

/// The AdvancedCronJob spec as the webhook reads it (after defaulting). Other members are ignored.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValidateSpec {
    /// `schedule`, the cron schedule; absent: `""` (a problem).
    #[serde(default)]
    pub schedule: String,
    /// `timeZone`, an IANA zone name; null or absent: none.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// `concurrencyPolicy` (`Allow`, `Forbid`, `Replace`); absent: `""`.
    #[serde(default)]
    pub concurrency_policy: String,
    /// `startingDeadlineSeconds`, in seconds (must not be negative); null or absent: none.
    #[serde(default)]
    pub starting_deadline_seconds: Option<i64>,
    /// `successfulJobsHistoryLimit` (must not be negative); null or absent: none.
    #[serde(default)]
    pub successful_jobs_history_limit: Option<i32>,
    /// `failedJobsHistoryLimit` (must not be negative); null or absent: none.
    #[serde(default)]
    pub failed_jobs_history_limit: Option<i32>,
    /// `template`; absent: no template (a problem).
    #[serde(default)]
    pub template: Templates,
}

/// `cron.validate` input: `{"name"?, "spec"}`; unknown members are rejected, while members of
/// `spec` the webhook does not read are ignored.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidateInput {
    /// `metadata.name`, checked only when given (non-empty, ASCII letters, digits and `-`, at
    /// most 63 bytes); null or absent: not checked.
    #[serde(default)]
    pub name: Option<String>,
    /// The spec (absent or null: the zero spec, as Go decodes it).
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<ValidateSpec>")]
    pub spec: ValidateSpec,
}

struct Errs(Vec<FieldError>);

impl Errs {
    fn add(&mut self, field: impl Into<String>, kind: &'static str) {
        self.0.push(FieldError {
            field: field.into(),
            kind,
        });
    }
}

/// Validates on the create path and returns every problem in webhook order (`[]` = valid).
///
/// Errors: `internal` only if the image grammar cannot be built (never in practice).
pub fn validate(input: &ValidateInput) -> Result<Vec<FieldError>> {
    let mut e = Errs(Vec::new());
    if let Some(name) = &input.name {
        if name.is_empty() {
            e.add("metadata.name", "name_required");
        } else {
            if !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-') {
                e.add("metadata.name", "name_invalid");
            }
            if name.len() > 63 {
                e.add("metadata.name", "name_too_long");
            }
        }
    }
    let spec = &input.spec;
    if spec.schedule.is_empty() {
        e.add("spec.schedule", "schedule_empty");
    }
    if Schedule::parse(&spec.schedule).is_err() {
        e.add("spec.schedule", "invalid_schedule");
    }
    if spec.schedule.contains("TZ") && spec.time_zone.is_some() {
        e.add("spec.schedule", "schedule_tz_conflict");
    }

    let t = &spec.template;
    let count = usize::from(t.job_template.is_some())
        + usize::from(t.broadcast_job_template.is_some())
        + usize::from(t.image_list_pull_job_template.is_some());
    if let Some(ilpj) = &t.image_list_pull_job_template {
        if !matches!(spec.concurrency_policy.as_str(), "Replace" | "Forbid") {
            e.add(
                "spec.spec.concurrencyPolicy",
                "concurrency_policy_not_allowed",
            );
        }
        if let Some((field, kind)) = ilpj_first_problem(&ilpj.spec) {
            e.add(
                format!("spec.template.imageListPullJobTemplate.spec{field}"),
                kind,
            );
        }
    }
    if count == 0 {
        e.add("spec.template", "template_missing");
    } else if count > 1 {
        e.add("spec.template", "template_multiple");
    }

    for (v, f) in [
        (
            spec.starting_deadline_seconds,
            "spec.startingDeadlineSeconds",
        ),
        (
            spec.successful_jobs_history_limit.map(i64::from),
            "spec.successfulJobsHistoryLimit",
        ),
        (
            spec.failed_jobs_history_limit.map(i64::from),
            "spec.failedJobsHistoryLimit",
        ),
    ] {
        if v.is_some_and(|v| v < 0) {
            e.add(f, "negative_value");
        }
    }
    if let Some(tz) = &spec.time_zone {
        if tz.is_empty() {
            e.add("spec.timeZone", "timezone_empty");
        } else {
            if tz.eq_ignore_ascii_case("local") {
                e.add("spec.timeZone", "timezone_local");
            }
            if Location::load(tz).is_err() {
                e.add("spec.timeZone", "timezone_unknown");
            }
        }
    }
    Ok(e.0)
}

/// The first ImageListPullJob template problem: (path suffix under `...spec`, kind).
fn ilpj_first_problem(s: &IlpjSpec) -> Option<(&'static str, &'static str)> {
    if let Some(sel) = &s.selector {
        if sel.match_labels.is_some() || sel.match_expressions.is_some() {
            if sel.names.is_some() {
                return Some((".selector", "selector_names_and_labels"));
            }
            if !sel.label_selector().is_valid() {
                return Some((".selector.labelSelector", "invalid_label_selector"));
            }
        }
        if let Some(names) = &sel.names {
            let mut seen = std::collections::HashSet::new();
            if !names.iter().all(|n| seen.insert(n.as_str())) {
                return Some((".selector.names", "duplicate_selector_names"));
            }
        }
    }
    if let Some(ps) = &s.pod_selector {
        if s.selector.is_some() {
            return Some(("", "selector_and_pod_selector"));
        }
        if !ps.is_valid() {
            return Some((".podSelector.labelSelector", "invalid_label_selector"));
        }
    }
    let images = s.images.as_deref().unwrap_or(&[]);
    if images.is_empty() {
        return Some((".images", "images_empty"));
    }
    if images.len() > 255 {
        return Some((".images", "images_too_many"));
    }
    let mut seen = std::collections::HashSet::new();
    if !images.iter().all(|i| seen.insert(i.as_str())) {
        return Some((".images", "images_duplicate"));
    }
    if !images.iter().all(|i| image_ref::is_valid_normalized(i)) {
        return Some((".images", "invalid_image"));
    }
    let cp = &s.completion_policy;
    if cp.type_ != "Always" {
        return Some((".completionPolicy.type", "completion_policy_not_always"));
    }
    if cp.active_deadline_seconds.is_some_and(|a| a > 86_400) {
        return Some((
            ".completionPolicy.activeDeadlineSeconds",
            "active_deadline_too_large",
        ));
    }
    if let (Some(a), Some(t)) = (
        cp.active_deadline_seconds,
        s.pull_policy.as_ref().and_then(|p| p.timeout_seconds),
    ) && i64::from(t) > a
    {
        return Some((
            ".completionPolicy.activeDeadlineSeconds",
            "active_deadline_below_timeout",
        ));
    }
    if cp.ttl_seconds_after_finished.is_some() {
        return Some((
            ".completionPolicy.ttlSecondsAfterFinished",
            "ttl_not_supported",
        ));
    }
    None
}
