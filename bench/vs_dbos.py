"""tether against DBOS, side by side, measured in one run on one machine.

    python bench/vs_dbos.py [--postgres URL | --no-postgres] [--steps N] [--rounds N]
                            [--blocks N] [--throughput-runs N] [--recovery-runs N]

DBOS is optional (`pip install dbos`; measured with 3.4.0). Without it the script prints
tether's figures and says how to add DBOS's. On each backend, SQLite then Postgres:

1. Per-step cost of a plain ``def`` no-op step (as DBOS users write steps) in a sequential
   workflow: the marginal cost (T(N) - T(1)) / (N - 1), T(1) being the fastest of three
   1-step runs, each T a start plus a wait for the result. It is printed as a ratio to
   one raw durable commit on the same backend, measured in the same process right before
   and right after each round (the mean of N commits): SQLite INSERT+COMMIT in WAL mode
   with synchronous=FULL on a WAL past its first checkpoint (``bench/engine.py``'s steady
   yardstick), Postgres one autocommit INSERT into an
   ordinary, WAL-logged table over one psycopg connection (as ``bench/postgres.py``).
   Figures are medians over all rounds, the ratio the median of the rounds' ratios.
   tether's ``async def`` step is printed for reference.
2. 1-step workflows per second, started and waited for by 1 caller and by 32 concurrent
   callers, each burst after a warm-up; the median of the bursts.
3. Recovery: 200 runs are started in a worker process whose step hangs on its first
   attempt; once all 200 are inside the step the process is SIGKILLed. A fresh process
   then opens the store and the clock starts at ``Worker.start()`` (tether) or
   ``DBOS.launch()`` (DBOS, which recovers the pending workflows of its executor at
   launch); it stops when a count query on a connection of its own sees all 200
   completed (reading results one by one would time the reads, not the recovery).

Each measurement is repeated in ``--blocks`` blocks (default 3) in which the systems take
turns, so a burst of load from elsewhere on a shared machine falls on both.

Fairness:

- One system at a time, each measurement in a fresh subprocess. DBOS keeps its state in
  a process-wide singleton (``DBOS(config=...)`` ... ``DBOS.destroy()``) and starts
  background threads at launch (queue poller, notification listener, scheduler), so it
  cannot share a process with tether without each paying for the other; a subprocess per
  measurement gives each system a clean interpreter and nothing else of the bench
  running beside it (the parent only waits).
- A fresh store per measurement: a new SQLite file; on Postgres a new schema for tether
  (its ``namespace``) and a new database for DBOS (its documented
  ``system_database_url``; DBOS creates the database at launch), dropped afterwards.
- The same durability. tether opens SQLite in WAL mode with synchronous=FULL. DBOS sets
  only ``busy_timeout`` and ``foreign_keys``, so its file stays in SQLite's default
  rollback-journal mode (journal_mode=DELETE) with synchronous=FULL: as durable, but
  every commit also writes, syncs and deletes a journal file. Since journal_mode=WAL is
  stored in the file, the bench creates DBOS's file in WAL mode before DBOS opens it, so
  both commit with WAL and FULL. A row "DBOS as shipped" shows DBOS's per-step cost in
  its default mode, against a raw commit in that same mode. On Postgres both use the
  same server with its settings (synchronous_commit on).
- The same work: a no-op ``def`` step taking and returning an int. DBOS workflows are
  plain ``def`` functions, as its sync users write them; tether workflows are
  ``async def`` (the only kind it has) and run a ``def`` step on the worker's step
  threads. tether's callers are asyncio tasks (``Client.start`` then
  ``handle.result()``), DBOS's are threads (``DBOS.start_workflow`` then
  ``handle.get_result()``); in both the workflow runs in the callers' process. tether
  is timed twice: with a ``Client`` (the run goes through the queue to the process's
  worker) and with ``Worker.client``, which claims the run as it starts it, as DBOS
  starts a workflow in the caller's process without its queue.
- Default settings, except: tether ``Worker(concurrency=32)`` for throughput and
  ``concurrency=200`` for recovery (so all 200 runs can be inside the step at once;
  DBOS's executor has no limit); DBOS ``log_level="WARNING"`` (keeps its launch banner
  out of the output); tether without an encryption key (DBOS stores payloads in clear).
- Recovery: the fresh tether process opens its backend before the clock starts; the
  fresh DBOS process constructs ``DBOS(config=...)`` before it, and connects inside
  ``launch()``, so its figure includes that connection. DBOS recovers by putting the
  pending workflows back on its internal queue, which its queue thread polls about once
  a second; that wait is part of what is timed, as tether's start-up sweep is.

The machine may be shared: read the ratios of one run, not absolute figures across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import json
import os
import secrets
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import tether

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
READY_DIR = "VS_DBOS_READY_DIR"  # the directory where a hanging step leaves its mark
Spec = dict[str, Any]  # what a child process is asked to measure, and where

# -- the work both systems run ---------------------------------------------------------------


def noop(i: int) -> int:
    return i


async def anoop(i: int) -> int:
    return i


def hang_first(i: int) -> int:
    # The mark survives the SIGKILL, so only the first attempt hangs (the same test for
    # both systems, independent of either one's attempt counter).
    mark = Path(os.environ[READY_DIR], str(i))
    if not mark.exists():
        mark.touch()
        time.sleep(3600)
    return i


registry = tether.Registry(deployment="vs-dbos")


@registry.workflow(name="steps")
async def tether_steps(ctx: tether.WorkflowContext, n: int) -> int:
    total = 0
    for i in range(n):
        total += await ctx.step(noop, i)
    return total


@registry.workflow(name="async_steps")
async def tether_async_steps(ctx: tether.WorkflowContext, n: int) -> int:
    total = 0
    for i in range(n):
        total += await ctx.step(anoop, i)
    return total


@registry.workflow(name="hang")
async def tether_hang(ctx: tether.WorkflowContext, i: int) -> int:
    return await ctx.step(hang_first, i)


def dbos_configure(spec: Spec) -> SimpleNamespace:
    """Define the DBOS workflows and construct DBOS (not launched) for `spec`'s store.

    Imported and defined here, not at module level, so tether's processes never load
    DBOS. Explicit names keep the registrations the same in every process, which
    recovery needs (DBOS recovers only workflows of its own application version).
    """
    from dbos import DBOS

    @DBOS.step(name="noop")
    def dbos_noop(i: int) -> int:
        return i

    @DBOS.step(name="hang_first")
    def dbos_hang_first(i: int) -> int:
        return hang_first(i)

    @DBOS.workflow(name="steps")
    def dbos_steps(n: int) -> int:
        total = 0
        for i in range(n):
            total += dbos_noop(i)
        return total

    @DBOS.workflow(name="hang")
    def dbos_hang(i: int) -> int:
        return dbos_hang_first(i)

    DBOS(config={"name": "vs-dbos", "system_database_url": spec["url"], "log_level": "WARNING"})
    return SimpleNamespace(DBOS=DBOS, steps=dbos_steps, hang=dbos_hang)


# -- yardsticks: one raw durable commit ------------------------------------------------------


class SqliteCommits:
    """INSERT+COMMIT on a SQLite file of its own: synchronous=FULL, WAL or rollback journal.

    In WAL mode the file is first taken past its first checkpoint, so every commit
    measured writes over the WAL from its start, as in a store that has run a while
    (a commit that still grows the WAL costs about twice as much: see
    ``bench/engine.py``'s ``RawCommits``).
    """

    def __init__(self, path: str, journal: str = "WAL") -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute(f"PRAGMA journal_mode={journal}")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)")
        wal = f"{path}-wal"
        if journal.upper() == "WAL":
            while not os.path.exists(wal) or os.path.getsize(wal) < 4_000_000:
                self.us(100)
            self.us(200)  # past the checkpoint: written over from now on
        self.us(20)

    def us(self, n: int) -> float:
        """Mean microseconds per commit over `n` commits."""
        started = time.perf_counter()
        for _ in range(n):
            self.conn.execute("BEGIN")
            self.conn.execute("INSERT INTO t (v) VALUES (?)", (b"x" * 64,))
            self.conn.execute("COMMIT")
        return (time.perf_counter() - started) / n * 1e6


class PostgresCommits:
    """One autocommit INSERT into an ordinary (WAL-logged) table: one round trip each."""

    def __init__(self, url: str, schema: str) -> None:
        import psycopg
        from psycopg import sql

        self.conn = psycopg.connect(url, autocommit=True)
        table = sql.Identifier(schema, f"raw_{secrets.token_hex(4)}")
        self.conn.execute(sql.SQL("CREATE TABLE {} (k int PRIMARY KEY, v bytea)").format(table))
        self.insert = sql.SQL("INSERT INTO {} VALUES (%s, %s)").format(table)
        self.k = 0
        self.us(50)  # psycopg prepares the statement after a few uses

    def us(self, n: int) -> float:
        """Mean microseconds per commit over `n` commits."""
        started = time.perf_counter()
        for _ in range(n):
            self.k += 1
            self.conn.execute(self.insert, (self.k, b"x" * 64))
        return (time.perf_counter() - started) / n * 1e6


def yardstick(spec: Spec) -> SqliteCommits | PostgresCommits:
    if spec["backend"] == "sqlite":
        return SqliteCommits(spec["raw"], spec.get("journal", "WAL"))
    return PostgresCommits(spec["base_url"], spec["raw"])


# -- measurements, each run in a child process -----------------------------------------------


@contextlib.asynccontextmanager
async def open_tether(spec: Spec) -> AsyncIterator[tether.Backend]:
    options = {"namespace": spec["namespace"]} if spec["backend"] == "postgres" else {}
    async with tether.open_backend(spec["url"], env={}, **options) as backend:
        yield backend


async def marginal_rounds(
    run: Callable[[str, int], Awaitable[float]],
    kinds: Sequence[str],
    commits: SqliteCommits | PostgresCommits,
    n: int,
    rounds: int,
) -> dict[str, list[float]]:
    """Alternating rounds: the yardstick, then per kind of step min(3 x T(1)) and T(n),
    then the yardstick again. `run(kind, n)` is the seconds of one n-step workflow."""
    samples: dict[str, list[float]] = {"raw": []}
    for kind in kinds:
        samples[kind] = []
        samples[f"{kind} ratio"] = []
        await run(kind, 10)  # warm-up
    for _ in range(rounds):
        before = commits.us(n)
        costs = {}
        for kind in kinds:
            fixed = min([await run(kind, 1) for _ in range(3)])
            costs[kind] = (await run(kind, n) - fixed) / (n - 1) * 1e6
        raw = (before + commits.us(n)) / 2
        samples["raw"].append(raw)
        for kind, cost in costs.items():
            samples[kind].append(cost)
            samples[f"{kind} ratio"].append(cost / raw)
    return samples


async def tether_per_step(spec: Spec) -> dict[str, list[float]]:
    """Per-step cost of tether's def and async def steps against one raw commit."""
    workflows = {"def": tether_steps, "async def": tether_async_steps}
    commits = yardstick(spec)
    async with open_tether(spec) as backend, tether.Worker(backend, registry):
        client = tether.Client(backend)

        async def run(kind: str, n: int) -> float:
            started = time.perf_counter()
            handle = await client.start(workflows[kind], n)
            assert await handle.result(timeout=600) == n * (n - 1) // 2
            return time.perf_counter() - started

        return await marginal_rounds(run, list(workflows), commits, spec["n"], spec["rounds"])


def dbos_per_step(spec: Spec) -> dict[str, list[float]]:
    """Per-step cost of DBOS's def step against one raw commit."""
    app = dbos_configure(spec)
    app.DBOS.launch()
    commits = yardstick(spec)

    async def run(kind: str, n: int) -> float:
        # Blocking on purpose: DBOS runs the workflow on its own executor threads, and
        # nothing else runs on this event loop.
        started = time.perf_counter()
        assert app.DBOS.start_workflow(app.steps, n).get_result() == n * (n - 1) // 2
        return time.perf_counter() - started

    try:
        return asyncio.run(marginal_rounds(run, ["def"], commits, spec["n"], spec["rounds"]))
    finally:
        app.DBOS.destroy()


async def tether_throughput(spec: Spec) -> dict[str, float]:
    """1-step workflows per second with 1 and with 32 concurrent callers.

    Twice: with a `Client` (the run goes through the queue to the worker of this
    process) and with `Worker.client` (the worker claims the run as it starts it, as
    DBOS runs a workflow it starts in the caller's process); keys ``"1"``, ``"32"``
    and ``"eager 1"``, ``"eager 32"``.
    """
    async with (
        open_tether(spec) as backend,
        tether.Worker(backend, registry, concurrency=32) as worker,
    ):
        out: dict[str, float] = {}
        for prefix, client in (("", tether.Client(backend)), ("eager ", worker.client)):

            async def burst(callers: int, total: int, client: tether.Client = client) -> float:
                async def caller(k: int) -> None:
                    for _ in range(k):
                        await (await client.start(tether_steps, 1)).result(timeout=600)

                started = time.perf_counter()
                await asyncio.gather(*(caller(total // callers) for _ in range(callers)))
                return total // callers * callers / (time.perf_counter() - started)

            await burst(1, 20)  # warm-up
            for callers in (1, 32):
                out[f"{prefix}{callers}"] = await burst(callers, spec["runs"])
        return out


def dbos_throughput(spec: Spec) -> dict[str, float]:
    """1-step workflows per second with 1 and with 32 concurrent callers (threads)."""
    app = dbos_configure(spec)
    app.DBOS.launch()

    def caller(k: int) -> None:
        for _ in range(k):
            app.DBOS.start_workflow(app.steps, 1).get_result()

    def burst(callers: int, total: int) -> float:
        with ThreadPoolExecutor(callers) as pool:
            started = time.perf_counter()
            list(pool.map(caller, [total // callers] * callers))
            return total // callers * callers / (time.perf_counter() - started)

    try:
        burst(1, 20)  # warm-up
        return {str(callers): burst(callers, spec["runs"]) for callers in (1, 32)}
    finally:
        app.DBOS.destroy()


async def tether_victim(spec: Spec) -> None:
    """Start the runs and execute them until killed (each hangs in its step)."""
    async with open_tether(spec) as backend:
        client = tether.Client(backend)
        for i in range(spec["runs"]):
            await client.start(tether_hang, i)
        await tether.Worker(backend, registry, concurrency=spec["runs"]).run_forever()


def dbos_victim(spec: Spec) -> None:
    """Start the workflows and execute them until killed (each hangs in its step)."""
    app = dbos_configure(spec)
    app.DBOS.launch()
    for i in range(spec["runs"]):
        app.DBOS.start_workflow(app.hang, i)
    threading.Event().wait()


def completed_query(spec: Spec) -> str:
    """A count of completed runs, from the system's own status table."""
    schema = {"tether": f'"{spec.get("namespace")}".', "dbos": "dbos."}[spec["system"]]
    schema = schema if spec["backend"] == "postgres" else ""
    if spec["system"] == "tether":
        return f"SELECT count(*) FROM {schema}tether_runs WHERE status = 'completed'"
    return f"SELECT count(*) FROM {schema}workflow_status WHERE status = 'SUCCESS'"


def sync_counter(spec: Spec) -> Callable[[], int]:
    """A count of completed runs on a connection of its own."""
    query = completed_query(spec)
    if spec["backend"] == "sqlite":
        conn: Any = sqlite3.connect(spec["path"])
    else:
        import psycopg

        conn = psycopg.connect(spec["url"], autocommit=True)
    return lambda: int(conn.execute(query).fetchone()[0])


@contextlib.asynccontextmanager
async def async_counter(spec: Spec) -> AsyncIterator[Callable[[], Awaitable[int]]]:
    """The same count for a process whose event loop runs the worker: on Postgres over
    an async connection (a blocking round trip would stall the worker); on SQLite the
    read takes microseconds and, in WAL mode, waits for no writer."""
    if spec["backend"] == "sqlite":
        count = sync_counter(spec)

        async def count_sqlite() -> int:
            return count()

        yield count_sqlite
        return
    import psycopg

    async with await psycopg.AsyncConnection.connect(spec["url"], autocommit=True) as conn:

        async def count_postgres() -> int:
            row = await (await conn.execute(completed_query(spec))).fetchone()
            return int(row[0]) if row else 0

        yield count_postgres


async def tether_recover(spec: Spec) -> dict[str, float]:
    """Seconds from a fresh worker's start until every killed run has completed."""
    runs, deadline = spec["runs"], time.monotonic() + 300
    async with open_tether(spec) as backend, async_counter(spec) as count:
        worker = tether.Worker(backend, registry, concurrency=runs)
        started = time.perf_counter()
        await worker.start()
        try:
            while await count() < runs:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"tether: not all {runs} runs completed in 300 s")
                await asyncio.sleep(0.005)
            return {"seconds": time.perf_counter() - started}
        finally:
            await worker.stop()


def dbos_recover(spec: Spec) -> dict[str, float]:
    """Seconds from DBOS.launch() in a fresh process until every killed run has completed."""
    runs, deadline = spec["runs"], time.monotonic() + 300
    app = dbos_configure(spec)
    started = time.perf_counter()
    app.DBOS.launch()
    try:
        count = sync_counter(spec)
        while count() < runs:
            if time.monotonic() > deadline:
                raise RuntimeError(f"DBOS: not all {runs} workflows completed in 300 s")
            time.sleep(0.005)
        return {"seconds": time.perf_counter() - started}
    finally:
        app.DBOS.destroy()


TASKS: dict[tuple[str, str], Callable[[Spec], Any]] = {
    ("tether", "per_step"): lambda s: asyncio.run(tether_per_step(s)),
    ("dbos", "per_step"): dbos_per_step,
    ("tether", "throughput"): lambda s: asyncio.run(tether_throughput(s)),
    ("dbos", "throughput"): dbos_throughput,
    ("tether", "victim"): lambda s: asyncio.run(tether_victim(s)),
    ("dbos", "victim"): dbos_victim,
    ("tether", "recover"): lambda s: asyncio.run(tether_recover(s)),
    ("dbos", "recover"): dbos_recover,
}


def run_child(spec: Spec) -> None:
    """Entry point of a child process: measure, print one JSON line."""
    if "ready" in spec:
        os.environ[READY_DIR] = spec["ready"]
    result = TASKS[spec["system"], spec["task"]](spec)
    print("RESULT " + json.dumps(result), flush=True)


# -- the parent: fresh stores, children, report ----------------------------------------------


class Stores:
    """Fresh stores for each measurement, all removed by `close()`."""

    def __init__(self, tmp: Path, base_url: str | None) -> None:
        self.tmp = tmp
        self.base_url = base_url
        self.schemas: list[str] = []
        self.databases: list[str] = []
        self.raw_schema: str | None = None
        if base_url is not None:
            import psycopg
            from psycopg import sql

            # The yardstick's tables live in a schema of their own in the base database.
            self.raw_schema = f"vsdbos_raw_{secrets.token_hex(4)}"
            self.schemas.append(self.raw_schema)
            with psycopg.connect(base_url, autocommit=True) as conn:
                conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(self.raw_schema)))

    def spec(self, system: str, backend: str, task: str, journal: str = "WAL") -> Spec:
        tag = secrets.token_hex(4)
        if backend == "sqlite":
            path = self.tmp / f"{system}-{task}-{tag}.db"
            if system == "dbos" and journal == "WAL":
                # journal_mode=WAL is kept in the file: DBOS then opens it in WAL mode.
                with contextlib.closing(sqlite3.connect(path)) as conn:
                    conn.execute("PRAGMA journal_mode=WAL")
            url = f"sqlite:///{path}"
            return {
                "system": system,
                "backend": backend,
                "task": task,
                "url": url,
                "path": str(path),
                "journal": journal,
                "raw": str(self.tmp / f"raw-{tag}.db"),
            }
        assert self.base_url is not None
        spec = {
            "system": system,
            "backend": backend,
            "task": task,
            "base_url": self.base_url,
            "raw": self.raw_schema,
        }
        if system == "tether":
            namespace = f"vsdbos_{tag}"
            self.schemas += [namespace, f"{namespace}_keyring"]
            return {**spec, "url": self.base_url, "namespace": namespace}
        database = f"vsdbos_{tag}"
        self.databases.append(database)
        url = urllib.parse.urlsplit(self.base_url)._replace(path=f"/{database}").geturl()
        return {**spec, "url": url}

    def close(self) -> None:
        if self.base_url is None:
            return
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.base_url, autocommit=True) as conn:
            for schema in self.schemas:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )
            for database in self.databases:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                        sql.Identifier(database)
                    )
                )


def child(spec: Spec) -> Any:
    out = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)],
        stdout=subprocess.PIPE,
        text=True,
        timeout=1800,
        check=True,
    ).stdout
    lines = [line for line in out.splitlines() if line.startswith("RESULT ")]
    if not lines:
        raise RuntimeError(f"{spec['system']} {spec['task']}: no result; output:\n{out}")
    return json.loads(lines[-1][len("RESULT ") :])


def recovery(stores: Stores, system: str, backend: str, runs: int) -> float:
    """Kill a worker with `runs` runs mid-step; seconds until a fresh one finished them."""
    spec = {**stores.spec(system, backend, "victim"), "runs": runs}
    spec["ready"] = tempfile.mkdtemp(prefix="ready-", dir=stores.tmp)
    victim = subprocess.Popen([sys.executable, __file__, "--child", json.dumps(spec)])
    deadline = time.monotonic() + 300
    while len(os.listdir(spec["ready"])) < runs:
        if victim.poll() is not None or time.monotonic() > deadline:
            victim.kill()
            raise RuntimeError(f"{system} on {backend}: the runs never all reached the step")
        time.sleep(0.02)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    return float(child({**spec, "task": "recover"})["seconds"])


def med(values: list[float]) -> float:
    return statistics.median(values)


def systems(dbos: bool) -> tuple[str, ...]:
    return ("tether", "dbos") if dbos else ("tether",)


def report_per_step(stores: Stores, backend: str, args: argparse.Namespace, dbos: bool) -> None:
    print(
        f"  per-step cost, marginal over a {args.steps}-step workflow ({args.blocks} "
        f"x {args.rounds} rounds; ratio = step / raw commit of the same round):"
    )
    rows = [("tether", "WAL", "tether")]
    if dbos:
        rows.append(("dbos", "WAL", "DBOS"))
        if backend == "sqlite":
            rows.append(("dbos", "DELETE", "DBOS as shipped"))
    samples: dict[str, dict[str, list[float]]] = {label: {} for _, _, label in rows}
    for _ in range(args.blocks):  # the systems alternate, so both see the same noise
        for system, journal, label in rows:
            spec = stores.spec(system, backend, "per_step", journal)
            got = child({**spec, "n": args.steps, "rounds": args.rounds})
            for key, values in got.items():
                samples[label].setdefault(key, []).extend(values)
    names = {"tether": ["def", "async def"], "DBOS": ["def"], "DBOS as shipped": ["def"]}
    for _, journal, label in rows:
        for kind in names[label]:
            mode = {"WAL": "WAL", "DELETE": "rollback journal"}[journal]
            raw = med(samples[label]["raw"])
            name = f"{label}, {kind} step" + (" (reference)" if kind == "async def" else "")
            print(
                f"    {name:36s} {med(samples[label][kind]):7.0f} us "
                f"{med(samples[label][kind + ' ratio']):6.2f}x raw commit "
                f"({raw:.0f} us{', ' + mode if backend == 'sqlite' else ''})"
            )
    if dbos:
        factor = med(samples["DBOS"]["def"]) / med(samples["tether"]["def"])
        print(f"    DBOS def step / tether def step: {factor:.2f}x", flush=True)


def report_throughput(stores: Stores, backend: str, args: argparse.Namespace, dbos: bool) -> None:
    print(
        f"  1-step workflows per second, start + wait for the result ({args.throughput_runs} "
        f"runs per burst; median of {args.blocks} bursts):"
    )
    rates: dict[str, dict[str, list[float]]] = {system: {} for system in systems(dbos)}
    for _ in range(args.blocks):
        for system in systems(dbos):
            spec = stores.spec(system, backend, "throughput")
            for callers, rate in child({**spec, "runs": args.throughput_runs}).items():
                rates[system].setdefault(callers, []).append(rate)
    rows = [("tether", "tether", ""), ("tether", "tether (Worker.client, eager)", "eager ")]
    if dbos:
        rows.append(("dbos", "DBOS", ""))
    for system, label, prefix in rows:
        print(
            f"    {label:8s} 1 caller {med(rates[system][prefix + '1']):6.0f}/s   "
            f"32 callers {med(rates[system][prefix + '32']):6.0f}/s"
        )
    if dbos:
        for label, prefix in (("tether", ""), ("tether eager", "eager ")):
            one, many = (
                med(rates["tether"][prefix + c]) / med(rates["dbos"][c]) for c in ("1", "32")
            )
            print(f"    {label} / DBOS: {one:.2f}x with 1 caller, {many:.2f}x with 32", flush=True)


def report_recovery(stores: Stores, backend: str, args: argparse.Namespace, dbos: bool) -> None:
    runs = args.recovery_runs
    print(
        f"  recovery: {runs} runs SIGKILLed mid-step, then a fresh process; seconds until "
        f"all completed (median of {args.blocks}):"
    )
    seconds: dict[str, list[float]] = {system: [] for system in systems(dbos)}
    for _ in range(args.blocks):
        for system in systems(dbos):
            seconds[system].append(recovery(stores, system, backend, runs))
    for system in systems(dbos):
        start = "Worker.start()" if system == "tether" else "DBOS.launch()"
        label = "tether" if system == "tether" else "DBOS"
        each = ", ".join(f"{t:.2f}" for t in seconds[system])
        print(f"    {label:8s} {med(seconds[system]):6.2f} s from {start}  ({each})")
    if dbos:
        factor = med(seconds["dbos"]) / med(seconds["tether"])
        print(f"    DBOS / tether: {factor:.1f}x", flush=True)


def postgres_reachable(url: str) -> str | None:
    """None if the server answers, else why not."""
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=5):
            return None
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}".strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", default=DEFAULT_URL, metavar="URL")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3, help="per-step rounds per block")
    parser.add_argument("--blocks", type=int, default=3, help="alternations of the systems")
    parser.add_argument("--throughput-runs", type=int, default=320)
    parser.add_argument("--recovery-runs", type=int, default=200)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(json.loads(args.child))
        return
    try:
        dbos_version: str | None = importlib.metadata.version("dbos")
    except importlib.metadata.PackageNotFoundError:
        dbos_version = None
    print(
        f"tether {tether.__version__} vs "
        f"{'DBOS ' + dbos_version if dbos_version else 'DBOS (not installed)'}; "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; one run, medians"
    )
    if dbos_version is None:
        print("DBOS is not installed: `pip install dbos` to measure it side by side.")
    backends = ["sqlite"]
    base_url: str | None = None
    if not args.no_postgres:
        why = postgres_reachable(args.postgres)
        if why is None:
            backends.append("postgres")
            base_url = args.postgres
        else:
            print(f"Postgres skipped ({args.postgres} unreachable: {why})")
    with tempfile.TemporaryDirectory(prefix="vs-dbos-") as tmp:
        stores = Stores(Path(tmp), base_url)
        try:
            for backend in backends:
                title = "SQLite (WAL, synchronous=FULL)" if backend == "sqlite" else "Postgres"
                print(f"\n{title}")
                report_per_step(stores, backend, args, dbos_version is not None)
                report_throughput(stores, backend, args, dbos_version is not None)
                report_recovery(stores, backend, args, dbos_version is not None)
        finally:
            stores.close()


if __name__ == "__main__":
    main()
