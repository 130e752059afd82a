"""Type stubs of ``kruise_core.allocation`` (checked by ``python -m mypy.stubtest kruise_core``)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Optional, Sequence, Union

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
    """An existing subset workload and its pods."""

    replicas: int = 0
    status_replicas: int = 0
    ready_replicas: int = 0
    pods: Sequence[Mapping[str, Any]] = ()
    def to_json(self) -> dict[str, Any]: ...

@dataclass(frozen=True)
class UnschedulableStatus:
    """The controller's per-subset adaptive status."""

    unschedulable: bool
    marked_as_unschedulable: bool
    pending_pods: int
    reserved_pods: int
    update_timeout_pods: int
    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> UnschedulableStatus: ...

@dataclass(frozen=True)
class SchedulableCondition:
    """A subset's Schedulable condition after the step."""

    status: str
    reason: str
    last_transition_time: Optional[str]

@dataclass(frozen=True)
class Allocation:
    """Replicas per subset and, for Adaptive types, status, conditions, requeue, label patches."""

    allocator: str
    replicas: dict[str, int]
    temporary_replicas: Optional[int] = None
    subsets: Optional[dict[str, UnschedulableStatus]] = None
    subset_conditions: Optional[dict[str, Optional[SchedulableCondition]]] = None
    requeue_after_seconds: Union[int, float] = 0
    pod_reserved_labels: Optional[dict[str, bool]] = None
    @staticmethod
    def from_json(out: Mapping[str, Any], order: Sequence[str] = ()) -> Allocation: ...

def allocate(
    ud: Mapping[str, Any],
    *,
    now: Union[str, datetime],
    subsets: Optional[Mapping[str, Union[Workload, Mapping[str, Any]]]] = None,
    status: Optional[Mapping[str, Any]] = None,
    current_revision: str = "",
    updated_revision: Optional[str] = None,
) -> Allocation:
    """One reconcile's allocation; raises ``KruiseError``."""

def next_replicas(ud: Mapping[str, Any], subsets: Optional[Mapping[str, Mapping[str, Any]]] = None) -> Allocation:
    """The allocator alone; raises ``KruiseError``."""

def validate(ud: Mapping[str, Any]) -> list[str]:
    """Webhook allocation rules: violation kinds in order."""
