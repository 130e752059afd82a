//! The `compat` decision family: Kubernetes server versions and OpenKruise upgrade rules, on the
//! `semver` crate. Input/output shapes are documented in `docs/compat.md`; the typed decisions
//! are in [`fns`], registry entries in [`ENTRIES`].

pub mod fns;
pub mod kruise_upgrade;
pub mod server_version;

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[
    Entry::of::<fns::ServerVersion>(),
    Entry::of::<fns::KruiseUpgrade>(),
];
