"""Typed helpers of the PodUnavailableBudget (PUB) family (OpenKruise v1.9.0).

Pure Python over ``kruise_core.call``: pods and PUBs are the dicts the API server gives
(``kubectl get -o json``, an ``AdmissionReview``); results are small frozen dataclasses.

- ``protect_operations(annotation, ...)``: the operations a PUB protects (``pub.protect_operations``);
- ``pod_state(pod)``: active / ready / consistent (``pub.pod_state``);
- ``classify_update(old_pod, new_pod)``: nothing, ``"UPDATE"`` or ``"RESIZE"`` (``pub.classify_update``);
- ``status(pub, pods, ...)``: the controller's status (``pub.status``);
- ``admit(...)``: the pod webhook's decision (``pub.admit``);
- ``admit_review(review, ...)``: the same for an ``admission.k8s.io/v1`` ``AdmissionReview`` or its
  ``request`` (``pub.admit_review``), so a Python validating webhook calls one function per request;
- ``validate(pub, old_pub)``: PUB object validation codes (``pub.validate``).

Errors raise ``kruise_core.KruiseError`` (kinds ``invalid_input``, ``invalid_int_or_percent``,
``invalid_protect_operations``; ``.field`` names the input field).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping, Optional, Sequence, Union

from ._kruise_core import call

__all__ = [
    "Admission",
    "PodState",
    "Status",
    "UpdateClass",
    "admit",
    "admit_review",
    "classify_update",
    "pod_state",
    "protect_operations",
    "status",
    "validate",
]

Time = Union[str, datetime]


def _time(t: Time) -> str:
    """An RFC 3339 string; a naive datetime is taken as UTC."""
    if isinstance(t, datetime):
        if t.tzinfo is None:
            t = t.replace(tzinfo=timezone.utc)
        return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return t


def protect_operations(
    annotation: Optional[str], *, in_place_pod_vertical_scaling: bool = False, strict: bool = False
) -> list[str]:
    """The protected operations (sorted) for a ``kruise.io/pub-protect-operations`` value
    (``None`` = absent). v1.9 reads pieces verbatim: ``"DELETE, EVICT"`` protects only DELETE.
    ``strict`` applies the webhook's validation first (``invalid_protect_operations``).

    >>> protect_operations(None)
    ['DELETE', 'EVICT', 'RESIZE', 'UPDATE']
    >>> protect_operations("DELETE, EVICT")
    ['DELETE']
    """
    out = call(
        "pub.protect_operations",
        {"annotation": annotation, "inPlacePodVerticalScaling": in_place_pod_vertical_scaling, "strict": strict},
    )
    return [str(x) for x in out["operations"]]


@dataclass(frozen=True)
class PodState:
    """The PUB pod predicates."""

    active: bool
    ready: bool
    consistent: bool


def pod_state(pod: Mapping[str, Any]) -> PodState:
    """Active (not Succeeded/Failed, not deleting), ready (Running, Ready=True, no
    ``unavailable-pod.kruise.io/`` label) and consistent (images / in-place updates settled)."""
    out = call("pub.pod_state", {"pod": pod})
    return PodState(active=bool(out["active"]), ready=bool(out["ready"]), consistent=bool(out["consistent"]))


@dataclass(frozen=True)
class UpdateClass:
    """How a pod update is judged: ``operation`` is ``None``, ``"UPDATE"`` or ``"RESIZE"``."""

    unavailable_changed: bool
    can_resize_inplace: bool
    operation: Optional[str]


def classify_update(old_pod: Mapping[str, Any], new_pod: Mapping[str, Any]) -> UpdateClass:
    """Classify ``old_pod`` -> ``new_pod`` (an in-place cpu/memory resize is ``"RESIZE"``)."""
    out = call("pub.classify_update", {"oldPod": old_pod, "newPod": new_pod})
    op = out["operation"]
    return UpdateClass(
        unavailable_changed=bool(out["unavailableChanged"]),
        can_resize_inplace=bool(out["canResizeInplace"]),
        operation=None if op is None else str(op),
    )


@dataclass(frozen=True)
class Status:
    """A computed PUB status; record maps are pod name -> RFC 3339 time."""

    desired_available: int
    current_available: int
    total_replicas: int
    unavailable_allowed: int
    disrupted_pods: dict[str, str]
    unavailable_pods: dict[str, str]
    observed_generation: int
    recheck_time: Optional[str]
    changed: bool

    def as_status(self) -> dict[str, Any]:
        """The ``status`` object in CRD JSON, to write back or to pass to ``admit``."""
        return {
            "observedGeneration": self.observed_generation,
            "disruptedPods": dict(self.disrupted_pods),
            "unavailablePods": dict(self.unavailable_pods),
            "unavailableAllowed": self.unavailable_allowed,
            "currentAvailable": self.current_available,
            "desiredAvailable": self.desired_available,
            "totalReplicas": self.total_replicas,
        }


def status(
    pub: Mapping[str, Any], pods: Sequence[Mapping[str, Any]], *, workload_replicas: Optional[int], now: Time
) -> Status:
    """The status the PUB controller computes at ``now``.

    ``pods`` are the pods the PUB matches (inactive ones are dropped here); ``workload_replicas``
    is the target's replicas in targetRef mode (``None`` = missing/deleting) or the distinct
    workload replica sum in selector mode. Raises ``KruiseError`` ``invalid_int_or_percent``.
    """
    out = call("pub.status", {"pub": pub, "pods": list(pods), "workloadReplicas": workload_replicas, "now": _time(now)})
    rt = out["recheckTime"]
    return Status(
        desired_available=int(out["desiredAvailable"]),
        current_available=int(out["currentAvailable"]),
        total_replicas=int(out["totalReplicas"]),
        unavailable_allowed=int(out["unavailableAllowed"]),
        disrupted_pods={str(k): str(v) for k, v in out["disruptedPods"].items()},
        unavailable_pods={str(k): str(v) for k, v in out["unavailablePods"].items()},
        observed_generation=int(out["observedGeneration"]),
        recheck_time=None if rt is None else str(rt),
        changed=bool(out["changed"]),
    )


@dataclass(frozen=True)
class Admission:
    """The webhook's answer: ``reason`` is ``""`` when allowed; ``new_status`` is the PUB status to
    write (``decision == "admitted"`` only); ``response`` is the ``AdmissionResponse`` to return
    (``admit_review`` only)."""

    allowed: bool
    reason: str
    decision: str
    operation: Optional[str]
    new_status: Optional[dict[str, Any]]
    response: Optional[dict[str, Any]] = None


def _admission(out: Mapping[str, Any]) -> Admission:
    op = out["operation"]
    ns = out["newStatus"]
    return Admission(
        allowed=bool(out["allowed"]),
        reason=str(out["reason"]),
        decision=str(out["decision"]),
        operation=None if op is None else str(op),
        new_status=None if ns is None else dict(ns),
    )


def admit(
    operation: str,
    *,
    pub: Optional[Mapping[str, Any]],
    now: Time,
    pod: Optional[Mapping[str, Any]] = None,
    old_pod: Optional[Mapping[str, Any]] = None,
    new_pod: Optional[Mapping[str, Any]] = None,
    sub_resource: str = "",
    dry_run: bool = False,
    old_object_present: bool = True,
    feature_gates: Optional[Mapping[str, bool]] = None,
) -> Admission:
    """Decide one pod request (``operation`` ``"UPDATE"``, ``"DELETE"`` or ``"CREATE"`` with
    ``sub_resource="eviction"``) against the PUB named by the pod's ``kruise.io/related-pub``
    (``None`` = not found). Gates default as in v1.9 (delete on, update off)."""
    inp: dict[str, Any] = {
        "request": {"operation": operation, "subResource": sub_resource, "dryRun": dry_run,
                    "oldObjectPresent": old_object_present},
        "pub": pub,
        "now": _time(now),
    }
    if pod is not None:
        inp["pod"] = pod
    if old_pod is not None:
        inp["oldPod"] = old_pod
    if new_pod is not None:
        inp["newPod"] = new_pod
    if feature_gates is not None:
        inp["featureGates"] = dict(feature_gates)
    return _admission(call("pub.admit", inp))


def admit_review(
    request: Mapping[str, Any],
    *,
    pub: Optional[Mapping[str, Any]],
    now: Time,
    evicted_pod: Optional[Mapping[str, Any]] = None,
    feature_gates: Optional[Mapping[str, bool]] = None,
) -> Admission:
    """Decide the ``admission.k8s.io/v1`` ``AdmissionReview`` the API server posts, or its
    ``request`` member (``pub.admit_review``). For ``pods/eviction`` pass the current pod as
    ``evicted_pod``. ``response`` is the ``AdmissionResponse`` to send back (uid echoed).

    Fails closed: a request without a valid ``operation`` (upper case), ``kind``, ``uid`` or the
    objects its operation carries raises ``KruiseError`` ``invalid_input`` naming the field
    (``request.operation``, ...). Dry run is read as v1.9.0 reads it: ``request.options.dryRun``
    for UPDATE and DELETE; an eviction's ``deleteOptions`` is never seen (see ``docs/pub.md``)."""
    inp: dict[str, Any] = {"review": request, "pub": pub, "now": _time(now)}
    if evicted_pod is not None:
        inp["evictedPod"] = evicted_pod
    if feature_gates is not None:
        inp["featureGates"] = dict(feature_gates)
    out = call("pub.admit_review", inp)
    a = _admission(out)
    return Admission(allowed=a.allowed, reason=a.reason, decision=a.decision, operation=a.operation,
                     new_status=a.new_status, response=dict(out["response"]))


def validate(
    pub: Mapping[str, Any], old_pub: Optional[Mapping[str, Any]] = None, *,
    feature_gates: Optional[Mapping[str, bool]] = None,
) -> list[str]:
    """The PUB webhook's error codes in order (``[]`` = valid)."""
    inp: dict[str, Any] = {"pub": pub, "oldPub": old_pub}
    if feature_gates is not None:
        inp["featureGates"] = dict(feature_gates)
    return [str(x) for x in call("pub.validate", inp)]
