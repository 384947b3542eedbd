"""`tether demo --engine`: a durable pipeline survives its worker being killed mid-step."""

from __future__ import annotations

import asyncio
import collections
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import tether

from ._demo_engine_app import registry
from ._terminal import show_table


async def run_engine_demo() -> int:
    """Run the demo; returns the process exit code."""
    work = Path(tempfile.mkdtemp(prefix="tether-demo-"))
    db, log, ready = work / "demo.db", work / "steps.log", work / "ready"
    env = {**os.environ, "TETHER_DEMO_LOG": str(log), "TETHER_DEMO_READY": str(ready)}
    cmd = [sys.executable, "-m", "tether.cli._demo_engine_app", str(db)]
    print(f"tether demo — a 5-step order pipeline, journaled in {db}\n")
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        client = tether.Client(backend, registry=registry)
        handle = await client.start("demo.order", "order-42", run_id="order-42")
        print("1. started run 'order-42' and a worker process")
        first = subprocess.Popen(cmd, env=env)  # noqa: ASYNC220
        for _ in range(3000):
            if ready.exists():
                break
            await asyncio.sleep(0.01)
        print(f"2. the worker (pid {first.pid}) is inside step 'charge': sending SIGKILL")
        first.send_signal(signal.SIGKILL)
        first.wait()
        second = subprocess.Popen(cmd, env=env)  # noqa: ASYNC220
        print(f"3. started a new worker (pid {second.pid}); it recovers the run at once")
        try:
            result = await handle.result(timeout=60)
        finally:
            second.send_signal(signal.SIGTERM)
            second.wait()
        print(f"4. the run completed: {result}\n")
        runs = collections.defaultdict(list)
        for line in log.read_text().splitlines():
            pid, label, attempt = line.split()
            runs[label].append((int(pid), int(attempt)))
        rows = []
        for step in await handle.steps():
            label = step.name.rsplit("//", 1)[-1]
            executions = runs[label]
            where = ", ".join(
                f"attempt {a} in {'first' if p == first.pid else 'second'} worker"
                for p, a in executions
            )
            if all(p == first.pid for p, _ in executions):
                verdict = "ran once before the crash; replayed from the journal, not re-run"
            elif any(p == first.pid for p, _ in executions):
                verdict = "interrupted by the crash; ran again"
            else:
                verdict = "ran after the restart"
            rows.append([str(step.slot), label, step.status, str(step.attempt), where, verdict])
        headers = ["slot", "step", "status", "attempts", "executions", "what happened"]
        show_table(headers, rows, status="status")
        print(f"\nInspect it yourself: tether runs show order-42 --db sqlite:///{db}")
    return 0
