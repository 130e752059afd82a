//! `api.sidecar_order`: where SidecarSet containers and init containers land in a new pod
//! (`pkg/webhook/pod/mutating/sidecarset.go`, `mergeSidecarContainers`).

use super::json::{as_obj, bool_at, list_at, obj_at, str_at};
use crate::error::{Error, Result};
use serde::Serialize;
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

/// The final container name lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
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

fn names<'a>(list: &'a [Value], path: &str) -> Result<Vec<&'a str>> {
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_str()
                .ok_or_else(|| Error::invalid_input(format!("{path}[{i}]"), "expected a string"))
        })
        .collect()
}

fn sidecars<'a>(list: &'a [Value], path: &str) -> Result<Vec<Sidecar<'a>>> {
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let o = as_obj(v, &p)?;
        let upgrade = match obj_at(o, "upgradeStrategy", &p)? {
            Some(u) => str_at(u, "upgradeType", &format!("{p}.upgradeStrategy"))?,
            None => None,
        };
        out.push(Sidecar {
            name: str_at(o, "name", &p)?.unwrap_or(""),
            policy: str_at(o, "podInjectPolicy", &p)?.unwrap_or(""),
            hot_upgrade: upgrade == Some("HotUpgrade"),
            native: str_at(o, "restartPolicy", &p)? == Some("Always"),
        });
    }
    Ok(out)
}

/// Registry handler: input `{"podContainers", "podInitContainers", "sidecarContainers",
/// "sidecarInitContainers", "sortSidecarContainersByName"?}`.
pub fn handle(input: &Value) -> Result<Value> {
    let inp = as_obj(input, "input")?;
    let pc = names(list_at(inp, "podContainers", "")?, "podContainers")?;
    let pic = names(list_at(inp, "podInitContainers", "")?, "podInitContainers")?;
    let sc = sidecars(list_at(inp, "sidecarContainers", "")?, "sidecarContainers")?;
    let sic = sidecars(
        list_at(inp, "sidecarInitContainers", "")?,
        "sidecarInitContainers",
    )?;
    let sort = bool_at(inp, "sortSidecarContainersByName", "")?.unwrap_or(false);
    crate::registry::encode(&order(&pc, &pic, &sc, &sic, sort))
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
