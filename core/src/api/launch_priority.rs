//! `api.launch_priority`: the pod-creation webhook that turns container launch-priority intent
//! into barrier env vars (`pkg/webhook/pod/mutating/container_launch_priority_initialization.go`,
//! constants in `apis/apps/pub/launch_priority.go`, key format in
//! `pkg/util/containerlaunchpriority/container_launch_priority.go`).

use super::json::{as_obj, list_at, obj_at, str_at};
use crate::error::{Error, Result};
use crate::intstr::atoi;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// User env holding a container's priority.
pub const PRIORITY_ENV: &str = "KRUISE_CONTAINER_PRIORITY";
/// Injected env pointing at the barrier ConfigMap key.
pub const BARRIER_ENV: &str = "KRUISE_CONTAINER_BARRIER";
/// Pod annotation asking for ordered launch.
pub const PRIORITY_ANNOTATION: &str = "apps.kruise.io/container-launch-priority";
/// Pod annotation marking the barrier as fully released.
pub const COMPLETED_ANNOTATION: &str = "apps.kruise.io/container-launch-priority-completed";
/// Error kind: a `KRUISE_CONTAINER_PRIORITY` value is not a base-10 int64.
pub const INVALID_PRIORITY: &str = "invalid_priority";

/// The barrier ConfigMap key of priority `p`: `p_<p>`.
pub fn key(p: i64) -> String {
    format!("p_{p}")
}

/// The webhook's decision: `None` = skipped (nothing injected), else one priority per container in
/// spec order (every container then gets a barrier env with key [`key`]`(p)`).
///
/// `containers` are the pod's `spec.containers` (after SidecarSet injection). Errors:
/// `invalid_priority` naming `pod.spec.containers[i].env[j].value` when a priority env is not a
/// Go `strconv.Atoi` integer (sign, digits, int64 range).
pub fn decide(ordered_annotation: Option<&str>, containers: &[Value]) -> Result<Option<Vec<i64>>> {
    if containers.len() == 1 {
        return Ok(None);
    }
    if ordered_annotation == Some("Ordered") {
        return Ok(Some((0..containers.len() as i64).map(|i| -i).collect()));
    }
    let mut wanted = false;
    let mut out = Vec::with_capacity(containers.len());
    for (i, c) in containers.iter().enumerate() {
        let path = format!("pod.spec.containers[{i}]");
        let c = as_obj(c, &path)?;
        let mut p = 0i64;
        for (j, e) in list_at(c, "env", &path)?.iter().enumerate() {
            let ep = format!("{path}.env[{j}]");
            let e = as_obj(e, &ep)?;
            if str_at(e, "name", &ep)? != Some(PRIORITY_ENV) {
                continue;
            }
            let raw = str_at(e, "value", &ep)?.unwrap_or("");
            p = atoi(raw.bytes()).ok_or_else(|| {
                Error::at(
                    INVALID_PRIORITY,
                    format!("{ep}.value"),
                    format!("{PRIORITY_ENV}={raw:?} is not a base-10 integer in the int64 range"),
                )
            })?;
            wanted |= p != 0;
        }
        out.push(p);
    }
    if !wanted || out.windows(2).all(|w| w[0] == w[1]) {
        return Ok(None);
    }
    Ok(Some(out))
}

/// Input of `api.launch_priority`: the pod-creation admission request.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LaunchPriorityInput {
    /// The admission operation (absent or `null`: `CREATE`); any other operation is skipped.
    #[serde(default)]
    pub operation: Option<String>,
    /// The admission sub-resource (absent or `null`: none); a sub-resource is skipped.
    #[serde(default)]
    pub sub_resource: Option<String>,
    /// The admission resource (absent or `null`: `pods`); another resource is skipped.
    #[serde(default)]
    pub resource: Option<String>,
    /// The pod being created (after SidecarSet injection), as JSON: the webhook reads only
    /// `metadata.name`, `metadata.generateName`, the `apps.kruise.io/container-launch-priority`
    /// annotation and `spec.containers[].env` (absent or `null` members read as Go zero values,
    /// other members are ignored, a member read with the wrong JSON type is `invalid_input`
    /// naming it). Required.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub pod: Value,
    /// The request's namespace and the pod webhook's `namespaceSelector`
    /// ([`crate::k8s::webhook_namespace`]); when the selector excludes the namespace
    /// (the Helm chart's: `kube-system` and the `control-plane: openkruise` namespace) the webhook
    /// is not called: `skip`. Absent or null: the webhook is called.
    #[serde(default)]
    pub webhook_namespace: Option<crate::k8s::webhook_namespace::WebhookNamespace>,
}

/// Output of `api.launch_priority`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LaunchPriorityOutput {
    /// `true`: the webhook injects nothing (and the other members are absent).
    pub skip: bool,
    /// One priority per container, in `spec.containers` order (absent when skipped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priorities: Option<Vec<i64>>,
    /// The barrier ConfigMap's name, `<pod name>-barrier` (a nameless pod with `generateName`
    /// `g` gives `g<generated>-barrier`: the reference's random suffix is the literal
    /// `<generated>`); absent when skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub barrier_config_map: Option<String>,
    /// The ConfigMap key of each container's `KRUISE_CONTAINER_BARRIER` env, `p_<priority>`, in
    /// container order (absent when skipped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<String>>,
}

impl LaunchPriorityOutput {
    const SKIP: Self = LaunchPriorityOutput {
        skip: true,
        priorities: None,
        barrier_config_map: None,
        keys: None,
    };
}

/// Decides `api.launch_priority` on a typed input.
pub(crate) fn decide_typed(i: LaunchPriorityInput) -> Result<LaunchPriorityOutput> {
    if crate::k8s::webhook_namespace::excluded(i.webhook_namespace.as_ref(), "webhookNamespace")? {
        return Ok(LaunchPriorityOutput::SKIP);
    }
    let operation = i.operation.as_deref().unwrap_or("CREATE");
    let sub = i.sub_resource.as_deref().unwrap_or("");
    let resource = i.resource.as_deref().unwrap_or("pods");
    let pod = as_obj(&i.pod, "pod")?;
    let meta = obj_at(pod, "metadata", "pod")?;
    let annotation = match meta
        .map(|m| obj_at(m, "annotations", "pod.metadata"))
        .transpose()?
        .flatten()
    {
        Some(a) => str_at(a, PRIORITY_ANNOTATION, "pod.metadata.annotations")?,
        None => None,
    };
    let containers = match obj_at(pod, "spec", "pod")? {
        Some(spec) => list_at(spec, "containers", "pod.spec")?,
        None => &[],
    };
    if operation != "CREATE" || resource != "pods" || !sub.is_empty() {
        return Ok(LaunchPriorityOutput::SKIP);
    }
    let Some(priorities) = decide(annotation, containers)? else {
        return Ok(LaunchPriorityOutput::SKIP);
    };
    let name = match meta {
        Some(m) => str_at(m, "name", "pod.metadata")?.unwrap_or(""),
        None => "",
    };
    // The reference generates `<generateName><5 random chars>` for a nameless pod; the core has
    // no randomness, so the random part is the literal placeholder `<generated>`.
    let generated;
    let name = match meta {
        Some(m) if name.is_empty() => {
            match str_at(m, "generateName", "pod.metadata")?.filter(|g| !g.is_empty()) {
                Some(g) => {
                    generated = format!("{g}<generated>");
                    generated.as_str()
                }
                None => name,
            }
        }
        _ => name,
    };
    let keys: Vec<String> = priorities.iter().map(|p| key(*p)).collect();
    Ok(LaunchPriorityOutput {
        skip: false,
        priorities: Some(priorities),
        barrier_config_map: Some(format!("{name}-barrier")),
        keys: Some(keys),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn c(v: &str) -> Value {
        json!({"name": "c", "env": [{"name": PRIORITY_ENV, "value": v}]})
    }

    #[test]
    fn out_of_range_priority_is_rejected_naming_the_field() {
        let e = decide(None, &[c("1"), c("9223372036854775808")]).unwrap_err();
        assert_eq!(e.kind, INVALID_PRIORITY);
        assert_eq!(
            e.field.as_deref(),
            Some("pod.spec.containers[1].env[0].value")
        );
        assert_eq!(
            decide(None, &[c("-9223372036854775808"), c("+007")]).unwrap(),
            Some(vec![i64::MIN, 7])
        );
    }

    #[test]
    fn flag_raised_by_overwritten_value_but_equal_finals_skip() {
        let a = json!({"name": "a", "env": [{"name": PRIORITY_ENV, "value": "5"}, {"name": PRIORITY_ENV, "value": "0"}]});
        assert_eq!(decide(None, &[a, json!({"name": "b"})]).unwrap(), None);
    }

    #[test]
    fn generated_name_placeholder() {
        let pod = json!({"metadata": {"generateName": "web-", "annotations": {PRIORITY_ANNOTATION: "Ordered"}},
            "spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        let out = crate::call("api.launch_priority", &json!({"pod": pod})).unwrap();
        assert_eq!(out["barrierConfigMap"], "web-<generated>-barrier");
    }

    #[test]
    fn zero_containers_ordered_is_not_skipped() {
        assert_eq!(decide(Some("Ordered"), &[]).unwrap(), Some(vec![]));
        assert_eq!(decide(None, &[]).unwrap(), None);
    }

    #[test]
    fn value_from_without_value_is_invalid() {
        let a =
            json!({"name": "a", "env": [{"name": PRIORITY_ENV, "valueFrom": {"fieldRef": {}}}]});
        assert_eq!(
            decide(None, &[a, c("1")]).unwrap_err().kind,
            INVALID_PRIORITY
        );
    }
}
