//! The label selectors of AdvancedCronJob templates: kruise-core's one selector type and
//! validator ([`crate::k8s::selector`]; `metav1.LabelSelectorAsSelector` accepts exactly the
//! selectors `ValidateLabelSelector` finds nothing in).

pub use crate::k8s::selector::{LabelSelector, Requirement};
