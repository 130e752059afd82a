//! `compat.server_version`: reads a Kubernetes server version as `GET /version` reports it
//! (`gitVersion`, `major`, `minor`) and decides which Kubernetes features a cluster of that
//! version offers by default.
//!
//! Cloud builds decorate the version: EKS `v1.32.3-eks-4096722`, GKE `v1.33.2-gke.1240000`,
//! OpenShift `v1.27.6+b49f9d1`, k3s `v1.30.2+k3s1`, and some report `minor: "28+"` or
//! `gitVersion: "v1.28+"`. Parsing never fails on a string: what cannot be read is reported
//! as `known: false`.
//!
//! Feature stages (Kubernetes enhancement tracking, `keps/sig-node/*/kep.yaml`):
//! - native sidecar containers (KEP-753, gate `SidecarContainers`): alpha 1.28 (off by default),
//!   beta 1.29 (on by default), GA 1.33;
//! - in-place pod vertical scaling (KEP-1287, gate `InPlacePodVerticalScaling`): alpha 1.27
//!   (off), beta 1.33 (on), GA 1.35;
//! - the `pods/resize` subresource: served from 1.32 (resizes go through it instead of a plain
//!   pod update; it still needs the InPlacePodVerticalScaling gate to act before 1.33).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A Kubernetes version reduced to what feature decisions need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ParsedVersion")]
pub struct ServerVersion {
    /// Whether major and minor could be read.
    pub known: bool,
    /// Major version (0 when unknown).
    pub major: u64,
    /// Minor version (0 when unknown).
    pub minor: u64,
    /// Patch version (0 when absent or unknown).
    pub patch: u64,
    /// `major.minor.patch` (empty when unknown).
    pub normalized: String,
    /// The semver pre-release part of gitVersion, e.g. `eks-4096722`, `gke.1240000` (empty if none).
    pub pre_release: String,
    /// The semver build part of gitVersion, e.g. `k3s1` (empty if none).
    pub build: String,
    /// Distribution guessed from the suffix: `eks`, `gke`, `aks`, `k3s`, `rke2`, `openshift`,
    /// `aliyun`, or `""` (upstream / unknown).
    pub provider: String,
}

/// Stage of a Kubernetes feature at a given version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Not present in this version (or the version is unknown).
    Unavailable,
    /// Alpha: off unless the gate is turned on.
    Alpha,
    /// Beta: on by default.
    Beta,
    /// Generally available, always on.
    Ga,
}

/// One feature's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Feature {
    /// The maturity stage at this version.
    pub stage: Stage,
    /// Whether it is on without touching feature gates.
    pub enabled_by_default: bool,
    /// The feature gate that controls it (named at every stage, GA included).
    pub gate: &'static str,
}

/// What a cluster offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Features {
    /// `pods/resize` subresource served (>= 1.32).
    pub resize_subresource: bool,
    /// Native sidecar containers (init containers with `restartPolicy: Always`).
    pub native_sidecar_containers: Feature,
    /// In-place pod vertical scaling.
    pub in_place_pod_vertical_scaling: Feature,
}

/// The leading decimal digits of `s` as a number (`"28+"` -> 28); `None` without digits.
fn leading_number(s: &str) -> Option<u64> {
    let end = s.bytes().take_while(u8::is_ascii_digit).count();
    s.get(..end)
        .filter(|d| !d.is_empty())
        .and_then(|d| d.parse().ok())
}

fn provider_of(pre: &str, build: &str, git: &str) -> &'static str {
    let hay = format!("{pre} {build}").to_ascii_lowercase();
    let has = |t: &str| {
        hay.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == t || w.starts_with(t))
    };
    if has("eks") {
        "eks"
    } else if has("gke") {
        "gke"
    } else if has("aks") || has("azure") {
        "aks"
    } else if has("rke2") {
        "rke2"
    } else if has("k3s") {
        "k3s"
    } else if has("aliyun") {
        "aliyun"
    } else if !build.is_empty()
        && git.contains('+')
        && build.bytes().all(|b| b.is_ascii_hexdigit())
        && build.len() >= 7
    {
        "openshift"
    } else {
        ""
    }
}

/// Parses a version. `git_version` is `/version`'s gitVersion (optional `v`, semver with
/// pre-release/build, or a bare `1.28+`); `major`/`minor` are used when gitVersion gives nothing.
pub fn parse(git_version: Option<&str>, major: Option<&str>, minor: Option<&str>) -> ServerVersion {
    let git = git_version.unwrap_or("").trim();
    let bare = git.strip_prefix(['v', 'V']).unwrap_or(git);
    let (mut maj, mut min, mut patch, mut pre, mut build) =
        (None, None, 0, String::new(), String::new());
    if let Ok(v) = semver::Version::parse(bare) {
        maj = Some(v.major);
        min = Some(v.minor);
        patch = v.patch;
        pre = v.pre.as_str().to_owned();
        build = v.build.as_str().to_owned();
    } else {
        // lenient: up to three dot-separated leading numbers, the rest is a suffix
        let mut rest = bare;
        let mut nums = Vec::with_capacity(3);
        while nums.len() < 3 {
            let Some(n) = leading_number(rest) else { break };
            nums.push(n);
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            rest = rest.get(digits..).unwrap_or("");
            match rest.strip_prefix('.') {
                Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => rest = r,
                _ => break,
            }
        }
        if nums.len() >= 2 {
            maj = nums.first().copied();
            min = nums.get(1).copied();
            patch = nums.get(2).copied().unwrap_or(0);
            let suffix = rest.trim_start_matches(['-', '+', '.']);
            match rest.split_once('+') {
                Some((p, b)) => {
                    pre = p.trim_start_matches(['-', '.']).to_owned();
                    build = b.to_owned();
                }
                None => pre = suffix.to_owned(),
            }
        }
    }
    if maj.is_none() || min.is_none() {
        maj = major.and_then(|s| leading_number(s.trim()));
        min = minor.and_then(|s| leading_number(s.trim()));
        patch = 0;
    }
    match (maj, min) {
        (Some(major), Some(minor)) => ServerVersion {
            known: true,
            major,
            minor,
            patch,
            normalized: format!("{major}.{minor}.{patch}"),
            provider: provider_of(&pre, &build, git).to_owned(),
            pre_release: pre,
            build,
        },
        _ => ServerVersion {
            known: false,
            major: 0,
            minor: 0,
            patch: 0,
            normalized: String::new(),
            pre_release: String::new(),
            build: String::new(),
            provider: String::new(),
        },
    }
}

impl ServerVersion {
    /// The release line as a semver version without pre-release (`1.33.0-rc.1` counts as 1.33).
    pub fn release(&self) -> semver::Version {
        semver::Version::new(self.major, self.minor, self.patch)
    }

    /// Whether this version is at least `major.minor` (false when unknown).
    pub fn at_least(&self, major: u64, minor: u64) -> bool {
        let req = semver::VersionReq {
            comparators: vec![semver::Comparator {
                op: semver::Op::GreaterEq,
                major,
                minor: Some(minor),
                patch: Some(0),
                pre: semver::Prerelease::EMPTY,
            }],
        };
        self.known && req.matches(&self.release())
    }

    fn stage(&self, alpha: u64, beta: u64, ga: u64) -> Stage {
        if self.at_least(1, ga) {
            Stage::Ga
        } else if self.at_least(1, beta) {
            Stage::Beta
        } else if self.at_least(1, alpha) {
            Stage::Alpha
        } else {
            Stage::Unavailable
        }
    }

    /// The feature verdicts for this version.
    pub fn features(&self) -> Features {
        let feature = |stage: Stage, gate| Feature {
            stage,
            enabled_by_default: matches!(stage, Stage::Beta | Stage::Ga),
            gate,
        };
        Features {
            resize_subresource: self.at_least(1, 32),
            native_sidecar_containers: feature(self.stage(28, 29, 33), "SidecarContainers"),
            in_place_pod_vertical_scaling: feature(
                self.stage(27, 33, 35),
                "InPlacePodVerticalScaling",
            ),
        }
    }
}

/// The members of a Kubernetes `GET /version` reply that are read; every other member
/// (`gitCommit`, `buildDate`, `platform`, ...) is ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionInfo {
    /// `gitVersion`, e.g. `v1.32.3-eks-4096722` (`null` or absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_version: Option<String>,
    /// `major`, e.g. `"1"`; read only when gitVersion gives no version (`null` or absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub major: Option<String>,
    /// `minor`, e.g. `"32+"` (its leading digits); read only when gitVersion gives no version
    /// (`null` or absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minor: Option<String>,
}

impl VersionInfo {
    /// Parses it ([`parse`]).
    pub fn parse(&self) -> ServerVersion {
        parse(
            self.git_version.as_deref(),
            self.major.as_deref(),
            self.minor.as_deref(),
        )
    }
}

/// A Kubernetes version as a client holds it: the gitVersion string or the `/version` reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum KubernetesVersion {
    /// A gitVersion string, e.g. `"v1.32.3-eks-4096722"` or `"v1.28+"`.
    GitVersion(String),
    /// A `/version` object.
    Info(VersionInfo),
}

impl KubernetesVersion {
    /// Parses it ([`parse`]); never fails: what cannot be read is `known: false`.
    pub fn parse(&self) -> ServerVersion {
        match self {
            KubernetesVersion::GitVersion(s) => parse(Some(s), None, None),
            KubernetesVersion::Info(i) => i.parse(),
        }
    }
}

/// Reads a version given as a string (gitVersion) or as a `/version` object.
/// Errors: `invalid_input` at `field` when the value is neither, or at `field.<member>` when
/// `gitVersion`, `major` or `minor` is neither a string nor null.
pub fn from_json(v: &Value, field: &str) -> Result<ServerVersion> {
    match v {
        Value::String(s) => Ok(parse(Some(s), None, None)),
        Value::Object(m) => {
            let get = |k: &str| -> Result<Option<&str>> {
                match m.get(k) {
                    None | Some(Value::Null) => Ok(None),
                    Some(Value::String(s)) => Ok(Some(s)),
                    Some(_) => Err(Error::invalid_input(
                        format!("{field}.{k}"),
                        "expected a string",
                    )),
                }
            };
            Ok(parse(get("gitVersion")?, get("major")?, get("minor")?))
        }
        _ => Err(Error::invalid_input(
            field,
            "expected a version string or a /version object",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cloud_suffixes() {
        let v = parse(Some("v1.32.3-eks-4096722"), Some("1"), Some("32+"));
        assert_eq!(
            (
                v.major,
                v.minor,
                v.patch,
                v.provider.as_str(),
                v.pre_release.as_str()
            ),
            (1, 32, 3, "eks", "eks-4096722")
        );
        let v = parse(Some("v1.33.2-gke.1240000"), None, None);
        assert_eq!((v.minor, v.provider.as_str()), (33, "gke"));
        let v = parse(Some("v1.28+"), None, None);
        assert_eq!((v.known, v.minor, v.patch), (true, 28, 0));
        let v = parse(Some("v1.30.2+k3s1"), None, None);
        assert_eq!(
            (v.minor, v.provider.as_str(), v.build.as_str()),
            (30, "k3s", "k3s1")
        );
        let v = parse(None, Some("1"), Some("28+"));
        assert_eq!((v.known, v.minor), (true, 28));
        let v = parse(Some("garbage"), Some(""), Some("x"));
        assert!(!v.known);
        assert!(!v.features().resize_subresource);
    }

    #[test]
    fn release_candidates_count_as_their_minor() {
        let v = parse(Some("v1.33.0-rc.1"), None, None);
        assert_eq!(v.features().native_sidecar_containers.stage, Stage::Ga);
        assert_eq!(
            v.features().in_place_pod_vertical_scaling.stage,
            Stage::Beta
        );
        assert!(
            v.features()
                .in_place_pod_vertical_scaling
                .enabled_by_default
        );
    }

    #[test]
    fn feature_boundaries() {
        let f = |s: &str| parse(Some(s), None, None).features();
        assert!(!f("v1.31.9").resize_subresource);
        assert!(f("v1.32.0").resize_subresource);
        assert_eq!(f("v1.28.1").native_sidecar_containers.stage, Stage::Alpha);
        assert!(!f("v1.28.1").native_sidecar_containers.enabled_by_default);
        assert_eq!(f("v1.29.0").native_sidecar_containers.stage, Stage::Beta);
        assert_eq!(
            f("v1.26.0").in_place_pod_vertical_scaling.stage,
            Stage::Unavailable
        );
        assert_eq!(
            f("v1.27.0").in_place_pod_vertical_scaling.stage,
            Stage::Alpha
        );
        assert_eq!(f("v1.35.0").in_place_pod_vertical_scaling.stage, Stage::Ga);
    }
}
