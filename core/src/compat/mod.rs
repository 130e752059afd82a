//! The `compat` decision family: Kubernetes server versions and OpenKruise upgrade rules, on the
//! `semver` crate. Input/output shapes are documented in `docs/compat.md`; registry entries live
//! in [`ENTRIES`].

pub mod kruise_upgrade;
pub mod server_version;

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::new(
        "compat.server_version",
        "parse a Kubernetes /version (cloud suffixes too) and decide resize / native sidecar / in-place VPA support",
        server_version::handle,
    ),
    Entry::new(
        "compat.kruise_upgrade",
        "whether an OpenKruise upgrade is allowed on a Kubernetes version (release-note rules)",
        kruise_upgrade::handle,
    ),
];
