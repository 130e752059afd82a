"""Error shapes and the generic API: KruiseError attributes, unknown fn ids, wrong JSON shapes,
conversion of Python values, the comparison helper."""

from __future__ import annotations

import pickle

import pytest

import kruise_core

SCALE = "rollout.scale_int_or_percent"


def test_call_returns_the_decision() -> None:
    assert kruise_core.call(SCALE, {"value": "90%", "total": 95, "roundUp": True, "mode": "scaled"}) == 86
    assert kruise_core.call(SCALE, {"value": "90%", "total": 95, "roundUp": False, "mode": "scaled"}) == 85


def test_fn_ids_lists_registered_functions() -> None:
    ids = kruise_core.fn_ids()
    assert isinstance(ids, list)
    assert SCALE in ids
    assert len(ids) == len(set(ids))


def test_decision_error_is_a_value_error_with_kind() -> None:
    with pytest.raises(ValueError) as info:
        kruise_core.call(SCALE, {"value": "90", "total": 0, "roundUp": False, "mode": "scaled"})
    err = info.value
    assert isinstance(err, kruise_core.KruiseError)
    assert err.kind == "not_a_percentage"
    assert "90" in err.message
    assert err.kind in str(err)


def test_wrong_shape_is_invalid_input_naming_the_field() -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call(SCALE, {"value": "9%", "total": "ten", "roundUp": False, "mode": "scaled"})
    assert info.value.kind == "invalid_input"
    assert info.value.field == "total"
    assert "total" in info.value.message


def test_unknown_fn() -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call("no.such_fn", {})
    assert info.value.kind == "unknown_fn"
    assert info.value.field is None


def test_non_json_input_is_invalid_input() -> None:
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call(SCALE, {"value": object()})
    assert info.value.kind == "invalid_input"
    assert info.value.field == "value"  # the path of the offending member


def test_error_module_and_pickling() -> None:
    assert kruise_core.KruiseError.__module__ == "kruise_core"
    assert issubclass(kruise_core.KruiseError, ValueError)
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call("no.such_fn", {})
    again = pickle.loads(pickle.dumps(info.value))
    assert isinstance(again, kruise_core.KruiseError)
    assert (again.kind, again.message, again.field) == (info.value.kind, info.value.message, None)


def test_call_json_round_trip_and_errors() -> None:
    out = kruise_core.call_json(SCALE, '{"value": "25%", "total": 10, "roundUp": true, "mode": "scaled"}')
    assert out == "3"
    with pytest.raises(kruise_core.KruiseError) as info:
        kruise_core.call_json(SCALE, '{"value": ')
    assert info.value.kind == "invalid_json"


def test_matches_uses_core_rules_and_exact_integers() -> None:
    assert kruise_core.matches(SCALE, {"a": 1, "b": [2]}, {"b": [2.0], "a": 1})
    assert not kruise_core.matches(SCALE, [1, 2], [2, 1])
    # integers beyond 2**53 stay exact on the way into the core
    assert not kruise_core.matches(SCALE, 2**63 + 1, 2**63)
    assert kruise_core.matches(SCALE, 2**64 - 1, 2**64 - 1)


def test_big_integers_pass_through_exactly() -> None:
    assert kruise_core.call(SCALE, {"value": 2**31 - 1, "total": 0, "roundUp": False, "mode": "scaled"}) == 2**31 - 1


def test_version() -> None:
    assert kruise_core.__version__.count(".") == 2
