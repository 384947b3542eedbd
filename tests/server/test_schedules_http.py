"""Schedules over HTTP: an operator lists, pauses, resumes and triggers; no one else may."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _served import Served, start_served

import tether
from tether.errors import ConfigurationError
from tether.server import ServerOptions


@pytest.fixture
async def operated(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    # lead@acme is an operator; ada and bob (same tenant) and eve are not.
    async for s in start_served(*db, operators=("lead@acme",)):
        yield s


async def _eventually(check: Any, what: str) -> Any:
    deadline = time.monotonic() + 20
    while True:
        found = await check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.05)


async def test_an_operator_controls_the_schedules_and_no_one_else_may(operated: Served) -> None:
    tag = f"http-{secrets.token_hex(6)}"
    registry = tether.Registry(deployment=tag)
    ran: list[str] = []

    @registry.workflow(name="report")
    async def report(ctx: tether.WorkflowContext, *, scheduled_at: str) -> str:
        ran.append(scheduled_at)
        return scheduled_at

    # Hourly: no tick comes during the test, only the one triggered.
    registry.schedule("hourly", report, every=3600.0)
    lead = operated.client("lead")
    async with tether.Worker(operated.backend, registry, poll_interval=0.02):

        async def listed() -> list[dict[str, Any]]:
            r = await lead.get("/v1/schedules")
            assert r.status_code == 200, r.text
            return [s for s in r.json()["schedules"] if s["deployment"] == tag]

        (info,) = await _eventually(listed, "the schedule is listed")
        assert info["name"] == "hourly" and info["workflow"] == "report"
        assert info["every"] == 3600.0 and info["paused"] is False and info["next_tick"]

        for who in ("ada", "eve"):
            for method, path in (
                ("GET", "/v1/schedules"),
                ("POST", "/v1/schedules/hourly/pause"),
                ("POST", "/v1/schedules/hourly/trigger"),
            ):
                r = await operated.client(who).request(method, path)
                assert r.status_code == 403, (who, path, r.text)
                assert r.json()["code"] == "operator_only"
                assert "--operator" in r.json()["detail"]
        anonymous = await operated.client("nobody").get("/v1/schedules")
        assert anonymous.status_code == 401

        r = await lead.post("/v1/schedules/hourly/pause")
        assert r.status_code == 202 and r.json() == {"schedule": "hourly", "control": "pause"}

        async def paused() -> bool:
            return any(s["paused"] and s["next_tick"] is None for s in await listed())

        await _eventually(paused, "the schedule is paused")
        r = await lead.post("/v1/schedules/hourly/trigger")
        assert r.status_code == 202, r.text

        async def triggered() -> bool:
            return len(ran) == 1

        await _eventually(triggered, "the triggered run")
        r = await lead.post("/v1/schedules/hourly/resume")
        assert r.status_code == 202, r.text

        async def resumed() -> bool:
            return any(not s["paused"] and s["next_tick"] for s in await listed())

        await _eventually(resumed, "the schedule is resumed")

        missing = await lead.post("/v1/schedules/nightly/pause")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        assert "no schedule 'nightly' is running" in missing.json()["detail"]
        wrong = await lead.post("/v1/schedules/hourly/stop")
        assert wrong.status_code == 404
        assert ran == [ran[0]] and ran[0]


def test_operators_are_named_as_principals() -> None:
    options = ServerOptions(operators=["lead@acme", "ops", "lead@acme"])
    assert options.operators == ("lead@acme", "ops@ops")
    for bad in ("", "@acme", "lead@", "a@b@c"):
        with pytest.raises(ConfigurationError, match="write ID@TENANT"):
            ServerOptions(operators=[bad])
    with pytest.raises(ConfigurationError, match="sequence of principals"):
        ServerOptions(operators="lead@acme")
