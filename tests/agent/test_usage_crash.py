"""SIGKILL a real worker after the provider answered, before the reply's commit.

The worker (``usage_crash_app.py``) runs with ``TETHER_CRASH_AT_COMMIT=before:3``: it
kills itself right before its third commit, the one that records the model's reply
and ends the turn. The agent has a budget: the call's settle, written when the
provider answered, kept what it used, so it is on record although no event of the
reply ever landed. The next worker's attempt calls the model again (the reply never
committed); both calls were paid for, and every reading of
usage (`Session.usage`, `AgentHost.usage`, ``GET /v1/sessions/{id}/usage``, ``GET
/v1/inspect/usage``, ``tether usage``, ``tether sessions usage``) counts both, the
first marked retried, and none counts a call twice.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from _harness import WorkerProcesses

from tether.agent import TokenCounts
from tether.server import BearerTokens, Principal, ServerOptions, create_app
from tether.testing import ScriptedModel

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("usage_crash_app.py")
sys.path.insert(0, str(APP.parent))
import usage_crash_app as app  # noqa: E402

#: The worker's commits: its claim, the turn's start, then the reply with the turn's end.
REPLY_COMMIT = 3
ONE = TokenCounts(
    calls=1,
    input_tokens=app.USAGE.input_tokens,
    output_tokens=app.USAGE.output_tokens,
    cached_tokens=app.USAGE.cached_tokens,
)
TWO = TokenCounts(
    calls=2,
    input_tokens=2 * ONE.input_tokens,
    output_tokens=2 * ONE.output_tokens,
    cached_tokens=2 * ONE.cached_tokens,
)
TOKEN = "tok-ada-0123456789abcdef"


def _json(counts: TokenCounts) -> dict[str, int]:
    return {
        "calls": counts.calls,
        "input_tokens": counts.input_tokens,
        "output_tokens": counts.output_tokens,
        "cached_tokens": counts.cached_tokens,
    }


def _cli(store: WorkerProcesses, *argv: str) -> subprocess.CompletedProcess[str]:
    path = [str(APP.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), **store.env}
    command = [sys.executable, "-m", "tether.cli", *argv, "--db", store.url]
    done = subprocess.run(
        [*command, "--app", "usage_crash_app:agents"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done


async def test_a_call_answered_before_a_kill_is_counted_and_marked_retried(
    worker_processes: WorkerProcesses,
) -> None:
    store = worker_processes
    host = app.build_host(store.backend, store.dir)
    session = await host.open_session("metered", session_id="paid-twice", owner="acme")
    await session.send("what is it?", client_message_id="m1")
    store.env["TETHER_CRASH_AT_COMMIT"] = f"before:{REPLY_COMMIT}"
    doomed = store.spawn(APP)
    assert await asyncio.to_thread(doomed.wait, 60) == -9  # it killed itself
    del store.env["TETHER_CRASH_AT_COMMIT"]

    # The provider answered, the reply never committed: its usage is on record anyway.
    events = await session.read_events()
    types = [e.type for e in events]
    assert "message.completed" not in types and "turn.completed" not in types, types
    assert ScriptedModel.count_calls(store.dir / "calls.log") == 1
    before = await session.usage()
    assert (before.total, before.retried) == (ONE, TokenCounts())

    store.spawn(APP)
    done = await session.wait_for("turn.completed", timeout=60)
    assert ScriptedModel.count_calls(store.dir / "calls.log") == 2
    # The turn's own sums are its committed replies': one call.
    assert done.data.usage == ONE  # type: ignore[union-attr]
    completed = [e for e in await session.read_events() if e.type == "message.completed"]
    assert [e.data.usage.attempt for e in completed] == [2]  # type: ignore[union-attr]
    settled = await store.backend.stores.budgets.settled_calls("paid-twice")
    assert [r.reservation_id.rsplit("#", 1)[1] for r in settled] == ["1", "2"]
    # Both calls were counted against the budget too.
    status = await session.budget()
    assert status is not None and status.used_tokens == TWO.input_tokens + TWO.output_tokens

    usage = await session.usage()
    assert usage.total == TWO and usage.retried == ONE
    assert usage.by_model == {app.MODEL: TWO}
    assert usage.by_turn == {done.meta.turn_id: TWO}
    assert usage.cost == pytest.approx(2 * app.PRICES[app.MODEL].cost(ONE))

    report = await host.usage()
    assert (report.total, report.retried, report.sessions) == (TWO, ONE, 1)
    (row,) = report.rows
    assert (row.tenant, row.agent, row.model, row.counts, row.retried) == (
        "acme",
        "metered",
        app.MODEL,
        TWO,
        ONE,
    )

    # The HTTP routes: the session's, and the inspector's across sessions.
    served = create_app(
        host,
        authenticator=BearerTokens({TOKEN: Principal(id="ada", tenant="acme")}),
        options=ServerOptions(operators=("ada@acme",)),
    )
    transport = httpx.ASGITransport(app=served)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(
        transport=transport, base_url="http://tether", headers=headers
    ) as http:
        r = await http.get("/v1/sessions/paid-twice/usage")
        assert r.status_code == 200, r.text
        assert r.json()["total"] == _json(TWO) and r.json()["retried"] == _json(ONE)
        r = await http.get("/v1/inspect/usage")
        assert r.status_code == 200, r.text
        sums = r.json()
        assert sums["total"] == _json(TWO) and sums["retried"] == _json(ONE)
        assert sums["rows"][0]["retried"] == _json(ONE) and sums["rows"][0]["calls"] == 2
        assert sums["by_agent"][0]["retried"] == _json(ONE)

    # The CLI, in a process of its own, on the store.
    report_json = json.loads((await asyncio.to_thread(_cli, store, "usage", "--json")).stdout)
    assert report_json["total"] == _json(TWO) and report_json["retried"] == _json(ONE)
    table = (await asyncio.to_thread(_cli, store, "usage")).stdout
    assert "1 of the calls (430 tokens) retried" in table, table
    shown = (await asyncio.to_thread(_cli, store, "sessions", "usage", "paid-twice")).stdout
    assert "1 of the calls (430 tokens) retried" in shown, shown
