"""Engine benchmark on SQLite (WAL, synchronous=FULL). Prints medians and ratios from one run.

    python bench/engine.py [ROUNDS]

1. one raw durable SQLite commit (INSERT + COMMIT, WAL, FULL) — the yardstick, in two
   kinds: on a WAL in its steady state (past its first checkpoint, as the store's own
   is here) and on a fresh WAL (see `RawCommits`);
2. per-step cost of sequential workflows of 1, 10 and 100 steps, and the marginal cost
   of one more step (async, and a sync def step run on a step thread), each as a ratio
   to the raw commit, in ROUNDS alternating rounds (default 7; the yardstick measured
   around each round, the ratio the median of the rounds'); and a step's own statements
   replayed raw on tether's schema, with no engine (`RawStepCommits`): their ratio to
   the raw commit is the floor of a step's on this schema, the step's to them the
   engine's own cost; and the same statements handed to a writer thread and awaited
   from the event loop, with a no-op sync body on a step thread for a sync step
   (`RawStepCommits.median_handed_off`): the least any engine on an event loop pays;
3. where a step's time goes, as CPU per step by thread (the event loop's, the SQLite
   writer's, the step threads'; Linux), beside one raw commit's own CPU: the loop's
   share bounds a step from below however fast the store;
4. 1-step workflows (a def step) per second, start + result, 1 and 32 callers, started
   through the queue (Client) and eagerly on the worker (Worker.client);
5. time from worker start until 200 runs, each SIGKILLed mid-step, have all finished.
"""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import tether

registry = tether.Registry(deployment="bench")


def noop(i: int) -> int:
    return i


async def anoop(i: int) -> int:
    return i


def hang_first(i: int) -> int:
    info = tether.step_info()
    if info.attempt == 1:
        ready = os.environ.get("BENCH_READY_DIR")
        if ready:
            Path(ready, info.run_id).touch()
        time.sleep(3600)
    return i


@registry.workflow(name="steps")
async def steps(ctx: tether.WorkflowContext, n: int) -> int:
    for i in range(n):
        await ctx.step(anoop, i, name="s")
    return n


@registry.workflow(name="sync_steps")
async def sync_steps(ctx: tether.WorkflowContext, n: int) -> int:
    for i in range(n):
        await ctx.step(noop, i, name="s")
    return n


@registry.workflow(name="crashy")
async def crashy(ctx: tether.WorkflowContext) -> int:
    return await ctx.step(hang_first, 1)


class RawCommits:
    """One durable INSERT + COMMIT at a time (WAL, FULL) on one connection: the yardstick.

    SQLite's WAL file grows until its first checkpoint (1,000 pages) and is then written
    over from its start, as in any store that has run a while. A commit that extends
    the file costs about twice one that does not (the file system syncs the new size
    too: ~280 against ~135 us on this machine class). So there are two yardsticks:
    `steady` commits past the first checkpoint; otherwise every measurement starts a
    new file, as a store's first 1,000 commits do (what the figures before this were,
    unknowingly, measured against: a yardstick on one file drifted from the first kind
    to the second after five rounds).
    """

    def __init__(self, tmp: Path, *, steady: bool) -> None:
        self.tmp = tmp
        self.steady = steady
        self.files = 0
        self.conn = self._open()
        if steady:
            wal = Path(f"{tmp}/raw-steady.db-wal")
            while (wal.stat().st_size if wal.exists() else 0) < 4_000_000:
                self._commits(100)
            self._commits(200)  # past the checkpoint: written over from now on

    def _open(self) -> sqlite3.Connection:
        self.files += 1
        name = "raw-steady.db" if self.steady else f"raw-fresh-{self.files}.db"
        conn = sqlite3.connect(self.tmp / name, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)")
        return conn

    def median(self, n: int) -> float:
        if not self.steady:
            self.conn.close()
            self.conn = self._open()
        return self._commits(n)

    def _commits(self, n: int) -> float:
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            self.conn.execute("BEGIN")
            self.conn.execute("INSERT INTO t (v) VALUES (?)", (b"x" * 64,))
            self.conn.execute("COMMIT")
            times.append(time.perf_counter() - t0)
        return statistics.median(times)


class RawStepCommits:
    """A step's own statements, replayed raw (no engine, no rules) on tether's schema.

    What one sequential step commits on SQLite (a step's end and the next one's start
    in one transaction): the run's row and the step's read, the `step_completed` and
    `step_created` events, the step row's update and the next one's insert, the run's
    update. Their time against one raw commit is the floor of a step's ratio on this
    schema, whatever the engine's own cost; the engine's step against it is that cost.
    """

    def __init__(self, path: Path) -> None:
        # Used by one thread at a time: this one, or a writer thread of its own.
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.run_id = "run_raw_steps"
        self.conn.execute(
            "INSERT INTO tether_runs (run_id, workflow_name, status, deployment, "
            "engine_version, queue, head, lease_owner, lease_epoch, created_at, updated_at, "
            "chain_id) VALUES (?, 'steps', 'running', 'bench', 'e', 'q', 0, 'w', 1, 0, 0, ?)",
            (self.run_id, self.run_id),
        )
        self.n = 0
        # Past the WAL's first checkpoint, as the store's own file is.
        wal = Path(f"{path}-wal")
        while wal.stat().st_size < 4_000_000:
            self._commits(100)

    def _one(self) -> None:
        c, run, i = self.conn, self.run_id, self.n
        self.n += 1
        slot, done, new = 2 * i + 2, f"step_{i:020d}", f"step_{i + 1:020d}"
        step_input = b'TJ1\x00{"args":[1],"kwargs":{}}'
        c.execute("BEGIN IMMEDIATE")
        c.execute("SELECT * FROM tether_runs WHERE run_id = ?", (run,)).fetchone()
        c.execute(
            "SELECT * FROM tether_steps WHERE run_id = ? AND step_id = ?", (run, done)
        ).fetchone()
        c.execute(
            "INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, "
            "payload, created_at) VALUES (?, ?, 'step_completed', ?, '{\"at\":1.0}', ?, 1.0)",
            (run, slot, done, b"TJ1\x001"),
        )
        c.execute(
            "UPDATE tether_steps SET status = 'completed', attempt = 1, output = ?, "
            "error = NULL, completed_at = 1.0, retry_after = NULL "
            "WHERE run_id = ? AND step_id = ?",
            (b"TJ1\x001", run, done),
        )
        c.execute(
            "INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, "
            "payload, created_at) VALUES (?, ?, 'step_created', ?, ?, ?, 1.0)",
            (run, slot + 1, new, '{"slot":1,"name":"s","attempt":1,"format_version":1}',
             step_input),
        )  # fmt: skip
        c.execute(
            "INSERT INTO tether_steps (run_id, step_id, slot, name, status, attempt, "
            "format_version, input, started_at) VALUES (?, ?, ?, 's', 'running', 1, 1, ?, 1.0)",
            (run, new, slot + 1, step_input),
        )
        c.execute(  # its status and owner unchanged, neither is assigned (as the store does)
            "UPDATE tether_runs SET output = NULL, error = NULL, head = ?, lease_epoch = 1, "
            "lease_expires_at = 2.0, updated_at = 1.0, completed_at = NULL WHERE run_id = ?",
            (slot + 1, run),
        )
        c.execute("COMMIT")

    def _commits(self, n: int) -> float:
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            self._one()
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    def median(self, n: int) -> float:
        return self._commits(n)

    async def median_handed_off(self, n: int, *, body: bool) -> float:
        """The same statements as an engine on an event loop must run them: the least it pays.

        Each step's statements run on a writer thread of their own, awaited from the
        loop (two hand-offs); with `body`, a no-op sync body also runs on a step thread,
        started by the writer once the commit is done and awaited from the loop, as the
        store starts a sync step's body (three hand-offs on the step's path). No engine,
        no rules, no encoding: whatever any Python engine on this schema does more
        comes on top.
        """
        loop = asyncio.get_running_loop()
        jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        bodies: queue.SimpleQueue[Any] = queue.SimpleQueue()

        def serve(work: queue.SimpleQueue[Any]) -> None:
            while (job := work.get()) is not None:
                job()

        def resolve(future: asyncio.Future[None]) -> None:
            loop.call_soon_threadsafe(future.set_result, None)

        threads = [threading.Thread(target=serve, args=(q,)) for q in (jobs, bodies)]
        for thread in threads:
            thread.start()
        times = []
        try:
            for _ in range(n):
                t0 = time.perf_counter()
                committed, ran = loop.create_future(), loop.create_future()

                def commit(committed: asyncio.Future[None] = committed,
                           ran: asyncio.Future[None] = ran) -> None:  # fmt: skip
                    try:
                        self._one()
                    except BaseException as exc:
                        loop.call_soon_threadsafe(committed.set_exception, exc)
                        raise
                    if body:
                        bodies.put(lambda: resolve(ran))
                    resolve(committed)

                jobs.put(commit)
                await committed
                if body:
                    await ran
                times.append(time.perf_counter() - t0)
        finally:
            jobs.put(None)
            bodies.put(None)
            for thread in threads:
                thread.join()
        return statistics.median(times)


async def per_step(client: tether.Client, n: int, reps: int, workflow: Any = steps) -> float:
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        await (await client.start(workflow, n)).result(timeout=120)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


async def throughput(client: tether.Client, callers: int, total: int) -> float:
    async def one_caller(k: int) -> None:
        for _ in range(k):
            await (await client.start(sync_steps, 1)).result(timeout=120)

    t0 = time.perf_counter()
    await asyncio.gather(*(one_caller(total // callers) for _ in range(callers)))
    return (total // callers * callers) / (time.perf_counter() - t0)


async def recovery(tmp: Path, runs: int = 200) -> float:
    db = tmp / "recovery.db"
    ready = tmp / "ready"
    ready.mkdir()
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        client = tether.Client(backend)
        handles = [await client.start(crashy) for _ in range(runs)]
    bench_dir = str(Path(__file__).parent)
    code = (
        f"import asyncio, sys; sys.path.insert(0, {bench_dir!r}); import engine, tether\n"
        "async def main():\n"
        f"    async with tether.open_backend({'sqlite:///' + str(db)!r}) as b:\n"
        f"        await tether.Worker(b, engine.registry, concurrency={runs}).run_forever()\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], env={**os.environ, "BENCH_READY_DIR": str(ready)}
    )
    while len(os.listdir(ready)) < runs:  # noqa: ASYNC110 - another process signals by files
        await asyncio.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        t0 = time.perf_counter()
        async with tether.Worker(backend, registry, concurrency=runs, poll_interval=0.01):
            # All finished: counted from a connection of its own, one cheap query per
            # look (reading 200 results one by one would time the reads, not the
            # recovery).
            counter = sqlite3.connect(db)
            count = "SELECT count(*) FROM tether_runs WHERE status = 'completed'"
            while counter.execute(count).fetchone()[0] < runs:  # noqa: ASYNC110
                await asyncio.sleep(0.005)
            elapsed = time.perf_counter() - t0
            counter.close()
            client = tether.Client(backend)
            assert [await (await client.get(h.run_id)).result(timeout=1) for h in handles] == [
                1
            ] * runs
            return elapsed


def thread_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of each thread of this process, by thread name."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        name = names.get(int(tid), "other")
        kind = "step threads" if name.startswith("tether-step") else name.split(":")[0]
        out[kind] = out.get(kind, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


async def cpu_per_step(client: tether.Client, workflow: Any, runs: int) -> dict[str, float]:
    """CPU per step of 100-step runs, by thread (Linux; {} elsewhere)."""
    if not sys.platform.startswith("linux"):
        return {}
    before = thread_cpu()
    await per_step(client, 100, runs, workflow)
    after = thread_cpu()
    steps_run = 100 * runs
    return {k: (v - before.get(k, 0.0)) / steps_run for k, v in after.items()}


def raw_commit_cpu(tmp: Path, n: int = 2000) -> float:
    """CPU (user + system) of one raw durable commit on a WAL past its checkpoint."""
    tmp.mkdir(exist_ok=True)
    raw = RawCommits(tmp, steady=True)
    start = time.thread_time()
    raw._commits(n)
    spent = (time.thread_time() - start) / n
    raw.conn.close()
    return spent


async def marginal(client: tether.Client, workflow: Any) -> float:
    """The cost of one more step: a run of 100 steps against one of 10."""
    return (await per_step(client, 100, 1, workflow) - await per_step(client, 10, 3, workflow)) / 90


async def main(rounds: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="tether-bench-"))
    yardsticks = {
        "fresh": RawCommits(tmp, steady=False),
        "steady": RawCommits(tmp, steady=True),
    }
    async with tether.open_backend(f"sqlite:///{tmp}/raw-steps.db"):
        pass  # tether's schema, for the statements replayed raw
    raw_steps = RawStepCommits(tmp / "raw-steps.db")
    async with tether.open_backend(f"sqlite:///{tmp}/bench.db") as backend:
        async with tether.Worker(backend, registry, concurrency=32, poll_interval=0.01) as worker:
            client = tether.Client(backend)
            await per_step(client, 10, 3)  # warm-up
            # The store past its own first checkpoint too, as the steady yardstick.
            wal = tmp / "bench.db-wal"
            while not wal.exists() or wal.stat().st_size < 4_000_000:
                await per_step(client, 100, 1)
            await per_step(client, 100, 2)
            # The machine may be shared and noisy: the yardsticks are measured just
            # before and just after each round, and each round's ratio is to their mean;
            # the figures are medians over the rounds.
            samples: dict[str, list[float]] = {
                k: []
                for k in ("async", "sync", "raw steps", "floor async", "floor sync", *yardsticks)
            }
            ratios: dict[tuple[str, str], list[float]] = {}
            whole: dict[int, list[float]] = {1: [], 10: [], 100: []}
            for _ in range(rounds):
                before = {k: y.median(100) for k, y in yardsticks.items()}
                raw_step = raw_steps.median(100)
                for n in whole:
                    whole[n].append(await per_step(client, n, 3 if n < 100 else 1))
                step = (whole[100][-1] - whole[10][-1]) / 90
                sync = await marginal(client, sync_steps)
                samples["async"].append(step)
                samples["sync"].append(sync)
                raw_step = (raw_step + raw_steps.median(100)) / 2
                samples["raw steps"].append(raw_step)
                floors = {
                    "floor async": await raw_steps.median_handed_off(100, body=False),
                    "floor sync": await raw_steps.median_handed_off(100, body=True),
                }
                for k, floor_time in floors.items():
                    samples[k].append(floor_time)
                ratios.setdefault(("sync", "raw steps"), []).append(sync / raw_step)
                for k, y in yardsticks.items():
                    commit = (before[k] + y.median(100)) / 2
                    samples[k].append(commit)
                    ratios.setdefault(("async", k), []).append(step / commit)
                    ratios.setdefault(("sync", k), []).append(sync / commit)
                    ratios.setdefault(("raw steps", k), []).append(raw_step / commit)
                    for f, floor_time in floors.items():
                        ratios.setdefault((f, k), []).append(floor_time / commit)
            med = {k: statistics.median(v) for k, v in samples.items()}
            print(f"{rounds} rounds; medians:")
            print(
                f"raw durable SQLite commit (WAL, FULL): {med['steady'] * 1e6:8.1f} us steady "
                f"(WAL past its first checkpoint), {med['fresh'] * 1e6:.1f} us on a fresh WAL"
            )
            for n, times in whole.items():
                t = statistics.median(times)
                print(f"workflow of {n:3d} steps: {t / n * 1e6:8.1f} us per step  (whole run "
                      f"{t * 1e3:.2f} ms)")  # fmt: skip
            for key, label in (("async", "an async"), ("sync", "a sync (def)")):
                print(f"marginal cost of {label} step: {med[key] * 1e6:7.1f} us =")
                for k, what in (("steady", "a steady"), ("fresh", "a fresh-WAL")):
                    spread = ", ".join(f"{r:.2f}" for r in ratios[key, k])
                    print(
                        f"    {statistics.median(ratios[key, k]):5.2f} x {what} raw commit "
                        f"(rounds: {spread})"
                    )
            # The floor of a step's ratio on this schema: its own statements, no engine.
            floor = statistics.median(ratios["raw steps", "steady"])
            print(
                f"a step's own statements replayed raw (no engine): {med['raw steps'] * 1e6:6.1f}"
                f" us = {floor:.2f} x a steady raw commit; the sync step = "
                f"{statistics.median(ratios['sync', 'raw steps']):.2f} x that"
            )
            # The least an engine on an event loop pays on this schema: the statements
            # plus the thread hand-offs on a step's path, nothing else.
            for key, label in (("floor async", "an async"), ("floor sync", "a sync (def)")):
                print(
                    f"  the same, handed off as {label} step's must be (no engine): "
                    f"{med[key] * 1e6:6.1f} us = "
                    f"{statistics.median(ratios[key, 'steady']):.2f} x a steady raw commit"
                )
            # Where a step's time goes, as CPU: what the event loop's thread spends per
            # step, with no store work in it, bounds the step from below however fast
            # the commit; the writer's share is the store's statements, the rules and
            # the commit's own sync.
            commit_cpu = raw_commit_cpu(tmp / "cpu")
            for key, workflow in (("async", steps), ("sync (def)", sync_steps)):
                spent = await cpu_per_step(client, workflow, 5)
                if spent:
                    parts = ", ".join(
                        f"{k} {v * 1e6:.0f} us" for k, v in sorted(spent.items()) if v >= 1e-6
                    )
                    print(f"CPU per {key} step, by thread: {parts}")
            print(
                f"  (one raw commit's own CPU: {commit_cpu * 1e6:.0f} us; its wall time "
                f"{med['steady'] * 1e6:.0f} us)"
            )
            print("1-step workflows (a def step), start + result:")
            for label, starter in (
                ("Client (queue)", client),
                ("Worker.client (eager)", worker.client),
            ):
                for callers in (1, 32):
                    rates = [
                        await throughput(starter, callers, 320 if callers > 1 else 200)
                        for _ in range(3)
                    ]
                    print(
                        f"  {label:22s} {callers:2d} caller(s): {statistics.median(rates):8.0f} /s"
                        f"  (median of 3)"
                    )
    for yardstick in (*yardsticks.values(), raw_steps):
        yardstick.conn.close()
    elapsed = [await recovery(Path(tempfile.mkdtemp(prefix="tether-bench-"))) for _ in range(3)]
    print(
        f"200 runs killed mid-step: all finished {statistics.median(elapsed):.3f} s after "
        "worker start (median of 3)"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 7))
