//! kruise-kube: converts k8s-openapi types (Pod, ResourceRequirements, ...) into kruise-core inputs.
pub mod allocation;
pub mod conversion;
pub mod pub_budget;
pub mod resources;
