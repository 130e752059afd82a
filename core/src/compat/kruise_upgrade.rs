//! `compat.kruise_upgrade`: may a cluster move from one OpenKruise version to another?
//!
//! Rules come from the OpenKruise release notes (seed `001`, v1.6 upgrade notes, and the v1.0
//! announcement quoted there):
//! - target >= 1.6 needs Kubernetes >= 1.18; on 1.16 / 1.17 it installs only with the daemon
//!   turned off (`featureGates="KruiseDaemon=false"`);
//! - target >= 1.0 needs Kubernetes >= 1.16;
//! - running 1.3.x or older and targeting >= 1.6: go through 1.4 or 1.5 first, because 1.6 uses
//!   leases-based leader election and skipping the intermediate release can leave two leaders.
//!
//! Versions are compared with the `semver` crate on their release part (pre-releases of 1.6 count
//! as 1.6).

use super::server_version::ServerVersion;
use crate::error::{Error, Result};
use semver::Version;
use serde::Serialize;

/// One reason an upgrade is refused or needs attention.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Reason {
    /// Stable code: `kubernetes_too_old`, `kruise_daemon_must_be_disabled`,
    /// `leader_election_hop_required`, `downgrade`, `no_change`.
    pub code: &'static str,
    /// Human explanation with the versions involved.
    pub message: String,
}

/// The verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// Whether the direct upgrade may proceed.
    pub allowed: bool,
    /// Why not (empty when allowed).
    pub blockers: Vec<Reason>,
    /// Things to know that do not block (downgrade, same version).
    pub warnings: Vec<Reason>,
    /// Suggested intermediate OpenKruise releases, in order (empty when none are needed).
    pub via: Vec<String>,
}

/// Parses an OpenKruise version (`v1.6.0`, `1.6`, `v1.9.0-rc.1`) into its release part.
/// Errors: `invalid_input` at `field`.
pub fn kruise_version(s: &str, field: &str) -> Result<Version> {
    let sv = super::server_version::parse(Some(s), None, None);
    if !sv.known {
        return Err(Error::invalid_input(
            field,
            format!("{s:?} is not an OpenKruise version like v1.6.0"),
        ));
    }
    Ok(sv.release())
}

/// Decides the upgrade from `from` to `to` on a cluster running Kubernetes `k8s`.
pub fn decide(
    from: &Version,
    to: &Version,
    k8s: &ServerVersion,
    kruise_daemon_disabled: bool,
) -> Verdict {
    let ge = |v: &Version, major, minor| *v >= Version::new(major, minor, 0);
    let mut blockers = Vec::new();
    let mut warnings = Vec::new();
    let mut via = Vec::new();
    let kube = format!("{}.{}", k8s.major, k8s.minor);
    if ge(to, 1, 6) && !k8s.at_least(1, 18) {
        if k8s.at_least(1, 16) {
            if !kruise_daemon_disabled {
                blockers.push(Reason {
                    code: "kruise_daemon_must_be_disabled",
                    message: format!(
                        "OpenKruise {to} on Kubernetes {kube} needs kruise-daemon turned off (featureGates=\"KruiseDaemon=false\"); with the daemon it needs Kubernetes >= 1.18"
                    ),
                });
            }
        } else {
            blockers.push(Reason {
                code: "kubernetes_too_old",
                message: format!("OpenKruise {to} needs Kubernetes >= 1.18 (1.16/1.17 only with KruiseDaemon=false); cluster runs {kube}"),
            });
        }
    } else if ge(to, 1, 0) && !k8s.at_least(1, 16) {
        blockers.push(Reason {
            code: "kubernetes_too_old",
            message: format!("OpenKruise {to} needs Kubernetes >= 1.16; cluster runs {kube}"),
        });
    }
    if ge(to, 1, 6) && !ge(from, 1, 4) {
        blockers.push(Reason {
            code: "leader_election_hop_required",
            message: format!(
                "upgrading from {from} (1.3 or older) straight to {to} can run two leaders: 1.6 uses leases-based leader election; upgrade to 1.4 or 1.5 first"
            ),
        });
        via.push("1.5".to_owned());
    }
    if to < from {
        warnings.push(Reason {
            code: "downgrade",
            message: format!("{to} is older than the running {from}"),
        });
    } else if to == from {
        warnings.push(Reason {
            code: "no_change",
            message: format!("{from} is already running"),
        });
    }
    Verdict {
        allowed: blockers.is_empty(),
        blockers,
        warnings,
        via,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::server_version::parse;

    fn run(from: &str, to: &str, k8s: &str, off: bool) -> Verdict {
        decide(
            &kruise_version(from, "from").unwrap(),
            &kruise_version(to, "to").unwrap(),
            &parse(Some(k8s), None, None),
            off,
        )
    }

    #[test]
    fn v16_kubernetes_floor() {
        assert!(run("1.5.0", "1.6.0", "v1.18.0", false).allowed);
        let v = run("1.5.0", "1.6.0", "v1.17.3", false);
        assert_eq!(v.blockers[0].code, "kruise_daemon_must_be_disabled");
        assert!(run("1.5.0", "1.6.0", "v1.17.3", true).allowed);
        assert_eq!(
            run("1.5.0", "1.6.0", "v1.15.0", true).blockers[0].code,
            "kubernetes_too_old"
        );
    }

    #[test]
    fn leader_election_hop() {
        let v = run("v1.3.0", "v1.6.1", "v1.28.0", false);
        assert!(!v.allowed);
        assert_eq!(v.blockers[0].code, "leader_election_hop_required");
        assert_eq!(v.via, vec!["1.5"]);
        assert!(run("v1.4.0", "v1.6.1", "v1.28.0", false).allowed);
        assert!(run("v1.3.0", "v1.5.0", "v1.28.0", false).allowed);
    }

    #[test]
    fn v10_needs_116() {
        assert_eq!(
            run("0.10.0", "1.0.0", "v1.15.2", false).blockers[0].code,
            "kubernetes_too_old"
        );
        assert!(run("0.10.0", "1.0.0", "v1.16.0", false).allowed);
        assert_eq!(
            run("1.6.0", "1.5.0", "v1.20.0", false).warnings[0].code,
            "downgrade"
        );
    }
}
