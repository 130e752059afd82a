//! Exact Kubernetes quantities (apimachinery `pkg/api/resource`). To be filled by the resources work.
