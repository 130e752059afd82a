"""Type stubs of ``kruise_core.rollout`` (checked by ``python -m mypy.stubtest kruise_core``)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Optional, Union

__all__ = ["Condition", "Partition", "Progress", "partition", "progress", "scale"]

def scale(value: Union[int, str, None], total: int, round_up: bool = True, mode: str = "scaled") -> int:
    """Scale an int-or-percent against ``total``; raises ``KruiseError``."""

@dataclass(frozen=True)
class Partition:
    """A resolved partition and how many pods (nodes) may be updated."""

    partition: int
    max_updated: int

def partition(
    kind: str,
    partition: Union[int, str, None],
    *,
    replicas: Optional[int] = None,
    desired_number_scheduled: Optional[int] = None,
    nodes: Optional[int] = None,
) -> Partition:
    """Resolve a CloneSet / DaemonSet / StatefulSet partition; raises ``KruiseError``."""

@dataclass(frozen=True)
class Condition:
    """A CloneSet ``Progressing`` condition; times are RFC 3339 UTC strings."""

    status: str
    reason: str
    message: str
    last_update_time: str
    last_transition_time: str
    def to_json(self) -> dict[str, Any]: ...
    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Condition: ...

@dataclass(frozen=True)
class Progress:
    """One evaluation's result."""

    condition: Optional[Condition]
    changed: bool
    requeue_after_seconds: Optional[int]

def progress(
    *,
    replicas: int,
    progress_deadline_seconds: Optional[int],
    status: Mapping[str, Any],
    now: Union[str, datetime],
    condition: Union[Condition, Mapping[str, Any], None] = None,
    paused: bool = False,
) -> Progress:
    """Evaluate the CloneSet ``Progressing`` condition once."""
