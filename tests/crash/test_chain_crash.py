"""SIGKILL a worker around a continue-as-new commit, on SQLite and Postgres.

Killed just before the commit (the run's last step has run, its completion rides on
that commit) or just after it, the chain never lacks an active run, the hook it holds
is never free, a payload sent while the worker is dead arrives once, and a new worker
finishes the chain with each step run again only where its completion was lost.
"""

from __future__ import annotations

import asyncio
import collections
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import tether
from tether.stores import ACTIVE_RUN_STATUSES

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("chain_app.py")
sys.path.insert(0, str(APP.parent))
import chain_app  # noqa: E402


@dataclass
class Chain:
    url: str
    namespace: str | None
    dir: Path
    client: tether.Client
    backend: tether.Backend
    procs: list[subprocess.Popen[bytes]]

    def start_worker(self, mode: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": str(APP.parent)}
        args = [sys.executable, str(APP), self.url, str(self.dir), mode]
        if self.namespace is not None:
            args.append(self.namespace)
        proc = subprocess.Popen(args, env=env)
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def starts(self) -> collections.Counter[tuple[str, str]]:
        path = self.dir / "effects.log"
        lines = [line.split() for line in path.read_text().splitlines()] if path.exists() else []
        return collections.Counter((e[1], e[2]) for e in lines if e[0] == "start")

    async def stopped(self, run_id: str) -> None:
        for _ in range(3000):
            if (self.dir / f"stopped-{run_id}").exists():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"the worker never reached the continuation of {run_id!r}")

    async def active_runs(self, chain: str) -> list[str]:
        store = self.backend.stores.workflow
        found = []
        for generation in range(5):
            run_id = tether.stores.successor_run_id(chain, generation)
            run = await store.get_run(run_id)
            if run is not None and run.status in ACTIVE_RUN_STATUSES:
                found.append(run_id)
        return found


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def chain(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Chain]:
    namespace = None
    if request.param == "postgres":
        url = request.getfixturevalue("pg_url")
        namespace = request.getfixturevalue("pg_namespace")  # dropped after the test
        opened = tether.open_backend(url, namespace=namespace, pool_size=4)
    else:
        url = f"sqlite:///{tmp_path}/chain.db"
        opened = tether.open_backend(url)
    async with opened as backend:
        client = tether.Client(backend, registry=chain_app.registry)
        harness = Chain(url, namespace, tmp_path, client, backend, [])
        try:
            yield harness
        finally:
            for proc in harness.procs:
                if proc.poll() is None:
                    harness.kill(proc)


async def test_killed_before_the_continue_commit(chain: Chain) -> None:
    handle = await chain.client.start(chain_app.relay, 0, 2, run_id="r")
    worker = chain.start_worker("before")
    await chain.stopped("r")
    chain.kill(worker)
    # The run's last step ran; its completion and the successor were not written: the
    # run is still the chain's one active run, and it still holds the hook.
    assert await chain.active_runs("r") == ["r"]
    store = chain.backend.stores.workflow
    hook = await store.get_hook("relay-r")
    assert hook is not None and hook.run_id == "r"
    await chain.client.resume_hook("relay-r", "sent while dead")
    chain.start_worker("run")
    outcome = await handle.result(timeout=60)
    assert outcome == {"k": 2, "run": "r~2", "payload": "sent while dead"}
    # Only the step whose completion was lost ran again; each other step ran once.
    starts = chain.starts()
    assert starts == {("r", "step0"): 2, ("r~1", "step1"): 1, ("r~2", "step2"): 1}
    statuses = [(await store.get_run(r)).status for r in ("r", "r~1", "r~2")]  # type: ignore[union-attr]
    assert statuses == ["continued", "continued", "completed"]
    assert await store.get_run("r~3") is None


async def test_killed_right_after_the_continue_commit(chain: Chain) -> None:
    handle = await chain.client.start(chain_app.relay, 0, 2, run_id="r")
    worker = chain.start_worker("after")
    await chain.stopped("r")
    chain.kill(worker)
    # The commit ended the run and started its successor together: the successor is
    # the one active run, with its wake-up queued, and holds the moved hook.
    assert await chain.active_runs("r") == ["r~1"]
    store = chain.backend.stores.workflow
    hook = await store.get_hook("relay-r")
    assert hook is not None and hook.run_id == "r~1"
    await chain.client.resume_hook("relay-r", "sent while dead")
    chain.start_worker("run")
    outcome = await handle.result(timeout=60)
    assert outcome == {"k": 2, "run": "r~2", "payload": "sent while dead"}
    assert chain.starts() == {("r", "step0"): 1, ("r~1", "step1"): 1, ("r~2", "step2"): 1}
    (step0,) = await store.list_steps("r")
    assert (step0.status, step0.attempt) == ("completed", 1)
