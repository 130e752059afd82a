//! Kubernetes library rules that several families share, written once:
//!
//! - [`strconv`]: Go's `strconv.Atoi` exactly as Kubernetes code calls it (`v, _ := Atoi(s)`), which
//!   saturates on overflow instead of returning 0;
//! - [`validation`]: apimachinery `pkg/util/validation` name rules (`IsQualifiedName`,
//!   `IsValidLabelValue`, `IsDNS1123Subdomain`, `IsDNS1123Label`, `IsValidPercent`);
//! - [`selector`]: `metav1.LabelSelector` and apimachinery's `ValidateLabelSelector` /
//!   `LabelSelectorAsSelector` checks (`pkg/apis/meta/v1/validation`, `pkg/labels`), the one selector
//!   validator every family uses;
//! - [`selector_match`]: `LabelSelectorAsSelector` + `labels.Selector.Matches` (nil selector matches
//!   nothing, empty matches everything, invalid is an error), the one selector matcher.
//!
//! - [`image_ref`]: the docker/distribution image reference grammar, plain (`reference.Parse`)
//!   and normalized (`ParseNormalizedNamed`).
//!
//! - [`condition`]: the one view of a status condition (`type`, `status`, `reason`, `message`,
//!   `lastTransitionTime`).
//! - [`meta`]: the one `ObjectMeta` view (and owner references) every object view carries.
//! - [`pod`]: the one pod view (metadata, spec containers, status conditions and container
//!   statuses; `IsPodActive`, `GetControllerOf`, `IsPodReady`) the families read.
//! - [`namespace`]: the one Namespace view.
//! - [`webhook_namespace`]: the namespaces the pod webhooks never see (the webhook
//!   configuration's `namespaceSelector`), applied by every pod-webhook decision.
//!
//! - [`node`]: the one Node view (metadata and taints).
//! - [`scheduling`]: node affinity, taints and tolerations (the scheduling predicates a controller
//!   checks for a pod template on a node).
//!
//! - [`null_as_default`]: encoding/json's reading of `null` for a slice, map or struct member (the
//!   zero value), for serde fields.
//!
//! Versions: apimachinery v0.32.10, the module OpenKruise v1.9.0 builds with.

pub mod condition;
pub mod image_ref;
pub mod meta;
pub mod namespace;
pub mod node;
pub mod pod;
pub mod scheduling;
pub mod selector;
pub mod selector_match;
pub mod strconv;
pub mod validation;
pub mod webhook_namespace;

/// Reads a JSON `null` (or an absent member, with `#[serde(default)]`) as `T::default()`, as Go's
/// encoding/json leaves a nil slice, map or zero struct: `#[serde(default, deserialize_with =
/// "crate::k8s::null_as_default")]`.
pub fn null_as_default<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + serde::Deserialize<'de>,
{
    Ok(<Option<T> as serde::Deserialize>::deserialize(d)?.unwrap_or_default())
}

/// Go's encoding/json decodes a JSON object or `null` into a struct and refuses anything else,
/// where serde's derived decoders also read an array as the struct's members in order: the
/// `CHECK_JSON` of a decision whose input carries objects calls this for each of them. `None`
/// (absent) passes. Error: `invalid_input` naming `field`.
pub fn object_or_null(v: Option<&serde_json::Value>, field: &str) -> crate::error::Result<()> {
    match v {
        None | Some(serde_json::Value::Null | serde_json::Value::Object(_)) => Ok(()),
        Some(_) => Err(crate::error::Error::invalid_input(
            field,
            "expected a JSON object",
        )),
    }
}
