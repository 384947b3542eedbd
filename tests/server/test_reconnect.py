"""Reconnecting to a session's stream mid-turn: every event once, in order.

Also with the worker SIGKILLed between the two connections and another worker
process taking the turn over.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _served import Served, start_served

WORKER = Path(__file__).with_name("server_worker.py")


async def follow_sse(
    client: httpx.AsyncClient,
    session_id: str,
    *,
    last_event_id: int | None = None,
    stop_after: str | None = None,
) -> list[dict[str, Any]]:
    """Follow with SSE; stop (dropping the connection) after `stop_after`, or at the end."""
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {}
    out: list[dict[str, Any]] = []
    async with client.stream("GET", f"/v1/sessions/{session_id}/events", headers=headers) as r:
        assert r.status_code == 200, await r.aread()
        frame: dict[str, str] = {}
        async for line in r.aiter_lines():
            if line.startswith(":") or line.startswith("retry:"):
                continue
            if line:
                key, _, value = line.partition(": ")
                frame[key] = value
                continue
            if "data" in frame:
                event = httpx.Response(200, content=frame["data"]).json()
                assert int(frame["id"]) == event["index"]
                assert frame["event"] == event["type"]
                out.append(event)
                if event["type"] == stop_after or event["type"] == "turn.completed":
                    return out
            frame = {}
    return out


def check_exactly_once(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> None:
    indexes = [e["index"] for e in first + second]
    assert indexes == list(range(len(indexes))), indexes
    ids = [e["meta"]["id"] for e in first + second]
    assert len(set(ids)) == len(ids)


async def test_reconnect_mid_turn_with_last_event_id(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "check db")
    first = await follow_sse(served.client(), "s1", stop_after="tool.call")
    assert first[-1]["type"] == "tool.call"
    second = await follow_sse(served.client(), "s1", last_event_id=first[-1]["index"])
    check_exactly_once(first, second)
    assert second[-1]["type"] == "turn.completed"
    stored = await served.events("s1", follow="false")
    assert [e["meta"]["id"] for e in stored[: len(first + second)]] == [
        e["meta"]["id"] for e in first + second
    ]


@pytest.fixture
async def no_worker(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    async for s in start_served(*db, worker=False):
        yield s


def start_worker(served: Served, *, hang: bool) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SERVER_TEST_HANG": "1" if hang else "0"}
    if served.namespace:
        env["TETHER_POSTGRES_NAMESPACE"] = served.namespace
    return subprocess.Popen([sys.executable, str(WORKER), served.db_url], env=env)


@pytest.mark.crash
async def test_reconnect_after_the_worker_was_killed(no_worker: Served) -> None:
    served = no_worker
    await served.session("s1")
    first_worker = start_worker(served, hang=True)
    second_worker: subprocess.Popen[bytes] | None = None
    try:
        await served.send("s1", "check db")
        first = await follow_sse(served.client(), "s1", stop_after="tool.call")
        # The tool hangs in the first worker: kill it while the turn is in flight.
        first_worker.send_signal(signal.SIGKILL)
        first_worker.wait()
        second_worker = start_worker(served, hang=False)
        second = await follow_sse(served.client(), "s1", last_event_id=first[-1]["index"])
        check_exactly_once(first, second)
        assert second[-1]["type"] == "turn.completed"
        attempts = {e["meta"]["attempt"] for e in second if e["type"] == "tool.result"}
        assert attempts == {2}
    finally:
        for proc in (first_worker, second_worker):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
