"""`tether usage`'s window ends and table, without a server or a store."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tether.cli._usage import parse_when, usage_lines
from tether.errors import ConfigurationError


def test_a_window_end_is_iso_8601_unix_seconds_or_a_span_back_from_now() -> None:
    now = 1_800_000_000.0
    assert parse_when(None, "--since") is None
    assert parse_when("24h", "--since", now) == now - 86400
    assert parse_when("1.5d", "--since", now) == now - 1.5 * 86400
    assert parse_when("90s", "--since", now) == now - 90
    assert parse_when("1700000000", "--since", now) == 1_700_000_000.0
    day = datetime(2026, 12, 1, tzinfo=UTC).timestamp()
    assert parse_when("2026-12-01", "--since") == day  # UTC unless it says
    assert parse_when("2026-12-01T01:00+01:00", "--since") == day
    with pytest.raises(ConfigurationError, match=r"--until 'yesterday' is not a time.*24h"):
        parse_when("yesterday", "--until")


def test_the_table_has_a_row_per_tenant_agent_and_model_then_all() -> None:
    counts = {"calls": 2, "input_tokens": 1200, "output_tokens": 30, "cached_tokens": 400}
    report = {
        "rows": [
            {"tenant": None, "agent": "ops", "model": "m", **counts, "cost": None},
            {"tenant": "acme", "agent": "ops", "model": "p", **counts, "cost": 0.5},
        ],
        "by_tenant": [
            {"tenant": None, **counts, "cost": 0.0},
            {"tenant": "acme", **counts, "cost": 0.5},
        ],
        "total": {**counts, "calls": 4, "input_tokens": 2400},
        "cost": 0.5,
        "unpriced": ["m"],
        "unreadable": 1,
        "sessions": 2,
    }
    headers, rows, notes = usage_lines(report, None)
    assert headers == ["tenant", "agent", "model", "calls", "input", "cached", "output", "cost"]
    assert rows == [
        ["-", "ops", "m", "2", "1,200", "400", "30", "-"],
        ["acme", "ops", "p", "2", "1,200", "400", "30", "0.500000"],
        ["all", "", "", "4", "2,400", "400", "30", "0.500000"],
    ]
    assert notes.splitlines() == [
        "2 session(s) with calls in the window",
        "no price for m (not in cost)",
        "1 session(s) whose events are gone, not counted",
    ]
    headers, rows, _ = usage_lines(report, "tenant")
    assert headers[0] == "tenant" and [r[0] for r in rows] == ["-", "acme", "all"]
