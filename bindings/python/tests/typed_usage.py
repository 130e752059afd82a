"""A user's file for ``mypy --strict`` (scripts/test-all runs it): one typed call per family with
literal TypedDict inputs, using the outputs. Also run by pytest (test_typed_usage.py)."""

from __future__ import annotations

import kruise_core
from kruise_core import rollout


def rollout_example() -> int:
    inp: rollout.ScaleIntOrPercentInput = {"value": "25%", "total": 10, "roundUp": True, "mode": "scaled"}
    out: int = rollout.scale_int_or_percent(inp)
    return out + rollout.scale("25%", 10)


def error_kind() -> kruise_core.ErrorKind:
    try:
        rollout.scale_int_or_percent({"value": None, "total": 1, "roundUp": False, "mode": "legacy"})
    except kruise_core.KruiseError as e:
        kind: kruise_core.ErrorKind = e.kind
        return kind
    raise AssertionError("expected nil_value")


def main() -> None:
    assert rollout_example() == 6
    assert error_kind() == "nil_value"


if __name__ == "__main__":
    main()
