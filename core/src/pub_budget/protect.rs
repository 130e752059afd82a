//! Protected operations: which pod operations a PUB guards.
//!
//! Mirrors `isNeedPubProtection` in `pkg/control/pubcontrol/pub_control_utils.go` (runtime reading,
//! never fails) and the annotation check of
//! `pkg/webhook/podunavailablebudget/validating/pub_create_update_handler.go` (strict reading).
//! See `docs/pub.md`.

use super::types::{ANN_PROTECT_OPERATIONS, Pub};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Error kind: a protect-operations piece is not one of the four names (strict reading).
pub const INVALID_PROTECT_OPERATIONS: &str = "invalid_protect_operations";

/// A pod operation a PUB can protect.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum Operation {
    /// Pod delete.
    Delete,
    /// Eviction subresource.
    Evict,
    /// A pod change that may break the pod.
    Update,
    /// An in-place cpu/memory resize.
    Resize,
}

impl Operation {
    /// All four, alphabetically.
    pub const ALL: [Operation; 4] = [
        Operation::Delete,
        Operation::Evict,
        Operation::Resize,
        Operation::Update,
    ];

    /// The wire name (`DELETE`, `EVICT`, `UPDATE`, `RESIZE`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Operation::Delete => "DELETE",
            Operation::Evict => "EVICT",
            Operation::Update => "UPDATE",
            Operation::Resize => "RESIZE",
        }
    }

    /// The operation with exactly this name (case-sensitive, untrimmed), else `None`.
    pub fn from_exact(s: &str) -> Option<Operation> {
        match s {
            "DELETE" => Some(Operation::Delete),
            "EVICT" => Some(Operation::Evict),
            "UPDATE" => Some(Operation::Update),
            "RESIZE" => Some(Operation::Resize),
            _ => None,
        }
    }

    const fn bit(self) -> u8 {
        match self {
            Operation::Delete => 1,
            Operation::Evict => 2,
            Operation::Update => 4,
            Operation::Resize => 8,
        }
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of protected operations (a bit set; `Copy`, no allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OperationSet(u8);

impl OperationSet {
    /// The empty set.
    pub const EMPTY: OperationSet = OperationSet(0);
    /// v1.9's default: DELETE, UPDATE, EVICT.
    pub const DEFAULT: OperationSet = OperationSet(1 | 2 | 4);

    /// Whether `op` is in the set.
    pub const fn contains(self, op: Operation) -> bool {
        self.0 & op.bit() != 0
    }

    /// The set with `op` added.
    pub const fn with(self, op: Operation) -> OperationSet {
        OperationSet(self.0 | op.bit())
    }

    /// The members, alphabetically.
    pub fn iter(self) -> impl Iterator<Item = Operation> {
        Operation::ALL
            .into_iter()
            .filter(move |o| self.contains(*o))
    }
}

/// The runtime reading of the annotation value (`None` = absent). Never fails:
/// absent or `""` start from the defaults, any other value from the empty set; comma pieces are
/// added verbatim (unknown pieces are inert); with `InPlacePodVerticalScaling` off, UPDATE drags
/// RESIZE in.
///
/// ```
/// use kruise_core::pub_budget::protect::{protected_operations, Operation};
/// let s = protected_operations(Some("DELETE, EVICT"), false);
/// assert!(s.contains(Operation::Delete) && !s.contains(Operation::Evict));
/// ```
pub fn protected_operations(
    annotation: Option<&str>,
    in_place_pod_vertical_scaling: bool,
) -> OperationSet {
    let mut set = match annotation {
        None | Some("") => OperationSet::DEFAULT,
        Some(v) => v
            .split(',')
            .filter_map(Operation::from_exact)
            .fold(OperationSet::EMPTY, OperationSet::with),
    };
    if !in_place_pod_vertical_scaling && set.contains(Operation::Update) {
        set = set.with(Operation::Resize);
    }
    set
}

/// The strict (validating webhook) check of a present annotation value: every comma piece must be
/// exactly one of the four names. Returns the bad pieces in order (empty = valid).
pub fn invalid_pieces(value: &str) -> Vec<&str> {
    value
        .split(',')
        .filter(|p| Operation::from_exact(p).is_none())
        .collect()
}

/// Strict reading: validates a present value first (error `invalid_protect_operations` naming the
/// annotation and the first bad piece), then the runtime reading.
pub fn protected_operations_strict(
    annotation: Option<&str>,
    in_place_pod_vertical_scaling: bool,
) -> Result<OperationSet> {
    if let Some(v) = annotation {
        let bad = invalid_pieces(v);
        if let Some(first) = bad.first() {
            return Err(Error::at(
                INVALID_PROTECT_OPERATIONS,
                format!("metadata.annotations[{ANN_PROTECT_OPERATIONS}]"),
                format_args!(
                    "{} invalid piece(s), first {first:?}; each comma-separated piece must be exactly UPDATE, DELETE, EVICT or RESIZE",
                    bad.len()
                ),
            ));
        }
    }
    Ok(protected_operations(
        annotation,
        in_place_pod_vertical_scaling,
    ))
}

impl Pub {
    /// The protect-operations value this object carries: the annotation for v1alpha1; for a
    /// v1beta1 object with `spec.protectOperations`, that list joined with `,` (typed list wins).
    pub fn protect_operations_value(&self) -> Option<std::borrow::Cow<'_, str>> {
        if self.is_v1beta1()
            && let Some(list) = &self.spec.protect_operations
        {
            return Some(std::borrow::Cow::Owned(list.join(",")));
        }
        self.metadata
            .annotations
            .get(ANN_PROTECT_OPERATIONS)
            .map(|s| std::borrow::Cow::Borrowed(s.as_str()))
    }

    /// The operations this PUB protects at runtime.
    pub fn protected_operations(&self, in_place_pod_vertical_scaling: bool) -> OperationSet {
        protected_operations(
            self.protect_operations_value().as_deref(),
            in_place_pod_vertical_scaling,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: OperationSet) -> Vec<&'static str> {
        s.iter().map(Operation::as_str).collect()
    }

    #[test]
    fn runtime_reading() {
        assert_eq!(
            names(protected_operations(None, false)),
            ["DELETE", "EVICT", "RESIZE", "UPDATE"]
        );
        assert_eq!(
            names(protected_operations(Some(""), true)),
            ["DELETE", "EVICT", "UPDATE"]
        );
        assert_eq!(
            names(protected_operations(Some(","), false)),
            Vec::<&str>::new()
        );
        assert_eq!(
            names(protected_operations(
                Some("DELETE, EVICT, UPDATE, RESIZE"),
                false
            )),
            ["DELETE"]
        );
        assert_eq!(
            names(protected_operations(Some("delete,EVICT"), false)),
            ["EVICT"]
        );
        assert_eq!(
            names(protected_operations(Some("RESIZE"), true)),
            ["RESIZE"]
        );
    }

    #[test]
    fn strict_reading() {
        assert_eq!(
            invalid_pieces("DELETE, EVICT, UPDATE, RESIZE"),
            [" EVICT", " UPDATE", " RESIZE"]
        );
        assert_eq!(invalid_pieces(""), [""]);
        assert_eq!(invalid_pieces("DELETE,"), [""]);
        let e = protected_operations_strict(Some("xxxxx"), false).unwrap_err();
        assert_eq!(e.kind, INVALID_PROTECT_OPERATIONS);
        assert!(e.message.contains("xxxxx"));
        assert!(protected_operations_strict(None, true).is_ok());
    }
}
