"""The api/compat wrappers: conversion both ways, the ConversionReview envelope, error kinds
naming fields, compat decisions."""

from __future__ import annotations

from typing import Any, Dict

import pytest

import kruise_core
from kruise_core import api, compat

DS: Dict[str, Any] = {
    "apiVersion": api.V1ALPHA1,
    "kind": "DaemonSet",
    "metadata": {"name": "log-agent", "annotations": {"daemonset.kruise.io/progressive-create-pod": "true"}},
    "spec": {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"rollingUpdateType": "Surging", "partition": "50%"}}},
    "status": {"daemonSetHash": "h1"},
}


def test_convert_daemonset_up_and_down() -> None:
    up = api.convert({"object": DS, "targetApiVersion": api.V1BETA1})
    assert up["apiVersion"] == api.V1BETA1
    assert up["spec"]["scaleStrategy"] == {"partitionedScaling": True}
    assert up["spec"]["updateStrategy"]["rollingUpdate"] == {"rollingUpdateType": "Standard", "partition": "50%"}
    assert up["status"] == {"updateRevision": "h1"}
    down = api.convert({"object": up, "targetApiVersion": api.V1ALPHA1})
    assert down["status"] == {"daemonSetHash": "h1"}
    assert down["metadata"]["annotations"]["daemonset.kruise.io/progressive-create-pod"] == "true"


@pytest.mark.parametrize(
    "obj,to,kind,field",
    [
        ({"apiVersion": api.V1ALPHA1, "kind": "CloneSet"}, api.V1BETA1, "unsupported_kind", "object.kind"),
        ({"apiVersion": api.V1BETA1, "kind": "SidecarSet"}, api.V1BETA1, "same_version", "targetApiVersion"),
        ({"apiVersion": "apps/v1", "kind": "DaemonSet"}, api.V1BETA1, "unsupported_version", "object.apiVersion"),
        ({"apiVersion": api.V1ALPHA1, "kind": "StatefulSet", "spec": {"replicas": "3"}}, api.V1BETA1, "invalid_input", "object.spec.replicas"),
    ],
)
def test_convert_errors_name_the_field(obj: Dict[str, Any], to: str, kind: str, field: str) -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        api.convert({"object": obj, "targetApiVersion": to})
    assert info.value.kind == kind
    assert info.value.field == field


def test_non_object_manifest_is_invalid_input() -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call("api.convert", {"object": [1, 2], "targetApiVersion": api.V1BETA1})
    assert info.value.kind == "invalid_input"


def test_conversion_review_success_and_failure() -> None:
    request: Dict[str, Any] = {"uid": "u-1", "desiredAPIVersion": api.V1BETA1, "objects": [DS]}
    review: Dict[str, Any] = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "request": request}
    out = api.conversion_review(review)
    assert out["response"]["uid"] == "u-1"
    assert out["response"]["result"] == {"status": "Success"}
    assert out["response"]["convertedObjects"][0]["status"] == {"updateRevision": "h1"}
    request["objects"] = [DS, {"apiVersion": api.V1ALPHA1, "kind": "WorkloadSpread"}]
    out = api.conversion_review(review)
    assert out["response"]["result"]["status"] == "Failure"
    assert out["response"]["result"]["reason"] == "unsupported_kind"
    assert out["response"]["convertedObjects"] == []
    with pytest.raises(kruise_core.KruiseError) as info:
        api.conversion_review({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview"})
    assert info.value.kind == "invalid_input"
    assert info.value.field == "request"


def test_conversion_review_fails_closed() -> None:
    def review(**request: Any) -> Dict[str, Any]:
        r: Dict[str, Any] = {"uid": "u-1", "desiredAPIVersion": api.V1BETA1, "objects": [DS], **request}
        return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                "request": {k: v for k, v in r.items() if v is not None}}

    bad: list[tuple[Any, str]] = [
        ([], "review"),
        ({}, "apiVersion"),
        ({**review(), "apiVersion": "admission.k8s.io/v1"}, "apiVersion"),
        ({**review(), "kind": "AdmissionReview"}, "kind"),
        ({**review(), "request": "x"}, "request"),
        (review(uid=""), "request.uid"),
        (review(uid=7), "request.uid"),
        ({**review(), "request": {"desiredAPIVersion": api.V1BETA1, "objects": []}}, "request.uid"),
        (review(desiredAPIVersion=["v1"]), "request.desiredAPIVersion"),
        (review(objects={"a": DS}), "request.objects"),
    ]
    for envelope, field in bad:
        with pytest.raises(kruise_core.KruiseError) as info:
            api.conversion_review(envelope)
        assert (info.value.kind, info.value.field) == ("invalid_input", field), envelope
    # readable envelopes with unusable contents: a Failure, never a Success
    for objects, desired, reason in [([], "apps/v1", "unsupported_version"),
                                     ([DS], "apps.kruise.io/v2", "unsupported_version"),
                                     ([DS, 3], api.V1BETA1, "invalid_input"),
                                     ([None], api.V1BETA1, "invalid_input"),
                                     (["DaemonSet"], api.V1BETA1, "invalid_input")]:
        out = api.conversion_review(review(objects=objects, desiredAPIVersion=desired))
        assert out["response"]["uid"] == "u-1"
        assert out["response"]["convertedObjects"] == []
        assert out["response"]["result"]["status"] == "Failure"
        assert out["response"]["result"]["reason"] == reason


def test_compat_generated_functions() -> None:
    sv = compat.server_version({"version": {"gitVersion": "v1.32.3-eks-4096722", "major": "1", "minor": "32+"}})
    assert sv["version"]["provider"] == "eks"
    assert sv["features"]["resizeSubresource"] is True
    assert compat.server_version({"version": "weird"})["version"]["known"] is False
    v = compat.kruise_upgrade({"from": "v1.5.0", "to": "v1.6.0", "kubernetes": "v1.17.17", "kruiseDaemonDisabled": False})
    assert v["allowed"] is False
    assert [b["code"] for b in v["blockers"]] == ["kruise_daemon_must_be_disabled"]
    assert compat.kruise_upgrade({"from": "v1.5.0", "to": "v1.6.0", "kubernetes": "v1.17.17", "kruiseDaemonDisabled": True})["allowed"] is True


def test_priority_out_of_range_names_the_env() -> None:
    pod = {"metadata": {"name": "p"}, "spec": {"containers": [
        {"name": "a", "env": [{"name": "KRUISE_CONTAINER_PRIORITY", "value": "99999999999999999999"}]}, {"name": "b"}]}}
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call("api.launch_priority", {"pod": pod})
    assert info.value.kind == "invalid_priority"
    assert info.value.field == "pod.spec.containers[0].env[0].value"
