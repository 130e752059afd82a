"""Typed helpers of the allocation family (OpenKruise v1.9 UnitedDeployment subset allocation).

- ``allocate(ud, subsets=..., now=...)``: one reconcile's allocation (subset statuses,
  ``UnitedDeploymentUpdated`` condition, Adaptive per-subset status, the allocator,
  ``reserveUnschedulablePods`` re-marking) -> ``Allocation``.
- ``next_replicas(spec, subsets)``: the allocator alone, with precomputed subset status.
- ``validate(spec)``: the webhook's allocation rules as an ordered list of violation kinds.

``ud`` may be a whole manifest (``apps.kruise.io/v1alpha1`` or ``v1beta1``, as ``kubectl get -o
json`` prints it; its ``status`` is used unless ``status=`` is given) or just its ``spec``. Pods are
Kubernetes Pod objects in their JSON shape. Every other allocation decision is reachable with
``kruise_core.call("allocation.<fn>", {...})``. Errors raise ``kruise_core.KruiseError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping, Optional, Sequence, Union

from ._kruise_core import call

__all__ = [
    "Allocation",
    "SchedulableCondition",
    "UnschedulableStatus",
    "Workload",
    "allocate",
    "next_replicas",
    "validate",
]


@dataclass(frozen=True)
class Workload:
    """An existing subset workload: ``spec.replicas``, ``status.replicas``,
    ``status.readyReplicas`` and its pods (Pod objects in their JSON shape)."""

    replicas: int = 0
    status_replicas: int = 0
    ready_replicas: int = 0
    pods: Sequence[Mapping[str, Any]] = ()

    def to_json(self) -> dict[str, Any]:
        """The workload in the shape ``allocation.allocate`` takes."""
        return {
            "spec": {"replicas": self.replicas},
            "status": {"replicas": self.status_replicas, "readyReplicas": self.ready_replicas},
            "pods": [dict(p) for p in self.pods],
        }


@dataclass(frozen=True)
class UnschedulableStatus:
    """The controller's per-subset adaptive status."""

    unschedulable: bool
    marked_as_unschedulable: bool
    pending_pods: int
    reserved_pods: int
    update_timeout_pods: int

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> UnschedulableStatus:
        return UnschedulableStatus(
            unschedulable=bool(obj.get("unschedulable", False)),
            marked_as_unschedulable=bool(obj.get("markedAsUnschedulable", False)),
            pending_pods=int(obj.get("pendingPods", 0)),
            reserved_pods=int(obj.get("reservedPods", 0)),
            update_timeout_pods=int(obj.get("updateTimeoutPods", 0)),
        )


@dataclass(frozen=True)
class SchedulableCondition:
    """A subset's ``Schedulable`` condition after the step (time: RFC 3339 UTC or ``None``)."""

    status: str
    reason: str
    last_transition_time: Optional[str]


@dataclass(frozen=True)
class Allocation:
    """The decision: replicas per subset (in subset order), and for Adaptive types the recomputed
    status, conditions, requeue delay (seconds, 0 = none) and reserved-label patches."""

    allocator: str
    replicas: dict[str, int]
    temporary_replicas: Optional[int] = None
    subsets: Optional[dict[str, UnschedulableStatus]] = None
    subset_conditions: Optional[dict[str, Optional[SchedulableCondition]]] = None
    requeue_after_seconds: Union[int, float] = 0
    pod_reserved_labels: Optional[dict[str, bool]] = None

    @staticmethod
    def from_json(out: Mapping[str, Any], order: Sequence[str] = ()) -> Allocation:
        reps = {str(k): int(v) for k, v in out["replicas"].items()}
        if order:
            reps = {n: reps[n] for n in order if n in reps} | {n: r for n, r in reps.items() if n not in order}
        subsets = out.get("subsets")
        conds = out.get("subsetConditions")
        return Allocation(
            allocator=str(out["allocator"]),
            replicas=reps,
            temporary_replicas=out.get("temporaryReplicas"),
            subsets=None if subsets is None else {k: UnschedulableStatus.from_json(v) for k, v in subsets.items()},
            subset_conditions=None
            if conds is None
            else {
                k: None if c is None else SchedulableCondition(str(c["status"]), str(c["reason"]), c.get("lastTransitionTime"))
                for k, c in conds.items()
            },
            requeue_after_seconds=out.get("requeueAfterSeconds", 0),
            pod_reserved_labels=out.get("podReservedLabels"),
        )


def _time(t: Union[str, datetime]) -> str:
    if isinstance(t, datetime):
        if t.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        return t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
    return t


def _split(ud: Mapping[str, Any]) -> tuple[dict[str, Any], Optional[dict[str, Any]]]:
    if "apiVersion" in ud or "kind" in ud:
        return dict(ud.get("spec") or {}), (dict(ud["status"]) if ud.get("status") else None)
    return dict(ud), None


def _order(spec: Mapping[str, Any]) -> list[str]:
    subsets = (spec.get("topology") or {}).get("subsets") or []
    return [str(s.get("name")) for s in subsets if isinstance(s, Mapping)]


def allocate(
    ud: Mapping[str, Any],
    *,
    now: Union[str, datetime],
    subsets: Optional[Mapping[str, Union[Workload, Mapping[str, Any]]]] = None,
    status: Optional[Mapping[str, Any]] = None,
    current_revision: str = "",
    updated_revision: Optional[str] = None,
) -> Allocation:
    """One reconcile's allocation for a UnitedDeployment (manifest or spec) and its existing
    subset workloads (keyed by subset name; a ``Workload`` or the raw JSON shape) at ``now``.

    ``updated_revision`` defaults to ``current_revision``. Raises ``KruiseError``: the allocators'
    kinds (``min_greater_than_max``, ``specified_exceeds_total``, ``specified_less_than_total``,
    ``unspecified_total_requires_all``, ``duplicate_subset_name``) or ``invalid_input`` naming the
    malformed field.
    """
    spec, st = _split(ud)
    if status is not None:
        st = dict(status)
    ws = {name: (w.to_json() if isinstance(w, Workload) else dict(w)) for name, w in (subsets or {}).items()}
    out = call(
        "allocation.allocate",
        {
            "spec": spec,
            "status": st or {},
            "currentRevision": current_revision,
            "updatedRevision": current_revision if updated_revision is None else updated_revision,
            "subsets": ws,
            "now": _time(now),
        },
    )
    return Allocation.from_json(out, _order(spec))


def next_replicas(ud: Mapping[str, Any], subsets: Optional[Mapping[str, Mapping[str, Any]]] = None) -> Allocation:
    """The allocator alone: ``subsets`` maps subset name to the workload JSON shape with an
    optional precomputed ``unschedulableStatus``. Raises ``KruiseError`` like ``allocate``."""
    spec, _ = _split(ud)
    out = call("allocation.next_replicas", {"spec": spec, "subsets": {k: dict(v) for k, v in (subsets or {}).items()}})
    return Allocation.from_json(out, _order(spec))


def validate(ud: Mapping[str, Any]) -> list[str]:
    """The webhook's allocation rules: violation kinds in order (empty = valid)."""
    spec, _ = _split(ud)
    return [str(k) for k in call("allocation.validate", {"spec": spec})]
