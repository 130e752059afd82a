"""The generated allocation functions: kruise_core.allocation.allocate / next_replicas / validate."""

from __future__ import annotations

from typing import Any

import pytest

import kruise_core
from kruise_core import allocation

SAMPLE_UD: dict[str, Any] = {
    "apiVersion": "apps.kruise.io/v1alpha1",
    "kind": "UnitedDeployment",
    "metadata": {"name": "sample-ud"},
    "spec": {
        "replicas": 3,
        "template": {"cloneSetTemplate": {}},
        "topology": {
            "scheduleStrategy": {
                "type": "Adaptive",
                "adaptive": {"reserveUnschedulablePods": True, "rescheduleCriticalSeconds": 30},
            },
            "subsets": [{"name": "ecs"}, {"name": "vk"}],
        },
    },
    "status": {"subsetStatuses": [{"name": "ecs"}, {"name": "vk"}]},
}


def pod(name: str, created: str, running: bool) -> dict[str, Any]:
    if running:
        status = {"phase": "Running", "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": created}]}
        spec: dict[str, Any] = {"nodeName": "n1"}
    else:
        status = {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}
        spec = {}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "creationTimestamp": created, "labels": {"apps.kruise.io/controller-revision-hash": "r1"}},
        "spec": spec,
        "status": status,
    }


def test_pending_pods_get_stand_ins_in_the_next_subset() -> None:
    ecs: allocation.Workload = {
        "spec": {"replicas": 3},
        "status": {"replicas": 3, "readyReplicas": 1},
        "pods": [
            pod("ecs-0", "2026-06-21T09:00:00Z", True),  # type: ignore[list-item]
            pod("ecs-1", "2026-06-21T09:59:00Z", False),  # type: ignore[list-item]
            pod("ecs-2", "2026-06-21T09:59:45Z", False),  # type: ignore[list-item]
        ],
    }
    a = allocation.allocate({
        "spec": SAMPLE_UD["spec"],
        "status": SAMPLE_UD["status"],
        "currentRevision": "r1",
        "updatedRevision": "r1",
        "subsets": {"ecs": ecs},
        "now": "2026-06-21T10:00:00Z",
    })
    assert a["allocator"] == "reservation"
    assert a["replicas"] == {"ecs": 3, "vk": 1}
    assert a.get("temporaryReplicas") == 1
    subsets = a.get("subsets")
    assert subsets is not None and subsets["ecs"]["reservedPods"] == 1 and subsets["ecs"]["unschedulable"]
    assert a.get("podReservedLabels") == {"ecs-0": False, "ecs-1": True, "ecs-2": False}
    assert a.get("requeueAfterSeconds") == 15
    conds = a.get("subsetConditions")
    assert conds is not None
    assert conds["ecs"] == {"status": "False", "reason": "reschedule", "lastTransitionTime": "2026-06-21T10:00:00Z"}
    assert conds["vk"] is None


def test_next_replicas_and_plain_specs() -> None:
    spec: allocation.UdSpec = {"replicas": 5, "topology": {"subsets": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}}
    a = allocation.next_replicas({"spec": spec, "subsets": {}})
    assert (a["allocator"], a["replicas"], a.get("temporaryReplicas")) == ("specific", {"a": 1, "b": 2, "c": 2}, None)
    assert a.get("subsets") is None
    assert allocation.validate({"spec": spec}) == ["template_required"]
    assert allocation.validate({"spec": SAMPLE_UD["spec"]}) == []


@pytest.mark.parametrize(
    ("spec", "kind", "field"),
    [
        ({"replicas": 2, "topology": {"subsets": [{"name": "a"}, {"name": "a"}]}}, "duplicate_subset_name", "spec.topology.subsets[1].name"),
        ({"replicas": 5, "topology": {"subsets": [{"name": "a", "minReplicas": 4, "maxReplicas": 3}]}}, "min_greater_than_max", "spec.topology.subsets[0].minReplicas"),
        ({"replicas": 2**31, "topology": {"subsets": []}}, "invalid_input", "spec.replicas"),
        # a subset without a name is the subset named "" (Go's zero value), not a shape error
        ({"replicas": 3, "topology": {"subsets": [{"replicas": 1}]}}, "specified_less_than_total", "spec.topology.subsets"),
    ],
)
def test_errors_name_the_field(spec: Any, kind: str, field: str) -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        allocation.allocate({"spec": spec, "now": "2026-06-21T10:00:00Z"})
    assert info.value.kind == kind
    assert info.value.field == field


def test_percent_out_of_range_through_call() -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call("allocation.parse_replicas", {"replicas": 10, "value": "101%"})
    assert (info.value.kind, info.value.field) == ("percent_out_of_range", "value")
    assert kruise_core.call("allocation.parse_replicas", {"replicas": 5, "value": "50%"}) == 3
    assert allocation.parse_replicas({"replicas": 5, "value": "50%"}) == 3
