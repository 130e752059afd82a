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


def conversion_review(review: Dict[str, Any]) -> Dict[str, Any]:
    """Returns ``review`` with its ``response`` filled: every object converted to
    ``request.desiredAPIVersion``; a failing object makes the whole result a ``Failure`` whose
    ``reason`` is the error kind. A malformed envelope raises ``KruiseError`` (``invalid_input``)."""
    request = review.get("request")
    if not isinstance(request, dict):
        raise _invalid("request", "conversion request is empty")
    uid = request.get("uid")
    desired = request.get("desiredAPIVersion")
    objects = request.get("objects")
    if not isinstance(uid, str) or not isinstance(desired, str) or not isinstance(objects, list):
        raise _invalid("request", "uid, desiredAPIVersion and objects are required")
    response: Dict[str, Any] = {"uid": uid}
    converted: List[Dict[str, Any]] = []
    try:
        for obj in objects:
            converted.append(convert(obj, desired))
        response["convertedObjects"] = converted
        response["result"] = {"status": "Success"}
    except KruiseError as e:
        response["convertedObjects"] = []
        response["result"] = {"status": "Failure", "reason": e.kind, "message": str(e)}
    return {"apiVersion": review.get("apiVersion", "apiextensions.k8s.io/v1"), "kind": "ConversionReview", "response": response}


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
