"""The crash kit: SIGKILL your own workflows and agents at every commit boundary.

`kill_at_each_commit` runs your code's worker (``tether worker MODULE:ATTR``) in a
subprocess that kills itself with SIGKILL at its k-th commit, for k = 1, 2, ... in
turn, each on a store of its own, twice: just before the commit is sent (what the
steps did since the last commit is lost and runs again: where a side effect without
an idempotency key happens twice) and just after it landed. Meanwhile your `work`
callback does what a caller of your code does (start a run and wait for its result,
open a session and wait for its turn) in the test's process; once the worker is dead
a clean one takes over, and your `check` callback checks your invariants (a payment
made once, a tool run once) on that store. It stops at the first k the work finishes
before: every boundary of it has been crashed at.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from .. import open_backend
from ..durable._crash_points import CRASH_ENV
from ..errors import ConfigurationError
from ..stores import Backend

__all__ = ["CrashBoundary", "CrashReport", "kill_at_each_commit"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class CrashBoundary(Generic[T]):
    """One crash of the kit: the worker died at commit `k` (or the work ended first).

    Attributes:
        k: The commit at which the worker killed itself.
        when: ``"before"`` it was sent, or ``"after"`` it landed.
        crashed: Whether it did (False: the work finished in fewer commits).
        result: What `work` returned.
        url: The store this boundary ran on (kept, to look at afterwards).
    """

    k: int
    when: str
    crashed: bool
    result: T
    url: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CrashReport(Generic[T]):
    """Every boundary crashed at; `commits` is how many the work takes uncrashed."""

    boundaries: tuple[CrashBoundary[T], ...]

    @property
    def commits(self) -> int:
        """The commits of an uncrashed run of the work (the last k crashed at)."""
        return max((b.k for b in self.boundaries if b.crashed), default=0)


#: A worker process started ahead of its turn: it imports tether, then waits for a line
#: on stdin and runs ``tether worker`` (`_release`), or exits at end of file unreleased.
#: Each boundary's doomed worker and its clean successor start so while the boundary
#: before is under way, and neither touches a store before it is released: what a
#: boundary's worker does, and when, is what a worker started at that moment does.
_STANDBY = """\
import sys
import tether.agent
import tether.cli
if sys.stdin.readline() != "go\\n":
    raise SystemExit(0)
raise SystemExit(tether.cli.main(sys.argv[1:]))
"""


def _worker(target: str, url: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A ``tether worker`` for `target` on `url`, waiting to be released (`_release`)."""
    return subprocess.Popen(
        [sys.executable, "-c", _STANDBY, "worker", target, "--db", url],
        env={**os.environ, **env},
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )


def _release(proc: subprocess.Popen[bytes]) -> None:
    """Let a waiting worker (`_worker`) start."""
    assert proc.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.write(b"go\n")
        proc.stdin.close()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    if proc.stdin is not None:
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()


def _url(directory: Path, k: int, when: str) -> str:
    return f"sqlite:///{directory / f'boundary-{when}-{k}.db'}"


async def kill_at_each_commit(
    target: str,
    work: Callable[[Backend], Awaitable[T]],
    *,
    directory: Path,
    check: Callable[[Backend, CrashBoundary[T]], Awaitable[None]] | None = None,
    max_commits: int = 200,
    timeout: float = 60.0,
    env: dict[str, str] | None = None,
) -> CrashReport[T]:
    """Crash `target`'s worker after each of its commits in turn, and check each time.

    Args:
        target: What ``tether worker`` runs: ``MODULE:ATTR`` naming a `Registry`, an
            `Agents` or an `AgentHost`, importable by the worker subprocess (set
            ``PYTHONPATH`` in `env` if it is not on the path).
        work: Does what a caller of your code does, on the backend it is given, and
            returns what your `check` needs (a run's result, a session's reply). It
            must finish: the kit waits for it through the crash and the take-over.
        directory: Where the stores go (one SQLite file a boundary, kept).
        check: Checks your invariants after a boundary, on its store; raise (an
            `AssertionError`) when one is broken. The kit adds which boundary it was.
        max_commits: The most boundaries to try.
        timeout: Seconds `work` may take at one boundary, crash and take-over included.
        env: Environment variables of the worker subprocesses.

    Returns:
        Every boundary, the last one the work finished before.

    Raises:
        AssertionError: `check` failed at a boundary (the message says which, with the
            store to look at), or the work took longer than `timeout`.
        ConfigurationError: `max_commits` boundaries all crashed (raise it), or a bad
            argument.
    """
    if max_commits < 1:
        raise ConfigurationError(f"max_commits must be at least 1, not {max_commits!r}")
    await asyncio.to_thread(directory.mkdir, parents=True, exist_ok=True)
    env = dict(env or {})
    order = [(k, when) for k in range(1, max_commits + 1) for when in ("before", "after")]

    def doomed(index: int) -> subprocess.Popen[bytes] | None:
        if index >= len(order):
            return None
        k, when = order[index]
        return _worker(target, _url(directory, k, when), {**env, CRASH_ENV: f"{when}:{k}"})

    boundaries: list[CrashBoundary[T]] = []
    waiting = doomed(0)
    try:
        for index, (k, when) in enumerate(order):
            assert waiting is not None
            this, waiting = waiting, doomed(index + 1)
            boundary = await _boundary(
                work,
                check,
                this,
                _worker(target, _url(directory, k, when), env),
                directory,
                k,
                when,
                timeout,
            )
            boundaries.append(boundary)
            if not boundary.crashed:
                return CrashReport(boundaries=tuple(boundaries))
    finally:
        if waiting is not None:
            _stop(waiting)
    raise ConfigurationError(
        f"the work still crashed after {max_commits} commits; raise max_commits"
    )


async def _boundary(
    work: Callable[[Backend], Awaitable[T]],
    check: Callable[[Backend, CrashBoundary[T]], Awaitable[None]] | None,
    doomed: subprocess.Popen[bytes],
    clean: subprocess.Popen[bytes],
    directory: Path,
    k: int,
    when: str,
    timeout: float,
) -> CrashBoundary[T]:
    """One boundary: `doomed` (set to die at it) and then `clean`, both still waiting."""
    url = _url(directory, k, when)
    where = f"a SIGKILL {when} commit {k} (store {url})"
    try:
        async with open_backend(url) as backend:
            _release(doomed)
            task = asyncio.ensure_future(work(backend))
            try:
                crashed = await _until_dead_or_done(doomed, task, timeout)
                if crashed:
                    _release(clean)
                try:
                    result = await asyncio.wait_for(task, timeout)
                except TimeoutError:
                    raise AssertionError(
                        f"the work did not finish within {timeout} s after {where}"
                    ) from None
                boundary = CrashBoundary(k=k, when=when, crashed=crashed, result=result, url=url)
                if check is not None:
                    try:
                        await check(backend, boundary)
                    except AssertionError as exc:
                        raise AssertionError(f"after {where}: {exc}") from exc
            finally:
                task.cancel()
    finally:
        _stop(doomed)
        _stop(clean)
    return boundary


async def _until_dead_or_done(
    proc: subprocess.Popen[bytes], task: asyncio.Future[Any], timeout: float
) -> bool:
    """Whether the worker killed itself (True) before the work finished (False)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        code = proc.poll()
        if code is not None:
            if code != -signal.SIGKILL:
                raise AssertionError(f"the worker exited with status {code}, not a SIGKILL")
            return True
        if task.done():
            if task.exception() is not None:
                task.result()  # the work's own failure, as it is
            return False
        await asyncio.sleep(0.01)
    raise AssertionError(f"neither a crash nor the work's end within {timeout} s")
