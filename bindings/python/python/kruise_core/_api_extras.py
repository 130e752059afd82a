"""Hand-written conveniences of the ``api`` family, re-exported by the generated ``kruise_core.api``.

- ``conversion_review(review)``: answers an ``apiextensions.k8s.io/v1`` ConversionReview dict the way
  the conversion webhook does (for a Python webhook server), converting each object through the
  ``api.convert`` decision;
- ``V1ALPHA1`` / ``V1BETA1``: the two apps.kruise.io versions ``api.convert`` converts between.
"""

from __future__ import annotations

from typing import Any, Dict, List, cast

from ._kruise_core import KruiseError, call

V1ALPHA1 = "apps.kruise.io/v1alpha1"
V1BETA1 = "apps.kruise.io/v1beta1"

__all__ = ["REVIEW_VERSIONS", "V1ALPHA1", "V1BETA1", "conversion_review"]

def _invalid(field: str, message: str) -> KruiseError:
    err = KruiseError(f"invalid_input: {field}: {message}")
    err.kind = "invalid_input"
    err.message = f"{field}: {message}"
    err.field = field
    return err


def _convert(obj: Any, to: str) -> Dict[str, Any]:
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
            converted.append(_convert(obj, desired))
        except KruiseError as e:
            response["convertedObjects"] = []
            response["result"] = {"status": "Failure", "reason": e.kind, "message": f"request.objects[{i}]: {e}"}
            return {"apiVersion": api_version, "kind": "ConversionReview", "response": response}
    response["convertedObjects"] = converted
    response["result"] = {"status": "Success"}
    return {"apiVersion": api_version, "kind": "ConversionReview", "response": response}
