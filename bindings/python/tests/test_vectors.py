"""Replays every conformance vector case through `kruise_core.call` and judges it with
`kruise_core.matches` (the core's own comparison rules): one pytest case per vector case."""

from __future__ import annotations

from typing import Any

import pytest

import kruise_core
from conftest import vector_cases, vector_files


def test_vector_files_exist() -> None:
    files = vector_files()
    assert files, "no conformance vector files found"
    assert all(p.is_file() for p in files)


@pytest.mark.parametrize("case", list(vector_cases()))
def test_vector_case(case: dict[str, Any]) -> None:
    fn_id = case["fn"]
    inp = case.get("input")
    if "expect_error" in case:
        with pytest.raises(kruise_core.KruiseError) as info:
            got = kruise_core.call(fn_id, inp)
            pytest.fail(f"expected error {case['expect_error']!r}, got {got!r}")
        assert info.value.kind == case["expect_error"], f"message: {info.value.message}"
        return
    try:
        got = kruise_core.call(fn_id, inp)
    except kruise_core.KruiseError as e:
        pytest.fail(f"expected {case.get('expect')!r}, got error {e.kind}: {e.message}")
    assert kruise_core.matches(fn_id, case.get("expect"), got), f"expected {case.get('expect')!r}, got {got!r}"
