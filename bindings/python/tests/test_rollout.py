"""Typed rollout helpers: kruise_core.rollout.scale / partition / progress."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

import kruise_core
from kruise_core import rollout


def test_scale_modes_differ_on_odd_strings() -> None:
    assert rollout.scale("25%", 10) == 3
    assert rollout.scale("25%", 10, round_up=False) == 2
    assert rollout.scale("5%0", 10, mode="legacy") == 5
    assert rollout.scale("50.5%", 10, mode="kruise") == 6
    assert rollout.scale(-7, 3) == -7
    assert rollout.scale("-0.5%", 10, mode="kruise") == 0
    # Go's int() of an out-of-range float on amd64
    assert rollout.scale("9223372036854775807%", 100) == -(2**63)


@pytest.mark.parametrize(
    ("value", "mode", "kind"),
    [("5%0", "scaled", "not_a_percentage"), ("abc", "kruise", "not_a_percentage"), ("1e2%", "scaled", "invalid_number"),
     ("50%%", "scaled", "invalid_number"), (None, "legacy", "nil_value")],
)
def test_scale_errors_name_the_field(value: object, mode: str, kind: str) -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        rollout.scale(value, 10, mode=mode)  # type: ignore[arg-type]
    assert info.value.kind == kind
    assert info.value.field == "value"


def test_scale_rejects_bad_types_and_modes() -> None:
    for bad in (True, 1.5, 2**40):
        with pytest.raises(kruise_core.KruiseError) as info:
            rollout.scale(bad, 10)  # type: ignore[arg-type]
        assert info.value.kind == "invalid_input"
    with pytest.raises(kruise_core.KruiseError) as info:
        rollout.scale("1%", 10, mode="float")
    assert (info.value.kind, info.value.field) == ("invalid_input", "mode")


def test_scale_agrees_with_call() -> None:
    for v in ("0.07%", "16.1%", "32.3%", "33%", 5):
        for up in (True, False):
            got = kruise_core.call("rollout.scale_int_or_percent", {"value": v, "total": 1000, "roundUp": up, "mode": "kruise"})
            assert rollout.scale(v, 1000, up, "kruise") == got


def test_partition_per_kind() -> None:
    assert rollout.partition("CloneSet", "99%", replicas=9) == rollout.Partition(partition=8, max_updated=1)
    assert rollout.partition("CloneSet", "100%", replicas=9).partition == 9
    assert rollout.partition("CloneSet", None) == rollout.Partition(0, 1)
    assert rollout.partition("DaemonSet", "50%", desired_number_scheduled=5) == rollout.Partition(2, 3)
    assert rollout.partition("DaemonSet", 1, desired_number_scheduled=0, nodes=3) == rollout.Partition(1, 2)
    assert rollout.partition("StatefulSet", 3, replicas=5) == rollout.Partition(3, 2)
    with pytest.raises(kruise_core.KruiseError) as info:
        rollout.partition("StatefulSet", "50%", replicas=5)
    assert info.value.kind == "not_an_integer"
    with pytest.raises(kruise_core.KruiseError) as info:
        rollout.partition("DaemonSet", "50", desired_number_scheduled=5)
    assert (info.value.kind, info.value.field) == ("not_a_percentage", "partition")


def test_progress_deadline_story() -> None:
    t0 = datetime(2026, 6, 21, 10, 0, 0, tzinfo=timezone.utc)
    status = {"replicas": 10, "updatedReplicas": 2, "updatedAvailableReplicas": 0, "expectedUpdatedReplicas": 10,
              "currentRevision": "r1", "updateRevision": "r2"}
    first = rollout.progress(replicas=10, progress_deadline_seconds=600, status=status, now=t0)
    assert first.condition is not None and first.condition.reason == "CloneSetUpdated"
    assert (first.changed, first.requeue_after_seconds) == (True, 601)
    at_deadline = rollout.progress(replicas=10, progress_deadline_seconds=600, status=status,
                                   condition=first.condition, now=t0 + timedelta(seconds=600))
    assert (at_deadline.changed, at_deadline.requeue_after_seconds) == (False, 0)
    late = rollout.progress(replicas=10, progress_deadline_seconds=600, status=status,
                            condition=first.condition, now="2026-06-21T10:10:01Z")
    assert late.condition == rollout.Condition("False", "ProgressDeadlineExceeded",
                                               "CloneSet revision r2 has timed out progressing",
                                               "2026-06-21T10:10:01Z", "2026-06-21T10:10:01Z")
    assert late.requeue_after_seconds is None
    paused = rollout.progress(replicas=10, progress_deadline_seconds=600, status=status,
                              condition=late.condition.to_json() if late.condition else None,
                              now="2026-06-21T10:15:00Z", paused=True)
    assert paused.condition is not None and paused.condition.reason == "CloneSetPaused" and paused.changed
    off = rollout.progress(replicas=10, progress_deadline_seconds=None, status=status,
                           condition=paused.condition, now="2026-06-21T10:15:00Z")
    assert (off.condition, off.changed) == (None, True)
