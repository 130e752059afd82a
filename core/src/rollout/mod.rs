//! The `rollout` decision family (see `shared/spec`). Registry entries live in [`ENTRIES`].

use crate::registry::Entry;

/// Registry entries of this family.
pub const ENTRIES: &[Entry] = &[];
