"""`tether dev`: a worker per code generation, a new generation on every code change.

The supervisor (this process) never runs a workflow. It snapshots the app's sources
(`_snapshots`), starts one `tether worker` process per live generation (importing the
app from the generation's snapshot, serving the generation's deployment), moves each
run clients start under the app's deployment to the current generation before it does
anything (`tether.durable.forward_new_runs`), and stops a superseded generation's
worker once none of its runs is unfinished. So a run in flight keeps the code it
started with, and new runs get the newest code.

Restarted, it leaves the unfinished runs of earlier generations dormant (sends to them
are refused with `RunDormantError`) unless ``--resume``: then each such generation gets
its worker back from its snapshot, or, when the snapshot is gone, its runs are
cancelled with a reason saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..agent import AgentHost, Agents, Session
from ..durable import DEV_MARK, Client, Forwarder, dev_generation, is_dev_generation
from ..errors import ConfigurationError, StateConflictError, StoreError, TetherError
from ..stores import Backend, RunRecord, open_backend
from ._format import printable
from ._snapshots import (
    Snapshot,
    digest_tree,
    list_snapshots,
    mark_current,
    mark_superseded,
    prune_snapshots,
    source_files,
    take_snapshot,
)

__all__ = ["PARENT_ENV", "DevOptions", "die_with_parent", "run_dev"]

#: How often unfinished runs are counted (retiring workers, pruning snapshots).
_HOUSEKEEPING = 1.0
#: How long a new generation's worker has to come up before it is given up.
_START_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True, kw_only=True)
class DevOptions:
    """What `tether dev` was asked to do."""

    target: str
    url: str
    deployment: str
    resume: bool
    poll: float
    keep_seconds: float
    keep_last: int
    #: The app's agents, when it is an `Agents` (or `AgentHost`): their idle sessions
    #: move to the current generation (`Session.hand_off`).
    agents: Agents | None = None
    root: Path = field(default_factory=Path.cwd)


def say(text: str) -> None:
    print(printable(f"tether dev: {text}"), flush=True)


#: Set in a generation worker's environment: the supervisor's pid (see `die_with_parent`).
PARENT_ENV = "TETHER_DEV_PARENT"


def die_with_parent() -> None:
    """In a generation's worker: be killed when the `tether dev` that started it dies.

    Linux only (a parent-death signal), set by the worker itself after it started: no
    code runs between fork and exec in the supervisor, which has threads. A supervisor
    already gone by then is seen by the parent pid, and the worker exits at once.
    """
    parent = os.environ.get(PARENT_ENV)
    if not parent:
        return
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != int(parent):
        os._exit(1)


@dataclass(slots=True)
class _Generation:
    snapshot: Snapshot
    deployment: str
    process: subprocess.Popen[bytes] | None = None
    #: Restarts after the worker exited on its own, and when the next one may happen.
    restarts: int = 0
    restart_at: float = 0.0


class _Supervisor:
    def __init__(self, options: DevOptions, backend: Backend) -> None:
        self.o = options
        self.backend = backend
        self.dev_dir = options.root / ".tether" / "dev"
        self.generations: dict[str, _Generation] = {}
        self.current: _Generation | None = None
        self._signature: tuple[tuple[str, int, int], ...] = ()
        # Moves sessions: its deployment is set to the current generation's before each
        # hand-off (the supervisor never runs a workflow, so nothing else reads it).
        self.host = None if options.agents is None else AgentHost(backend, options.agents)

    # -- workers -------------------------------------------------------------------------
    def _spawn(self, generation: _Generation) -> None:
        path = str(generation.snapshot.path)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (path, env.get("PYTHONPATH")) if p)
        env[PARENT_ENV] = str(os.getpid())
        command = [
            sys.executable,
            "-m",
            "tether.cli",
            "worker",
            self.o.target,
            "--db",
            self.o.url,
            "--deployment",
            generation.deployment,
            "--import-path",
            path,
        ]
        generation.process = subprocess.Popen(command, cwd=self.o.root, env=env)

    async def _serving(self, generation: _Generation) -> bool:
        """Wait until the generation's worker is registered; False if it exited first."""
        deadline = time.monotonic() + _START_TIMEOUT
        store = self.backend.stores.workflow
        process = generation.process
        assert process is not None
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return False
            workers = await store.list_workers()
            if any(w.deployment == generation.deployment and w.pid == process.pid for w in workers):
                return True
            await asyncio.sleep(0.05)
        return False

    async def _stop(self, generation: _Generation) -> None:
        process = generation.process
        generation.process = None
        if process is None or process.poll() is not None:
            return
        # SIGINT: the worker stops gracefully and hands back what it holds.
        process.send_signal(signal.SIGINT)
        try:
            await asyncio.to_thread(process.wait, 10)
        except subprocess.TimeoutExpired:
            process.kill()
            await asyncio.to_thread(process.wait)

    async def _start(self, snapshot: Snapshot) -> _Generation | None:
        generation = _Generation(
            snapshot=snapshot, deployment=dev_generation(self.o.deployment, snapshot.digest)
        )
        self._spawn(generation)
        if not await self._serving(generation):
            code = generation.process.poll() if generation.process else None
            await self._stop(generation)
            say(
                f"generation {snapshot.digest} did not start (worker exit status {code}); "
                "see its error above"
            )
            return None
        self.generations[snapshot.digest] = generation
        return generation

    # -- runs ----------------------------------------------------------------------------
    async def _unfinished(self) -> dict[str, list[RunRecord]]:
        """Unfinished runs of this app's dev generations, by generation digest."""
        prefix = f"{self.o.deployment}{DEV_MARK}"
        found: dict[str, list[RunRecord]] = {}
        store = self.backend.stores.workflow
        for status in ("pending", "running"):
            cursor: str | None = None
            while True:
                page = await store.list_runs(status=status, limit=500, cursor=cursor)
                for run in page.items:
                    if run.deployment.startswith(prefix):
                        found.setdefault(run.deployment[len(prefix) :], []).append(run)
                cursor = page.next_cursor
                if cursor is None:
                    break
        return found

    async def _earlier(self, current: str) -> None:
        """Dormant, resumed or cancelled: what becomes of earlier generations' runs."""
        snapshots = {s.digest: s for s in list_snapshots(self.dev_dir)}
        for digest, runs in sorted((await self._unfinished()).items()):
            if digest == current:
                continue
            if not self.o.resume:
                sessions = (
                    "; an idle session among them moves to the current code on its next message"
                    if self.host is not None
                    else ""
                )
                say(
                    f"{len(runs)} unfinished run(s) of generation {digest} left dormant "
                    f"(sends to them are refused{sessions}); restart with --resume to "
                    "recover them"
                )
                continue
            snapshot = snapshots.get(digest)
            if snapshot is None:
                reason = (
                    f"tether dev --resume: the snapshot of generation {digest} is gone "
                    f"(.tether/dev/{digest} was removed), so the code that started this run "
                    "cannot run it again"
                )
                client = Client(self.backend)
                for run in runs:
                    await client.cancel(run.run_id, reason=reason)
                say(
                    f"cancelled {len(runs)} run(s) of generation {digest}: its snapshot is gone "
                    f"(.tether/dev/{digest})"
                )
                continue
            generation = await self._start(snapshot)
            if generation is not None:
                say(
                    f"resumed generation {digest}: {len(runs)} unfinished run(s), worker pid "
                    f"{generation.process.pid if generation.process else '?'}"
                )

    # -- the loop ------------------------------------------------------------------------
    def _changed(self) -> bool:
        """Whether any source file's size or mtime changed since the last look."""
        signature = []
        for path in source_files(self.o.root, self.dev_dir):
            with contextlib.suppress(OSError):
                st = path.stat()
                signature.append((str(path), st.st_mtime_ns, st.st_size))
        found = tuple(signature)
        changed = found != self._signature
        self._signature = found
        return changed

    async def _new_generation(self) -> None:
        assert self.current is not None
        digest, _ = digest_tree(self.o.root, self.dev_dir)
        if digest == self.current.snapshot.digest:
            return
        # Code changed back to a generation still served takes its worker back.
        generation = self.generations.get(digest)
        if generation is None:
            generation = await self._start(take_snapshot(self.o.root, self.dev_dir))
            if generation is None:
                say(f"new runs stay on generation {self.current.snapshot.digest}")
                return
        previous, self.current = self.current, generation
        mark_superseded(previous.snapshot)
        mark_current(generation.snapshot)
        # Idle sessions move before the new generation is announced: the next message
        # sent to one once the reload is seen starts its turn on the new code (waiting
        # for the next housekeeping would leave it to the superseded worker).
        try:
            await self._move_sessions(await self._unfinished())
        except StoreError as exc:
            # The generation is current all the same: housekeeping moves them later.
            say(f"store unavailable, idle sessions move at the next look: {exc}")
        say(
            f"generation {digest} ({generation.deployment}) serving new runs, "
            f"worker pid {generation.process.pid if generation.process else '?'}; "
            f"generation {previous.snapshot.digest} keeps its runs in flight"
        )

    async def _move_sessions(self, unfinished: dict[str, list[RunRecord]]) -> None:
        """Idle sessions on a superseded generation still served move to the current one.

        A session that is busy (a turn running or parked, a step to run again) stays
        and is tried again at the next look; a dormant generation's sessions stay
        dormant (a send to one moves it: `Session.send`'s own hand-off).
        """
        host, current = self.host, self.current
        if host is None or current is None:
            return
        host.agents.registry.deployment = current.deployment
        for digest, runs in sorted(unfinished.items()):
            if digest == current.snapshot.digest or digest not in self.generations:
                continue
            for run in runs:
                session = await self._session_of(host, run)
                try:
                    moved = session is not None and await session.hand_off()
                except StateConflictError as exc:
                    say(f"session {run.run_id!r} stays on generation {digest}: {exc}")
                    continue
                if moved and session is not None:
                    say(
                        f"session {session.session_id!r} moved from generation {digest} to "
                        f"{current.snapshot.digest} (idle)"
                    )

    async def _session_of(self, host: AgentHost, run: RunRecord) -> Session | None:
        """The session whose current run is `run`, or None (a task, a plain workflow)."""
        try:
            handle = await host.client.get(run.run_id, follow=False)
            args = (await handle.input()).args
            if len(args) < 2 or args[0] not in host.agents:
                return None
            session = await host.get_session(str(args[1]))
        except TetherError:
            return None
        return session if session.run_id == (run.chain_id or run.run_id) else None

    async def _housekeeping(self) -> None:
        assert self.current is not None
        unfinished = await self._unfinished()
        await self._move_sessions(unfinished)
        if self.host is not None:
            unfinished = await self._unfinished()
        for digest, generation in list(self.generations.items()):
            if generation is self.current or unfinished.get(digest):
                continue
            await self._stop(generation)
            del self.generations[digest]
            say(f"generation {digest} retired (no unfinished runs)")
        active = set(self.generations) | set(unfinished)
        for digest in prune_snapshots(
            self.dev_dir,
            active=active,
            keep_seconds=self.o.keep_seconds,
            keep_last=self.o.keep_last,
        ):
            say(f"removed snapshot {digest}")

    async def run(self) -> int:
        self.dev_dir.mkdir(parents=True, exist_ok=True)
        self._changed()
        snapshot = take_snapshot(self.o.root, self.dev_dir)
        for other in list_snapshots(self.dev_dir):
            if other.digest != snapshot.digest and other.superseded_at is None:
                mark_superseded(other)
        await self._earlier(snapshot.digest)
        current = await self._start(snapshot)
        if current is None:
            return 2
        self.current = current
        try:
            async with Forwarder(
                self.backend, source=self.o.deployment, target=current.deployment
            ) as forwarder:
                # Said once the forwarder is registered too: a client that sends at once
                # must find the app's own deployment served (else an idle session of a
                # dormant generation reads as stranded instead of moving).
                say(
                    f"generation {snapshot.digest} ({current.deployment}) serving new runs, "
                    f"worker pid {current.process.pid if current.process else '?'}; "
                    f"watching {self.o.root}"
                )
                await self._loop(forwarder)
        finally:
            for generation in self.generations.values():
                await self._stop(generation)
        return 0

    def _revive(self, generation: _Generation) -> None:
        """Start a generation's worker again if it exited, backing off while it keeps at it."""
        process = generation.process
        if process is None or process.poll() is None:
            return
        now = time.monotonic()
        if generation.restart_at == 0.0:
            delay = min(0.5 * 2**generation.restarts, 10.0)
            generation.restart_at = now + delay
            say(
                f"the worker of generation {generation.snapshot.digest} exited "
                f"({process.returncode}); restarting it in {delay:g}s"
            )
        if now >= generation.restart_at:
            generation.restarts += 1
            generation.restart_at = 0.0
            self._spawn(generation)

    async def _loop(self, forwarder: Forwarder) -> None:
        last_housekeeping = 0.0
        while True:
            assert self.current is not None
            try:
                forwarder.target = self.current.deployment
                await forwarder.forward()
                if self._changed():
                    await self._new_generation()
                if time.monotonic() - last_housekeeping >= _HOUSEKEEPING:
                    last_housekeeping = time.monotonic()
                    await self._housekeeping()
            except StoreError as exc:
                say(f"store unavailable, retrying: {exc}")
            for generation in self.generations.values():
                self._revive(generation)
            await asyncio.sleep(self.o.poll)


async def run_dev(options: DevOptions) -> int:
    """Run `tether dev` until interrupted."""
    if is_dev_generation(options.deployment):
        raise ConfigurationError(
            f"deployment {options.deployment!r} names a dev generation; give the app its own"
        )
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if task is not None:
        # SIGTERM stops it like Ctrl-C: its workers hand back what they hold first.
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        async with open_backend(options.url) as backend:
            return await _Supervisor(options, backend).run()
    except asyncio.CancelledError:
        return 143
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
