"""The generated PUB functions: kruise_core.pub (protect operations, pod state, status, admission)."""

from __future__ import annotations

from typing import Any

import pytest

import kruise_core
from kruise_core import pub

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
    def ops(**inp: Any) -> list[str]:
        return list(pub.protect_operations(inp)["operations"])

    assert ops(annotation=None) == ["DELETE", "EVICT", "RESIZE", "UPDATE"]
    assert ops(annotation=None, inPlacePodVerticalScaling=True) == ["DELETE", "EVICT", "UPDATE"]
    assert ops(annotation="DELETE, EVICT, UPDATE, RESIZE") == ["DELETE"]
    with pytest.raises(kruise_core.KruiseError) as info:
        ops(annotation="DELETE, EVICT", strict=True)
    assert info.value.kind == "invalid_protect_operations"


def status_of(out: Any) -> dict[str, Any]:
    """The status object of a ``pub.status`` answer, to write back into the PUB."""
    return {k: out[k] for k in ("observedGeneration", "disruptedPods", "unavailablePods", "unavailableAllowed",
                                "currentAvailable", "desiredAvailable", "totalReplicas")}


def test_seed_scenario_two_evictions_then_denial() -> None:
    pods: Any = [pod(f"web-server-{i}") for i in range(10)]
    pb: Any = web_server_pub()
    st = pub.status({"pub": pb, "pods": pods, "workloadReplicas": 10, "now": NOW})
    assert (st["totalReplicas"], st["desiredAvailable"], st["currentAvailable"], st["unavailableAllowed"]) == (10, 8, 10, 2)
    pb["status"] = status_of(st)
    eviction: Any = {"operation": "CREATE", "subResource": "eviction"}
    for i, left in ((0, 1), (1, 0)):
        a = pub.admit({"request": eviction, "pod": pods[i], "pub": pb, "now": NOW})
        assert (a["allowed"], a["decision"], a["operation"]) == (True, "admitted", "EVICT")
        ns = a["newStatus"]
        assert ns is not None and ns["unavailableAllowed"] == left
        assert ns["disruptedPods"][f"web-server-{i}"] == NOW
        pb["status"] = ns
    a = pub.admit({"request": eviction, "pod": pods[2], "pub": pb, "now": NOW})
    assert not a["allowed"]
    assert a["decision"] == "denied_no_budget"
    assert a["reason"] == 'podunavailablebudget.policy.kruise.io "web-server-pub" is forbidden: pub unavailable allowed is negative'
    # the controller 21 s later: disrupted records expired, the two evicted pods are gone
    st = pub.status({"pub": pb, "pods": pods[2:], "workloadReplicas": 10, "now": "2026-06-21T10:00:21Z"})
    assert (st["currentAvailable"], st["unavailableAllowed"], st["disruptedPods"]) == (8, 0, {})


def test_resize_is_judged_resize_and_review_requests_work() -> None:
    c = pub.classify_update({"oldPod": pod("web-server-3"), "newPod": pod("web-server-3", cpu="1")})  # type: ignore[typeddict-item]
    assert (c["unavailableChanged"], c["canResizeInplace"], c["operation"]) == (True, True, "RESIZE")
    pb: Any = web_server_pub()
    pb["status"] = {"unavailableAllowed": 1, "desiredAvailable": 8, "currentAvailable": 9, "totalReplicas": 10}
    review = {"uid": "u1", "kind": POD_KIND, "operation": "UPDATE", "name": "web-server-3", "namespace": "default",
              "object": pod("web-server-3", cpu="1"), "oldObject": pod("web-server-3"),
              "options": {"kind": "UpdateOptions", "apiVersion": "meta.k8s.io/v1"}}
    gates: Any = {"PodUnavailableBudgetUpdateGate": True}
    a = pub.admit_review({"review": review, "pub": pb, "now": NOW, "featureGates": gates})
    assert (a["decision"], a["operation"]) == ("admitted", "RESIZE")
    ns = a["newStatus"]
    assert ns is not None and "web-server-3" in ns["disruptedPods"]
    assert a["response"] == {"uid": "u1", "allowed": True, "status": {"code": 200}}
    # default gates: updates are not checked
    assert pub.admit_review({"review": review, "pub": pb, "now": NOW})["decision"] == "gate_disabled"
    # v1.9.0 never reads an Eviction's deleteOptions (decoded into the untagged internal type):
    # the dry run the API server forwards is not seen, and the budget is spent
    eviction = {"uid": "e1", "kind": EVICTION_KIND, "operation": "CREATE", "subResource": "eviction",
                "name": "web-server-4", "namespace": "default", "dryRun": True,
                "object": {"apiVersion": "policy/v1", "kind": "Eviction", "deleteOptions": {"dryRun": ["All"]}}}
    a = pub.admit_review({"review": eviction, "pub": pb, "now": NOW, "evictedPod": pod("web-server-4")})  # type: ignore[typeddict-item]
    assert (a["allowed"], a["decision"]) == (True, "admitted")
    delete = {"uid": "d1", "kind": POD_KIND, "operation": "DELETE", "name": "web-server-5"}
    assert pub.admit_review({"review": delete, "pub": None, "now": NOW})["decision"] == "no_old_object"


def denied_delete() -> Any:
    pb: Any = web_server_pub()
    pb["status"] = {"unavailableAllowed": 0, "desiredAvailable": 8, "currentAvailable": 8, "totalReplicas": 10}
    return pb


DELETE_REQUEST = {"uid": "d-7", "kind": {"group": "", "version": "v1", "kind": "Pod"}, "operation": "DELETE",
                  "name": "web-server-7", "namespace": "default", "oldObject": pod("web-server-7"),
                  "options": {"apiVersion": "meta.k8s.io/v1", "kind": "DeleteOptions"}}


def test_admit_review_reads_a_whole_review_like_its_request() -> None:
    by_request = pub.admit_review({"review": DELETE_REQUEST, "pub": denied_delete(), "now": NOW})
    review = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": DELETE_REQUEST}
    by_review = pub.admit_review({"review": review, "pub": denied_delete(), "now": NOW})
    assert by_review == by_request
    assert (by_review["allowed"], by_review["decision"], by_review["operation"]) == (False, "denied_no_budget", "DELETE")
    assert by_review["response"] == {"uid": "d-7", "allowed": False, "status": {
        "code": 403, "reason": "Forbidden", "message": by_review["reason"]}}


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
        pub.admit_review({"review": request_, "pub": denied_delete(), "now": NOW})
    assert (info.value.kind, info.value.field) == ("invalid_input", field)


def test_admit_review_create_lower_case_is_invalid() -> None:
    eviction = {"uid": "e2", "kind": EVICTION_KIND, "operation": "create", "subResource": "eviction",
                "name": "web-server-4", "object": {"apiVersion": "policy/v1", "kind": "Eviction"}}
    with pytest.raises(kruise_core.KruiseError) as info:
        pub.admit_review({"review": eviction, "pub": denied_delete(), "now": NOW, "evictedPod": pod("web-server-4")})  # type: ignore[typeddict-item]
    assert (info.value.kind, info.value.field) == ("invalid_input", "request.operation")


def test_pod_state_validate_and_errors() -> None:
    assert pub.pod_state({"pod": pod("a", ready=False)}) == {"active": True, "ready": False, "consistent": True}  # type: ignore[typeddict-item]
    assert pub.validate({"pub": web_server_pub("DELETE, EVICT")}) == ["invalid_protect_operations"]  # type: ignore[typeddict-item]
    assert pub.validate({"pub": web_server_pub()}) == []  # type: ignore[typeddict-item]
    bad: Any = web_server_pub()
    bad["spec"]["maxUnavailable"] = "x%"
    with pytest.raises(kruise_core.KruiseError) as info:
        pub.status({"pub": bad, "pods": [], "workloadReplicas": 3, "now": NOW})
    assert (info.value.kind, info.value.field) == ("invalid_int_or_percent", "spec.maxUnavailable")
    with pytest.raises(kruise_core.KruiseError) as info:
        pub.pod_state({"pod": {"metadata": {"name": 5}}})  # type: ignore[typeddict-item]
    assert (info.value.kind, info.value.field) == ("invalid_input", "pod.metadata.name")
