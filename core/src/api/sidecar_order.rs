//! `api.sidecar_order`: where SidecarSet containers and init containers land in a new pod
//! (`pkg/webhook/pod/mutating/sidecarset.go`, `mergeSidecarContainers`).

use super::json::{as_obj, list_at, obj_at, str_at};
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One sidecar as collected from the matched SidecarSets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sidecar<'a> {
    /// Container name.
    pub name: &'a str,
    /// `podInjectPolicy`, literally (`BeforeAppContainer` puts it first; anything else after).
    pub policy: &'a str,
    /// `upgradeStrategy.upgradeType == "HotUpgrade"`.
    pub hot_upgrade: bool,
    /// `restartPolicy == "Always"` (native sidecar; matters for init containers only).
    pub native: bool,
}

/// The final container name lists (the output of `api.sidecar_order`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "SidecarOrderOutput")]
pub struct Order {
    /// Final `spec.containers` names.
    pub containers: Vec<String>,
    /// Final `spec.initContainers` names.
    pub init_containers: Vec<String>,
}

/// Expands hot-upgrade sidecars into `<name>-1`, `<name>-2` (for init containers only native
/// ones), with their policies.
fn expand(list: &[Sidecar<'_>], init: bool) -> Vec<(String, bool)> {
    let mut out = Vec::with_capacity(list.len());
    for s in list {
        let before = s.policy == "BeforeAppContainer";
        if s.hot_upgrade && (!init || s.native) {
            out.push((format!("{}-1", s.name), before));
            out.push((format!("{}-2", s.name), before));
        } else {
            out.push((s.name.to_owned(), before));
        }
    }
    out
}

/// Merges sidecars into a pod list: same name replaces in place (the last pod container of that
/// name, as the reference indexes names in a map); otherwise before- or after-group.
fn merge(pod: &[&str], sidecars: Vec<(String, bool)>) -> Vec<String> {
    let mut middle: Vec<String> = pod.iter().map(|s| (*s).to_owned()).collect();
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for (name, is_before) in sidecars {
        if let Some(slot) = middle.iter_mut().rev().find(|n| **n == name) {
            *slot = name;
        } else if is_before {
            before.push(name);
        } else {
            after.push(name);
        }
    }
    before.extend(middle);
    before.extend(after);
    before
}

/// Computes the final order. Sidecar init containers are always stably sorted by name (byte-wise);
/// sidecar containers only when `sort_by_name` (feature gate `EnableSortSidecarContainerByName`,
/// default off in v1.9.0).
pub fn order(
    pod_containers: &[&str],
    pod_init_containers: &[&str],
    sidecars: &[Sidecar<'_>],
    init_sidecars: &[Sidecar<'_>],
    sort_by_name: bool,
) -> Order {
    let mut init = expand(init_sidecars, true);
    init.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut main = expand(sidecars, false);
    if sort_by_name {
        main.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    }
    Order {
        containers: merge(pod_containers, main),
        init_containers: merge(pod_init_containers, init),
    }
}

/// Input of `api.sidecar_order`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SidecarOrderInput {
    /// Names of the pod's own `spec.containers`, in order (absent or `null`: none).
    #[serde(default)]
    pub pod_containers: Option<Vec<String>>,
    /// Names of the pod's own `spec.initContainers`, in order (absent or `null`: none).
    #[serde(default)]
    pub pod_init_containers: Option<Vec<String>>,
    /// The containers of the matched SidecarSets, in the order collected (absent or `null`:
    /// none).
    #[serde(default)]
    pub sidecar_containers: Option<Vec<SidecarContainer>>,
    /// The init containers of the matched SidecarSets (absent or `null`: none).
    #[serde(default)]
    pub sidecar_init_containers: Option<Vec<SidecarContainer>>,
    /// Feature gate `EnableSortSidecarContainerByName` (absent or `null`: off, the v1.9.0
    /// default): sort sidecar containers by name too.
    #[serde(default)]
    pub sort_sidecar_containers_by_name: Option<bool>,
}

/// A SidecarSet container (`SidecarContainer`), reduced to what the placement reads; other
/// members (image, env, ...) are ignored.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarContainer {
    /// Container name (absent or `null`: `""`).
    #[serde(default)]
    pub name: Option<String>,
    /// `BeforeAppContainer` puts it before the pod's containers; anything else (or absent)
    /// after them.
    #[serde(default)]
    pub pod_inject_policy: Option<String>,
    /// The upgrade strategy; `upgradeType: HotUpgrade` expands the container into `<name>-1`
    /// and `<name>-2` (for init containers only native sidecars).
    #[serde(default)]
    pub upgrade_strategy: Option<SidecarUpgradeStrategy>,
    /// `Always` makes an init container a native sidecar.
    #[serde(default)]
    pub restart_policy: Option<String>,
}

/// A SidecarSet container's upgrade strategy (only `upgradeType` is read).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarUpgradeStrategy {
    /// `ColdUpgrade` or `HotUpgrade` (absent or `null`: cold).
    #[serde(default)]
    pub upgrade_type: Option<String>,
}

/// The checks the decoder cannot make, in the order the webhook's placement reads the input: the
/// name lists hold strings, and each sidecar entry is an object (serde would read an array as a
/// struct) whose `upgradeStrategy` is an object, its members read with their types; each error
/// `invalid_input` naming the member.
pub(crate) fn check_json(input: &Value) -> Result<()> {
    for key in ["podContainers", "podInitContainers"] {
        for (i, v) in list_at(as_obj(input, "input")?, key, "")?
            .iter()
            .enumerate()
        {
            if !v.is_string() {
                return Err(Error::invalid_input(
                    format!("{key}[{i}]"),
                    "expected a string",
                ));
            }
        }
    }
    for key in ["sidecarContainers", "sidecarInitContainers"] {
        for (i, v) in list_at(as_obj(input, "input")?, key, "")?
            .iter()
            .enumerate()
        {
            let p = format!("{key}[{i}]");
            let o = as_obj(v, &p)?;
            if let Some(u) = obj_at(o, "upgradeStrategy", &p)? {
                str_at(u, "upgradeType", &format!("{p}.upgradeStrategy"))?;
            }
            for m in ["name", "podInjectPolicy", "restartPolicy"] {
                str_at(o, m, &p)?;
            }
        }
    }
    Ok(())
}

fn sidecars(list: &[SidecarContainer]) -> Vec<Sidecar<'_>> {
    list.iter()
        .map(|c| Sidecar {
            name: c.name.as_deref().unwrap_or(""),
            policy: c.pod_inject_policy.as_deref().unwrap_or(""),
            hot_upgrade: c
                .upgrade_strategy
                .as_ref()
                .and_then(|u| u.upgrade_type.as_deref())
                == Some("HotUpgrade"),
            native: c.restart_policy.as_deref() == Some("Always"),
        })
        .collect()
}

/// Decides `api.sidecar_order` on a typed input.
pub(crate) fn decide_typed(i: SidecarOrderInput) -> Order {
    fn names(l: &Option<Vec<String>>) -> Vec<&str> {
        l.as_deref()
            .unwrap_or_default()
            .iter()
            .map(String::as_str)
            .collect()
    }
    let (pc, pic) = (names(&i.pod_containers), names(&i.pod_init_containers));
    let sc = sidecars(i.sidecar_containers.as_deref().unwrap_or_default());
    let sic = sidecars(i.sidecar_init_containers.as_deref().unwrap_or_default());
    order(
        &pc,
        &pic,
        &sc,
        &sic,
        i.sort_sidecar_containers_by_name.unwrap_or(false),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s<'a>(name: &'a str, policy: &'a str, hot: bool, native: bool) -> Sidecar<'a> {
        Sidecar {
            name,
            policy,
            hot_upgrade: hot,
            native,
        }
    }

    #[test]
    fn hot_upgrade_expands_init_only_when_native() {
        let o = order(
            &["app"],
            &["i"],
            &[s("h", "", true, false)],
            &[
                s("x", "", true, false),
                s("n", "BeforeAppContainer", true, true),
            ],
            false,
        );
        assert_eq!(o.containers, vec!["app", "h-1", "h-2"]);
        assert_eq!(o.init_containers, vec!["n-1", "n-2", "i", "x"]);
    }

    #[test]
    fn byte_order_sorting() {
        let o = order(
            &[],
            &[],
            &[],
            &[
                s("sidecar-2", "", false, false),
                s("sidecar-10", "", false, false),
            ],
            false,
        );
        assert_eq!(o.init_containers, vec!["sidecar-10", "sidecar-2"]);
    }
}
