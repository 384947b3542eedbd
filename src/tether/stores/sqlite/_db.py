"""One SQLite file: a writer thread that group-commits, and a reader thread.

Every write is a plain function `fn(conn) -> T` run on the writer thread inside a
savepoint. The writer drains whatever writes are waiting and runs them in one
transaction, so concurrent callers share one fsync; each write still sees its own
effects rolled back alone if it raises. A caller's future resolves only after COMMIT
returned, so a result a caller sees is durable.

The writer also keeps rows its own transactions read or wrote (`SqliteDatabase.kept`),
so the next write to the same run need not read them back. They are exactly what the
file holds for as long as every write since they were kept went through this writer
and said it keeps them current (``write(..., keeps=True)``): the writer forgets them
all when another connection committed (SQLite's ``data_version``, looked at under the
write lock), when a write rolls back, and after any write that did not say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from ...errors import (
    ConfigurationError,
    FormatVersionError,
    InvalidInputError,
    StoreError,
    StoreUnavailableError,
    TetherError,
)
from ._kept_rows import KEPT_BYTES, KEPT_ROWS, KeptRows

T = TypeVar("T")
log = logging.getLogger("tether.stores.sqlite")

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]

_MAX_BATCH = 256
#: Seconds between looks for other connections' commits while watched (`watch`) and
#: busy: within `WATCH_BUSY_FOR` seconds of a write of this process or of another
#: connection's commit. Quiet longer, the writer looks every `WATCH_QUIET_INTERVAL`
#: (a process that only follows costs a fraction of the CPU; the first commit another
#: process makes after a quiet spell is noticed that much later, the next ones fast).
WATCH_INTERVAL = 0.002
WATCH_QUIET_INTERVAL = 0.02
WATCH_BUSY_FOR = 0.25
#: Seconds a read may hold the calling thread (the event loop) before it is run again
#: on the reader thread instead (`SqliteDatabase.read`).
INLINE_READ_SECONDS = 0.002
#: Inline reads in a row after which a read first lets the event loop turn.
_STREAK = 32


@dataclass(slots=True)
class _Job:
    fn: Callable[[sqlite3.Connection], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    #: Called on this thread once the write is durable (see `SqliteDatabase.write`).
    after: Callable[[], None] | None = None
    #: The write keeps `SqliteDatabase.kept` current (see `SqliteDatabase.write`).
    keeps: bool = False


#: Wakes the writer for a look at other connections' commits (`SqliteDatabase.watch`).
_LOOK: Any = object()


def _resolve(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if fut.done():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


def _resolve_all(outcomes: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for fut, ok, value in outcomes:
        _resolve(fut, ok, value)


def _writable(path: Path) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def not_writable(path: Path) -> str | None:
    """Why this process cannot write the database at `path`, or None.

    SQLite in WAL mode writes the file and, next to it, its -wal and -shm files, which
    it creates and deletes: the directory must be writable too.
    """
    if path.exists() and not _writable(path):
        return f"the file {str(path)!r} is not writable"
    directory = path.parent if str(path.parent) else Path(".")
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if os.access(existing, os.W_OK | os.X_OK):
        return None
    if existing != directory:
        return (
            f"its directory {str(directory)!r} cannot be created: {str(existing)!r} is not writable"
        )
    sidecars = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
    if path.exists() and all(s.exists() and _writable(s) for s in sidecars):
        return None
    return (
        f"its directory {str(directory)!r} is not writable (SQLite creates "
        "the -wal and -shm files next to the database)"
    )


def _open_failure(path: Path, exc: Exception) -> TetherError:
    """The typed error for a file SQLite cannot open, or cannot use."""
    if isinstance(exc, sqlite3.OperationalError | OSError):
        reason = not_writable(path)
        if reason is not None:
            return ConfigurationError(
                f"SQLite file {str(path)!r} is not writable: {reason}; tether writes to its "
                "store even to read it (leases, WAL). Make it writable, or point tether at "
                "another path"
            )
        return ConfigurationError(f"SQLite file {str(path)!r} cannot be opened: {exc}")
    return FormatVersionError(
        f"{str(path)!r} is not a SQLite database ({exc}); it was not made by tether: "
        "point tether at another file"
    )


def connect_file(
    path: Path, *, synchronous: Synchronous, busy_timeout_ms: int
) -> sqlite3.Connection:
    """Open a connection in autocommit mode with tether's pragmas.

    Raises:
        ConfigurationError: The file or its directory is not writable, or the file
            cannot be opened.
        FormatVersionError: The file is not a SQLite database.
    """
    reason = not_writable(path)
    if reason is not None:
        # Said before SQLite tries: it would open a read-only file read-only, and the
        # first write would fail far from here (or look like a corrupt file).
        raise _open_failure(path, sqlite3.OperationalError(reason))
    try:
        conn = sqlite3.connect(
            str(path), isolation_level=None, check_same_thread=False, timeout=busy_timeout_ms / 1000
        )
    except sqlite3.Error as exc:
        raise _open_failure(path, exc) from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("PRAGMA foreign_keys = OFF")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _open_failure(path, exc) from exc
    return conn


class SqliteDatabase:
    """A SQLite file opened by one process: one writer thread, one reader thread.

    Args:
        path: The database file; its directory is created if missing.
        synchronous: SQLite's `synchronous` pragma. `FULL` (default) fsyncs every commit;
            `NORMAL` may lose the last commits on power loss (never on a process crash).
        busy_timeout_ms: How long a write waits for another process's write lock.
    """

    def __init__(
        self, path: Path, *, synchronous: Synchronous = "FULL", busy_timeout_ms: int = 30_000
    ) -> None:
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ConfigurationError(
                f"synchronous must be one of OFF, NORMAL, FULL, EXTRA, not {synchronous!r}"
            )
        self.path = path
        self.synchronous: Synchronous = synchronous
        self.busy_timeout_ms = busy_timeout_ms
        self._writes: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._reads: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._closed = False
        # (loop, callback) told of other connections' commits; None: nobody asks.
        self._watch: tuple[asyncio.AbstractEventLoop, Callable[[], None]] | None = None
        # The connection reads run on at once (`read`), the thread it belongs to, and
        # the time the read under way must end by (its progress handler looks).
        self._inline: sqlite3.Connection | None = None
        self._inline_thread: int | None = None
        self._inline_deadline = [float("inf")]
        # Inline reads since the event loop (of those reads) last turned (see `read`).
        self._streak = 0
        self._streak_loop: asyncio.AbstractEventLoop | None = None
        #: Rows the writer's transactions read or wrote, by a key their writes choose;
        #: only write functions (on the writer thread) touch it. See the module's
        #: docstring for why what is here is what the file holds.
        self.kept = KeptRows()
        # `PRAGMA data_version` on the writer's connection when `kept` was last checked,
        # and when the watcher last looked (None: it has not, or could not read it).
        self._kept_version: int | None = None
        self._seen: int | None = None
        # Until when the watch looks every `WATCH_INTERVAL` (see there).
        self._busy_until = 0.0

    def open_connection(self) -> sqlite3.Connection:
        """A new connection to the file with tether's pragmas (used for migrations).

        Raises:
            ConfigurationError: The file or its directory is not writable.
            FormatVersionError: The file is not a SQLite database.
        """
        reason = not_writable(self.path)
        if reason is not None:
            raise _open_failure(self.path, sqlite3.OperationalError(reason))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _open_failure(self.path, exc) from exc
        return connect_file(
            self.path, synchronous=self.synchronous, busy_timeout_ms=self.busy_timeout_ms
        )

    def start(self) -> None:
        """Start the writer and reader threads."""
        if self._threads:
            return
        writer = self.open_connection()
        reader = self.open_connection()
        self._threads = [
            threading.Thread(
                target=self._write_loop,
                args=(writer,),
                daemon=True,
                name=f"tether-sqlite-writer:{self.path.name}",
            ),
            threading.Thread(
                target=self._read_loop,
                args=(reader,),
                daemon=True,
                name=f"tether-sqlite-reader:{self.path.name}",
            ),
        ]
        for thread in self._threads:
            thread.start()

    async def write(
        self,
        fn: Callable[[sqlite3.Connection], T],
        *,
        after: Callable[[], None] | None = None,
        keeps: bool = False,
    ) -> T:
        """Run `fn` in a write transaction; returns after the commit is durable.

        `fn` must only read and write through the connection: when another write of
        its batch fails, the batch is rolled back and `fn` runs again. `after`, if
        given, is called on the writer thread right after the COMMIT that made `fn`'s
        write durable (not if `fn` raised), before the caller hears of it. With
        `keeps`, `fn` promises that every row it changes of those `kept` may hold, it
        changes in `kept` too; otherwise `kept` is forgotten once `fn` ran.
        """
        return await self._submit(self._writes, fn, after, keeps)

    def watch(self, callback: Callable[[], None] | None) -> None:
        """Call `callback` (on this event loop) after other connections commit; None stops.

        The writer thread asks SQLite's ``PRAGMA data_version`` on its own connection,
        which changes only when another connection commits (another process, or another
        `SqliteDatabase` on the file): the commits of this one never wake anybody. It
        looks at every write (in its BEGIN) and, while idle, every `WATCH_INTERVAL`
        seconds (`WATCH_QUIET_INTERVAL` after a quiet spell); once when the watch starts,
        so nothing committed before its first look is missed.
        """
        self._watch = None if callback is None else (asyncio.get_running_loop(), callback)
        if callback is not None and self._threads:
            self._writes.put(_LOOK)  # an idle writer takes its first look now

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` in a read transaction (a consistent WAL snapshot).

        A read runs at once on the calling thread when it can, without a hand-off to
        the reader thread and back (two thread switches, often costlier than the read):
        in WAL mode a reader never waits for writers. It is bounded: one that runs past
        `INLINE_READ_SECONDS`, or finds the file busy (a recovery, an exclusive lock),
        is interrupted and run again on the reader thread, so the event loop is never
        held longer than that. `fn` only reads, so running it again is running it once.
        """
        if self._closed or not self._threads:
            raise StoreError(f"the SQLite database {str(self.path)!r} is not open")
        conn = self._inline_connection()
        if conn is not None:
            loop = asyncio.get_running_loop()
            if loop is not self._streak_loop:
                self._streak, self._streak_loop = 0, loop
            elif self._streak >= _STREAK:
                # Many reads in a row and the loop has not turned: let it (a caller
                # polling in a loop with no other wait must not starve the rest).
                await asyncio.sleep(0)
            if self._streak == 0:
                loop.call_soon(self._loop_turned)
            self._streak += 1
            done, value = self._read_inline(conn, fn)
            if done:
                return cast(T, value)
        return await self._submit(self._reads, fn)

    def _loop_turned(self) -> None:
        self._streak = 0

    def _inline_connection(self) -> sqlite3.Connection | None:
        """The calling thread's inline reader: one thread's only (the first to read)."""
        if self._inline_thread != threading.get_ident():
            if self._inline_thread is not None:
                return None  # another thread reads inline: this one hands off
            self._inline_thread = threading.get_ident()
        if self._inline is None:
            try:
                conn = self.open_connection()
                conn.execute("PRAGMA busy_timeout = 0")  # busy: hand off, never wait
            except TetherError:
                return None  # the reader thread's connection says what is wrong
            deadline = self._inline_deadline
            conn.set_progress_handler(lambda: time.monotonic() > deadline[0], 1000)
            self._inline = conn
        return self._inline

    def _read_inline(
        self, conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]
    ) -> tuple[bool, T | None]:
        self._inline_deadline[0] = time.monotonic() + INLINE_READ_SECONDS
        try:
            conn.execute("BEGIN")
            try:
                value = fn(conn)
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            # Interrupted (past its time) or busy: the reader thread reads it.
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            log.debug("an inline read of %s goes to the reader thread: %s", self.path, exc)
            return False, None
        except BaseException as exc:
            wrapped = _wrap(exc)
            if wrapped is exc:
                raise
            raise wrapped from exc
        finally:
            self._inline_deadline[0] = float("inf")
        return True, value

    async def _submit(
        self,
        q: queue.SimpleQueue[_Job | None],
        fn: Callable[[sqlite3.Connection], T],
        after: Callable[[], None] | None = None,
        keeps: bool = False,
    ) -> T:
        if self._closed or not self._threads:
            raise StoreError(f"the SQLite database {str(self.path)!r} is not open")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        q.put(_Job(fn, loop, fut, after, keeps))
        return await fut

    async def close(self) -> None:
        """Finish queued work and stop the threads."""
        if self._closed:
            return
        self._closed = True
        if self._inline is not None:
            self._inline.close()
            self._inline = None
        threads, self._threads = self._threads, []

        def join() -> None:
            # The reader's connection closes first, then the writer's, never both at
            # once: the last connection to close checkpoints the WAL into the file and
            # deletes it, and two closing together can each see the other still open,
            # leaving the WAL (and the migration in it) beside the file.
            self._reads.put(None)
            for thread in threads[1:]:
                thread.join()
            self._writes.put(None)
            for thread in threads[:1]:
                thread.join()

        await asyncio.to_thread(join)

    # -- threads ------------------------------------------------------------------
    def _look(self, version: int | None) -> None:
        """Tell the watcher if another connection committed since the last look.

        Args:
            version: ``PRAGMA data_version`` now; None when it could not be read
                (busy or failing: "maybe", the followers read anyway).
        """
        seen, self._seen = self._seen, version
        watch = self._watch
        if watch is None:
            return
        if seen is None or version != seen:
            self._busy_until = time.monotonic() + WATCH_BUSY_FOR
            loop, callback = watch
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(callback)

    def _write_loop(self, conn: sqlite3.Connection) -> None:
        try:
            while True:
                if self._watch is None:
                    self._seen = None
                    first = self._writes.get()
                else:
                    busy = time.monotonic() < self._busy_until
                    interval = WATCH_INTERVAL if busy else max(WATCH_INTERVAL, WATCH_QUIET_INTERVAL)
                    try:
                        first = self._writes.get(timeout=interval)
                    except queue.Empty:
                        first = _LOOK
                if first is _LOOK:
                    # Idle: a look of its own. A write looks in its BEGIN (`_begin`).
                    try:
                        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
                    except sqlite3.Error:
                        version = None
                    self._look(version)
                    continue
                if first is None:
                    return
                # A write of this process: another's answer to it may follow (a worker's
                # events after a server's admission), so the watch looks fast a while.
                self._busy_until = time.monotonic() + WATCH_BUSY_FOR
                batch = [first]
                stop = False
                while len(batch) < _MAX_BATCH:
                    try:
                        job = self._writes.get_nowait()
                    except queue.Empty:
                        break
                    if job is None:
                        stop = True
                        break
                    if job is not _LOOK:
                        batch.append(job)
                self._run_batch(conn, batch)
                if stop:
                    return
        finally:
            conn.close()

    def _run_batch(self, conn: sqlite3.Connection, batch: list[_Job]) -> None:
        try:
            results = self._batch_results(conn, batch)
        except sqlite3.Error as exc:
            # The transaction itself failed (a full disk, an I/O error; SQLite may have
            # rolled it back already): nothing of the batch is written, every caller is
            # told so, and the writer thread lives on for the next batch.
            self.kept.clear()
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            err = StoreUnavailableError(f"write to {str(self.path)!r} failed: {exc}")
            results = [(False, err)] * len(batch)
        # One wake-up per event loop for the whole batch, not one per write: each is a
        # lock, a write to the loop's self-pipe and, on the loop, a turn of its own.
        woken: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        for job, (ok, value) in zip(batch, results, strict=True):
            if ok and job.after is not None:
                try:
                    job.after()
                except Exception:  # its contract is never to raise; the write stands
                    log.exception("a callback after a durable write failed")
            woken.setdefault(job.loop, []).append((job.future, ok, value))
        for loop, outcomes in woken.items():
            loop.call_soon_threadsafe(_resolve_all, outcomes)

    def _begin(self, conn: sqlite3.Connection) -> None:
        """BEGIN IMMEDIATE; forget `kept` if another connection committed since it was kept."""
        conn.execute("BEGIN IMMEDIATE")
        # Under the write lock nobody else commits until this transaction ends, and the
        # version changes exactly when someone else committed since the last look. The
        # watcher's look is this one too: one statement per write, not two.
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        self._look(version)
        kept = self.kept
        if version != self._kept_version or len(kept) > KEPT_ROWS or kept.bytes > KEPT_BYTES:
            kept.clear()
            self._kept_version = version

    def _run_job(self, conn: sqlite3.Connection, job: _Job) -> Any:
        try:
            return job.fn(conn)
        except BaseException:
            self.kept.clear()  # what it kept is rolled back
            raise
        finally:
            if not job.keeps:
                self.kept.clear()

    def _batch_results(self, conn: sqlite3.Connection, batch: list[_Job]) -> list[tuple[bool, Any]]:
        jobs = [job for job in batch if not job.future.cancelled()]
        if len(jobs) == len(batch):
            # Optimistically, without a savepoint per write (two statements each, a fifth
            # of a step's writes): almost every write succeeds. If one raises, the batch
            # is rolled back and run again write by write, each in its savepoint, so a
            # failing write still fails alone. Writes only touch the connection, so
            # running one again after a rollback is running it once.
            self._begin(conn)
            try:
                results: list[tuple[bool, Any]] = [(True, self._run_job(conn, j)) for j in batch]
            except BaseException:
                conn.execute("ROLLBACK")
            else:
                conn.execute("COMMIT")
                return results
        results = []
        self._begin(conn)
        for job in batch:
            if job.future.cancelled():
                results.append((False, asyncio.CancelledError()))
                continue
            conn.execute("SAVEPOINT op")
            try:
                value = self._run_job(conn, job)
            except BaseException as exc:
                # Raises in turn when SQLite already rolled the transaction back.
                conn.execute("ROLLBACK TO op")
                conn.execute("RELEASE op")
                results.append((False, _wrap(exc)))
            else:
                conn.execute("RELEASE op")
                results.append((True, value))
        conn.execute("COMMIT")
        return results

    def _read_loop(self, conn: sqlite3.Connection) -> None:
        try:
            while True:
                job = self._reads.get()
                if job is None:
                    return
                try:
                    conn.execute("BEGIN")
                    try:
                        value = job.fn(conn)
                    finally:
                        conn.execute("COMMIT")
                except BaseException as exc:
                    job.loop.call_soon_threadsafe(_resolve, job.future, False, _wrap(exc))
                else:
                    job.loop.call_soon_threadsafe(_resolve, job.future, True, value)
        finally:
            conn.close()


def _wrap(exc: BaseException) -> BaseException:
    if isinstance(exc, UnicodeEncodeError):
        # A lone surrogate: the driver cannot write it as UTF-8. A refusal, never retried.
        return InvalidInputError("a value sent to SQLite", None, f"{type(exc).__name__}: {exc}")
    if isinstance(exc, sqlite3.OperationalError):
        # Busy or locked past the timeout, disk full, an I/O error: not now, not "no".
        return StoreUnavailableError(f"SQLite could not write: {exc}")
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.IntegrityError):
        return StoreError(f"SQLite refused the operation: {exc}")
    return exc
