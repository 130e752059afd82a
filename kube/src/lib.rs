//! kruise-kube: converts k8s-openapi types (Pod, ResourceRequirements, ...) into kruise-core inputs.
pub mod pub_budget;
