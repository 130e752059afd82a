//! The pod after the pod webhook injects the matching SidecarSets at creation: OpenKruise
//! v1.9.0 `pkg/webhook/pod/mutating/sidecarset.go` (`sidecarsetMutatingPod`, `buildSidecars`,
//! `mergeSidecarContainers`, `mergeSidecarSecrets`), `sidecarset_hotupgrade.go`,
//! `sidecarset_resources.go` (through [`crate::resources::policy::apply`]), and
//! `pkg/control/sidecarcontrol/util.go` (`GetInjectedVolumeMountsAndEnvs`,
//! `GetInjectedVolumeDevices`, `GetSidecarTransferEnvs`, `PatchPodMetadata`).
//!
//! Containers, env vars, mounts, devices and volumes are kept as JSON objects: the members the
//! injection reads are checked (wrong JSON type: `invalid_input` naming the member), every
//! other member is carried over as given.

use super::annotations::{self, UpgradeSpec};
use super::gojson;
use super::matching::{MatchInput, NamespaceObject, SidecarSetObject, matches};
use super::pod::MatchPod;
use crate::error::{Error, Result};
use crate::k8s::selector::LabelSelector;
use crate::k8s::validation::is_qualified_name;
use crate::resources::policy::{self, PodContainers, ResourceList, ResourcesPolicy};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Error kind: a pod annotation the webhook parses is not in a form it reads.
pub const INVALID_ANNOTATION: &str = "invalid_annotation";
/// Error kind: a SidecarSet asks for something this pure function cannot answer (a history
/// revision to inject, the `MergePatchJson` metadata policy).
pub const UNSUPPORTED: &str = "unsupported";

/// Env var the webhook adds to every injected sidecar.
pub const IS_INJECTED: &str = "IS_INJECTED";

/// SidecarContainer members that are not Container members (dropped at injection).
const SIDECAR_ONLY: &[&str] = &[
    "podInjectPolicy",
    "upgradeStrategy",
    "shareVolumePolicy",
    "shareVolumeDevicePolicy",
    "transferEnv",
    "resourcesPolicy",
];

/// `sidecarset.inject` input.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InjectInput {
    /// The pod being created (a whole Pod). An empty `metadata.namespace` is read as
    /// `default`. Members the injection does not read are kept as given.
    pub pod: Map<String, Value>,
    /// The pod's Namespace object, as in `sidecarset.match`. Null or absent: the namespace does
    /// not exist.
    #[serde(default)]
    pub namespace: Option<NamespaceObject>,
    /// The SidecarSets the webhook lists (apps.kruise.io/v1beta1 objects; v1alpha1 as in
    /// `sidecarset.match`), in the order it lists them: those indexed under the pod's
    /// namespace, then the cluster-scoped ones. Each is matched as `sidecarset.match` does;
    /// `metadata.annotations["kruise.io/sidecarset-hash"]` and
    /// `["kruise.io/sidecarset-hash-without-image"]` (written by the SidecarSet webhook) and
    /// `status.latestRevision` are copied into the pod's records. Null or absent: none.
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<Vec<Value>>")]
    pub sidecar_sets: Vec<Value>,
    /// The pod webhook's `namespaceSelector`, as in `sidecarset.match` (null or absent: the Helm
    /// chart's).
    #[serde(default)]
    pub webhook_namespace_selector: Option<LabelSelector>,
    /// The time of the injection (RFC 3339), written as `updateTimestamp` of the new records
    /// (whole seconds, UTC), where the webhook uses the clock.
    pub now: String,
}

/// `sidecarset.inject` output.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InjectOutput {
    /// The pod after the webhook's SidecarSet step (the input pod when nothing applied).
    pub pod: Value,
    /// Whether the step changed the pod (`sidecarsetMutatingPod` returned skip = false).
    pub changed: bool,
}

type Obj = Map<String, Value>;

fn bad(field: &str, what: &str) -> Error {
    Error::invalid_input(field, format_args!("must be {what}"))
}

/// A string member: absent or null = `""`.
fn str_of<'a>(o: &'a Obj, key: &str, path: &str) -> Result<&'a str> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(""),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(bad(&format!("{path}.{key}"), "a string")),
    }
}

/// An object member: absent or null = `None`.
fn obj_of<'a>(o: &'a Obj, key: &str, path: &str) -> Result<Option<&'a Obj>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(_) => Err(bad(&format!("{path}.{key}"), "an object")),
    }
}

/// A list of objects: absent or null = empty; a null item = `{}` (Go's zero struct).
fn list_of(o: &Obj, key: &str, path: &str) -> Result<Vec<Obj>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Null => Ok(Obj::new()),
                Value::Object(m) => Ok(m.clone()),
                _ => Err(bad(&format!("{path}.{key}[{i}]"), "an object")),
            })
            .collect(),
        Some(_) => Err(bad(&format!("{path}.{key}"), "a list")),
    }
}

/// A string as Go decodes one: null = `""`.
fn string_value(v: &Value, path: impl FnOnce() -> String) -> Result<String> {
    match v {
        Value::Null => Ok(String::new()),
        Value::String(s) => Ok(s.clone()),
        _ => Err(bad(&path(), "a string")),
    }
}

/// A string map: absent or null = empty.
fn string_map(o: &Obj, key: &str, path: &str) -> Result<BTreeMap<String, String>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| {
                Ok((
                    k.clone(),
                    string_value(v, || format!("{path}.{key}[{k:?}]"))?,
                ))
            })
            .collect(),
        Some(_) => Err(bad(&format!("{path}.{key}"), "an object")),
    }
}

/// A string list: absent or null = empty.
fn string_list(o: &Obj, key: &str, path: &str) -> Result<Vec<String>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| string_value(v, || format!("{path}.{key}[{i}]")))
            .collect(),
        Some(_) => Err(bad(&format!("{path}.{key}"), "a list")),
    }
}

fn set_list(o: &mut Obj, key: &str, items: Vec<Obj>) {
    if items.is_empty() {
        o.remove(key);
    } else {
        o.insert(
            key.into(),
            Value::Array(items.into_iter().map(Value::Object).collect()),
        );
    }
}

/// A container of the pod, with the members the injection reads.
struct AppContainer {
    name: String,
    env: Vec<Obj>,
    mounts: Vec<Obj>,
    devices: Vec<Obj>,
}

impl AppContainer {
    fn read(o: &Obj, path: &str) -> Result<AppContainer> {
        let env = list_of(o, "env", path)?;
        for (i, e) in env.iter().enumerate() {
            str_of(e, "name", &format!("{path}.env[{i}]"))?;
            str_of(e, "value", &format!("{path}.env[{i}]"))?;
        }
        let mounts = list_of(o, "volumeMounts", path)?;
        for (i, m) in mounts.iter().enumerate() {
            let p = format!("{path}.volumeMounts[{i}]");
            str_of(m, "name", &p)?;
            str_of(m, "mountPath", &p)?;
            str_of(m, "subPathExpr", &p)?;
        }
        let devices = list_of(o, "volumeDevices", path)?;
        for (i, d) in devices.iter().enumerate() {
            let p = format!("{path}.volumeDevices[{i}]");
            str_of(d, "name", &p)?;
            str_of(d, "devicePath", &p)?;
        }
        Ok(AppContainer {
            name: str_of(o, "name", path)?.to_string(),
            env,
            mounts,
            devices,
        })
    }

    /// `IsInjectedSidecarContainerInPod`: the first `IS_INJECTED` env var says `"true"`.
    fn is_injected(&self) -> bool {
        env_value(&self.env, IS_INJECTED) == Some("true")
    }
}

fn name(o: &Obj) -> &str {
    o.get("name").and_then(Value::as_str).unwrap_or("")
}

fn sv<'a>(o: &'a Obj, key: &str) -> &'a str {
    o.get(key).and_then(Value::as_str).unwrap_or("")
}

fn env_value<'a>(env: &'a [Obj], key: &str) -> Option<&'a str> {
    env.iter().find(|e| name(e) == key).map(|e| sv(e, "value"))
}

/// `util.MergeEnvVar`: appends the additional vars whose names are new.
fn merge_env(mut original: Vec<Obj>, additional: &[Obj]) -> Vec<Obj> {
    let mut seen: BTreeSet<String> = original.iter().map(|e| name(e).to_string()).collect();
    for e in additional {
        if seen.insert(name(e).to_string()) {
            original.push(e.clone());
        }
    }
    original
}

/// `util.MergeVolumeMounts`: appends mounts whose path is neither a mount path nor a device
/// path of the container.
fn merge_mounts(mounts: Vec<Obj>, devices: &[Obj], additional: &[Obj]) -> Vec<Obj> {
    let mut points: BTreeSet<String> = mounts.iter().map(|m| sv(m, "mountPath").into()).collect();
    points.extend(devices.iter().map(|d| sv(d, "devicePath").to_string()));
    let mut out = mounts;
    for m in additional {
        if points.insert(sv(m, "mountPath").into()) {
            out.push(m.clone());
        }
    }
    out
}

/// `util.MergeVolumeDevices`: appends devices whose path is neither a device path nor a mount
/// path of the container.
fn merge_devices(devices: Vec<Obj>, mounts: &[Obj], additional: &[Obj]) -> Vec<Obj> {
    let mut points: BTreeSet<String> = devices.iter().map(|d| sv(d, "devicePath").into()).collect();
    points.extend(mounts.iter().map(|m| sv(m, "mountPath").to_string()));
    let mut out = devices;
    for d in additional {
        if points.insert(sv(d, "devicePath").into()) {
            out.push(d.clone());
        }
    }
    out
}

/// `mergeSidecarSecrets`: the pod's then the sidecars' secrets, each name once.
fn merge_named(original: Vec<Obj>, additional: Vec<Obj>) -> Vec<Obj> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for v in original.into_iter().chain(additional) {
        if seen.insert(name(&v).to_string()) {
            out.push(v);
        }
    }
    out
}

/// A SidecarSet container or init container being injected.
#[derive(Clone)]
struct Sidecar {
    /// The container members (sidecar-only members removed at the end).
    body: Obj,
    name: String,
    inject_policy: String,
    hot_upgrade: bool,
    hot_empty_image: String,
    share_volumes: bool,
    share_devices: bool,
    native: bool,
    transfer: Vec<Transfer>,
    resources_policy: Option<ResourcesPolicy>,
    env: Vec<Obj>,
    mounts: Vec<Obj>,
    devices: Vec<Obj>,
    path: String,
}

#[derive(Clone)]
struct Transfer {
    source: String,
    /// `sourceContainerNameFrom.fieldRef.fieldPath`, when the field ref is set.
    field_path: Option<String>,
    env_names: BTreeSet<String>,
}

impl Sidecar {
    fn read(body: Obj, path: String) -> Result<Sidecar> {
        let app = AppContainer::read(&body, &path)?;
        let policy_type = |key: &str| -> Result<Option<bool>> {
            obj_of(&body, key, &path)?
                .map(|p| str_of(p, "type", &format!("{path}.{key}")).map(|t| t == "enabled"))
                .transpose()
        };
        let share_volumes = policy_type("shareVolumePolicy")?.unwrap_or(false);
        let share_devices = policy_type("shareVolumeDevicePolicy")?.unwrap_or(false);
        let upgrade = obj_of(&body, "upgradeStrategy", &path)?;
        let (hot_upgrade, hot_empty_image) = match upgrade {
            Some(u) => {
                let p = format!("{path}.upgradeStrategy");
                (
                    str_of(u, "upgradeType", &p)? == "HotUpgrade",
                    str_of(u, "hotUpgradeEmptyImage", &p)?.to_string(),
                )
            }
            None => (false, String::new()),
        };
        let mut transfer = Vec::new();
        for (i, t) in list_of(&body, "transferEnv", &path)?.iter().enumerate() {
            let p = format!("{path}.transferEnv[{i}]");
            let mut env_names = BTreeSet::new();
            let one = str_of(t, "envName", &p)?;
            if !one.is_empty() {
                env_names.insert(one.to_string());
            }
            env_names.extend(string_list(t, "envNames", &p)?);
            let field_path = match obj_of(t, "sourceContainerNameFrom", &p)? {
                Some(from) => {
                    let fp = format!("{p}.sourceContainerNameFrom");
                    obj_of(from, "fieldRef", &fp)?
                        .map(|r| str_of(r, "fieldPath", &format!("{fp}.fieldRef")))
                        .transpose()?
                        .map(str::to_string)
                }
                None => None,
            };
            transfer.push(Transfer {
                source: str_of(t, "sourceContainerName", &p)?.to_string(),
                field_path,
                env_names,
            });
        }
        let resources_policy = match body.get("resourcesPolicy") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                serde_json::from_value::<ResourcesPolicy>(v.clone())
                    .map_err(|e| Error::invalid_input(format!("{path}.resourcesPolicy"), e))?,
            ),
        };
        let s = Sidecar {
            name: app.name,
            inject_policy: str_of(&body, "podInjectPolicy", &path)?.to_string(),
            hot_upgrade,
            hot_empty_image,
            share_volumes,
            share_devices,
            native: str_of(&body, "restartPolicy", &path)? == "Always",
            transfer,
            resources_policy,
            env: app.env,
            mounts: app.mounts,
            devices: app.devices,
            path,
            body,
        };
        str_of(&s.body, "image", &s.path)?;
        Ok(s)
    }

    /// The pod container this sidecar becomes.
    fn container(&self) -> Obj {
        let mut c = self.body.clone();
        for k in SIDECAR_ONLY {
            c.remove(*k);
        }
        c.insert("name".into(), Value::String(self.name.clone()));
        set_list(&mut c, "env", self.env.clone());
        set_list(&mut c, "volumeMounts", self.mounts.clone());
        set_list(&mut c, "volumeDevices", self.devices.clone());
        c
    }
}

/// One SidecarSet as injection reads it.
struct SidecarSet {
    name: String,
    hash: String,
    hash_without_image: String,
    latest_revision: String,
    init_containers: Vec<Sidecar>,
    containers: Vec<Sidecar>,
    volumes: Vec<Obj>,
    pull_secrets: Vec<Obj>,
    patches: Vec<(String, BTreeMap<String, String>)>,
}

impl SidecarSet {
    fn read(v: &Value, path: &str) -> Result<SidecarSet> {
        let o = v.as_object().ok_or_else(|| bad(path, "an object"))?;
        let empty = Obj::new();
        let meta = obj_of(o, "metadata", path)?.unwrap_or(&empty);
        let mpath = format!("{path}.metadata");
        let ann = string_map(meta, "annotations", &mpath)?;
        let spec = obj_of(o, "spec", path)?.unwrap_or(&empty);
        let sp = format!("{path}.spec");
        if let Some(strategy) = obj_of(spec, "injectionStrategy", &sp)? {
            let ip = format!("{sp}.injectionStrategy");
            if let Some(rev) = obj_of(strategy, "revision", &ip)? {
                let rp = format!("{ip}.revision");
                for key in ["revisionName", "customVersion"] {
                    if !matches!(rev.get(key), None | Some(Value::Null)) {
                        return Err(Error::at(
                            UNSUPPORTED,
                            format!("{rp}.{key}"),
                            "injecting a history revision needs the SidecarSet's ControllerRevisions; pass that revision's SidecarSet instead",
                        ));
                    }
                }
            }
        }
        let sidecars = |key: &str| -> Result<Vec<Sidecar>> {
            list_of(spec, key, &sp)?
                .into_iter()
                .enumerate()
                .map(|(i, c)| Sidecar::read(c, format!("{sp}.{key}[{i}]")))
                .collect()
        };
        let mut patches = Vec::new();
        for (i, p) in list_of(spec, "patchPodMetadata", &sp)?.iter().enumerate() {
            let pp = format!("{sp}.patchPodMetadata[{i}]");
            let policy = str_of(p, "patchPolicy", &pp)?.to_string();
            let ann = string_map(p, "annotations", &pp)?;
            if policy == "MergePatchJson" && !ann.is_empty() {
                return Err(Error::at(
                    UNSUPPORTED,
                    format!("{pp}.patchPolicy"),
                    "the MergePatchJson policy is not supported",
                ));
            }
            patches.push((policy, ann));
        }
        let volumes = list_of(spec, "volumes", &sp)?;
        for (i, v) in volumes.iter().enumerate() {
            str_of(v, "name", &format!("{sp}.volumes[{i}]"))?;
        }
        let pull_secrets = list_of(spec, "imagePullSecrets", &sp)?;
        for (i, s) in pull_secrets.iter().enumerate() {
            str_of(s, "name", &format!("{sp}.imagePullSecrets[{i}]"))?;
        }
        let status = obj_of(o, "status", path)?.unwrap_or(&empty);
        Ok(SidecarSet {
            name: str_of(meta, "name", &mpath)?.to_string(),
            hash: ann.get(annotations::HASH).cloned().unwrap_or_default(),
            hash_without_image: ann
                .get(annotations::HASH_WITHOUT_IMAGE)
                .cloned()
                .unwrap_or_default(),
            latest_revision: str_of(status, "latestRevision", &format!("{path}.status"))?
                .to_string(),
            init_containers: sidecars("initContainers")?,
            containers: sidecars("containers")?,
            volumes,
            pull_secrets,
            patches,
        })
    }
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `path['subscript']`.
fn split_subscripted(fp: &str) -> Option<(&str, &str)> {
    let s = fp.strip_suffix("']")?;
    let (path, sub) = s.split_once("['")?;
    (!path.is_empty()).then_some((path, sub))
}

/// The pod as the injection reads it.
struct PodView {
    containers: Vec<AppContainer>,
    labels: BTreeMap<String, String>,
    /// The annotations after `PatchPodMetadata`.
    annotations: BTreeMap<String, String>,
    /// `spec.initContainers` and `spec.containers`, for `resourcesPolicy`.
    resources: Option<PodContainers>,
}

impl PodView {
    /// `GetInjectedVolumeMountsAndEnvs`.
    fn shared_mounts(&self, s: &Sidecar) -> (Vec<Obj>, Vec<Obj>) {
        let (mut mounts, mut envs) = (Vec::new(), Vec::new());
        if !s.share_volumes {
            return (mounts, envs);
        }
        for c in self.containers.iter().filter(|c| !c.is_injected()) {
            for m in &c.mounts {
                mounts.push(m.clone());
                for var in subpath_env_names(sv(m, "subPathExpr")) {
                    if let Some(e) = c.env.iter().find(|e| name(e) == var) {
                        envs.push(e.clone());
                    }
                }
            }
        }
        (mounts, envs)
    }

    /// `GetInjectedVolumeDevices`.
    fn shared_devices(&self, s: &Sidecar) -> Vec<Obj> {
        if !s.share_devices {
            return Vec::new();
        }
        self.containers
            .iter()
            .filter(|c| !c.is_injected())
            .flat_map(|c| c.devices.iter().cloned())
            .collect()
    }

    /// `GetSidecarTransferEnvs`.
    fn transfer_envs(&self, s: &Sidecar) -> Vec<Obj> {
        let mut in_pod: HashMap<String, &Obj> = HashMap::new();
        for c in &self.containers {
            for e in &c.env {
                in_pod.insert(format!("{}/{}", c.name, name(e)), e);
            }
        }
        let mut out = Vec::new();
        for t in &s.transfer {
            let source = match &t.field_path {
                None => t.source.clone(),
                Some(fp) => match self.container_name_from(fp) {
                    Some(n) => n,
                    None => continue,
                },
            };
            for env in &t.env_names {
                if let Some(e) = in_pod.get(&format!("{source}/{env}")) {
                    out.push((*e).clone());
                }
            }
        }
        out
    }

    /// `ExtractContainerNameFromFieldPath`; `None` where it errors.
    fn container_name_from(&self, fp: &str) -> Option<String> {
        let (path, sub) = split_subscripted(fp)?;
        match path {
            "metadata.annotations" => is_qualified_name(&sub.to_lowercase())
                .then(|| self.annotations.get(sub).cloned().unwrap_or_default()),
            "metadata.labels" => {
                is_qualified_name(sub).then(|| self.labels.get(sub).cloned().unwrap_or_default())
            }
            _ => None,
        }
    }
}

/// The variable names of `$(NAME)` references in a `subPathExpr`
/// (`SubPathExprEnvReg`: `\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)`).
pub(crate) fn subpath_env_names(expr: &str) -> Vec<&str> {
    let b = expr.as_bytes();
    let first = |c: u8| c.is_ascii_alphabetic() || matches!(c, b'-' | b'.' | b'_');
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'$' && b[i + 1] == b'(' && b.get(i + 2).is_some_and(|&c| first(c)) {
            let mut j = i + 3;
            while j < b.len() && (first(b[j]) || b[j].is_ascii_digit()) {
                j += 1;
            }
            if b.get(j) == Some(&b')') {
                out.push(&expr[i + 2..j]);
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// `mergeSidecarContainers`: sidecars already in the pod (by name) replace it in place; the
/// others go before (`BeforeAppContainer`) or after (anything else) the pod's containers.
fn merge_containers(mut origins: Vec<Obj>, injected: &[(Obj, String)]) -> Vec<Obj> {
    let index: HashMap<String, usize> = origins
        .iter()
        .enumerate()
        .map(|(i, c)| (name(c).to_string(), i))
        .collect();
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for (c, policy) in injected {
        if let Some(&i) = index.get(name(c)) {
            origins[i] = c.clone();
        } else if policy == "BeforeAppContainer" {
            before.push(c.clone());
        } else {
            after.push(c.clone());
        }
    }
    before.extend(origins);
    before.extend(after);
    before
}

fn annotation_error(key: &str, value: &str) -> Error {
    Error::at(
        INVALID_ANNOTATION,
        format!("pod.metadata.annotations[{key:?}]"),
        format_args!("{value:?} is neither a map of upgrade records nor a map of hashes"),
    )
}

/// The hot-upgrade pair of a sidecar (`injectHotUpgradeContainers`,
/// `generateHotUpgradeContainers`, `setSidecarContainerVersionEnv`).
fn hot_upgrade_pair(
    s: &Sidecar,
    working: &mut BTreeMap<String, String>,
    injected: &mut BTreeMap<String, String>,
) -> [Sidecar; 2] {
    let (mut c1, mut c2) = (s.clone(), s.clone());
    c1.name = format!("{}-1", s.name);
    c2.name = format!("{}-2", s.name);
    c2.body
        .insert("image".into(), Value::String(s.hot_empty_image.clone()));
    for c in [&mut c1, &mut c2] {
        for (env, prefix) in [
            ("SIDECARSET_VERSION", "version"),
            ("SIDECARSET_VERSION_ALT", "versionalt"),
        ] {
            let fp = format!(
                "metadata.annotations['{prefix}.sidecarset.kruise.io/{}']",
                c.name
            );
            let mut e = Obj::new();
            e.insert("name".into(), env.into());
            e.insert(
                "valueFrom".into(),
                serde_json::json!({"fieldRef": {"fieldPath": fp}}),
            );
            c.env.push(e);
        }
    }
    for (n, v, alt) in [(&c1.name, "1", "0"), (&c2.name, "0", "1")] {
        injected.insert(format!("version.sidecarset.kruise.io/{n}"), v.into());
        injected.insert(format!("versionalt.sidecarset.kruise.io/{n}"), alt.into());
    }
    working.insert(s.name.clone(), c1.name.clone());
    injected.insert(
        annotations::WORKING_HOT_UPGRADE.into(),
        gojson::string_map(working),
    );
    [c1, c2]
}

fn resources_json(l: &ResourceList) -> Option<Value> {
    (!l.is_empty()).then(|| serde_json::to_value(l).expect("printed quantities serialise"))
}

/// `sidecarset.inject`: the pod after the webhook's SidecarSet step at pod creation.
///
/// Errors: `invalid_input` (a member of the wrong JSON type, `now` not RFC 3339),
/// `invalid_label_selector` (as `sidecarset.match`), `invalid_annotation` (an upgrade-record
/// annotation the webhook cannot parse), `unsupported` (a history revision to inject, the
/// `MergePatchJson` policy), and the `resourcesPolicy` errors of `resources.sidecar`, naming
/// the sidecar.
pub fn inject(i: &InjectInput) -> Result<InjectOutput> {
    let now = crate::time::parse_time(&i.now, "now")?;
    let pod_value = Value::Object(i.pod.clone());
    let mpod: MatchPod =
        serde_json::from_value(pod_value.clone()).map_err(|e| Error::invalid_input("pod", e))?;
    let mut matched = Vec::new();
    for (k, raw) in i.sidecar_sets.iter().enumerate() {
        let path = format!("sidecarSets[{k}]");
        let obj: SidecarSetObject = serde_json::from_value(raw.clone())
            .map_err(|e| Error::invalid_input(path.clone(), e))?;
        let out = matches(&MatchInput {
            pod: mpod.clone(),
            namespace: i.namespace.clone(),
            sidecar_set: obj,
            webhook_namespace_selector: i.webhook_namespace_selector.clone(),
        })
        .map_err(|mut e| {
            if let Some(f) = &e.field
                && let Some(rest) = f.strip_prefix("sidecarSet")
            {
                let f = format!("{path}{rest}");
                e.message = e
                    .message
                    .replacen(&format!("sidecarSet{rest}"), &f, 1)
                    .into();
                e.field = Some(f);
            }
            e
        })?;
        if out.matched {
            matched.push(SidecarSet::read(raw, &path)?);
        }
    }
    if matched.is_empty() {
        return Ok(InjectOutput {
            pod: pod_value,
            changed: false,
        });
    }

    let mut pod = i.pod.clone();
    let empty = Obj::new();
    let meta = obj_of(&pod, "metadata", "pod")?.unwrap_or(&empty).clone();
    let spec = obj_of(&pod, "spec", "pod")?.unwrap_or(&empty).clone();
    let mut ann = string_map(&meta, "annotations", "pod.metadata")?;
    let labels = string_map(&meta, "labels", "pod.metadata")?;

    // PatchPodMetadata, SidecarSet by SidecarSet.
    let mut skip = true;
    for s in &matched {
        let before = ann.clone();
        for (policy, patch) in &s.patches {
            for (k, v) in patch {
                match policy.as_str() {
                    "" | "Retain" => {
                        ann.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                    "Overwrite" => {
                        ann.insert(k.clone(), v.clone());
                    }
                    _ => {}
                }
            }
        }
        if ann != before {
            skip = false;
        }
    }

    let pod_containers = list_of(&spec, "containers", "pod.spec")?;
    let pod_inits = list_of(&spec, "initContainers", "pod.spec")?;
    let view = PodView {
        containers: pod_containers
            .iter()
            .enumerate()
            .map(|(k, c)| AppContainer::read(c, &format!("pod.spec.containers[{k}]")))
            .collect::<Result<_>>()?,
        labels,
        annotations: ann.clone(),
        resources: None,
    };
    let mut view = view;
    if matched
        .iter()
        .flat_map(|s| s.init_containers.iter().chain(&s.containers))
        .any(|c| c.resources_policy.is_some())
    {
        let pc = serde_json::json!({
            "initContainers": pod_inits, "containers": pod_containers,
        });
        view.resources =
            Some(serde_json::from_value(pc).map_err(|e| Error::invalid_input("pod.spec", e))?);
    }
    let sidecar_names: Vec<String> = matched
        .iter()
        .flat_map(|s| s.init_containers.iter().chain(&s.containers))
        .map(|c| c.name.clone())
        .collect();

    // buildSidecars.
    let read = |key: &str| -> Result<BTreeMap<String, UpgradeSpec>> {
        match ann.get(key).filter(|v| !v.is_empty()) {
            None => Ok(BTreeMap::new()),
            Some(v) => annotations::read_specs(v).ok_or_else(|| annotation_error(key, v)),
        }
    };
    let mut hashes = read(annotations::HASH)?;
    let mut hashes_without_image = read(annotations::HASH_WITHOUT_IMAGE)?;
    let mut working = ann
        .get(annotations::WORKING_HOT_UPGRADE)
        .map(|v| annotations::read_hot_upgrade_info(v))
        .unwrap_or_default();
    let mut set_names: BTreeSet<String> = BTreeSet::new();
    if let Some(list) = ann
        .get(annotations::INJECTED_LIST)
        .filter(|v| !v.is_empty())
    {
        set_names.extend(list.split(',').map(str::to_string));
    }
    let mut injected_ann = BTreeMap::new();
    let (mut containers, mut inits) = (Vec::new(), Vec::new());
    let (mut volumes, mut secrets) = (Vec::new(), Vec::new());
    for s in &matched {
        set_names.insert(s.name.clone());
        let volume_map: HashMap<&str, &Obj> = s.volumes.iter().map(|v| (name(v), v)).collect();
        let mut sidecar_list = BTreeSet::new();
        let mut injecting = false;
        for (is_init, list) in [(true, &s.init_containers), (false, &s.containers)] {
            for orig in list.iter() {
                let mut c = orig.clone();
                if !is_init || c.native {
                    sidecar_list.insert(c.name.clone());
                }
                if let Some(p) = &c.resources_policy {
                    let pc = view.resources.as_ref().expect("read when a policy is set");
                    let applied = policy::apply(p, pc, &sidecar_names).map_err(|mut e| {
                        let f = format!("{}.resourcesPolicy", c.path);
                        match &e.field {
                            Some(inner) if !inner.starts_with("resourcesExpr") => {}
                            inner => {
                                e.field = Some(match inner {
                                    Some(inner) => format!("{f}.{inner}"),
                                    None => f.clone(),
                                });
                                e.message = format!("{f}: {}", e.message).into();
                            }
                        }
                        e
                    })?;
                    let mut r = Obj::new();
                    if let Some(l) = resources_json(&applied.limits) {
                        r.insert("limits".into(), l);
                    }
                    if let Some(q) = resources_json(&applied.requests) {
                        r.insert("requests".into(), q);
                    }
                    c.body.insert("resources".into(), Value::Object(r));
                }
                let (mounts, envs) = view.shared_mounts(&c);
                let transfer = merge_env(view.transfer_envs(&c), &envs);
                for m in c.mounts.iter().chain(&c.devices) {
                    if let Some(v) = volume_map.get(name(m)) {
                        volumes.push((*v).clone());
                    }
                }
                c.mounts = merge_mounts(c.mounts, &c.devices, &mounts);
                let mut injected_env = Obj::new();
                injected_env.insert("name".into(), IS_INJECTED.into());
                injected_env.insert("value".into(), "true".into());
                c.env.push(injected_env);
                c.env = merge_env(c.env, &transfer);
                injecting = true;
                let devices = view.shared_devices(&c);
                c.devices = merge_devices(c.devices, &c.mounts, &devices);
                let out = if is_init { &mut inits } else { &mut containers };
                if c.hot_upgrade && (!is_init || c.native) {
                    out.extend(hot_upgrade_pair(&c, &mut working, &mut injected_ann));
                } else {
                    out.push(c);
                }
            }
            if is_init {
                secrets.extend(s.pull_secrets.iter().cloned());
            }
        }
        if injecting {
            let list: Vec<String> = sidecar_list.into_iter().collect();
            hashes.insert(
                s.name.clone(),
                UpgradeSpec {
                    update_timestamp: Some(now),
                    hash: s.hash.clone(),
                    sidecar_set_name: s.name.clone(),
                    sidecar_list: Some(list.clone()),
                    controller_revision: s.latest_revision.clone(),
                },
            );
            hashes_without_image.insert(
                s.name.clone(),
                UpgradeSpec {
                    update_timestamp: Some(now),
                    hash: s.hash_without_image.clone(),
                    sidecar_set_name: s.name.clone(),
                    sidecar_list: Some(list),
                    controller_revision: String::new(),
                },
            );
        }
    }
    injected_ann.insert(annotations::HASH.into(), annotations::write_specs(&hashes));
    injected_ann.insert(
        annotations::HASH_WITHOUT_IMAGE.into(),
        annotations::write_specs(&hashes_without_image),
    );
    injected_ann.insert(
        annotations::INJECTED_LIST.into(),
        set_names.into_iter().collect::<Vec<_>>().join(","),
    );

    let mut meta = meta;
    if containers.is_empty() && inits.is_empty() {
        write_annotations(&mut meta, &ann);
        pod.insert("metadata".into(), Value::Object(meta));
        return Ok(InjectOutput {
            pod: Value::Object(pod),
            changed: !skip,
        });
    }
    inits.sort_by(|a, b| a.name.cmp(&b.name));
    let as_pairs = |l: Vec<Sidecar>| -> Vec<(Obj, String)> {
        l.into_iter()
            .map(|c| (c.container(), c.inject_policy))
            .collect()
    };
    let mut spec = spec;
    set_list(
        &mut spec,
        "initContainers",
        merge_containers(pod_inits, &as_pairs(inits)),
    );
    set_list(
        &mut spec,
        "containers",
        merge_containers(pod_containers, &as_pairs(containers)),
    );
    let mut pod_volumes = list_of(&spec, "volumes", "pod.spec")?;
    let mut seen: BTreeSet<String> = pod_volumes.iter().map(|v| name(v).to_string()).collect();
    for v in volumes {
        if seen.insert(name(&v).to_string()) {
            pod_volumes.push(v);
        }
    }
    set_list(&mut spec, "volumes", pod_volumes);
    let pod_secrets = list_of(&spec, "imagePullSecrets", "pod.spec")?;
    set_list(
        &mut spec,
        "imagePullSecrets",
        merge_named(pod_secrets, secrets),
    );
    ann.extend(injected_ann);
    write_annotations(&mut meta, &ann);
    pod.insert("metadata".into(), Value::Object(meta));
    pod.insert("spec".into(), Value::Object(spec));
    Ok(InjectOutput {
        pod: Value::Object(pod),
        changed: true,
    })
}

fn write_annotations(meta: &mut Obj, ann: &BTreeMap<String, String>) {
    if ann.is_empty() {
        meta.remove("annotations");
    } else {
        meta.insert(
            "annotations".into(),
            Value::Object(
                ann.iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect(),
            ),
        );
    }
}
