//! The ResourceDistribution validating webhook (create and update): the metadata name checks,
//! the `spec.resource` checks (readable, a supported kind, immutable on update, the API server's
//! dry-run create) and the `spec.targets` checks (namespace names, namespaces both included and
//! excluded, the namespace label selector).
//!
//! Mirrors `pkg/webhook/resourcedistribution/validating/resourcedistribution_create_update_handler.go`
//! of OpenKruise v1.9.0 (`Handle`, `validateResourceDistribution`,
//! `validateResourceDistributionSpec`, `validateResourceDistributionSpecResource`,
//! `validateResourceDistributionSpecTargets`) and `utils.go` (`DeserializeResource`,
//! `isSupportedGK`, `haveSameGVKAndName`), with apimachinery v0.32.10's `ValidateObjectMeta`
//! (name, generateName, namespace) and `ValidateNamespaceName`.

use super::types::{DistributionSpec, INVALID_RESOURCE, TargetsSpec};
use crate::error::{Error, Result};
use crate::k8s::null_as_default;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Field error type `Invalid value` (`field.ErrorTypeInvalid`).
pub const TYPE_INVALID: &str = "FieldValueInvalid";
/// Field error type `Required value` (`field.ErrorTypeRequired`).
pub const TYPE_REQUIRED: &str = "FieldValueRequired";
/// Field error type `Forbidden` (`field.ErrorTypeForbidden`).
pub const TYPE_FORBIDDEN: &str = "FieldValueForbidden";
/// Field error type `Internal error` (`field.ErrorTypeInternal`).
pub const TYPE_INTERNAL: &str = "InternalError";

/// Largest `includedNamespaces.list` / `excludedNamespaces.list` accepted.
pub const MAX_NAMESPACES: usize = 10_000;

/// Input of `distribution.validate`: one admission request for a ResourceDistribution.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ValidateInput {
    /// The ResourceDistribution being created or updated (`object`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ValidatedDistribution>")]
    pub resource_distribution: ValidatedDistribution,
    /// On an UPDATE, the stored object (`oldObject`); absent or null: a CREATE.
    #[serde(default)]
    pub old_resource_distribution: Option<ValidatedDistribution>,
    /// What the API server answers the webhook's dry-run create of `spec.resource` (in the
    /// webhook's own namespace); absent or null: the dry run succeeds. Only reached when the
    /// resource is readable, supported and (on update) unchanged in kind and name.
    #[serde(default)]
    pub dry_run_error: Option<DryRunError>,
    /// Whether the `ResourceDistributionGate` feature gate is on; absent or null: true.
    #[serde(default)]
    pub feature_gate_enabled: Option<bool>,
}

/// A ResourceDistribution as the webhook reads it.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValidatedDistribution {
    /// `metadata`; absent or null: the zero metadata (no name: `Required value`).
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<ValidatedMeta>")]
    pub metadata: ValidatedMeta,
    /// `spec`; absent or null: no resource, no targets.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<DistributionSpec>")]
    pub spec: DistributionSpec,
}

/// The `metadata` members the webhook checks. Labels, annotations, owner references and
/// finalizers are left to the API server's own metadata validation, which runs before any
/// validating webhook (see `docs/distribution.md`).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValidatedMeta {
    /// `metadata.name`: a DNS-1123 subdomain (at most 253 characters); null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub name: String,
    /// `metadata.generateName`: checked as a name prefix when not empty; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub generate_name: String,
    /// `metadata.namespace`: must be empty (ResourceDistribution is cluster-scoped); null or
    /// absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub namespace: String,
}

/// The API server's answer to the dry-run create.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DryRunError {
    /// The status reason (`metav1.StatusReason`), e.g. `AlreadyExists` (ignored by the webhook),
    /// `Invalid`, `Forbidden`; null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub reason: String,
    /// The error's message (`err.Error()`); null or absent: `""`.
    #[serde(default, deserialize_with = "null_as_default")]
    #[schemars(with = "Option<String>")]
    pub message: String,
}

/// One field error as the webhook words it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FieldError {
    /// The field path, e.g. `spec.targets.includedNamespaces`.
    pub field: String,
    /// `field.ErrorType`: `FieldValueInvalid`, `FieldValueRequired`, `FieldValueForbidden` or
    /// `InternalError`.
    #[serde(rename = "type")]
    pub error_type: &'static str,
    /// The detail text.
    pub detail: String,
}

/// Output of `distribution.validate`: the admission answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ValidateOutput {
    /// Whether the request is admitted.
    pub allowed: bool,
    /// HTTP code of the answer: 200 (admitted), 403 (feature gate off), 422 (field errors).
    pub code: u16,
    /// The field errors in the webhook's order (empty when admitted or forbidden).
    pub errors: Vec<FieldError>,
    /// The refusal message when the feature gate is off; null otherwise.
    pub message: Option<String>,
}

const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// `IsDNS1123Label` messages.
fn dns1123_label_problems(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 characters".to_string());
    }
    if !label_shape(s) {
        if subdomain_shape(s) {
            out.push("must not contain dots".to_string());
        } else {
            out.push(DNS1123_LABEL_MSG.to_string());
        }
    }
    out
}

/// `IsDNS1123Subdomain` messages.
fn dns1123_subdomain_problems(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push("must be no more than 253 characters".to_string());
    }
    if !subdomain_shape(s) {
        out.push(DNS1123_SUBDOMAIN_MSG.to_string());
    }
    out
}

/// The label regex alone (no length limit).
fn label_shape(s: &str) -> bool {
    let b = s.as_bytes();
    let an = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty() && an(b[0]) && an(b[b.len() - 1]) && b.iter().all(|&c| an(c) || c == b'-')
}

/// The subdomain regex alone (no length limit).
fn subdomain_shape(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(label_shape)
}

/// `maskTrailingDash`: a prefix ending in `-` (longer than one byte) has its last two bytes
/// replaced by `a`.
fn mask_trailing_dash(s: &str) -> String {
    if s.len() > 1 && s.ends_with('-') {
        let cut = &s.as_bytes()[..s.len() - 2];
        let mut v = cut.to_vec();
        v.push(b'a');
        String::from_utf8_lossy(&v).into_owned()
    } else {
        s.to_string()
    }
}

/// A resource `DeserializeResource` read: an object (or a list) with its kind, apiVersion and
/// name.
struct Decoded<'a> {
    api_version: &'a str,
    kind: &'a str,
    name: &'a str,
    list: bool,
}

struct Errs(Vec<FieldError>);

impl Errs {
    fn push(&mut self, field: &str, error_type: &'static str, detail: impl Into<String>) {
        self.0.push(FieldError {
            field: field.to_string(),
            error_type,
            detail: detail.into(),
        });
    }
}

fn deserialize<'a>(resource: Option<&'a Value>, e: &mut Errs) -> Option<Decoded<'a>> {
    let object = match resource {
        None | Some(Value::Null) => {
            e.push("spec", TYPE_INVALID, "empty resource is not allowed");
            return None;
        }
        Some(Value::Object(o)) => o,
        Some(other) => {
            let what = match other {
                Value::Array(_) => "array",
                Value::String(_) => "string",
                Value::Number(_) => "number",
                _ => "bool",
            };
            e.push(
                "spec",
                TYPE_INTERNAL,
                format!(
                    "failed to deserialize resource, please check your spec.resource, err json: cannot unmarshal {what} into a resource object"
                ),
            );
            return None;
        }
    };
    let string = |v: Option<&'a Value>| v.and_then(Value::as_str).unwrap_or("");
    let kind = string(object.get("kind"));
    let api_version = string(object.get("apiVersion"));
    // an apiVersion with more than one `/` leaves the kind unread as well
    if kind.is_empty() || group_version(api_version).is_none() {
        let raw = serde_json::to_string(&Value::Object(object.clone())).unwrap_or_default();
        e.push(
            "spec",
            TYPE_INTERNAL,
            format!(
                "failed to deserialize resource, please check your spec.resource, err Object 'Kind' is missing in '{raw}'"
            ),
        );
        return None;
    }
    Some(Decoded {
        api_version,
        kind,
        name: string(object.get("metadata").and_then(|m| m.get("name"))),
        // Go's list detector reads any `items` member, `null` included
        list: object.contains_key("items"),
    })
}

/// `schema.ParseGroupVersion`: (group, version), or `None` when it has more than one `/`.
fn group_version(api_version: &str) -> Option<(&str, &str)> {
    if api_version.is_empty() {
        return Some(("", ""));
    }
    match api_version.split('/').count() {
        1 => Some(("", api_version)),
        2 => api_version.split_once('/'),
        _ => None,
    }
}

/// (group, version, kind) as `GroupVersionKind()` reads them (an unparsable apiVersion never
/// gets here: the decoder refuses it).
fn gvk<'a>(api_version: &'a str, kind: &'a str) -> (&'a str, &'a str, &'a str) {
    let (g, v) = group_version(api_version).unwrap_or_default();
    (g, v, kind)
}

fn validate_targets(t: &TargetsSpec, e: &mut Errs) {
    let mut included = std::collections::BTreeSet::new();
    for ns in &t.included_namespaces.list {
        included.insert(ns.name.as_str());
        for msg in dns1123_label_problems(&ns.name) {
            e.push("spec.targets.includedNamespaces", TYPE_INVALID, msg);
        }
    }
    let mut conflicted = Vec::new();
    for ns in &t.excluded_namespaces.list {
        for msg in dns1123_label_problems(&ns.name) {
            e.push("spec.targets.excludedNamespaces", TYPE_INVALID, msg);
        }
        if included.contains(ns.name.as_str()) {
            conflicted.push(ns.name.as_str());
        }
    }
    if !conflicted.is_empty() {
        e.push(
            "spec.targets",
            TYPE_INVALID,
            format!(
                "ambiguous targets because namespace [{}] is in both IncludedNamespaces.List and ExcludedNamespaces.List",
                conflicted.join(" ")
            ),
        );
    }
    if let Some(problem) = t.namespace_label_selector.validate().into_iter().next() {
        e.push(
            "spec.targets.namespaceLabelSelector",
            TYPE_INVALID,
            format!(
                "labelSelectorAsSelector error: {}: {}",
                problem.field, problem.detail
            ),
        );
    }
}

/// Validates one admission request (see the module doc).
///
/// Errors: `invalid_input` when a namespace list exceeds [`MAX_NAMESPACES`];
/// `invalid_resource` when `spec.resource` is of a supported kind and it, or the old object's
/// resource, is a list (an `items` member, even `null`): the reference's handler fails on it (it reads the
/// name of, or dry-runs, a list as one object).
pub fn validate(input: &ValidateInput) -> Result<ValidateOutput> {
    let obj = &input.resource_distribution;
    for (which, d) in std::iter::once(("resourceDistribution", obj)).chain(
        input
            .old_resource_distribution
            .iter()
            .map(|o| ("oldResourceDistribution", o)),
    ) {
        let t = &d.spec.targets;
        for (name, l) in [
            ("includedNamespaces", &t.included_namespaces.list),
            ("excludedNamespaces", &t.excluded_namespaces.list),
        ] {
            if l.len() > MAX_NAMESPACES {
                return Err(Error::invalid_input(
                    format!("{which}.spec.targets.{name}.list"),
                    format_args!("more than {MAX_NAMESPACES} entries"),
                ));
            }
        }
    }
    if input.feature_gate_enabled == Some(false) {
        return Ok(ValidateOutput {
            allowed: false,
            code: 403,
            errors: Vec::new(),
            message: Some("feature-gate ResourceDistributionGate is not enabled".into()),
        });
    }
    let mut e = Errs(Vec::new());
    // metadata (ValidateObjectMeta, cluster-scoped, names are DNS-1123 subdomains)
    let meta = &obj.metadata;
    if !meta.generate_name.is_empty() {
        for msg in dns1123_subdomain_problems(&mask_trailing_dash(&meta.generate_name)) {
            e.push("metadata.generateName", TYPE_INVALID, msg);
        }
    }
    if meta.name.is_empty() {
        e.push(
            "metadata.name",
            TYPE_REQUIRED,
            "name or generateName is required",
        );
    } else {
        for msg in dns1123_subdomain_problems(&meta.name) {
            e.push("metadata.name", TYPE_INVALID, msg);
        }
    }
    if !meta.namespace.is_empty() {
        e.push(
            "metadata.namespace",
            TYPE_FORBIDDEN,
            "not allowed on this type",
        );
    }
    // spec
    let Some(resource) = deserialize(obj.spec.resource.as_ref(), &mut e) else {
        return Ok(finish(e));
    };
    let old = input
        .old_resource_distribution
        .as_ref()
        .and_then(|o| deserialize(o.spec.resource.as_ref(), &mut e));
    {
        let Decoded {
            api_version,
            kind,
            name,
            list,
        } = resource;
        let (group, _, k) = gvk(api_version, kind);
        let supported = group.is_empty() && (k == "Secret" || k == "ConfigMap");
        if !supported {
            e.push(
                "spec.resource",
                TYPE_INVALID,
                "unknown or unsupported resource GroupKind, only support [Secret ConfigMap]",
            );
        } else if list || old.as_ref().is_some_and(|o| o.list) {
            return Err(Error::at(
                INVALID_RESOURCE,
                "resourceDistribution.spec.resource",
                "a list (an items member) of a supported kind, new or old: the reference cannot read its name or dry-run it",
            ));
        } else if let Some(o) = &old
            && (name != o.name || gvk(api_version, kind) != gvk(o.api_version, o.kind))
        {
            e.push(
                "spec.resource",
                TYPE_INVALID,
                "resource apiVersion, kind, and name are immutable",
            );
        } else if let Some(d) = &input.dry_run_error
            && d.reason != "AlreadyExists"
        {
            e.push(
                "spec.resource",
                TYPE_INTERNAL,
                format!(
                    "failed to dry-run to validate spec.resource, error: {}",
                    d.message
                ),
            );
        }
        validate_targets(&obj.spec.targets, &mut e);
    }
    Ok(finish(e))
}

fn finish(e: Errs) -> ValidateOutput {
    let allowed = e.0.is_empty();
    ValidateOutput {
        allowed,
        code: if allowed { 200 } else { 422 },
        errors: e.0,
        message: None,
    }
}
