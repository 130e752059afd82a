"""Typed PUB helpers: kruise_core.pub_budget (protect operations, pod state, status, admission)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

import kruise_core
from kruise_core import pub_budget

NOW = "2026-06-21T10:00:00Z"
POD_KIND = {"group": "", "version": "v1", "kind": "Pod"}
EVICTION_KIND = {"group": "policy", "version": "v1", "kind": "Eviction"}
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
    review = {"uid": "u1", "kind": POD_KIND, "operation": "UPDATE", "name": "web-server-3", "namespace": "default",
              "object": pod("web-server-3", cpu="1"), "oldObject": pod("web-server-3"),
              "options": {"kind": "UpdateOptions", "apiVersion": "meta.k8s.io/v1"}}
    gates = {"PodUnavailableBudgetUpdateGate": True}
    a = pub_budget.admit_review(review, pub=pb, now=NOW, feature_gates=gates)
    assert (a.decision, a.operation) == ("admitted", "RESIZE")
    assert a.new_status is not None and "web-server-3" in a.new_status["disruptedPods"]
    assert a.response == {"uid": "u1", "allowed": True, "status": {"code": 200}}
    # default gates: updates are not checked
    assert pub_budget.admit_review(review, pub=pb, now=NOW).decision == "gate_disabled"
    # v1.9.0 never reads an Eviction's deleteOptions (decoded into the untagged internal type):
    # the dry run the API server forwards is not seen, and the budget is spent
    eviction = {"uid": "e1", "kind": EVICTION_KIND, "operation": "CREATE", "subResource": "eviction",
                "name": "web-server-4", "namespace": "default", "dryRun": True,
                "object": {"apiVersion": "policy/v1", "kind": "Eviction", "deleteOptions": {"dryRun": ["All"]}}}
    a = pub_budget.admit_review(eviction, pub=pb, now=NOW, evicted_pod=pod("web-server-4"))
    assert (a.allowed, a.decision) == (True, "admitted")
    delete = {"uid": "d1", "kind": POD_KIND, "operation": "DELETE", "name": "web-server-5"}
    assert pub_budget.admit_review(delete, pub=None, now=NOW).decision == "no_old_object"


def denied_delete() -> dict[str, Any]:
    pb = web_server_pub()
    pb["status"] = {"unavailableAllowed": 0, "desiredAvailable": 8, "currentAvailable": 8, "totalReplicas": 10}
    return pb


DELETE_REQUEST = {"uid": "d-7", "kind": {"group": "", "version": "v1", "kind": "Pod"}, "operation": "DELETE",
                  "name": "web-server-7", "namespace": "default", "oldObject": pod("web-server-7"),
                  "options": {"apiVersion": "meta.k8s.io/v1", "kind": "DeleteOptions"}}


def test_admit_review_reads_a_whole_review_like_its_request() -> None:
    by_request = pub_budget.admit_review(DELETE_REQUEST, pub=denied_delete(), now=NOW)
    review = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": DELETE_REQUEST}
    by_review = pub_budget.admit_review(review, pub=denied_delete(), now=NOW)
    assert by_review == by_request
    assert (by_review.allowed, by_review.decision, by_review.operation) == (False, "denied_no_budget", "DELETE")
    assert by_review.response == {"uid": "d-7", "allowed": False, "status": {
        "code": 403, "reason": "Forbidden", "message": by_review.reason}}


@pytest.mark.parametrize(("request_", "field"), [
    ({}, "request.operation"),
    ({**DELETE_REQUEST, "operation": "delete"}, "request.operation"),
    ({**DELETE_REQUEST, "operation": "PATCH"}, "request.operation"),
    ({k: v for k, v in DELETE_REQUEST.items() if k != "kind"}, "request.kind"),
    ({k: v for k, v in DELETE_REQUEST.items() if k != "uid"}, "request.uid"),
    ({k: v for k, v in DELETE_REQUEST.items() if k != "options"}, "request.options"),
    ({**DELETE_REQUEST, "oldObject": [1]}, "request.oldObject"),
    ({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}, "request"),
    ({"apiVersion": "admission.k8s.io/v1beta2", "kind": "AdmissionReview", "request": DELETE_REQUEST}, "apiVersion"),
    ({"apiVersion": "admission.k8s.io/v1", "kind": "ConversionReview", "request": DELETE_REQUEST}, "kind"),
])
def test_admit_review_fails_closed(request_: dict[str, Any], field: str) -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        pub_budget.admit_review(request_, pub=denied_delete(), now=NOW)
    assert (info.value.kind, info.value.field) == ("invalid_input", field)


def test_admit_review_create_lower_case_is_invalid() -> None:
    eviction = {"uid": "e2", "kind": EVICTION_KIND, "operation": "create", "subResource": "eviction",
                "name": "web-server-4", "object": {"apiVersion": "policy/v1", "kind": "Eviction"}}
    with pytest.raises(kruise_core.KruiseError) as info:
        pub_budget.admit_review(eviction, pub=denied_delete(), now=NOW, evicted_pod=pod("web-server-4"))
    assert (info.value.kind, info.value.field) == ("invalid_input", "request.operation")


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
