"""Replays every conformance vector case through the generated typed function of its fn,
``getattr(kruise_core.<family>, <snake_name>)``, judged with ``kruise_core.matches``.

Cases of fns not typed yet are skipped (counted in the closing line); once every fn is typed
(``_typed.ALL_TYPED``, set by the generator) every fn id must have a typed function."""

from __future__ import annotations

import importlib
from typing import Any, Callable, Optional

import pytest

import kruise_core
from kruise_core import _typed
from conftest import vector_cases


def typed_function(fn_id: str) -> Optional[Callable[[Any], Any]]:
    """The generated function of ``fn_id``, or None when its fn is not typed."""
    entry = _typed.TYPED_FNS.get(fn_id)
    if entry is None:
        return None
    module = importlib.import_module(f"kruise_core.{entry[0]}")
    fn: Callable[[Any], Any] = getattr(module, entry[1])
    return fn


def test_every_typed_fn_has_its_function() -> None:
    for fn_id, (family, name) in _typed.TYPED_FNS.items():
        assert fn_id.split(".", 1)[0] == family
        module = getattr(kruise_core, family, None) or importlib.import_module(f"kruise_core.{family}")
        assert callable(getattr(module, name)), fn_id
    missing = [f for f in kruise_core.fn_ids() if f not in _typed.TYPED_FNS]
    if _typed.ALL_TYPED:
        assert not missing, f"fns without a typed function: {missing}"
    else:
        assert missing, "ALL_TYPED is False but every fn is typed: run scripts/codegen"


def test_every_vector_error_kind_is_an_error_kind() -> None:
    kinds = set(_typed.ERROR_KINDS)
    for param in vector_cases():
        case = param.values[0]
        if "expect_error" in case and case["fn"] in _typed.TYPED_FNS:
            assert case["expect_error"] in kinds, case


@pytest.mark.parametrize("case", list(vector_cases()))
def test_typed_vector_case(case: dict[str, Any]) -> None:
    fn_id = case["fn"]
    fn = typed_function(fn_id)
    if fn is None:
        pytest.skip(f"{fn_id} is not typed yet")
    inp = case.get("input")
    if "expect_error" in case:
        with pytest.raises(kruise_core.KruiseError) as info:
            got = fn(inp)
            pytest.fail(f"expected error {case['expect_error']!r}, got {got!r}")
        assert info.value.kind == case["expect_error"], f"message: {info.value.message}"
        return
    try:
        got = fn(inp)
    except kruise_core.KruiseError as e:
        pytest.fail(f"expected {case.get('expect')!r}, got error {e.kind}: {e.message}")
    assert kruise_core.matches(fn_id, case.get("expect"), got), f"expected {case.get('expect')!r}, got {got!r}"
