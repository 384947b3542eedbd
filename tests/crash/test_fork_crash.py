"""SIGKILL a process in the middle of forks, on SQLite and Postgres: no fork is ever half.

The forked run has hundreds of steps, so a fork's one transaction writes hundreds of
events; the process is killed at random moments while it forks, again and again. Every
fork found afterwards holds the whole journal, and no run or event of a fork that did
not land is left behind; the original is untouched.
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
from tether.stores import FORKED_FROM_LABEL, Commit, NewEvent, NewRun, WorkflowStore

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("fork_app.py")
sys.path.insert(0, str(APP.parent))
import fork_app  # noqa: E402


async def _source(store: WorkflowStore) -> None:
    """Run ``src``: `fork_app.STEPS` completed steps, then its end, as a worker writes them."""
    await store.create_run(
        NewRun(
            run_id="src",
            workflow_name="wf",
            input=tether._codec.encode({"args": [], "kwargs": {}}),
            deployment="d",
            engine_version="e",
            queue="q",
        )
    )
    claim = await store.claim_run("src", owner="w", lease_seconds=30)
    events: list[NewEvent] = []
    for slot in range(1, fork_app.STEPS + 1):
        step = f"step_{slot}"
        attrs = {"slot": slot, "name": f"s{slot}", "attempt": 1}
        events.append(NewEvent(event_type="step_created", correlation_id=step, attrs=attrs))
        events.append(NewEvent(event_type="step_completed", correlation_id=step, payload=b"o" * 64))
    events.append(NewEvent(event_type="run_completed", payload=b"done"))
    assert claim.run is not None
    await store.commit(
        Commit(
            run_id="src",
            owner="w",
            epoch=claim.epoch,
            expected_head=claim.run.head,
            events=tuple(events),
        )
    )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, dict[str, Any]]:
    if request.param == "postgres":
        return request.getfixturevalue("pg_url"), {
            "namespace": request.getfixturevalue("pg_namespace")
        }
    return f"sqlite:///{tmp_path}/fork.db", {}


async def test_a_fork_killed_midway_leaves_no_fork_or_a_whole_one(
    where: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    url, options = where
    async with tether.open_backend(url, **options) as backend:
        store = backend.stores.workflow
        await _source(store)
        original = await store.list_events("src")
        args = [sys.executable, str(APP), url, str(tmp_path), *options.values()]
        env = {**os.environ, "PYTHONPATH": str(APP.parent)}
        rng = random.Random()
        for kill in range(3):
            proc = subprocess.Popen(args, env=env)
            try:
                # Wait for a fork to be under way (a few, after the first kill), then
                # kill at a random moment inside the forks that follow.
                target = 2 * (kill + 1)
                for _ in range(1500):
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
        whole = 0
        for i in range(len(asked) + 2):
            run = await store.get_run(f"f-{i}")
            events = await store.list_events(f"f-{i}")
            if run is None:
                assert events == []  # nothing of a fork that did not land
                continue
            # Whole: run_created and both events of every step, the steps' views too.
            assert run.head == 1 + 2 * fork_app.STEPS == len(events)
            steps = await store.list_steps(f"f-{i}")
            assert len(steps) == fork_app.STEPS
            assert all(s.status == "completed" for s in steps)
            assert [m.queue for m in await store.list_run_messages(f"f-{i}")] == ["q"]
            whole += 1
        forks = await store.list_runs(labels={FORKED_FROM_LABEL: "src"}, limit=500)
        assert len(forks.items) == whole >= 5
        assert await store.list_events("src") == original
