"""Runs typed_usage.py (the file scripts/test-all checks with ``mypy --strict``)."""

from __future__ import annotations

import typed_usage


def test_typed_usage_runs() -> None:
    typed_usage.main()
