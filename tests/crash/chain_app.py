"""A worker process for continue-as-new crash tests.

``python chain_app.py URL EFFECTS_DIR MODE [NAMESPACE]``

MODE ``before`` stops this process (it writes ``stopped-<run id>`` and sleeps until
killed) just before it sends the first commit that continues a run as new: the run's
last step has run, its completion rides on that commit. MODE ``after`` stops it right
after that commit is written. MODE ``run`` runs normally. Steps append to
EFFECTS_DIR/effects.log, outside the store, so the parent can count executions.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Any

import tether
from tether.stores import Backend, Capability, Commit, CommitResult, Stores, WorkflowStore

registry = tether.Registry(deployment="chain-crash")
EFFECTS = Path(sys.argv[2] if len(sys.argv) > 2 else ".")
MODE = sys.argv[3] if len(sys.argv) > 3 else "run"


def _log(line: str) -> None:
    with open(EFFECTS / "effects.log", "a") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


def effect(label: str) -> str:
    info = tether.step_info()
    _log(f"start {info.run_id} {label} {info.attempt}")
    _log(f"end {info.run_id} {label} {info.attempt}")
    return label


@registry.workflow(name="relay")
async def relay(ctx: tether.WorkflowContext, k: int, last: int) -> dict[str, Any]:
    hook = ctx.create_hook(token=f"relay-{ctx.chain_id}")
    await ctx.step(effect, f"step{k}", name=f"step{k}")
    if k < last:
        await ctx.continue_as_new(k + 1, last)
    return {"k": k, "run": ctx.run_id, "payload": await hook}


class _Stopping:
    """The workflow store, stopping the process around its first continuation commit."""

    def __init__(self, inner: WorkflowStore) -> None:
        self._inner = inner
        self._stopped = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _stop(self, run_id: str) -> None:
        self._stopped = True
        (EFFECTS / f"stopped-{run_id}").touch()
        time.sleep(3600)  # the whole process, event loop included, until SIGKILL

    async def commit(self, commit: Commit) -> CommitResult:
        moving = commit.continuation is not None and not self._stopped
        if moving and MODE == "before":
            self._stop(commit.run_id)
        result = await self._inner.commit(commit)
        if moving and MODE == "after":
            self._stop(commit.run_id)
        return result


class _Backend:
    def __init__(self, inner: Backend) -> None:
        self._inner = inner
        self._stores = dataclasses.replace(inner.stores, workflow=_Stopping(inner.stores.workflow))

    @property
    def url(self) -> str:
        return self._inner.url

    @property
    def capabilities(self) -> frozenset[Capability]:
        return self._inner.capabilities

    @property
    def stores(self) -> Stores:
        return self._stores

    async def migrate(self) -> None:
        await self._inner.migrate()

    async def connect(self) -> Stores:
        return self._stores

    async def close(self) -> None:
        await self._inner.close()


async def main(url: str, namespace: str | None) -> None:
    options: dict[str, Any] = {} if namespace is None else {"namespace": namespace}
    async with tether.open_backend(url, **options) as backend:
        worker = tether.Worker(
            _Backend(backend), registry, concurrency=4, poll_interval=0.05, lease_seconds=30
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[4] if len(sys.argv) > 4 else None))
