"""The typed `kruise_core.Schedule`: parse once, chained next fire times. Cross-checked against
every `cron.next` vector case (the typed path must give the vector's answer too)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

import kruise_core
from conftest import REPO

Schedule = kruise_core.Schedule
UTC = dt.timezone.utc


def cron_next_cases() -> list[Any]:
    doc = json.loads((REPO / "conformance" / "vectors" / "cron.json").read_text(encoding="utf-8"))
    return [pytest.param(c, id=c["name"]) for c in doc["cases"] if c["fn"] == "cron.next"]


def test_issue_example() -> None:
    s = Schedule("0 */2 * * *", time_zone="Asia/Shanghai")
    after = dt.datetime(2026, 6, 21, 10, 17, tzinfo=UTC)
    assert s.next(after, 3) == [
        dt.datetime(2026, 6, 21, 10, 0, tzinfo=UTC) + dt.timedelta(hours=2 * k) for k in (1, 2, 3)
    ]
    assert s.location == "Asia/Shanghai"
    assert s.spec == "0 */2 * * *" and s.time_zone == "Asia/Shanghai"
    assert repr(s) == "Schedule(\"0 */2 * * *\", time_zone=\"Asia/Shanghai\")"


def test_new_york_spring_forward_is_skipped() -> None:
    s = Schedule("30 2 * * *", time_zone="America/New_York")
    got = s.next("2026-03-07T12:00:00Z", 2)
    assert [t.isoformat() for t in got] == ["2026-03-09T06:30:00+00:00", "2026-03-10T06:30:00+00:00"]


def test_naive_datetime_is_utc_and_next_unix_agrees() -> None:
    s = Schedule("*/5 * * * *")
    naive = dt.datetime(2025, 10, 10, 9, 0)
    assert s.next(naive, 1) == [dt.datetime(2025, 10, 10, 9, 5, tzinfo=UTC)]
    assert s.next_unix(1760086800, 2) == [1760087100, 1760087400]
    assert s.location is None


def test_impossible_schedule_gives_empty_list() -> None:
    assert Schedule("0 0 30 2 *").next("2026-01-01T00:00:00Z", 3) == []


def test_describe_is_cron_parse() -> None:
    assert Schedule("0 10 * * ?", time_zone="Asia/Tokyo").describe() == kruise_core.call(
        "cron.parse", {"schedule": "0 10 * * ?", "timeZone": "Asia/Tokyo"}
    )


@pytest.mark.parametrize(
    "spec,kind",
    [("0 0 * * 7", "above_maximum"), ("", "empty_spec"), ("TZ=Mars/Olympus 0 0 * * *", "unknown_location"),
     ("@every 1d", "invalid_duration"), ("* * * *", "wrong_field_count")],
)
def test_errors_carry_the_spec_kind(spec: str, kind: str) -> None:
    with pytest.raises(kruise_core.KruiseError) as e:
        Schedule(spec)
    assert e.value.kind == kind
    assert isinstance(e.value, ValueError)


def test_bad_after_is_invalid_input() -> None:
    with pytest.raises(kruise_core.KruiseError) as e:
        Schedule("* * * * *").next("yesterday")
    assert e.value.kind == "invalid_input"


@pytest.mark.parametrize("case", cron_next_cases())
def test_typed_next_matches_vectors(case: Any) -> None:
    inp = case["input"]
    if "expect_error" in case:
        with pytest.raises(kruise_core.KruiseError) as e:
            Schedule(inp["schedule"], inp.get("timeZone"), inp.get("localTimeZone", "UTC"))
        assert e.value.kind == case["expect_error"]
        return
    s = Schedule(inp["schedule"], inp.get("timeZone"), inp.get("localTimeZone", "UTC"))
    got = s.next(inp["after"], inp["count"])
    assert [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in got] == case["expect"]
