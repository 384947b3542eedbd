"""SIGKILL a process in the middle of session forks, on SQLite and Postgres.

The session has many turns of long messages, so a fork's one transaction writes a large
transcript copy, a long event stream and a receipt per message. The forking process is
killed at random moments, again and again. Every fork found afterwards is whole (its
transcript, events and receipts are the original's), a fork that did not land left no
run, no events, no receipts and no transcript records; the original is untouched.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.agent import AgentHost
from tether.agent._records._keys import conversation_path
from tether.agent._stored._transcript import Transcript

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("session_fork_app.py")
TURNS = 12
TEXT = "x" * 20_000


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, dict[str, Any]]:
    if request.param == "postgres":
        return request.getfixturevalue("pg_url"), {
            "namespace": request.getfixturevalue("pg_namespace")
        }
    return f"sqlite:///{tmp_path}/session-fork.db", {}


async def test_a_session_fork_killed_midway_leaves_no_fork_or_a_whole_one(
    where: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    url, options = where
    sys.path.insert(0, str(APP.parent))
    from session_fork_app import desk

    async with tether.open_backend(url, **options) as backend:
        host = AgentHost(backend, [desk(*(f"reply {n}" for n in range(TURNS)))])
        async with host.worker(poll_interval=0.02):
            original = await host.open_session("desk", session_id="orig")
            for n in range(TURNS):
                await original.send(f"{n} {TEXT}", client_message_id=f"m{n}")
                await original.wait_for(
                    "turn.completed", after=-1, timeout=30, submission_id=f"orig:m{n}"
                )
        transcript = await original.transcript()
        events = [e.to_json() for e in await original.read_events()]
        # A fork copies the events up to its last turn's end (``turn.completed``).
        ended = max(i for i, e in enumerate(events) if e["type"] == "turn.completed")
        args = [sys.executable, str(APP), url, str(tmp_path), *options.values()]
        env = {**os.environ, "PYTHONPATH": str(APP.parent)}
        rng = random.Random()
        for kill in range(3):
            proc = subprocess.Popen(args, env=env)
            try:
                target = 2 * (kill + 1)
                for _ in range(3000):
                    if (tmp_path / f"forking-{target}").exists():
                        break
                    await asyncio.sleep(0.01)
                else:
                    raise AssertionError("the forking process never got under way")
                await asyncio.sleep(rng.uniform(0, 0.05))
            finally:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
        asked = [p for p in tmp_path.iterdir() if p.name.startswith("forking-")]  # noqa: ASYNC240
        assert len(asked) >= 6
        stores = backend.stores
        whole = 0
        for i in range(len(asked) + 2):
            fork_id = f"f-{i}"
            run = await stores.workflow.get_run(f"session:{fork_id}")
            records = await Transcript(stores, conversation_path("desk", fork_id)).entries()
            receipts = [
                await stores.submissions.get_submission(f"{fork_id}:m{n}") for n in range(TURNS)
            ]
            chunks, _ = await stores.workflow.read_stream(f"session:{fork_id}", "events")
            if run is None:
                # Nothing of a fork that did not land (an empty transcript stream at most).
                assert records == [] and chunks == [] and receipts == [None] * TURNS
                continue
            fork = await host.get_session(fork_id)
            assert records == transcript
            copied = [e.to_json() for e in await fork.read_events()]
            assert copied[: ended + 1] == events[: ended + 1]
            assert [e["type"] for e in copied[ended + 1 :]] == []  # no worker ran it yet
            assert all(r is not None and r.status == "settled" for r in receipts)
            whole += 1
        assert whole >= 5
        assert await original.transcript() == transcript
        assert [e.to_json() for e in await original.read_events()] == events
