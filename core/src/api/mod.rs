//! The `api` decision family (`apis/apps/`, `pkg/`): v1alpha1 <-> v1beta1 conversion, v1beta1
//! defaulting and the small admission/controller decisions of OpenKruise v1.9.0.
//!
//! Every function takes and returns JSON (`serde_json::Value`) in the CRDs' camelCase; the typed
//! entry points are in the submodules. Registry entries live in [`ENTRIES`].

pub mod convert;
pub mod core_types;
pub mod defaults;
pub mod delete_protection;
pub mod json;
pub mod launch_barrier;
pub mod launch_priority;
pub mod namespace_index;
pub mod schema;
pub mod sidecar_order;
pub mod types;
pub mod workloadspread;

use crate::error::Result;
use crate::registry::{Compare, Entry};
use serde_json::Value;

/// Each handler behind a check of its input's top-level members (the function's own options);
/// the Kubernetes objects inside keep unknown members, as the API server does.
macro_rules! own_members {
    ($($name:ident => $inner:path, [$($k:literal),* $(,)?];)*) => {
        $(fn $name(input: &Value) -> Result<Value> {
            json::only_members(input, &[$($k),*])?;
            $inner(input)
        })*
    };
}

own_members! {
    convert_handle => convert::handle, ["object", "targetApiVersion"];
    defaults_handle => defaults::handle, ["object", "now", "featureGates"];
    launch_priority_handle => launch_priority::handle, ["operation", "subResource", "resource", "pod"];
    launch_barrier_handle => launch_barrier::handle, ["pod", "barrier"];
    sidecar_order_handle => sidecar_order::handle, [
        "podContainers", "podInitContainers", "sidecarContainers", "sidecarInitContainers",
        "sortSidecarContainersByName",
    ];
    delete_protection_handle => delete_protection::handle, [
        "kind", "object", "dependents", "featureGates", "operation", "subResource",
    ];
    namespace_index_handle => namespace_index::handle, ["object"];
    workloadspread_handle => workloadspread::handle, [
        "workloadSpread", "pod", "operation", "workloadReplicas", "versionedStatusKinds",
    ];
}

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::new(
        "api.convert",
        "v1alpha1 <-> v1beta1 conversion of a whole manifest (apis/apps/v1alpha1/*_conversion.go)",
        convert_handle,
    )
    .with_compare(Compare::ZeroPruned),
    Entry::new(
        "api.default",
        "mutating-webhook defaults of v1beta1 objects (apis/apps/defaults/v1beta1.go)",
        defaults_handle,
    )
    .with_compare(Compare::NullPruned),
    Entry::new(
        "api.launch_priority",
        "container launch priority barrier env injection (pkg/webhook/pod/mutating/container_launch_priority_initialization.go)",
        launch_priority_handle,
    ),
    Entry::new(
        "api.launch_barrier_next",
        "next launch-priority level to release (pkg/controller/containerlaunchpriority)",
        launch_barrier_handle,
    ),
    Entry::new(
        "api.sidecar_order",
        "SidecarSet container / init container placement order (pkg/webhook/pod/mutating/sidecarset.go)",
        sidecar_order_handle,
    ),
    Entry::new(
        "api.delete_protection",
        "policy.kruise.io/delete-protection admission (pkg/webhook/util/deletionprotection)",
        delete_protection_handle,
    ),
    Entry::new(
        "api.sidecarset_namespace_index",
        "namespace index keys of a SidecarSet (pkg/util/fieldindex/register.go)",
        namespace_index_handle,
    ),
    Entry::new(
        "api.workloadspread_subset",
        "WorkloadSpread subset choice with per-revision accounting (pkg/util/workloadspread)",
        workloadspread_handle,
    ),
];
