//! Kubernetes library rules that several families share, written once:
//!
//! - [`strconv`]: Go's `strconv.Atoi` exactly as Kubernetes code calls it (`v, _ := Atoi(s)`), which
//!   saturates on overflow instead of returning 0;
//! - [`validation`]: apimachinery `pkg/util/validation` name rules (`IsQualifiedName`,
//!   `IsValidLabelValue`, `IsDNS1123Subdomain`, `IsDNS1123Label`, `IsValidPercent`);
//! - [`selector`]: `metav1.LabelSelector` and apimachinery's `ValidateLabelSelector` /
//!   `LabelSelectorAsSelector` checks (`pkg/apis/meta/v1/validation`, `pkg/labels`), the one selector
//!   validator every family uses.
//!
//! Versions: apimachinery v0.32.10, the module OpenKruise v1.9.0 builds with.

pub mod selector;
pub mod strconv;
pub mod validation;
