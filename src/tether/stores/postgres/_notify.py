"""LISTEN/NOTIFY wake-ups: one autocommit connection per backend dispatches to asyncio.

Writers call `pg_notify` inside their transactions (Postgres delivers only after
COMMIT, so a woken waiter always sees the write). Channels are per namespace:

- ``<ns>_queue``: payload is a queue name; new or re-released work or a wake-up.
- ``<ns>_run``: payload is a run id; the run reached a terminal state.
- ``<ns>_stream``: payload is ``run_id`` + US + stream name; chunks or a close
  (handlers registered with `on_stream` hear it).
- ``<ns>_conversation``: payload is the writer's origin + US + a conversation path;
  a batch was appended (handlers registered with `on_conversation` hear it).

Waiters never depend on delivery alone: a notification can be lost while the listener
reconnects, so every wait has a timeout and the listener wakes everyone when it
(re)connects. While the listener is down, `healthy` is False and callers poll faster.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg import sql

__all__ = [
    "Echoes",
    "Notifier",
    "QueueEchoes",
    "channels",
    "conversation_channel",
    "notify_statement",
    "stream_key",
    "stream_of_key",
]

log = logging.getLogger("tether.stores.postgres")

_SEP = "\x1f"


def channels(namespace: str) -> tuple[str, str, str]:
    """The (queue, run, stream) channel names of a namespace."""
    return f"{namespace}_queue", f"{namespace}_run", f"{namespace}_stream"


def conversation_channel(namespace: str) -> str:
    """The channel announcing conversation appends in a namespace."""
    return f"{namespace}_conversation"


def notify_statement(notes: Sequence[tuple[str, str]]) -> tuple[str, list[str]]:
    """One statement sending every (channel, payload) note, and its parameters."""
    calls = ", ".join("pg_notify(%s, %s)" for _ in notes)
    return f"SELECT {calls}", [v for note in notes for v in note]


def stream_key(run_id: str, name: str) -> str:
    """The notification payload naming one stream."""
    return f"{run_id}{_SEP}{name}"


def stream_of_key(key: str) -> tuple[str, str] | None:
    """The (run id, name) a `stream_key` payload names; None if it names none."""
    run_id, sep, name = key.partition(_SEP)
    return (run_id, name) if sep else None


class Echoes:
    """Notifications this process will hear of its own stream appends, per stream.

    An append this process makes (a `write_stream`, or one riding on a commit) reaches
    its followers on their taps; its NOTIFY, heard back by the listener, then says
    nothing new to them. Each write is counted before it is sent (its notification may
    be heard before the write returns) and uncounted if it failed; a notification heard
    while its stream has a count is that echo and is dropped. A count is never wrong
    for long: the only way to miss a notification is to lose the listener's
    connection, and that clears every count (`clear`) as the followers are told to read.
    """

    def __init__(self) -> None:
        self._pending: dict[str, int] = {}

    def expect(self, key: str) -> None:
        self._pending[key] = self._pending.get(key, 0) + 1

    def cancel(self, key: str) -> None:
        """The append failed (or may have): its notification, if any, is not dropped."""
        self.heard(key)

    def heard(self, key: str) -> bool:
        """True if a notification on `key` is an echo (and count it heard)."""
        n = self._pending.get(key, 0)
        if n <= 0:
            return False
        if n == 1:
            del self._pending[key]
        else:
            self._pending[key] = n - 1
        return True

    def clear(self) -> None:
        self._pending.clear()


class QueueEchoes:
    """This process's own queue notifications: its waiters woken at once, the echo dropped.

    A transaction that enqueues wakes this process's waiters of its queues itself, from
    its thread, as soon as its COMMIT returns (`sent`); its NOTIFY, heard back by the
    listener after that (often after the woken worker took the message), would set the
    queue's event again and cost that worker an empty take. So each one is counted
    before its COMMIT goes (`sending`: it may be heard before the COMMIT returns), and
    a notification heard while its queue has a count is taken for it and dropped. Every
    notification on a queue means the same ("it may have work"), so which one is
    dropped does not matter, only how many. A transaction that fails gives its count
    back and wakes the waiters all the same (`failed`): another process's notification
    may have been dropped in its place. Losing the listener's connection clears the
    counts (every waiter is woken then anyway).

    The waking is the thread's, not the awaiting caller's: a caller cancelled while its
    transaction commits would otherwise leave the message unannounced here, its echo
    dropped.
    """

    def __init__(self, wake: Callable[[str], None]) -> None:
        # The counts (`Echoes`, per queue), touched by transactions' threads too.
        self._lock = threading.Lock()
        self._counts = Echoes()
        self._wake = wake
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the queues' waiters are on."""
        self._loop = loop

    def sending(self, queues: Sequence[str]) -> None:
        """Notifications on `queues` are about to be committed (any thread)."""
        with self._lock:
            for queue in queues:
                self._counts.expect(queue)

    def sent(self, queues: Sequence[str]) -> None:
        """They were committed: wake this process's waiters (any thread)."""
        self._wake_all(queues)

    def failed(self, queues: Sequence[str]) -> None:
        """The transaction failed, nothing was announced (any thread)."""
        with self._lock:
            for queue in queues:
                self._counts.cancel(queue)
        self._wake_all(queues)

    def _wake_all(self, queues: Sequence[str]) -> None:
        loop = self._loop
        if loop is None or not queues:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            for queue in queues:
                loop.call_soon_threadsafe(self._wake, queue)

    def heard(self, queue: str) -> bool:
        """True if a notification heard on `queue` is an echo (and count it heard)."""
        with self._lock:
            return self._counts.heard(queue)

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()


class Notifier:
    """Listens on a namespace's channels and sets asyncio events for waiters.

    Queue events are sticky (set until a waiter consumes them), so a notification that
    arrives between an empty dequeue and the next wait is not lost. Run waiters take a
    fresh event *before* reading, then wait on it. Stream and conversation notifications
    go to the handlers registered for them (the stores' followers).
    """

    def __init__(self, conninfo: str, namespace: str, connect_kwargs: dict[str, Any]) -> None:
        self._conninfo = conninfo
        self._kwargs = connect_kwargs
        self._queue_ch, self._run_ch, self._stream_ch = channels(namespace)
        self._queues: dict[str, asyncio.Event] = {}
        self._runs: dict[str, asyncio.Event] = {}
        self._stream_handlers: list[Callable[[str | None, bool], None]] = []
        self._conversation_ch = conversation_channel(namespace)
        self._conversation_handlers: list[Callable[[str | None], None]] = []
        self._task: asyncio.Task[None] | None = None
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self.healthy = False
        #: This process's own queue notifications, dropped when heard back.
        self.queue_echoes = QueueEchoes(self.wake_queue)

    async def start(self) -> None:
        """Connect and LISTEN before returning, then dispatch in a background task."""
        if self._task is not None:
            return
        self.queue_echoes.bind(asyncio.get_running_loop())
        await self._connect()
        self._task = asyncio.create_task(self._loop(), name="tether-postgres-listener")

    async def close(self) -> None:
        """Stop listening and close the connection."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
        self.healthy = False

    # -- waiters -----------------------------------------------------------------------
    def queue_event(self, queue: str) -> asyncio.Event:
        """The sticky event of a queue; the waiter clears it after waking."""
        return self._queues.setdefault(queue, asyncio.Event())

    def run_event(self, run_id: str) -> asyncio.Event:
        """An event set when the run is next reported terminal (or on reconnect)."""
        return self._runs.setdefault(run_id, asyncio.Event())

    def on_stream(self, handler: Callable[[str | None, bool], None]) -> None:
        """Call `handler(payload, heard)` on each stream notification (a `stream_key`).

        `heard` is True when it came from the server, False for this process's own
        `dispatch`. As with `on_conversation`: the payload is None when notifications
        may have been lost, it runs on the event loop, and it must not raise.
        """
        self._stream_handlers.append(handler)

    def on_conversation(self, handler: Callable[[str | None], None]) -> None:
        """Call `handler(payload)` on each conversation notification.

        It is called with None when notifications may have been lost (reconnect), and
        runs on the event loop; it must not raise.
        """
        self._conversation_handlers.append(handler)

    def wake_queue(self, queue: str) -> None:
        """Wake local waiters of a queue at once (in-process writes)."""
        self.queue_event(queue).set()

    def wake_all(self) -> None:
        """Wake every waiter: they re-read the store."""
        self.queue_echoes.clear()
        for event in self._queues.values():
            event.set()
        for event in self._runs.values():
            event.set()
        self._runs.clear()
        for stream_handler in self._stream_handlers:
            stream_handler(None, True)
        for handler in self._conversation_handlers:
            handler(None)

    def dispatch(self, channel: str, payload: str, *, heard: bool = False) -> None:
        """Wake the waiters a notification on `channel` concerns.

        `heard`: it came from the server (the listener), not from this process.
        """
        if channel == self._queue_ch:
            if heard and self.queue_echoes.heard(payload):
                return
            self.queue_event(payload).set()
        elif channel == self._run_ch:
            event = self._runs.pop(payload, None)
            if event is not None:
                event.set()
        elif channel == self._stream_ch:
            for stream_handler in self._stream_handlers:
                stream_handler(payload, heard)
        elif channel == self._conversation_ch:
            for handler in self._conversation_handlers:
                handler(payload)

    # -- the listener ------------------------------------------------------------------
    async def _connect(self) -> None:
        conn = await psycopg.AsyncConnection.connect(
            self._conninfo, autocommit=True, **self._kwargs
        )
        try:
            for channel in (self._queue_ch, self._run_ch, self._stream_ch, self._conversation_ch):
                await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        except BaseException:
            # A server shutting down may accept the connection and then end it.
            await conn.close()
            raise
        self._conn = conn
        self.healthy = True
        # Anything sent while we were not listening is lost: everyone re-reads.
        self.wake_all()

    async def _loop(self) -> None:
        delay = 0.05
        # An outage is logged when the connection is lost, at its first failed
        # reconnect and when it is over; the tries between (one every 2 s at most) at
        # DEBUG, so a long outage does not flood the log.
        failures = 0
        lost_at = 0.0
        while True:
            conn = self._conn
            if conn is not None:
                try:
                    async for note in conn.notifies():
                        self.dispatch(note.channel, note.payload, heard=True)
                except psycopg.Error as exc:
                    log.warning("postgres listener lost its connection: %s", exc)
                self.healthy = False
                lost_at = time.monotonic()
                with contextlib.suppress(Exception):
                    await conn.close()
                self._conn = None
                self.wake_all()
            try:
                await self._connect()
            except psycopg.Error as exc:
                failures += 1
                log.log(
                    logging.WARNING if failures == 1 else logging.DEBUG,
                    "postgres listener cannot reconnect (retrying%s): %s",
                    "; further tries are logged at DEBUG" if failures == 1 else "",
                    exc,
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            if failures:
                log.warning(
                    "postgres listener reconnected after %.1f s (%d failed tries)",
                    time.monotonic() - lost_at,
                    failures,
                )
            failures = 0
            delay = 0.05
