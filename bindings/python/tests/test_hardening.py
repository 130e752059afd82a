"""Front-door hardening of the Python binding: nesting and size limits, NaN and infinities, -0,
and argument errors that must be ``KruiseError`` (kind ``invalid_input`` naming the argument)
rather than ``TypeError``, ``OverflowError`` or ``UnicodeEncodeError``."""

from __future__ import annotations

import datetime
import json
from typing import Any, Callable, Iterator

import pytest

import kruise_core
from kruise_core import KruiseError, Schedule, rollout

SCALE = "rollout.scale_int_or_percent"


def scale_input(**kw: Any) -> dict[str, Any]:
    inp: dict[str, Any] = {"value": "50%", "total": 10, "roundUp": True, "mode": "scaled"}
    inp.update(kw)
    return inp


def invalid(fn: Callable[[], Any], field: str | None = None, kind: str = "invalid_input") -> KruiseError:
    with pytest.raises(KruiseError) as info:
        fn()
    assert info.value.kind == kind, info.value.message
    if field is not None:
        assert info.value.field == field, info.value.message
    return info.value


def nested_list(depth: int) -> Any:
    """``depth`` lists, one inside the other."""
    v: Any = []
    for _ in range(depth - 1):
        v = [v]
    return v


@pytest.fixture
def limit() -> Iterator[Callable[[int], None]]:
    """Sets the input-size limit for one test and restores it after."""
    before = kruise_core.max_input_bytes()

    def set_(n: int) -> None:
        kruise_core.set_max_input_bytes(n)

    yield set_
    kruise_core.set_max_input_bytes(before)
    assert kruise_core.max_input_bytes() == before


# --- 1. nesting ----------------------------------------------------------------------------------


def test_input_nested_20000_deep_is_invalid_input_not_a_crash() -> None:
    deep = nested_list(20_000)
    e = invalid(lambda: kruise_core.call(SCALE, scale_input(x=deep)))
    assert e.field is not None and e.field.startswith("x[0][0]")
    deep_dict: Any = {}
    for _ in range(20_000):
        deep_dict = {"a": deep_dict}
    invalid(lambda: kruise_core.call(SCALE, deep_dict))
    invalid(lambda: kruise_core.matches(SCALE, deep, 1), None)


def test_the_depth_limit_is_the_json_parsers() -> None:
    # 127 nested containers pass the conversion, in `call` and in `call_json` alike.
    ok = nested_list(127)
    assert kruise_core.matches(SCALE, ok, ok)
    with pytest.raises(KruiseError) as info:
        kruise_core.call_json(SCALE, json.dumps(ok))
    assert info.value.kind == "invalid_input"  # the fn rejects the shape: the parser took it
    # 128: both refuse.
    too_deep = nested_list(128)
    e = invalid(lambda: kruise_core.matches(SCALE, too_deep, 1))
    assert e.field is not None and e.field.startswith("expected[0]")
    assert "nested deeper than 127" in e.message
    invalid(lambda: kruise_core.call_json(SCALE, json.dumps(too_deep)), kind="invalid_json")


def test_a_cyclic_value_is_invalid_input() -> None:
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    invalid(lambda: kruise_core.call(SCALE, scale_input(x=cyclic)))
    d: dict[str, Any] = {}
    d["self"] = d
    invalid(lambda: kruise_core.call(SCALE, d))


# --- 6. NaN, infinities, -0 ----------------------------------------------------------------------


@pytest.mark.parametrize("x", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinities_are_invalid_input_naming_the_path(x: float) -> None:
    e = invalid(lambda: kruise_core.call(SCALE, scale_input(total=x)), "total")
    assert "not a JSON number" in e.message
    invalid(lambda: kruise_core.call(SCALE, scale_input(value=x)), "value")
    invalid(lambda: kruise_core.call(SCALE, scale_input(extra={"a": [1, 2, x]})), "extra.a[2]")
    # (a NaN used to become null, i.e. an unset field: parse_replicas then defaulted it)
    invalid(lambda: kruise_core.call("allocation.parse_replicas", {"replicas": x, "value": "50%"}), "replicas")
    invalid(lambda: kruise_core.matches(SCALE, 1, [x]), "got[0]")


def test_negative_zero_is_zero_for_integer_fields() -> None:
    # JSON -0: Go's encoding/json reads it into an int field as 0.
    assert kruise_core.call_json(SCALE, '{"value": "50%", "total": -0, "roundUp": true, "mode": "scaled"}') == "0"
    assert kruise_core.call_json(SCALE, '{"value": -0, "total": 10, "roundUp": true, "mode": "scaled"}') == "0"
    # Python's -0.0 is the same JSON value (serde_json holds -0 as -0.0), so it is 0 too.
    assert kruise_core.call(SCALE, scale_input(total=-0.0)) == 0
    assert kruise_core.call("allocation.parse_replicas", {"replicas": 4, "value": -0.0}) == 0
    # Other non-integers stay refused, as in Go.
    invalid(lambda: kruise_core.call(SCALE, scale_input(total=0.5)), "total")
    invalid(lambda: kruise_core.call(SCALE, scale_input(total=1.0)), "total")


# --- other values JSON cannot hold ---------------------------------------------------------------


def test_values_json_cannot_hold_are_invalid_input_naming_the_path() -> None:
    invalid(lambda: kruise_core.call(SCALE, scale_input(total=2**70)), "total")
    invalid(lambda: kruise_core.call(SCALE, scale_input(total=-(2**70))), "total")
    invalid(lambda: kruise_core.call(SCALE, scale_input(x=b"bytes")), "x")
    invalid(lambda: kruise_core.call(SCALE, scale_input(x={1, 2})), "x")
    invalid(lambda: kruise_core.call(SCALE, scale_input(x=object())), "x")
    invalid(lambda: kruise_core.call(SCALE, {**scale_input(), 1: "int key"}), "input")
    # what JSON can hold still converts: tuples are arrays, u64 integers are exact
    assert kruise_core.matches(SCALE, [1, 2], (1, 2))
    assert kruise_core.matches(SCALE, 2**64 - 1, 2**64 - 1)
    assert kruise_core.matches(SCALE, -(2**63), -(2**63))


# --- 7. argument errors --------------------------------------------------------------------------


def test_lone_surrogates_are_invalid_input_naming_the_argument() -> None:
    invalid(lambda: kruise_core.call(SCALE, scale_input(value="\ud800")), "value")
    invalid(lambda: kruise_core.call(SCALE, {**scale_input(), "\udfff": 1}), "input")
    invalid(lambda: kruise_core.call("\ud800", {}), "fn_id")
    invalid(lambda: kruise_core.call_json(SCALE, '"\ud800"'), "input_json")
    invalid(lambda: kruise_core.call_json("\ud800", "{}"), "fn_id")
    invalid(lambda: kruise_core.matches("\ud800", 1, 1), "fn_id")
    invalid(lambda: rollout.scale("\ud800", 10), "value")
    invalid(lambda: rollout.scale("50%", 10, mode="\ud800"), "mode")
    invalid(lambda: Schedule("\ud800"), "spec")
    invalid(lambda: Schedule("* * * * *", time_zone="\ud800"), "time_zone")
    invalid(lambda: Schedule("* * * * *", local_time_zone="\ud800"), "local_time_zone")
    invalid(lambda: Schedule("* * * * *").next("\ud800"), "after")
    if kruise_core.HAS_EXPRESSION:
        invalid(lambda: kruise_core.Expression("\ud800"), "src")
        invalid(lambda: kruise_core.Expression("cpu").eval(cpu="\ud800"), "cpu")
        invalid(lambda: kruise_core.Expression("cpu").eval(**{"\ud800": "1"}), "vars")


def test_out_of_range_integers_are_invalid_input_naming_the_argument() -> None:
    s = Schedule("*/5 * * * *")
    after = datetime.datetime(2026, 6, 21, 10, 17, 23, tzinfo=datetime.timezone.utc)
    invalid(lambda: s.next(after, n=-1), "n")
    invalid(lambda: s.next(after, n=2**70), "n")
    invalid(lambda: s.next(after, 2**70), "n")
    invalid(lambda: s.next_unix(0, n=-1), "n")
    invalid(lambda: s.next_unix(2**70), "after")
    invalid(lambda: rollout.scale("50%", 2**70), "total")
    invalid(lambda: kruise_core.set_max_input_bytes(-1), "n")
    if kruise_core.HAS_EXPRESSION:
        invalid(lambda: kruise_core.Expression("cpu").eval(cpu=2**1100), "cpu")
    # in range still works, with the defaults
    assert s.next_unix(0) == [300]
    assert s.next_unix(0, 2) == [300, 600]
    assert s.next(after) == [datetime.datetime(2026, 6, 21, 10, 20, tzinfo=datetime.timezone.utc)]
    assert rollout.scale("50%", 10) == 5


def test_wrong_argument_types_are_invalid_input_naming_the_argument() -> None:
    invalid(lambda: kruise_core.call(123, {}), "fn_id")  # type: ignore[arg-type]
    invalid(lambda: kruise_core.call(None, {}), "fn_id")  # type: ignore[arg-type]
    invalid(lambda: kruise_core.call_json(SCALE, {"not": "text"}), "input_json")  # type: ignore[arg-type]
    invalid(lambda: kruise_core.matches(b"x", 1, 1), "fn_id")  # type: ignore[arg-type]
    invalid(lambda: rollout.scale("50%", "10"), "total")  # type: ignore[arg-type]
    invalid(lambda: rollout.scale("50%", 10, round_up="yes"), "round_up")  # type: ignore[arg-type]
    invalid(lambda: rollout.scale("50%", 10, mode=1), "mode")  # type: ignore[arg-type]
    invalid(lambda: Schedule(5), "spec")  # type: ignore[arg-type]
    invalid(lambda: Schedule("* * * * *").next(12345), "after")  # type: ignore[arg-type]
    invalid(lambda: Schedule("* * * * *").next_unix(0, n="2"), "n")  # type: ignore[arg-type]
    invalid(lambda: kruise_core.set_max_input_bytes("big"), "n")  # type: ignore[arg-type]
    if kruise_core.HAS_EXPRESSION:
        invalid(lambda: kruise_core.Expression(b"1"), "src")  # type: ignore[arg-type]
        invalid(lambda: kruise_core.Expression("1", strict="no"), "strict")  # type: ignore[arg-type]


# --- 3. input size -------------------------------------------------------------------------------


def compact(v: Any) -> int:
    """Bytes of ``v`` as compact JSON (UTF-8, no ASCII escaping), as serde_json prints it."""
    return len(json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode())


def test_the_default_limit_is_16_mib() -> None:
    assert kruise_core.DEFAULT_MAX_INPUT_BYTES == 16 * 1024 * 1024
    assert kruise_core.max_input_bytes() == kruise_core.DEFAULT_MAX_INPUT_BYTES
    big = scale_input(pad="x" * kruise_core.DEFAULT_MAX_INPUT_BYTES)
    e = invalid(lambda: kruise_core.call(SCALE, big), "input", kind="input_too_large")
    assert str(kruise_core.DEFAULT_MAX_INPUT_BYTES) in e.message
    invalid(lambda: kruise_core.call_json(SCALE, json.dumps(big)), "input", kind="input_too_large")


def test_many_small_members_count_too(limit: Callable[[int], None]) -> None:
    limit(10_000)
    for pad in ([0] * 5_000, {str(i): 0 for i in range(2_000)}, [[]] * 3_400, ["é"] * 2_000):
        v = scale_input(pad=pad)
        assert compact(v) > 10_000
        invalid(lambda: kruise_core.call(SCALE, v), "input", kind="input_too_large")


def test_the_limit_is_the_size_as_compact_json(limit: Callable[[int], None]) -> None:
    v = scale_input(extra={"s": 'quote " back \\ nl \n ctl \x01 é 漢', "n": [0, -12, 3.5, None, False, True]})
    n = compact(v)
    limit(n)
    # At the limit the fn runs (and refuses the unknown member `extra`).
    e = invalid(lambda: kruise_core.call(SCALE, v))
    assert "extra" in e.message
    limit(n - 1)
    invalid(lambda: kruise_core.call(SCALE, v), "input", kind="input_too_large")
    text = json.dumps(v, separators=(",", ":"), ensure_ascii=False)
    invalid(lambda: kruise_core.call_json(SCALE, text), "input", kind="input_too_large")
    limit(len(text.encode()))
    e = invalid(lambda: kruise_core.call_json(SCALE, text))
    assert "extra" in e.message


def test_typed_helpers_are_limited_too(limit: Callable[[int], None]) -> None:
    n = compact(scale_input())
    limit(n)
    # generated functions over `call`: their input is counted
    invalid(lambda: rollout.scale_int_or_percent({"value": "9" * n + "%", "total": 10, "roundUp": True, "mode": "scaled"}),
            kind="input_too_large")
    invalid(lambda: kruise_core.api.convert({"object": {"kind": "SidecarSet", "pad": "x" * n}, "targetApiVersion": "apps.kruise.io/v1beta1"}),
            kind="input_too_large")
    # native helpers: their source text
    invalid(lambda: Schedule("*/5 * * * * " + " " * n), "spec", kind="input_too_large")
    if kruise_core.HAS_EXPRESSION:
        invalid(lambda: kruise_core.Expression("1 + " * n + "1"), "src", kind="input_too_large")
    # small inputs still pass
    assert rollout.scale("50%", 10) == 5
    assert kruise_core.call(SCALE, scale_input()) == 5


def test_set_max_input_bytes_returns_the_previous_limit(limit: Callable[[int], None]) -> None:
    before = kruise_core.max_input_bytes()
    assert kruise_core.set_max_input_bytes(1000) == before
    assert kruise_core.max_input_bytes() == 1000
    assert kruise_core.set_max_input_bytes(before) == 1000
