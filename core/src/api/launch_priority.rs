//! `api.launch_priority`: the pod-creation webhook that turns container launch-priority intent
//! into barrier env vars (`pkg/webhook/pod/mutating/container_launch_priority_initialization.go`,
//! constants in `apis/apps/pub/launch_priority.go`, key format in
//! `pkg/util/containerlaunchpriority/container_launch_priority.go`).

use super::json::{as_obj, get, list_at, obj_at, str_at};
use crate::error::{Error, Result};
use crate::intstr::atoi;
use serde_json::{Value, json};

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

/// Registry handler: input `{"pod", "operation"?, "subResource"?, "resource"?}`; output
/// `{"skip": true}` or `{"skip": false, "priorities", "barrierConfigMap", "keys"}`.
pub fn handle(input: &Value) -> Result<Value> {
    let inp = as_obj(input, "input")?;
    let operation = str_at(inp, "operation", "")?.unwrap_or("CREATE");
    let sub = str_at(inp, "subResource", "")?.unwrap_or("");
    let resource = str_at(inp, "resource", "")?.unwrap_or("pods");
    let pod = as_obj(
        get(inp, "pod").ok_or_else(|| Error::invalid_input("pod", "missing"))?,
        "pod",
    )?;
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
        return Ok(json!({"skip": true}));
    }
    let Some(priorities) = decide(annotation, containers)? else {
        return Ok(json!({"skip": true}));
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
    Ok(
        json!({"skip": false, "priorities": priorities, "barrierConfigMap": format!("{name}-barrier"), "keys": keys}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let out = handle(&json!({"pod": pod})).unwrap();
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
