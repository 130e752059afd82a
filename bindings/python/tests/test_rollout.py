"""The rollout family: the native fast path rollout.scale and the generated typed functions."""

from __future__ import annotations

from typing import Any, Callable

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


def typed(name: str) -> Callable[[Any], Any]:
    """The generated typed function ``rollout.<name>``; skipped while the fn is not typed."""
    fn = getattr(rollout, name, None)
    if fn is None:
        pytest.skip(f"rollout.{name} is not typed yet")
    f: Callable[[Any], Any] = fn
    return f


def test_scale_int_or_percent_is_generated_and_agrees_with_the_fast_path() -> None:
    for v in ("0.07%", "16.1%", "33%", 5):
        got = rollout.scale_int_or_percent({"value": v, "total": 1000, "roundUp": True, "mode": "kruise"})
        assert got == rollout.scale(v, 1000, True, "kruise")
    with pytest.raises(kruise_core.KruiseError) as info:
        rollout.scale_int_or_percent({"value": None, "total": 1, "roundUp": True, "mode": "legacy"})
    assert (info.value.kind, info.value.field) == ("nil_value", "value")


def test_partition_per_kind() -> None:
    partition = typed("partition")

    def p(**inp: Any) -> tuple[int, int]:
        out = partition(inp)
        return out["partition"], out["maxUpdated"]

    assert p(kind="CloneSet", partition="99%", replicas=9) == (8, 1)
    assert p(kind="CloneSet", partition="100%", replicas=9)[0] == 9
    assert p(kind="CloneSet", partition=None) == (0, 1)
    assert p(kind="DaemonSet", partition="50%", desiredNumberScheduled=5) == (2, 3)
    assert p(kind="DaemonSet", partition=1, desiredNumberScheduled=0, nodes=3) == (1, 2)
    assert p(kind="StatefulSet", partition=3, replicas=5) == (3, 2)
    with pytest.raises(kruise_core.KruiseError) as info:
        p(kind="StatefulSet", partition="50%", replicas=5)
    assert info.value.kind == "not_an_integer"
    with pytest.raises(kruise_core.KruiseError) as info:
        p(kind="DaemonSet", partition="50", desiredNumberScheduled=5)
    assert (info.value.kind, info.value.field) == ("not_a_percentage", "partition")


def test_progress_deadline_story() -> None:
    progress = typed("progress")
    status = {"replicas": 10, "updatedReplicas": 2, "updatedAvailableReplicas": 0, "expectedUpdatedReplicas": 10,
              "currentRevision": "r1", "updateRevision": "r2"}

    def step(condition: Any, now: str, deadline: Any = 600, paused: bool = False) -> Any:
        spec = {"replicas": 10, "progressDeadlineSeconds": deadline, "updateStrategy": {"paused": paused}}
        return progress({"spec": spec, "status": status, "condition": condition, "now": now})

    first = step(None, "2026-06-21T10:00:00Z")
    assert first["condition"]["reason"] == "CloneSetUpdated"
    assert (first["changed"], first["requeueAfterSeconds"]) == (True, 601)
    at_deadline = step(first["condition"], "2026-06-21T10:10:00Z")
    assert (at_deadline["changed"], at_deadline["requeueAfterSeconds"]) == (False, 0)
    late = step(first["condition"], "2026-06-21T10:10:01Z")
    assert late["condition"]["reason"] == "ProgressDeadlineExceeded"
    assert late["condition"]["status"] == "False"
    assert late["condition"]["message"] == "CloneSet revision r2 has timed out progressing"
    assert late["condition"]["lastTransitionTime"] == "2026-06-21T10:10:01Z"
    assert late.get("requeueAfterSeconds") is None
    paused = step(late["condition"], "2026-06-21T10:15:00Z", paused=True)
    assert paused["condition"]["reason"] == "CloneSetPaused" and paused["changed"]
    off = step(paused["condition"], "2026-06-21T10:15:00Z", deadline=None)
    assert (off.get("condition"), off["changed"]) == (None, True)
