"""Type stubs of ``kruise_core.pub_budget`` (checked by ``python -m mypy.stubtest kruise_core``)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Optional, Sequence, Union

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

def protect_operations(
    annotation: Optional[str], *, in_place_pod_vertical_scaling: bool = False, strict: bool = False
) -> list[str]:
    """The protected operations for a ``kruise.io/pub-protect-operations`` value; raises ``KruiseError``."""

@dataclass(frozen=True)
class PodState:
    """The PUB pod predicates."""

    active: bool
    ready: bool
    consistent: bool

def pod_state(pod: Mapping[str, Any]) -> PodState:
    """Active / ready / consistent of a pod dict."""

@dataclass(frozen=True)
class UpdateClass:
    """How a pod update is judged."""

    unavailable_changed: bool
    can_resize_inplace: bool
    operation: Optional[str]

def classify_update(old_pod: Mapping[str, Any], new_pod: Mapping[str, Any]) -> UpdateClass:
    """Nothing, ``"UPDATE"`` or ``"RESIZE"``."""

@dataclass(frozen=True)
class Status:
    """A computed PUB status."""

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
        """The ``status`` object in CRD JSON."""

def status(
    pub: Mapping[str, Any], pods: Sequence[Mapping[str, Any]], *, workload_replicas: Optional[int], now: Time
) -> Status:
    """The status the PUB controller computes at ``now``; raises ``KruiseError``."""

@dataclass(frozen=True)
class Admission:
    """The webhook's answer."""

    allowed: bool
    reason: str
    decision: str
    operation: Optional[str]
    new_status: Optional[dict[str, Any]]
    response: Optional[dict[str, Any]] = None

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
    """Decide one pod request; raises ``KruiseError``."""

def admit_review(
    request: Mapping[str, Any],
    *,
    pub: Optional[Mapping[str, Any]],
    now: Time,
    evicted_pod: Optional[Mapping[str, Any]] = None,
    feature_gates: Optional[Mapping[str, bool]] = None,
) -> Admission:
    """Decide an ``admission.k8s.io/v1`` AdmissionReview or its request (``pub.admit_review``);
    raises ``KruiseError`` ``invalid_input`` naming the field of a request it cannot read."""

def validate(
    pub: Mapping[str, Any], old_pub: Optional[Mapping[str, Any]] = None, *, feature_gates: Optional[Mapping[str, bool]] = None
) -> list[str]:
    """The PUB webhook's error codes in order."""
