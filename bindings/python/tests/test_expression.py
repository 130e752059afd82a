"""The typed `kruise_core.Expression`: compile once, evaluate with keyword variables. Cross-checked
against every `resources.eval` vector case (the typed path must give the vector's answer too)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import kruise_core
from conftest import REPO

Expression = kruise_core.Expression


def test_built_with_expression_support() -> None:
    assert kruise_core.HAS_EXPRESSION, (
        "kruise_core was built without the `expr` feature: enable it in bindings/python/Cargo.toml once "
        "kruise_core::resources::Expression exists"
    )


def test_readme_example() -> None:
    assert Expression("max(cpu*50%, 50m)").eval(cpu="200m") == "100m"


def test_compiled_once_evaluated_many_times() -> None:
    e = Expression("max(cpu*50%, 50m)")
    assert e.source == "max(cpu*50%, 50m)"
    assert repr(e) == "Expression('max(cpu*50%, 50m)')" or repr(e) == 'Expression("max(cpu*50%, 50m)")'
    assert [e.eval(cpu=c) for c in ("200m", "20m", "2")] == ["100m", "50m", "1"]


def test_quantity_and_number_variables() -> None:
    assert Expression("(cpu1 + cpu2) * 50%").eval(cpu1="200m", cpu2="400m") == "300m"
    # an int/float variable is a plain number, a str is a quantity
    assert Expression("x * 2").eval(x=3) == kruise_core.call("resources.eval", {"expr": "x * 2", "variables": {"x": 3}})
    assert Expression("x * 2").eval(x=1.5) == kruise_core.call("resources.eval", {"expr": "x * 2", "variables": {"x": 1.5}})


def test_errors_carry_kinds() -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        Expression("max(cpu, ").eval(cpu="1")
    assert info.value.kind == "syntax_error"
    with pytest.raises(kruise_core.KruiseError) as info:
        Expression("cpu * 2").eval()
    assert info.value.kind == "undefined_variable"
    with pytest.raises(kruise_core.KruiseError) as info:
        Expression("cpu * 2").eval(cpu=True)  # type: ignore[arg-type]
    assert info.value.kind == "invalid_input"
    assert info.value.field == "cpu"
    with pytest.raises(kruise_core.KruiseError) as info:
        Expression("cpu * 2").eval(cpu=[1])  # type: ignore[arg-type]
    assert info.value.kind == "invalid_input"


def test_strict_compile_reports_misread_numbers() -> None:
    # the reference reads the unparsable number token `1K` as 0; the default mirrors it
    assert Expression("1K + 1").eval() == "1"
    with pytest.raises(kruise_core.KruiseError) as info:
        Expression("1K + 1", strict=True)
    assert info.value.kind == "suspicious_number"
    assert Expression("max(cpu*50%, 50m)", strict=True).eval(cpu="200m") == "100m"


def _eval_cases() -> list[Any]:
    doc = json.loads((REPO / "conformance" / "vectors" / "resources.json").read_text(encoding="utf-8"))
    return [
        pytest.param(c, id=c.get("name", str(i)))
        for i, c in enumerate(doc["cases"])
        if c["fn"] == "resources.eval"
    ]


@pytest.mark.parametrize("case", _eval_cases())
def test_typed_path_agrees_with_vectors(case: dict[str, Any]) -> None:
    inp = case["input"]
    variables = inp.get("variables") or {}
    if "expect_error" in case:
        with pytest.raises(kruise_core.KruiseError) as info:
            Expression(inp["expr"]).eval(**variables)
        assert info.value.kind == case["expect_error"]
    else:
        assert Expression(inp["expr"]).eval(**variables) == case["expect"]


def test_repeated_and_changing_values_agree_with_call() -> None:
    # eval's fast path keeps the last str object per variable; every combination must still give
    # what resources.eval gives.
    e = Expression("max(cpu*50%, 50m) + mem*0")
    for cpu, mem in [("200m", 1), ("200m", 1), ("20m", 2.5), ("1", "1Gi"), ("1", "1Gi"), (3, 0)]:
        want = kruise_core.call("resources.eval", {"expr": e.source, "variables": {"cpu": cpu, "mem": mem}})
        assert e.eval(cpu=cpu, mem=mem) == want
    q = "".join(["3", "00m"])  # a different object with the same text
    assert e.eval(cpu=q, mem=0) == kruise_core.call("resources.eval", {"expr": e.source, "variables": {"cpu": "300m", "mem": 0}})
    with pytest.raises(kruise_core.KruiseError) as info:
        e.eval(cpu="2x", mem=0)
    assert info.value.kind == "invalid_quantity"
    # arguments the expression does not read are still checked, and names match lower-cased
    with pytest.raises(kruise_core.KruiseError):
        e.eval(cpu="1", mem=0, other=None)  # type: ignore[arg-type]
    assert e.eval(cpu="1", mem=0, CPU="bad") == e.eval(cpu="1", mem=0)
    with pytest.raises(kruise_core.KruiseError) as info:
        e.eval(mem=0)
    assert info.value.kind == "undefined_variable"
