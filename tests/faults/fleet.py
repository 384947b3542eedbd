"""Worker processes for the fault tests, and the log of their step executions."""

from __future__ import annotations

import asyncio
import collections
import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

APP = Path(__file__).with_name("fault_app.py")


@dataclass
class Execution:
    pid: int
    attempt: int
    start: int
    end: int | None


@dataclass
class Fleet:
    """Worker processes on one store, and the log of their step executions.

    They run `app` (``python APP URL LOG_DIR``, options in the environment), by default
    ``fault_app.py``; the Postgres soak runs its own ``soak_app.py``.
    """

    url: str
    log_dir: Path
    env: dict[str, str] = field(default_factory=dict)
    app: Path = APP
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    killed_at: dict[int, int] = field(default_factory=dict)

    def start(
        self, url: str | None = None, *, wrap: tuple[str, ...] = (), **env: str
    ) -> subprocess.Popen[bytes]:
        """Start a worker process; `wrap` is a command it runs under (e.g. ``unshare``)."""
        path = os.pathsep.join(filter(None, [str(self.app.parent), os.environ.get("PYTHONPATH")]))
        full = {**os.environ, "PYTHONPATH": path, **self.env, **env}
        proc = subprocess.Popen(
            [*wrap, sys.executable, str(self.app), url or self.url, str(self.log_dir)], env=full
        )
        self.procs.append(proc)
        return proc

    def live(self) -> list[subprocess.Popen[bytes]]:
        return [p for p in self.procs if p.poll() is None]

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        # Taken as the signal is sent, not once the process is reaped: a zombie already
        # counts as dead to the other workers, which may take its runs over at once,
        # while this (loaded) process may get the CPU back only much later. A killed
        # execution ends at the kill, or at its start if it began as the signal flew.
        self.killed_at[proc.pid] = time.monotonic_ns()
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def stop(self) -> None:
        for proc in self.live():
            self.kill(proc)

    def executions(self) -> dict[tuple[str, int], list[Execution]]:
        """Step executions by (run, slot); an unfinished one ends when its process died."""
        open_: dict[tuple[str, int, int, int], int] = {}
        done: dict[tuple[str, int], list[Execution]] = collections.defaultdict(list)
        for path in self.log_dir.glob("steps-*.log"):
            for line in path.read_text().splitlines():
                kind, run_id, slot, attempt, pid, at = line.split()
                key = (run_id, int(slot), int(attempt), int(pid))
                if kind == "start":
                    open_[key] = int(at)
                else:
                    start = open_.pop(key)
                    done[key[:2]].append(Execution(key[3], key[2], start, int(at)))
        for (run_id, slot, attempt, pid), start in open_.items():
            done[run_id, slot].append(Execution(pid, attempt, start, None))
        return done

    def started(self, run_id: str) -> int:
        """How many step executions of the run have started."""
        return sum(len(v) for (r, _), v in self.executions().items() if r == run_id)

    def check_no_overlap(self) -> int:
        """Assert no two executions of one step overlapped; return how many were cut short."""
        cut = 0
        for (run_id, slot), executions in self.executions().items():
            executions.sort(key=lambda e: e.start)
            for before, after in itertools.pairwise(executions):
                end = before.end
                if end is None and before.pid in self.killed_at:
                    end = max(self.killed_at[before.pid], before.start)
                assert end is not None, f"{run_id} slot {slot}: pid {before.pid} never ended it"
                assert end <= after.start, (
                    f"{run_id} slot {slot}: attempt {before.attempt} (pid {before.pid}) and "
                    f"attempt {after.attempt} (pid {after.pid}) executed at the same time "
                    f"(starts {before.start} and {after.start}, first ended {end}; step and "
                    f"worker logs in {self.log_dir})"
                )
            cut += sum(e.end is None for e in executions)
        return cut


async def until(check: Callable[[], object], timeout: float = 20, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"condition never held: {what}")
