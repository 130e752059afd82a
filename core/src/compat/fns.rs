//! The typed decisions of the `compat.*` fn ids (input/output shapes: `docs/compat.md`).
//!
//! ```
//! use kruise_core::compat::fns::{KruiseUpgrade, KruiseUpgradeInput, KubernetesVersion};
//! let out = kruise_core::decide::<KruiseUpgrade>(KruiseUpgradeInput {
//!     from: "v1.3.0".into(),
//!     to: "v1.6.0".into(),
//!     kubernetes: KubernetesVersion::GitVersion("v1.28.3-eks-4096722".into()),
//!     kruise_daemon_disabled: false,
//! })?;
//! assert!(!out.verdict.allowed);
//! assert_eq!(out.verdict.blockers[0].code, "leader_election_hop_required");
//! assert_eq!((out.verdict.via, out.kubernetes), (vec!["1.5".to_string()], "1.28.3".to_string()));
//! # Ok::<(), kruise_core::Error>(())
//! ```

use super::kruise_upgrade::{self, kruise_version};
use super::server_version::{self, from_json};
use crate::error::{Error, Result};
use crate::registry::Decision;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::kruise_upgrade::{Reason, Verdict};
pub use super::server_version::ServerVersion as ParsedVersion;
pub use super::server_version::{Feature, Features, KubernetesVersion, Stage, VersionInfo};

/// Input of `compat.server_version`: one of three forms.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum ServerVersionInput {
    /// A bare gitVersion string, e.g. `"v1.29.7"`.
    GitVersion(String),
    /// `{"version": <a gitVersion string or a /version object>}`; other members are ignored.
    Wrapped {
        /// The version.
        version: KubernetesVersion,
    },
    /// The `/version` object itself (it has no `version` member).
    Info(VersionInfo),
}

/// Output of `compat.server_version`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ServerVersionOutput {
    /// The version as read (`known: false` when it cannot be read).
    pub version: ParsedVersion,
    /// What a cluster of that version offers by default.
    pub features: Features,
}

/// `compat.server_version`: the parsed version and its feature verdicts. Never fails on a
/// string; only a value of the wrong JSON type is `invalid_input`.
pub struct ServerVersion;

impl Decision for ServerVersion {
    const ID: &'static str = "compat.server_version";
    const DOC: &'static str = "parse a Kubernetes /version (cloud suffixes too) and decide resize / native sidecar / in-place VPA support";
    const SOURCE: &'static str = "pkg/client/registry.go GetCurrentServerVersion, ShouldUpdateResourceByResize; \
        k8s.io/apimachinery pkg/version/types.go Info";
    const ERRORS: &'static [&'static str] = &[];
    type Input = ServerVersionInput;
    type Output = ServerVersionOutput;

    /// Names the field as the JSON reading always has: `version` (or `version.<member>`) when the
    /// input has a `version` member, whatever else it holds, otherwise `input` (`input.<member>`)
    /// for a value that is neither a string nor an object, or a member that is neither a string
    /// nor null.
    const CHECK_JSON: Option<crate::registry::JsonCheck> = Some(|input: &Value| -> Result<()> {
        let (v, field) = match input.get("version") {
            Some(v) => (v, "version"),
            None => (input, "input"),
        };
        from_json(v, field).map(|_| ())
    });

    fn decide(i: ServerVersionInput) -> Result<ServerVersionOutput> {
        let version = match i {
            ServerVersionInput::GitVersion(s) => server_version::parse(Some(&s), None, None),
            ServerVersionInput::Wrapped { version } => version.parse(),
            ServerVersionInput::Info(info) => info.parse(),
        };
        Ok(ServerVersionOutput {
            features: version.features(),
            version,
        })
    }
}

/// Input of `compat.kruise_upgrade`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KruiseUpgradeInput {
    /// The running OpenKruise version (`v1.3.0`, `1.3`; a pre-release counts as its release).
    pub from: String,
    /// The target OpenKruise version (same forms).
    pub to: String,
    /// The cluster's Kubernetes version; it must be readable (`invalid_input` otherwise).
    pub kubernetes: KubernetesVersion,
    /// Whether kruise-daemon is turned off (`featureGates="KruiseDaemon=false"`); `null` or
    /// absent: `false`.
    #[serde(default, deserialize_with = "crate::k8s::null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub kruise_daemon_disabled: bool,
}

/// Output of `compat.kruise_upgrade`: the verdict and the Kubernetes version it was judged on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct KruiseUpgradeOutput {
    /// The verdict (its members are members of this object).
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The Kubernetes version as `major.minor.patch`.
    pub kubernetes: String,
}

/// `compat.kruise_upgrade`: whether the direct upgrade may proceed, with blockers, warnings and
/// suggested intermediate releases.
pub struct KruiseUpgrade;

const UPGRADE_MEMBERS: &[&str] = &["from", "to", "kubernetes", "kruiseDaemonDisabled"];

impl Decision for KruiseUpgrade {
    const ID: &'static str = "compat.kruise_upgrade";
    const DOC: &'static str =
        "whether an OpenKruise upgrade is allowed on a Kubernetes version (release-note rules)";
    const SOURCE: &'static str = "OpenKruise release notes: v1.6 upgrade notes (Kubernetes >= 1.18, or 1.16/1.17 \
        with KruiseDaemon=false; leases-based leader election from 1.6) and the v1.0 announcement (Kubernetes >= 1.16)";
    const ERRORS: &'static [&'static str] = &[];
    type Input = KruiseUpgradeInput;
    type Output = KruiseUpgradeOutput;

    /// The JSON reading's order of errors, each naming its member: an unknown member, a
    /// non-object, then `from` and `to` (missing, not a string, or not a version), `kubernetes`
    /// (missing, of the wrong type, with a member of the wrong type, or unreadable), and
    /// `kruiseDaemonDisabled` (neither a boolean nor null). Decoding alone would name the input
    /// for a missing member and meet the members in another order.
    const CHECK_JSON: Option<crate::registry::JsonCheck> = Some(|input: &Value| -> Result<()> {
        crate::api::json::only_members(input, UPGRADE_MEMBERS)?;
        let inp = input
            .as_object()
            .ok_or_else(|| Error::invalid_input("input", "expected a JSON object"))?;
        let text = |k: &str| -> Result<&str> {
            inp.get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| Error::invalid_input(k, "missing or not a string"))
        };
        kruise_version(text("from")?, "from")?;
        kruise_version(text("to")?, "to")?;
        let kv = inp
            .get("kubernetes")
            .ok_or_else(|| Error::invalid_input("kubernetes", "missing"))?;
        known(from_json(kv, "kubernetes")?)?;
        match inp.get("kruiseDaemonDisabled") {
            None | Some(Value::Null | Value::Bool(_)) => Ok(()),
            Some(_) => Err(Error::invalid_input(
                "kruiseDaemonDisabled",
                "expected a boolean",
            )),
        }
    });

    fn decide(i: KruiseUpgradeInput) -> Result<KruiseUpgradeOutput> {
        let from = kruise_version(&i.from, "from")?;
        let to = kruise_version(&i.to, "to")?;
        let k8s = known(i.kubernetes.parse())?;
        Ok(KruiseUpgradeOutput {
            verdict: kruise_upgrade::decide(&from, &to, &k8s, i.kruise_daemon_disabled),
            kubernetes: k8s.normalized,
        })
    }
}

/// An unreadable Kubernetes version cannot be judged.
fn known(v: server_version::ServerVersion) -> Result<server_version::ServerVersion> {
    if v.known {
        Ok(v)
    } else {
        Err(Error::invalid_input(
            "kubernetes",
            "the Kubernetes version cannot be read",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The three input forms decide alike, typed or through JSON.
    #[test]
    fn server_version_forms_typed_and_json() {
        let info = VersionInfo {
            git_version: Some("v1.32.3-eks-4096722".into()),
            major: Some("1".into()),
            minor: Some("32+".into()),
        };
        let typed = [
            ServerVersionInput::GitVersion("v1.32.3-eks-4096722".into()),
            ServerVersionInput::Wrapped {
                version: KubernetesVersion::Info(info.clone()),
            },
            ServerVersionInput::Info(info),
        ];
        for input in typed {
            let out = crate::decide::<ServerVersion>(input).unwrap();
            assert_eq!(
                (
                    out.version.minor,
                    out.version.patch,
                    out.version.provider.as_str()
                ),
                (32, 3, "eks")
            );
            assert_eq!(out.features.native_sidecar_containers.stage, Stage::Beta);
            assert!(out.features.resize_subresource);
        }
        let by_json = |v| crate::call(<ServerVersion as Decision>::ID, &v).unwrap();
        let want = by_json(json!("v1.32.3-eks-4096722"));
        assert_eq!(want["version"]["normalized"], "1.32.3");
        assert_eq!(
            by_json(
                json!({"version": {"gitVersion": "v1.32.3-eks-4096722", "platform": "linux/amd64"}})
            ),
            want
        );
        assert_eq!(
            by_json(json!({"gitVersion": "v1.32.3-eks-4096722", "buildDate": "2025-01-01"})),
            want
        );
        // a `version` member decides the form, whatever else the object holds
        assert_eq!(
            by_json(json!({"version": "v1.32.3-eks-4096722", "gitVersion": 5})),
            want
        );
        let e =
            crate::call("compat.server_version", &json!({"version": {"major": 1}})).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("version.major"))
        );
        let e = crate::call("compat.server_version", &json!({"gitVersion": 5})).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_deref()),
            ("invalid_input", Some("input.gitVersion"))
        );
    }

    /// The JSON reading names each member as before, in its order.
    #[test]
    fn kruise_upgrade_errors_name_the_member() {
        let field = |v| crate::call("compat.kruise_upgrade", &v).unwrap_err().field;
        assert_eq!(
            field(json!({"to": "v1.6.0", "kubernetes": "v1.30.0"})).as_deref(),
            Some("from")
        );
        assert_eq!(
            field(json!({"from": "latest", "to": 5, "kubernetes": "v1.30.0"})).as_deref(),
            Some("from")
        );
        assert_eq!(
            field(json!({"from": "v1.5.0", "to": "v1.6.0"})).as_deref(),
            Some("kubernetes")
        );
        let k8s_member = json!({"from": "v1.5.0", "to": "v1.6.0", "kubernetes": {"major": 1}, "kruiseDaemonDisabled": "x"});
        assert_eq!(field(k8s_member).as_deref(), Some("kubernetes.major"));
        // typed callers get the same fields
        let typed = |from: &str, k8s: &str| {
            crate::decide::<KruiseUpgrade>(KruiseUpgradeInput {
                from: from.into(),
                to: "v1.6.0".into(),
                kubernetes: KubernetesVersion::GitVersion(k8s.into()),
                kruise_daemon_disabled: true,
            })
        };
        assert_eq!(
            typed("latest", "v1.30.0").unwrap_err().field.as_deref(),
            Some("from")
        );
        assert_eq!(
            typed("v1.5.0", "unknown").unwrap_err().field.as_deref(),
            Some("kubernetes")
        );
        assert!(typed("v1.5.0", "v1.17.0").unwrap().verdict.allowed);
    }
}
