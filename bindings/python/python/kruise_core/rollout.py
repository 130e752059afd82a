"""Typed helpers of the rollout family (OpenKruise v1.9 partitions, budgets, progress deadline).

- ``scale(value, total, round_up, mode)``: an int-or-percent scaled with one of the three parsers
  OpenKruise uses (``"scaled"``, ``"legacy"``, ``"kruise"``); native, no JSON round trip.
- ``partition(kind, partition, ...)``: the resolved partition and the largest number of pods (nodes)
  on the update revision, for ``"CloneSet"``, ``"DaemonSet"`` or ``"StatefulSet"``.
- ``progress(...)``: one evaluation of the CloneSet ``Progressing`` condition
  (``progressDeadlineSeconds``).

Every other rollout decision is reachable with ``kruise_core.call("rollout.<fn>", {...})`` using the
JSON shapes of the rollout spec. Errors raise ``kruise_core.KruiseError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping, Optional, Union

from ._kruise_core import call, scale_int_or_percent

__all__ = ["Condition", "Partition", "Progress", "partition", "progress", "scale"]


def scale(value: Union[int, str, None], total: int, round_up: bool = True, mode: str = "scaled") -> int:
    """Scale an int-or-percent against ``total``.

    Integers come back unchanged (no clamping); a percentage gives ``ceil`` (``round_up``) or
    ``floor`` of ``p * total / 100`` computed in float64. ``mode`` picks the parser: ``"scaled"``
    (apimachinery ``GetScaledValueFromIntOrPercent``: must end in ``%``, integer), ``"legacy"``
    (``GetValueFromIntOrPercent``: every ``%`` deleted, integer) or ``"kruise"`` (OpenKruise's
    float parser). Raises ``KruiseError`` with kind ``nil_value``, ``not_a_percentage`` or
    ``invalid_number``.

    >>> scale("25%", 10), scale("25%", 10, round_up=False), scale("5%0", 10, mode="legacy")
    (3, 2, 5)
    """
    return scale_int_or_percent(value, total, round_up, mode)


@dataclass(frozen=True)
class Partition:
    """A resolved partition: pods (nodes) kept on the old revision, and how many may be updated."""

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
    """Resolve a partition as the OpenKruise controller does.

    - ``"CloneSet"``: float parser against ``replicas`` (``None`` means 1), rounded up, one pod still
      updated unless the text is exactly ``"100%"``, clamped to ``[0, replicas]``.
    - ``"DaemonSet"``: scaled parser against ``desired_number_scheduled`` (the status value), rounded
      down, not clamped; ``max_updated = max(nodes - partition, 0)`` (``nodes`` defaults to
      ``desired_number_scheduled``).
    - ``"StatefulSet"``: a plain int (``replicas`` required); strings raise ``not_an_integer``,
      negatives ``negative_partition``.
    """
    inp: dict[str, Any] = {"kind": kind, "partition": partition}
    if replicas is not None:
        inp["replicas"] = replicas
    if desired_number_scheduled is not None:
        inp["desiredNumberScheduled"] = desired_number_scheduled
    if nodes is not None:
        inp["nodes"] = nodes
    out = call("rollout.partition", inp)
    return Partition(partition=int(out["partition"]), max_updated=int(out["maxUpdated"]))


@dataclass(frozen=True)
class Condition:
    """A CloneSet ``Progressing`` condition; times are RFC 3339 UTC strings."""

    status: str
    reason: str
    message: str
    last_update_time: str
    last_transition_time: str

    def to_json(self) -> dict[str, Any]:
        """The condition in the CRD's JSON shape."""
        return {
            "type": "Progressing",
            "status": self.status,
            "reason": self.reason,
            "message": self.message,
            "lastUpdateTime": self.last_update_time,
            "lastTransitionTime": self.last_transition_time,
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Condition:
        """Read a condition from its CRD JSON shape (``message`` may be absent)."""
        return Condition(
            status=str(obj["status"]),
            reason=str(obj["reason"]),
            message=str(obj.get("message") or ""),
            last_update_time=str(obj["lastUpdateTime"]),
            last_transition_time=str(obj["lastTransitionTime"]),
        )


@dataclass(frozen=True)
class Progress:
    """The result of one evaluation: the condition after it, whether the status must be written,
    and the requeue hint in seconds (only while ``CloneSetUpdated``)."""

    condition: Optional[Condition]
    changed: bool
    requeue_after_seconds: Optional[int]


def _time(t: Union[str, datetime]) -> str:
    if isinstance(t, datetime):
        if t.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return t


def progress(
    *,
    replicas: int,
    progress_deadline_seconds: Optional[int],
    status: Mapping[str, Any],
    now: Union[str, datetime],
    condition: Union[Condition, Mapping[str, Any], None] = None,
    paused: bool = False,
) -> Progress:
    """Evaluate the CloneSet ``Progressing`` condition once (``calculateProgressingStatus``).

    ``status`` is the freshly computed CloneSet status in its JSON shape (``replicas``,
    ``updatedReplicas``, ``updatedAvailableReplicas``, ``expectedUpdatedReplicas``,
    ``currentRevision``, ``updateRevision``); ``condition`` the one the object carries. A
    ``progress_deadline_seconds`` of ``None`` or 2147483647 removes the condition.
    """
    cond: Optional[Mapping[str, Any]]
    if isinstance(condition, Condition):
        cond = condition.to_json()
    else:
        cond = condition
    out = call(
        "rollout.progress",
        {
            "spec": {
                "replicas": replicas,
                "progressDeadlineSeconds": progress_deadline_seconds,
                "updateStrategy": {"paused": paused},
            },
            "status": dict(status),
            "condition": None if cond is None else dict(cond),
            "now": _time(now),
        },
    )
    c = out.get("condition")
    return Progress(
        condition=None if c is None else Condition.from_json(c),
        changed=bool(out["changed"]),
        requeue_after_seconds=out.get("requeueAfterSeconds"),
    )
