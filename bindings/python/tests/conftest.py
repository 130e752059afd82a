"""Shared pytest setup: where the conformance vectors are, and a closing `N passed, N failed` line
for the vector replay."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

REPO = Path(__file__).resolve().parents[3]


def vector_files() -> list[Path]:
    """`conformance/vectors/*.json`, or the files named by `KRUISE_VECTORS` (`:`-separated; relative
    paths from the repository root work too), as the Rust runner does."""
    env = os.environ.get("KRUISE_VECTORS")
    if env:
        # relative paths that do not exist from here are taken from the repository root
        return [Path(p) if Path(p).is_absolute() or Path(p).exists() else REPO / p for p in env.split(":") if p]
    return sorted((REPO / "conformance" / "vectors").glob("*.json"))


def vector_cases() -> Iterator[Any]:
    """Every case of every vector file, as a pytest param with a readable id."""
    for path in vector_files():
        doc = json.loads(path.read_text(encoding="utf-8"))
        for i, case in enumerate(doc.get("cases", [])):
            name = case.get("name", f"case {i}")
            yield pytest.param(case, id=f"{path.stem}::{case.get('fn', '')}::{i}::{name}")


_vector_outcomes = {"passed": 0, "failed": 0}
_typed_outcomes = {"passed": 0, "failed": 0, "skipped": 0}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and item.name.startswith("test_vector_case"):
        _vector_outcomes["passed" if report.passed else "failed"] += 1
    if item.name.startswith("test_typed_vector_case") and (report.when == "call" or report.skipped):
        _typed_outcomes["skipped" if report.skipped else "passed" if report.passed else "failed"] += 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _vector_outcomes["passed"] or _vector_outcomes["failed"]:
        terminalreporter.write_line(
            f"conformance vectors through Python: {_vector_outcomes['passed']} passed, {_vector_outcomes['failed']} failed"
        )
    if any(_typed_outcomes.values()):
        terminalreporter.write_line(
            "conformance vectors through the typed Python functions: "
            f"{_typed_outcomes['passed']} passed, {_typed_outcomes['failed']} failed, "
            f"{_typed_outcomes['skipped']} cases of untyped fns skipped"
        )
