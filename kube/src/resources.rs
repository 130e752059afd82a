//! SidecarSet `resourcesPolicy` on k8s-openapi types: a [`Pod`] (its containers' and native
//! sidecars' [`ResourceRequirements`]) in, the sidecar's computed [`ResourceRequirements`] out,
//! through `kruise_core::resources::apply` (OpenKruise v1.9
//! `pkg/webhook/pod/mutating/sidecarset_resources.go` `applyResourcesPolicy`).

use k8s_openapi::api::core::v1::{Container, Pod, ResourceRequirements};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as K8sQuantity;
use kruise_core::quantity::Quantity;
use kruise_core::resources::policy::{self, QuantityText};
use kruise_core::resources::{PodContainers, ResourceList, ResourcesPolicy};
use kruise_core::{Error, Result};
use std::collections::BTreeMap;

pub use kruise_core::resources::Applied;

/// Parses a k8s-openapi quantity exactly (apimachinery `ParseQuantity`); the result borrows its
/// text. Errors: `invalid_quantity`.
pub fn parse_quantity(q: &K8sQuantity) -> Result<Quantity<'_>> {
    Quantity::parse(&q.0).map_err(|e| e.to_error("quantity", &q.0))
}

/// A core quantity as k8s-openapi's string newtype (its Kubernetes string form).
pub fn to_k8s_quantity(q: &Quantity<'_>) -> K8sQuantity {
    K8sQuantity(q.to_string())
}

fn resource_map(
    m: &Option<BTreeMap<String, K8sQuantity>>,
) -> Option<BTreeMap<String, QuantityText>> {
    m.as_ref().map(|m| {
        m.iter()
            .map(|(k, v)| (k.clone(), QuantityText(v.0.clone())))
            .collect()
    })
}

fn core_container(c: &Container) -> policy::Container {
    let r = c.resources.as_ref();
    policy::Container {
        name: c.name.clone(),
        restart_policy: c.restart_policy.clone(),
        resources: policy::ResourceRequirements {
            limits: r.and_then(|r| resource_map(&r.limits)),
            requests: r.and_then(|r| resource_map(&r.requests)),
        },
    }
}

/// The pod's init containers and containers as the core sees them.
pub fn pod_containers(pod: &Pod) -> PodContainers {
    let spec = pod.spec.as_ref();
    PodContainers {
        init_containers: spec
            .and_then(|s| s.init_containers.as_ref())
            .map(|v| v.iter().map(core_container).collect())
            .unwrap_or_default(),
        containers: spec
            .map(|s| s.containers.iter().map(core_container).collect())
            .unwrap_or_default(),
    }
}

fn to_map(l: &ResourceList) -> Option<BTreeMap<String, K8sQuantity>> {
    let mut m = BTreeMap::new();
    if let Some(q) = &l.cpu {
        m.insert("cpu".to_string(), to_k8s_quantity(q));
    }
    if let Some(q) = &l.memory {
        m.insert("memory".to_string(), to_k8s_quantity(q));
    }
    (!m.is_empty()).then_some(m)
}

/// The sidecar's new `resources` for `policy` on `pod` (the whole field is replaced; a map with
/// no entry is `None`), plus the derivation.
///
/// `sidecar_names` lists every container and init-container name of every SidecarSet matched
/// for the pod (those are never targets).
///
/// Errors: `invalid_quantity` (pod resources), `invalid_regex`, `no_target_containers`, or the
/// first calculator error (limits.cpu, limits.memory, requests.cpu, requests.memory).
pub fn sidecar_resources(
    pod: &Pod,
    policy: &ResourcesPolicy,
    sidecar_names: &[String],
) -> Result<(ResourceRequirements, Applied)> {
    let applied = kruise_core::resources::apply(policy, &pod_containers(pod), sidecar_names)?;
    let rr = ResourceRequirements {
        claims: None,
        limits: to_map(&applied.limits),
        requests: to_map(&applied.requests),
    };
    Ok((rr, applied))
}

/// Like [`sidecar_resources`] for a SidecarSet container given as JSON (`spec.containers[i]`
/// of an `apps.kruise.io` SidecarSet, which k8s-openapi does not model). `Ok(None)` when the
/// container has no `resourcesPolicy` (its resources stay as they are).
///
/// Errors: `invalid_input` for a malformed `resourcesPolicy`, then as [`sidecar_resources`].
pub fn sidecar_container_resources(
    pod: &Pod,
    sidecar_container: &serde_json::Value,
    sidecar_names: &[String],
) -> Result<Option<ResourceRequirements>> {
    let Some(p) = sidecar_container
        .get("resourcesPolicy")
        .filter(|p| !p.is_null())
    else {
        return Ok(None);
    };
    let policy: ResourcesPolicy = serde_json::from_value(p.clone())
        .map_err(|e| Error::invalid_input("resourcesPolicy", e))?;
    sidecar_resources(pod, &policy, sidecar_names).map(|(r, _)| Some(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::PodSpec;

    fn container(
        name: &str,
        restart: Option<&str>,
        limits: &[(&str, &str)],
        requests: &[(&str, &str)],
    ) -> Container {
        let map = |kv: &[(&str, &str)]| {
            (!kv.is_empty()).then(|| {
                kv.iter()
                    .map(|(k, v)| (k.to_string(), K8sQuantity(v.to_string())))
                    .collect()
            })
        };
        Container {
            name: name.into(),
            restart_policy: restart.map(Into::into),
            resources: Some(ResourceRequirements {
                claims: None,
                limits: map(limits),
                requests: map(requests),
            }),
            ..Default::default()
        }
    }

    fn pod() -> Pod {
        Pod {
            spec: Some(PodSpec {
                init_containers: Some(vec![
                    container(
                        "mesh-proxy",
                        Some("Always"),
                        &[("cpu", "500m"), ("memory", "256Mi")],
                        &[("cpu", "250m")],
                    ),
                    container("migrate", None, &[("cpu", "4")], &[("cpu", "4")]),
                ]),
                containers: vec![
                    container(
                        "app-main",
                        None,
                        &[("cpu", "2"), ("memory", "1Gi")],
                        &[("cpu", "1"), ("memory", "512Mi")],
                    ),
                    container(
                        "app-worker",
                        None,
                        &[("cpu", "1500m"), ("memory", "512Mi")],
                        &[("memory", "256Mi")],
                    ),
                    container("sidecar1", None, &[("cpu", "9")], &[("cpu", "9")]),
                ],
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn policy(mode: &str, regex: &str) -> ResourcesPolicy {
        serde_json::from_value(serde_json::json!({
            "targetContainersMode": mode,
            "targetContainersNameRegex": regex,
            "resourcesExpr": {
                "limits": {"cpu": "max(cpu*50%, 50m)", "memory": "memory*25%"},
                "requests": {"cpu": "cpu*20%", "memory": "max(memory*10%, 64Mi)"}
            }
        }))
        .unwrap()
    }

    fn q(rr: &Option<BTreeMap<String, K8sQuantity>>, k: &str) -> Option<String> {
        rr.as_ref().and_then(|m| m.get(k)).map(|q| q.0.clone())
    }

    #[test]
    fn sum_over_native_sidecar_and_apps() {
        let (rr, applied) =
            sidecar_resources(&pod(), &policy("sum", "^(app|mesh)"), &["sidecar1".into()]).unwrap();
        assert_eq!(applied.targets, ["mesh-proxy", "app-main", "app-worker"]);
        // limits: cpu 500m + 2 + 1500m = 4 -> 2; memory 256Mi + 1Gi + 512Mi = 1792Mi -> 448Mi
        assert_eq!(q(&rr.limits, "cpu").as_deref(), Some("2"));
        assert_eq!(q(&rr.limits, "memory").as_deref(), Some("448Mi"));
        // requests: cpu 250m + 1 = 1250m -> 250m; memory 512Mi + 256Mi = 768Mi -> 76.8Mi = 80530636800m
        assert_eq!(q(&rr.requests, "cpu").as_deref(), Some("250m"));
        assert_eq!(q(&rr.requests, "memory").as_deref(), Some("80530636800m"));
    }

    #[test]
    fn max_mode_and_unlimited_limit() {
        let mut p = pod();
        if let Some(spec) = p.spec.as_mut() {
            spec.containers[1]
                .resources
                .as_mut()
                .unwrap()
                .limits
                .as_mut()
                .unwrap()
                .remove("cpu");
        }
        let (rr, _) = sidecar_resources(&p, &policy("max", "^app-"), &[]).unwrap();
        // app-worker has no cpu limit: the cpu limit stays unset.
        assert_eq!(q(&rr.limits, "cpu"), None);
        assert_eq!(q(&rr.limits, "memory").as_deref(), Some("256Mi"));
        assert_eq!(q(&rr.requests, "cpu").as_deref(), Some("200m"));
        assert_eq!(q(&rr.requests, "memory").as_deref(), Some("64Mi"));
    }

    #[test]
    fn json_sidecar_container_and_errors() {
        let sc = serde_json::json!({"name": "sidecar1", "image": "centos:6.7", "resourcesPolicy": {
            "targetContainersMode": "sum", "targetContainersNameRegex": "^nothing$",
            "resourcesExpr": {"limits": {"cpu": "cpu"}}}});
        assert_eq!(
            sidecar_container_resources(&pod(), &sc, &[])
                .unwrap_err()
                .kind,
            "no_target_containers"
        );
        let none = serde_json::json!({"name": "sidecar1"});
        assert_eq!(
            sidecar_container_resources(&pod(), &none, &[]).unwrap(),
            None
        );
        assert_eq!(
            parse_quantity(&K8sQuantity("1.5Gi".into()))
                .unwrap()
                .to_string(),
            "1536Mi"
        );
        assert_eq!(
            parse_quantity(&K8sQuantity("1e3m".into()))
                .unwrap_err()
                .kind,
            "invalid_quantity"
        );
    }
}
