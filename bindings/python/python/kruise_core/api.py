"""Typed helpers for the ``api`` and ``compat`` families (thin wrappers over ``call``).

- ``convert(obj, to)``: OpenKruise v1.9 v1alpha1 <-> v1beta1 conversion of one manifest (a dict);
  raises ``KruiseError`` with ``kind`` ``same_version``, ``unsupported_kind``,
  ``unsupported_version``, ``not_representable`` or ``invalid_input``.
- ``conversion_review(review)``: answers an ``apiextensions.k8s.io/v1`` ConversionReview dict the way
  the conversion webhook does (for a Python webhook server).
- ``server_version(version)`` and ``kruise_upgrade(...)``: the ``compat.*`` decisions.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union, cast

from ._kruise_core import KruiseError, call

V1ALPHA1 = "apps.kruise.io/v1alpha1"
V1BETA1 = "apps.kruise.io/v1beta1"

__all__ = ["V1ALPHA1", "V1BETA1", "convert", "conversion_review", "server_version", "kruise_upgrade"]


def _invalid(field: str, message: str) -> KruiseError:
    err = KruiseError(f"invalid_input: {field}: {message}")
    err.kind = "invalid_input"
    err.message = f"{field}: {message}"
    err.field = field
    return err


def convert(obj: Dict[str, Any], to: str) -> Dict[str, Any]:
    """Converts a whole apps.kruise.io manifest to apiVersion ``to`` (``api.convert``)."""
    return cast(Dict[str, Any], call("api.convert", {"object": obj, "targetApiVersion": to}))


REVIEW_VERSIONS = ("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1")


def conversion_review(review: Dict[str, Any]) -> Dict[str, Any]:
    """Returns ``review`` with its ``response`` filled: every object converted to
    ``request.desiredAPIVersion``; a failing object makes the whole result a ``Failure`` whose
    ``reason`` is the error kind, and so does a ``desiredAPIVersion`` other than ``V1ALPHA1`` /
    ``V1BETA1`` (``unsupported_version``, even with no objects).

    Fails closed: an envelope it cannot read raises ``KruiseError`` ``invalid_input`` naming the
    field (``review``, ``apiVersion``, ``kind``, ``request``, ``request.uid``,
    ``request.desiredAPIVersion``, ``request.objects``), never a ``Success``."""
    if not isinstance(review, dict):
        raise _invalid("review", "expected a ConversionReview object")
    api_version = review.get("apiVersion")
    if api_version not in REVIEW_VERSIONS:
        raise _invalid("apiVersion", f"expected apiextensions.k8s.io/v1, got {api_version!r}")
    if review.get("kind") != "ConversionReview":
        raise _invalid("kind", "expected ConversionReview")
    request = review.get("request")
    if not isinstance(request, dict):
        raise _invalid("request", "conversion request is empty")
    uid = request.get("uid")
    if not isinstance(uid, str) or not uid:
        raise _invalid("request.uid", "missing or not a non-empty string")
    desired = request.get("desiredAPIVersion")
    if not isinstance(desired, str):
        raise _invalid("request.desiredAPIVersion", "missing or not a string")
    objects = request.get("objects")
    if not isinstance(objects, list):
        raise _invalid("request.objects", "missing or not a list")
    response: Dict[str, Any] = {"uid": uid}
    converted: List[Dict[str, Any]] = []
    if desired not in (V1ALPHA1, V1BETA1):
        response["convertedObjects"] = []
        response["result"] = {"status": "Failure", "reason": "unsupported_version",
                              "message": f"request.desiredAPIVersion: {desired!r} is not {V1ALPHA1} or {V1BETA1}"}
        return {"apiVersion": api_version, "kind": "ConversionReview", "response": response}
    for i, obj in enumerate(objects):
        try:
            converted.append(convert(obj, desired))
        except KruiseError as e:
            response["convertedObjects"] = []
            response["result"] = {"status": "Failure", "reason": e.kind, "message": f"request.objects[{i}]: {e}"}
            return {"apiVersion": api_version, "kind": "ConversionReview", "response": response}
    response["convertedObjects"] = converted
    response["result"] = {"status": "Success"}
    return {"apiVersion": api_version, "kind": "ConversionReview", "response": response}


def server_version(version: Union[str, Dict[str, Any]]) -> Dict[str, Any]:
    """Parses a Kubernetes ``/version`` (object or gitVersion string) and decides features
    (``compat.server_version``); never fails on an odd string (``version.known`` is False)."""
    return cast(Dict[str, Any], call("compat.server_version", {"version": version}))


def kruise_upgrade(
    from_version: str, to_version: str, kubernetes: Union[str, Dict[str, Any]], kruise_daemon_disabled: Optional[bool] = None
) -> Dict[str, Any]:
    """Whether upgrading OpenKruise ``from_version`` -> ``to_version`` is allowed on ``kubernetes``
    (``compat.kruise_upgrade``): ``{"allowed", "blockers", "warnings", "via", "kubernetes"}``."""
    inp: Dict[str, Any] = {"from": from_version, "to": to_version, "kubernetes": kubernetes}
    if kruise_daemon_disabled is not None:
        inp["kruiseDaemonDisabled"] = kruise_daemon_disabled
    return cast(Dict[str, Any], call("compat.kruise_upgrade", inp))
