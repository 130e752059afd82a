//! Classifying a pod update: nothing, UPDATE or RESIZE.
//!
//! Mirrors `IsPodUnavailableChanged` and `CanResizeInplace` in
//! `pkg/control/pubcontrol/pub_control.go` (OpenKruise v1.9.0), kubelet `IsStaticPod` and
//! Kubernetes `ComputePodQOS` (v1.32).

use super::protect::Operation;
use super::types::{Container, Pod, PodSpec, has_unavailable_label};
use crate::error::{Error, Result};
use crate::quantity::Quantity;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Annotation: kubelet config source (`api` or absent = not static).
pub const ANN_CONFIG_SOURCE: &str = "kubernetes.io/config.source";

/// The classification of an update (`pub.classify_update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateClass {
    /// The spec changed, or the new pod gained an unavailable label.
    pub unavailable_changed: bool,
    /// The change is an in-place cpu/memory resize (reported even when nothing changed).
    pub can_resize_inplace: bool,
    /// `None` when nothing changed, else RESIZE or UPDATE.
    pub operation: Option<Operation>,
}

/// Classifies `old` -> `new`. Errors: `invalid_input` for an unparsable cpu/memory quantity
/// (`field` prefixes: `oldPod` / `newPod`).
pub fn classify_update(old: &Pod, new: &Pod) -> Result<UpdateClass> {
    let unavailable_changed = unavailable_changed(old, new);
    let can_resize_inplace = can_resize_inplace(old, new)?;
    let operation = unavailable_changed.then_some(if can_resize_inplace {
        Operation::Resize
    } else {
        Operation::Update
    });
    Ok(UpdateClass {
        unavailable_changed,
        can_resize_inplace,
        operation,
    })
}

/// `IsPodUnavailableChanged`: the specs differ (Go deep equality), or the new pod gained an
/// `unavailable-pod.kruise.io/` label.
pub fn unavailable_changed(old: &Pod, new: &Pod) -> bool {
    gained_unavailable_label(old, new) || !spec_eq(&old.spec, &new.spec, Mode::DeepEqual)
}

fn gained_unavailable_label(old: &Pod, new: &Pod) -> bool {
    !has_unavailable_label(&old.metadata.labels) && has_unavailable_label(&new.metadata.labels)
}

/// `CanResizeInplace`: no new unavailable label, specs equal apart from app-container resources,
/// neither pod static, same QoS class, and every changed resource is cpu/memory with a
/// `NotRequired` (or absent) resize policy.
pub fn can_resize_inplace(old: &Pod, new: &Pod) -> Result<bool> {
    if gained_unavailable_label(old, new) {
        return Ok(false);
    }
    if !value_eq(&hashed_view(&old.spec), &hashed_view(&new.spec), Mode::Json) {
        return Ok(false);
    }
    if is_static(old) || is_static(new) {
        return Ok(false);
    }
    if qos_class(&old.spec, "oldPod.spec")? != qos_class(&new.spec, "newPod.spec")? {
        return Ok(false);
    }
    resources_resizable(old, new)
}

/// kubelet `IsStaticPod`: `kubernetes.io/config.source` present with a value other than `api`.
pub fn is_static(p: &Pod) -> bool {
    p.metadata
        .annotations
        .get(ANN_CONFIG_SOURCE)
        .is_some_and(|v| v != "api")
}

/// Pod QoS class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QosClass {
    /// No cpu/memory request or limit above zero.
    BestEffort,
    /// Every container has cpu and memory limits, requests equal limits.
    Guaranteed,
    /// Anything else.
    Burstable,
}

/// Kubernetes `ComputePodQOS` from the spec (cpu and memory only, values > 0, app and init
/// containers). `field` prefixes error paths.
pub fn qos_class(spec: &PodSpec, field: &str) -> Result<QosClass> {
    let mut req: [Option<Quantity<'_>>; 2] = [None, None];
    let mut lim: [Option<Quantity<'_>>; 2] = [None, None];
    let mut guaranteed = true;
    let all = spec
        .containers()
        .iter()
        .map(|c| ("containers", c))
        .chain(spec.init_containers().iter().map(|c| ("initContainers", c)));
    for (i, (list, c)) in all.enumerate() {
        let res = c.resources.as_ref();
        let at = |kind: &str, name: &str| format!("{field}.{list}[{i}].resources.{kind}.{name}");
        let mut found = [false, false];
        for (kind, map, sums) in [
            ("requests", res.and_then(|r| r.requests.as_ref()), &mut req),
            ("limits", res.and_then(|r| r.limits.as_ref()), &mut lim),
        ] {
            for (name, q) in map.into_iter().flatten() {
                let slot = match name.as_str() {
                    "cpu" => 0,
                    "memory" => 1,
                    _ => continue,
                };
                let v = parse_quantity(q, || at(kind, name))?;
                if v.signum() <= 0 {
                    continue;
                }
                if kind == "limits" {
                    found[slot] = true;
                }
                match &mut sums[slot] {
                    None => sums[slot] = Some(v),
                    Some(s) => s.add(&v).map_err(|_| {
                        Error::invalid_input(at(kind, name), "quantity sum out of range")
                    })?,
                }
            }
        }
        if !(found[0] && found[1]) {
            guaranteed = false;
        }
    }
    let n_req = req.iter().flatten().count();
    let n_lim = lim.iter().flatten().count();
    if n_req == 0 && n_lim == 0 {
        return Ok(QosClass::BestEffort);
    }
    if guaranteed {
        for slot in 0..2 {
            if let Some(r) = &req[slot]
                && lim[slot].as_ref() != Some(r)
            {
                guaranteed = false;
            }
        }
    }
    Ok(if guaranteed && n_req == n_lim {
        QosClass::Guaranteed
    } else {
        QosClass::Burstable
    })
}

fn resources_resizable(old: &Pod, new: &Pod) -> Result<bool> {
    let (oc, nc) = (old.spec.containers(), new.spec.containers());
    if oc.len() != nc.len() {
        return Ok(false);
    }
    for (i, n) in nc.iter().enumerate() {
        let Some(o) = oc.iter().rev().find(|o| o.name == n.name) else {
            return Ok(false);
        };
        let oi = oc.iter().rposition(|x| x.name == n.name).unwrap_or(0);
        for name in resource_names(o, n) {
            let changed = quantity_changed(o, n, "requests", name, oi, i)?
                || quantity_changed(o, n, "limits", name, oi, i)?;
            if !changed {
                continue;
            }
            if name != "cpu" && name != "memory" {
                return Ok(false);
            }
            let policy = n
                .resize_policy
                .as_deref()
                .unwrap_or(&[])
                .iter()
                .find(|p| p.resource_name == name);
            if let Some(p) = policy
                && !(p.restart_policy.is_empty() || p.restart_policy == "NotRequired")
            {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

fn list<'a>(c: &'a Container, kind: &str) -> Option<&'a super::types::StrMap> {
    let r = c.resources.as_ref()?;
    if kind == "requests" {
        r.requests.as_ref()
    } else {
        r.limits.as_ref()
    }
}

fn resource_names<'a>(o: &'a Container, n: &'a Container) -> Vec<&'a str> {
    let mut v: Vec<&str> = ["requests", "limits"]
        .into_iter()
        .flat_map(|k| {
            list(o, k)
                .into_iter()
                .chain(list(n, k))
                .flat_map(|m| m.keys().map(String::as_str))
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn quantity_changed(
    o: &Container,
    n: &Container,
    kind: &str,
    name: &str,
    oi: usize,
    ni: usize,
) -> Result<bool> {
    let a = list(o, kind).and_then(|m| m.get(name));
    let b = list(n, kind).and_then(|m| m.get(name));
    Ok(match (a, b) {
        (None, None) => false,
        (Some(a), Some(b)) => {
            let a = parse_quantity(a, || {
                format!("oldPod.spec.containers[{oi}].resources.{kind}.{name}")
            })?;
            let b = parse_quantity(b, || {
                format!("newPod.spec.containers[{ni}].resources.{kind}.{name}")
            })?;
            a.cmp_value(&b).is_ne()
        }
        _ => true,
    })
}

/// Parses a cpu/memory quantity with the shared apimachinery parser; a rejected one is an
/// `invalid_input` error at the field `at()` names (the pod could not have been decoded).
fn parse_quantity(q: &str, at: impl FnOnce() -> String) -> Result<Quantity<'_>> {
    Quantity::parse(q).map_err(|e| {
        Error::invalid_input(
            at(),
            format_args!("{q:?} is not a quantity: {}", e.reason()),
        )
    })
}

/// The spec `CanResizeInplace` hashes (`podSpecWithoutResourcesHash`): app-container resources
/// cleared, the rest as `encoding/json` prints the typed spec. Init containers keep their
/// resources, printed the way Go prints a `ResourceRequirements`: the struct itself always (so
/// `null`, `{}` and `{"requests": {}}` all print `{}`), `limits`, `requests` and `claims` only
/// when non-empty (`omitempty`), quantities in their `MarshalJSON` form (a value that does not
/// parse is kept as given), other members dropped as the typed decode drops them.
fn hashed_view(spec: &PodSpec) -> Value {
    let mut s = spec.clone();
    for c in s.containers.iter_mut().flatten() {
        c.resources = None;
    }
    let mut v = serde_json::to_value(&s).unwrap_or(Value::Null);
    let inits = v.get_mut("initContainers").and_then(Value::as_array_mut);
    for (c, typed) in inits.into_iter().flatten().zip(spec.init_containers()) {
        if let Value::Object(c) = c {
            c.insert(
                "resources".into(),
                Value::Object(go_resources(typed.resources.as_ref())),
            );
        }
    }
    v
}

fn go_resources(r: Option<&super::types::Resources>) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    let Some(r) = r else { return out };
    for (key, list) in [("limits", &r.limits), ("requests", &r.requests)] {
        let Some(list) = list.as_ref().filter(|l| !l.is_empty()) else {
            continue;
        };
        let printed = list
            .iter()
            .map(|(name, q)| {
                let q = Quantity::parse(q).map_or_else(|_| q.clone(), |p| p.to_string());
                (name.clone(), Value::String(q))
            })
            .collect();
        out.insert(key.into(), Value::Object(printed));
    }
    match r.rest.get("claims") {
        Some(Value::Array(a)) if !a.is_empty() => {
            out.insert("claims".into(), Value::Array(a.clone()));
        }
        _ => {}
    }
    out
}

/// Which Go equality a comparison mirrors.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `reflect.DeepEqual` on the typed spec: null and zero scalars equal absent, empty lists
    /// and maps do not.
    DeepEqual,
    /// JSON with `omitempty`: empty lists and maps equal absent too.
    Json,
}

/// Pointer fields of PodSpec/Container whose zero value is *not* the same as absent.
const POINTER_FIELDS: &[&str] = &[
    "terminationGracePeriodSeconds",
    "activeDeadlineSeconds",
    "automountServiceAccountToken",
    "shareProcessNamespace",
    "priority",
    "enableServiceLinks",
    "hostUsers",
    "setHostnameAsFQDN",
    "privileged",
    "runAsUser",
    "runAsGroup",
    "runAsNonRoot",
    "readOnlyRootFilesystem",
    "allowPrivilegeEscalation",
    "fsGroup",
];

fn spec_eq(a: &PodSpec, b: &PodSpec, mode: Mode) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(x), Ok(y)) => value_eq(&x, &y, mode),
        _ => false,
    }
}

fn is_absent(key: &str, v: &Value, mode: Mode) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(false) => !POINTER_FIELDS.contains(&key),
        Value::Number(n) => n.as_f64() == Some(0.0) && !POINTER_FIELDS.contains(&key),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty() && mode == Mode::Json,
        Value::Object(o) => o.is_empty() && (mode == Mode::Json || key == "resources"),
        _ => false,
    }
}

fn value_eq(a: &Value, b: &Value, mode: Mode) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            fn present<'m>(
                m: &'m serde_json::Map<String, Value>,
                k: &str,
                mode: Mode,
            ) -> Option<&'m Value> {
                m.get(k).filter(|v| !is_absent(k, v, mode))
            }
            x.keys()
                .chain(y.keys())
                .all(|k| match (present(x, k, mode), present(y, k, mode)) {
                    (None, None) => true,
                    (Some(p), Some(q)) => value_eq(p, q, mode),
                    _ => false,
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| value_eq(p, q, mode))
        }
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(spec: Value) -> Pod {
        serde_json::from_value(json!({"metadata": {"name": "p"}, "spec": spec})).unwrap()
    }

    #[test]
    fn deep_equality_rules() {
        let a = pod(json!({"containers": [{"name": "a", "image": "x:1"}]}));
        // zero scalar == absent
        assert!(!unavailable_changed(
            &a,
            &pod(json!({"containers": [{"name": "a", "image": "x:1", "stdin": false}]}))
        ));
        // empty list != absent for DeepEqual, == for the JSON comparison
        let b = pod(json!({"containers": [{"name": "a", "image": "x:1", "env": []}]}));
        assert!(unavailable_changed(&a, &b));
        assert!(can_resize_inplace(&a, &b).unwrap());
        // pointer zero != absent
        assert!(unavailable_changed(
            &a,
            &pod(
                json!({"containers": [{"name": "a", "image": "x:1"}], "terminationGracePeriodSeconds": 0})
            )
        ));
        // quantities: spelling counts for DeepEqual, value for the resize check
        let r1 = pod(
            json!({"containers": [{"name": "a", "image": "x:1", "resources": {"requests": {"cpu": "1"}}}]}),
        );
        let r2 = pod(
            json!({"containers": [{"name": "a", "image": "x:1", "resources": {"requests": {"cpu": "1000m"}}}]}),
        );
        let c = classify_update(&r1, &r2).unwrap();
        assert_eq!(
            (c.unavailable_changed, c.can_resize_inplace, c.operation),
            (true, true, Some(Operation::Resize))
        );
    }

    #[test]
    fn init_container_resources_and_qos() {
        let a = pod(
            json!({"containers": [{"name": "a"}], "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "1"}}}]}),
        );
        let b = pod(
            json!({"containers": [{"name": "a"}], "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2"}}}]}),
        );
        assert!(!can_resize_inplace(&a, &b).unwrap());
        let g = pod(
            json!({"containers": [{"name": "a", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]}),
        );
        // limits only: requests are empty, so counts differ -> Burstable (defaulting is not applied)
        assert_eq!(qos_class(&g.spec, "s").unwrap(), QosClass::Burstable);
        let g = pod(
            json!({"containers": [{"name": "a", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1000m", "memory": "1024Mi"}}}]}),
        );
        assert_eq!(qos_class(&g.spec, "s").unwrap(), QosClass::Guaranteed);
        assert_eq!(
            qos_class(
                &pod(
                    json!({"containers": [{"name": "a", "resources": {"requests": {"cpu": "0"}}}]})
                )
                .spec,
                "s"
            )
            .unwrap(),
            QosClass::BestEffort
        );
        let e = qos_class(
            &pod(
                json!({"containers": [{"name": "a", "resources": {"requests": {"cpu": "lots"}}}]}),
            )
            .spec,
            "newPod.spec",
        )
        .unwrap_err();
        assert_eq!(
            e.field.as_deref(),
            Some("newPod.spec.containers[0].resources.requests.cpu")
        );
    }
    #[test]
    fn quantities_compare_and_sum_by_value() {
        // per-resource sums across containers, spelled differently on each side
        let g = pod(json!({"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "250m", "memory": "1Gi"},
                                        "limits": {"cpu": "0.25", "memory": "1024Mi"}}},
            {"name": "b", "resources": {"requests": {"cpu": "1.5", "memory": "1e3"},
                                        "limits": {"cpu": "1500m", "memory": "1k"}}}
        ]}));
        assert_eq!(qos_class(&g.spec, "s").unwrap(), QosClass::Guaranteed);
        let mut b = g.clone();
        let lim = b.spec.containers.as_mut().unwrap()[1]
            .resources
            .as_mut()
            .unwrap();
        lim.limits
            .as_mut()
            .unwrap()
            .insert("cpu".into(), "1501m".into());
        assert_eq!(qos_class(&b.spec, "s").unwrap(), QosClass::Burstable);
        // values beyond i64 compare exactly
        let big = |q: &str| {
            pod(json!({"containers": [{"name": "a", "resources": {"requests": {"memory": q}}}]}))
        };
        let c = classify_update(
            &big("1e40"),
            &big("10000000000000000000000000000000000000000"),
        )
        .unwrap();
        assert!(c.unavailable_changed && c.can_resize_inplace);
        assert!(
            !quantity_changed(
                &big("1e40").spec.containers()[0],
                &big("10000000000000000000000000000000000000000")
                    .spec
                    .containers()[0],
                "requests",
                "memory",
                0,
                0
            )
            .unwrap()
        );
        assert!(
            quantity_changed(
                &big("1e40").spec.containers()[0],
                &big("10000000000000000000000000000000000000001")
                    .spec
                    .containers()[0],
                "requests",
                "memory",
                0,
                0
            )
            .unwrap()
        );
    }
}
