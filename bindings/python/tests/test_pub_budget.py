"""Typed PUB helpers: kruise_core.pub_budget (protect operations, pod state, status, admission)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

import kruise_core
from kruise_core import pub_budget

NOW = "2026-06-21T10:00:00Z"
IMAGE_ID = "docker-pullable://nginx@sha256:a9286defaba7b3a519d585ba0e37d0b2cbee74ebfe590960b0b1d6a5e97d1e1d"


def pod(name: str, cpu: str = "500m", ready: bool = True) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "annotations": {"kruise.io/related-pub": "web-server-pub"}},
        "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25",
                                 "resources": {"requests": {"cpu": cpu, "memory": "512Mi"},
                                               "limits": {"cpu": "2", "memory": "1Gi"}}}]},
        "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
                   "containerStatuses": [{"name": "nginx", "image": "nginx:1.25", "imageID": IMAGE_ID}]},
    }


def web_server_pub(annotation: str = "DELETE,EVICT,UPDATE,RESIZE") -> dict[str, Any]:
    return {
        "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
        "metadata": {"name": "web-server-pub", "namespace": "default", "generation": 1,
                     "annotations": {"kruise.io/pub-protect-operations": annotation}},
        "spec": {"targetRef": {"apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet", "name": "web-server"},
                 "maxUnavailable": "20%"},
    }


def test_protect_operations_reads_pieces_verbatim() -> None:
    assert pub_budget.protect_operations(None) == ["DELETE", "EVICT", "RESIZE", "UPDATE"]
    assert pub_budget.protect_operations(None, in_place_pod_vertical_scaling=True) == ["DELETE", "EVICT", "UPDATE"]
    assert pub_budget.protect_operations("DELETE, EVICT, UPDATE, RESIZE") == ["DELETE"]
    with pytest.raises(kruise_core.KruiseError) as info:
        pub_budget.protect_operations("DELETE, EVICT", strict=True)
    assert info.value.kind == "invalid_protect_operations"


def test_seed_scenario_two_evictions_then_denial() -> None:
    pods = [pod(f"web-server-{i}") for i in range(10)]
    pb = web_server_pub()
    st = pub_budget.status(pb, pods, workload_replicas=10, now=datetime(2026, 6, 21, 10, tzinfo=timezone.utc))
    assert (st.total_replicas, st.desired_available, st.current_available, st.unavailable_allowed) == (10, 8, 10, 2)
    pb["status"] = st.as_status()
    for i, left in ((0, 1), (1, 0)):
        a = pub_budget.admit("CREATE", sub_resource="eviction", pod=pods[i], pub=pb, now=NOW)
        assert (a.allowed, a.decision, a.operation) == (True, "admitted", "EVICT")
        assert a.new_status is not None and a.new_status["unavailableAllowed"] == left
        assert a.new_status["disruptedPods"][f"web-server-{i}"] == NOW
        pb["status"] = a.new_status
    a = pub_budget.admit("CREATE", sub_resource="eviction", pod=pods[2], pub=pb, now=NOW)
    assert not a.allowed
    assert a.decision == "denied_no_budget"
    assert a.reason == 'podunavailablebudget.policy.kruise.io "web-server-pub" is forbidden: pub unavailable allowed is negative'
    # the controller 21 s later: disrupted records expired, the two evicted pods are gone
    st = pub_budget.status(pb, pods[2:], workload_replicas=10, now="2026-06-21T10:00:21Z")
    assert (st.current_available, st.unavailable_allowed, st.disrupted_pods) == (8, 0, {})


def test_resize_is_judged_resize_and_review_requests_work() -> None:
    c = pub_budget.classify_update(pod("web-server-3"), pod("web-server-3", cpu="1"))
    assert (c.unavailable_changed, c.can_resize_inplace, c.operation) == (True, True, "RESIZE")
    pb = web_server_pub()
    pb["status"] = {"unavailableAllowed": 1, "desiredAvailable": 8, "currentAvailable": 9, "totalReplicas": 10}
    review = {"uid": "u1", "operation": "UPDATE", "name": "web-server-3", "namespace": "default",
              "object": pod("web-server-3", cpu="1"), "oldObject": pod("web-server-3"),
              "options": {"kind": "UpdateOptions", "apiVersion": "meta.k8s.io/v1"}}
    gates = {"PodUnavailableBudgetUpdateGate": True}
    a = pub_budget.admit_review(review, pub=pb, now=NOW, feature_gates=gates)
    assert (a.decision, a.operation) == ("admitted", "RESIZE")
    assert a.new_status is not None and "web-server-3" in a.new_status["disruptedPods"]
    # default gates: updates are not checked
    assert pub_budget.admit_review(review, pub=pb, now=NOW).decision == "gate_disabled"
    eviction = {"uid": "e1", "operation": "CREATE", "subResource": "eviction", "name": "web-server-4",
                "object": {"apiVersion": "policy/v1", "kind": "Eviction", "deleteOptions": {"dryRun": ["All"]}}}
    a = pub_budget.admit_review(eviction, pub=pb, now=NOW, evicted_pod=pod("web-server-4"))
    assert (a.allowed, a.decision, a.new_status) == (True, "dry_run", None)
    assert pub_budget.admit_review({"operation": "DELETE"}, pub=None, now=NOW).decision == "no_old_object"


def test_pod_state_validate_and_errors() -> None:
    assert pub_budget.pod_state(pod("a", ready=False)) == pub_budget.PodState(active=True, ready=False, consistent=True)
    assert pub_budget.validate(web_server_pub("DELETE, EVICT")) == ["invalid_protect_operations"]
    assert pub_budget.validate(web_server_pub()) == []
    bad = web_server_pub()
    bad["spec"]["maxUnavailable"] = "x%"
    with pytest.raises(kruise_core.KruiseError) as info:
        pub_budget.status(bad, [], workload_replicas=3, now=NOW)
    assert (info.value.kind, info.value.field) == ("invalid_int_or_percent", "spec.maxUnavailable")
    with pytest.raises(kruise_core.KruiseError) as info:
        pub_budget.pod_state({"metadata": {"name": 5}})
    assert (info.value.kind, info.value.field) == ("invalid_input", "pod.metadata.name")
