//! The PUB controller's status computation.
//!
//! Mirrors `syncPodUnavailableBudget`, `getDesiredAvailableForPub`, `buildDisruptedAndUnavailablePods`
//! and `countAvailablePods` in `pkg/controller/podunavailablebudget/podunavailablebudget_controller.go`
//! plus `GetPodsForPub` in `pkg/control/pubcontrol/pub_control.go` (OpenKruise v1.9.0). See
//! `docs/pub.md`.
//!
//! Linear in the number of pods: one pass, one hash lookup per active pod only when live records
//! exist, no allocation per pod (kept records are cloned into the new status).

use super::types::{ANN_PROTECT_TOTAL_REPLICAS, Pod, Pub, PubStatus, RecordTime, Records};
use crate::error::{Error, Result};
use crate::intstr::{Flavour, IntOrPercent};
use jiff::{SignedDuration, Timestamp};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A record that has not expired.
#[derive(Clone, Copy)]
struct Live<'a> {
    key: &'a String,
    time: &'a RecordTime,
    expiry: Timestamp,
}

/// A small deterministic hasher for pod names (no random seed: the core has no randomness).
#[derive(Default)]
struct NameHasher(u64);

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 =
                (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Error kind: maxUnavailable/minAvailable is a string that is not a parsable percentage.
pub const INVALID_INT_OR_PERCENT: &str = "invalid_int_or_percent";
/// How long a `disruptedPods` record is kept (DELETE / EVICT / RESIZE).
pub const DISRUPTED_TIMEOUT: SignedDuration = SignedDuration::from_secs(20);
/// How long an `unavailablePods` record is kept (UPDATE).
pub const UNAVAILABLE_TIMEOUT: SignedDuration = SignedDuration::from_secs(10);

/// The outcome of a status computation.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusOutcome {
    /// The status the controller would write (it replaces the old one).
    pub status: PubStatus,
    /// The earliest expiry among kept records (the controller requeues then), if any.
    pub recheck_time: Option<Timestamp>,
    /// Whether a status write would happen (something differs from `pub.status`).
    pub changed: bool,
}

/// What the status computation reads of a pod: implemented by the full [`Pod`] (predicates
/// evaluated on every call) and by the compact [`PodSummary`] (predicates evaluated once, when
/// the pod is seen; what a controller keeping 100,000 pods should feed in).
pub trait BudgetPod {
    /// `metadata.name`.
    fn name(&self) -> &str;
    /// kube `IsPodActive`.
    fn is_active(&self) -> bool;
    /// Ready and state-consistent (`IsPodReady`, `IsPodStateConsistent`; record maps aside).
    fn is_available(&self) -> bool;
}

impl BudgetPod for Pod {
    fn name(&self) -> &str {
        &self.metadata.name
    }
    fn is_active(&self) -> bool {
        Pod::is_active(self)
    }
    fn is_available(&self) -> bool {
        self.is_ready() && self.is_consistent()
    }
}

/// A pod reduced to what the status computation reads: its name and two predicate results.
/// Build it once per pod change ([`PodSummary::of`]); recomputing the status from summaries is a
/// tight loop over contiguous data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodSummary {
    /// `metadata.name`.
    pub name: String,
    /// [`Pod::is_active`].
    pub active: bool,
    /// [`Pod::is_ready`] and [`Pod::is_consistent`].
    pub available: bool,
}

impl PodSummary {
    /// Evaluates the predicates of `p` once.
    pub fn of(p: &Pod) -> Self {
        PodSummary {
            name: p.metadata.name.clone(),
            active: p.is_active(),
            available: p.is_ready() && p.is_consistent(),
        }
    }
}

impl BudgetPod for PodSummary {
    fn name(&self) -> &str {
        &self.name
    }
    fn is_active(&self) -> bool {
        self.active
    }
    fn is_available(&self) -> bool {
        self.available
    }
}

/// Computes a PUB's status.
///
/// - `pods`: candidate pods already matched by the PUB (selector match, or ownership by the
///   target); inactive pods are dropped here.
/// - `workload_replicas`: targetRef mode: the target's replicas, `None` = missing or deleting;
///   selector mode: the distinct-workload replica sum (`None` = 0).
/// - `now`: the controller's clock reading.
///
/// Errors: `invalid_int_or_percent` (field `spec.maxUnavailable` / `spec.minAvailable`).
pub fn compute_status<P: BudgetPod>(
    pb: &Pub,
    pods: &[P],
    workload_replicas: Option<i32>,
    now: Timestamp,
) -> Result<StatusOutcome> {
    let total_override = pb.protect_total_replicas();
    let (pods, expected): (&[P], i32) = if pb.spec.target_ref.is_some() {
        let (pods, n) = match workload_replicas {
            Some(n) if n != 0 => (pods, n),
            _ => (&pods[..0], 0),
        };
        (pods, total_override.unwrap_or(n))
    } else if let Some(sel) = &pb.spec.selector {
        if super::validate::selector_problem(sel).is_some() {
            (&pods[..0], 0)
        } else {
            (
                pods,
                total_override.unwrap_or(workload_replicas.unwrap_or(0)),
            )
        }
    } else {
        (&pods[..0], 0)
    };
    let desired = desired_available(pb, expected)?;

    let old = &pb.status;
    // live (not expired) records by pod name; expired ones are dropped whatever the pods
    let mut live: HashMap<&str, [Option<Live<'_>>; 2], BuildHasherDefault<NameHasher>> =
        HashMap::default();
    for (slot, map, timeout) in [
        (0, &old.disrupted_pods, DISRUPTED_TIMEOUT),
        (1, &old.unavailable_pods, UNAVAILABLE_TIMEOUT),
    ] {
        for (k, t) in map {
            let expiry = t.at.checked_add(timeout).unwrap_or(Timestamp::MAX);
            if expiry >= now {
                live.entry(k.as_str()).or_default()[slot] = Some(Live {
                    key: k,
                    time: t,
                    expiry,
                });
            }
        }
    }
    let mut disrupted = Records::new();
    let mut unavailable = Records::new();
    let mut recheck: Option<Timestamp> = None;
    let mut current: i32 = 0;
    for p in pods {
        if !p.is_active() {
            continue;
        }
        if !live.is_empty()
            && let Some(entries) = live.get(p.name())
        {
            for (e, to) in entries.iter().zip([&mut disrupted, &mut unavailable]) {
                if let Some(e) = e {
                    recheck = Some(recheck.map_or(e.expiry, |r| r.min(e.expiry)));
                    to.insert(e.key.clone(), e.time.clone());
                }
            }
            continue;
        }
        if p.is_available() {
            current = current.wrapping_add(1);
        }
    }
    let allowed = current.wrapping_sub(desired).max(0);
    let status = PubStatus {
        observed_generation: pb.metadata.generation,
        disrupted_pods: disrupted,
        unavailable_pods: unavailable,
        unavailable_allowed: allowed,
        current_available: current,
        desired_available: desired,
        total_replicas: expected,
    };
    let changed = status_differs(old, &status);
    Ok(StatusOutcome {
        status,
        recheck_time: recheck,
        changed,
    })
}

/// `getDesiredAvailableForPub`: maxUnavailable wins (desired = expected - scaled, at least 0),
/// else minAvailable as is (percent scaled, never clamped), else 0. Percentages round up
/// (`intstr.GetScaledValueFromIntOrPercent`, [`Flavour::Scaled`]); int32 arithmetic wraps like Go.
pub fn desired_available(pb: &Pub, expected: i32) -> Result<i32> {
    if let Some(max) = &pb.spec.max_unavailable {
        let v = scaled(max, expected, "spec.maxUnavailable")?;
        Ok(expected.wrapping_sub(v).max(0))
    } else if let Some(min) = &pb.spec.min_available {
        scaled(min, expected, "spec.minAvailable")
    } else {
        Ok(0)
    }
}

fn scaled(v: &IntOrPercent, expected: i32, field: &str) -> Result<i32> {
    match v {
        IntOrPercent::Int(i) => Ok(*i),
        IntOrPercent::String(s) => {
            crate::intstr::scale_str(s, i64::from(expected), true, Flavour::Scaled)
                // Go: int32(int): truncation to the low 32 bits
                .map(|x| x as i32)
                .map_err(|e| {
                    Error::at(
                        INVALID_INT_OR_PERCENT,
                        field,
                        format_args!("{s:?}: {}", e.message),
                    )
                })
        }
    }
}

impl Pub {
    /// The expected-replica override: `pub.kruise.io/protect-total-replicas` read leniently
    /// (`strconv.ParseInt(v, 10, 32)` with the error ignored: syntax error -> 0, out of range ->
    /// saturated); absent or `""` = not set. A v1beta1 `spec.protectTotalReplicas` wins.
    pub fn protect_total_replicas(&self) -> Option<i32> {
        if self.is_v1beta1()
            && let Some(n) = self.spec.protect_total_replicas
        {
            return Some(n);
        }
        match self
            .metadata
            .annotations
            .get(ANN_PROTECT_TOTAL_REPLICAS)
            .map(String::as_str)
        {
            None | Some("") => None,
            Some(v) => Some(parse_int32_lenient(v)),
        }
    }
}

/// Go `strconv.ParseInt(v, 10, 32)` with its error ignored.
pub fn parse_int32_lenient(v: &str) -> i32 {
    let body = v.strip_prefix(['+', '-']).unwrap_or(v);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let neg = v.starts_with('-');
    match crate::intstr::atoi(v.bytes()) {
        Some(n) => n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
        None if neg => i32::MIN,
        None => i32::MAX,
    }
}

/// Strict int32 (validation): sign and digits, in range.
pub fn parse_int32_strict(v: &str) -> Option<i32> {
    crate::intstr::atoi(v.bytes()).and_then(|n| i32::try_from(n).ok())
}

/// Whether a status write would happen: counters, observedGeneration, or either map (by key
/// set and instant; absent = empty).
pub fn status_differs(old: &PubStatus, new: &PubStatus) -> bool {
    let maps_differ = |a: &Records, b: &Records| {
        a.len() != b.len()
            || a.iter()
                .zip(b)
                .any(|((ka, ta), (kb, tb))| ka != kb || ta.at != tb.at)
    };
    old.unavailable_allowed != new.unavailable_allowed
        || old.current_available != new.current_available
        || old.desired_available != new.desired_available
        || old.total_replicas != new.total_replicas
        || old.observed_generation != new.observed_generation
        || maps_differ(&old.disrupted_pods, &new.disrupted_pods)
        || maps_differ(&old.unavailable_pods, &new.unavailable_pods)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_and_strict_int32() {
        assert_eq!(parse_int32_lenient("15"), 15);
        assert_eq!(parse_int32_lenient("+7"), 7);
        assert_eq!(parse_int32_lenient("%%"), 0);
        assert_eq!(parse_int32_lenient(" 5"), 0);
        assert_eq!(parse_int32_lenient("99999999999"), i32::MAX);
        assert_eq!(parse_int32_lenient("-99999999999999999999999"), i32::MIN);
        assert_eq!(parse_int32_strict("-3"), Some(-3));
        assert_eq!(parse_int32_strict("2147483648"), None);
        assert_eq!(parse_int32_strict(""), None);
    }
}
