"""One listener per followed session per process, fanned out to every follower.

A `Feed` reads a session's event stream once and keeps its recent events, encoded
once, in memory; every follower of the session in this process takes them from there.
A follower that starts (or falls) behind the feed's buffer reads the stored events it
misses from the store, then joins the buffer: events are addressed by their index, so
each is delivered once, in order, however the two sources overlap.

Followers never poll the store. The feed follows the stream as the backend announces
new events: Postgres with ``LISTEN``; SQLite and memory hand a worker's appends in this
process to the feed as they commit (no read), and SQLite's writer notices other
processes' commits (``data_version``), after which the feeds read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import orjson

from ..agent import (
    EVENT_DATA,
    EVENTS_STREAM,
    TERMINAL_EVENTS,
    AgentHost,
    Session,
    SessionEvent,
    decode_event,
)
from ..errors import SerializationError
from ..stores import StreamChunk

__all__ = ["FeedHub", "WireEvent", "format_of", "frame", "read_wire", "wire_event"]

log = logging.getLogger("tether.server")

#: Events a feed keeps in memory; older ones are read from the store.
BUFFER_EVENTS = 1024
#: Seconds between looks at whether a quiet session's run ended.
STATUS_INTERVAL = 1.0


@dataclass(frozen=True, slots=True, kw_only=True)
class WireEvent:
    """One event, decoded and encoded once for every follower.

    Attributes:
        index: Its position in the session's stream.
        type: Its type.
        event: The event, validated into its record (what the UI adapters project);
            None for an event of a type this version of tether does not define (one a
            newer version wrote): the sessions API passes its wire form on, the UI
            adapters skip it with a warning.
        json: Its wire form (``event.to_json()``) as JSON bytes.
    """

    index: int
    type: str
    event: SessionEvent | None
    json: bytes

    @classmethod
    def of(cls, event: SessionEvent) -> WireEvent:
        """The event with its wire form encoded."""
        return cls(
            index=event.index,
            type=event.type,
            event=event,
            json=orjson.dumps(event.to_json()),
        )

    @property
    def sse(self) -> bytes:
        """The SSE frame: ``id`` is the index (``Last-Event-ID`` resumes after it)."""
        return b"id: %d\nevent: %s\ndata: %s\n\n" % (self.index, self.type.encode(), self.json)

    @property
    def terminal(self) -> bool:
        """Whether the session's stream ends with it."""
        return self.type in TERMINAL_EVENTS


#: What a type this version does not define must look like to be passed on (it is an
#: SSE ``event:`` line): dotted lowercase words, as every type tether defines.
_NEW_TYPE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+")


def wire_event(chunk: StreamChunk) -> WireEvent:
    """Decode (and so validate) a stored event once and encode its wire form.

    An event of a type this version does not define keeps its stored data and meta;
    its `WireEvent.event` is None.

    Raises:
        SerializationError: The chunk is not a session event.
    """
    try:
        value = orjson.loads(chunk.data)
    except orjson.JSONDecodeError:
        return WireEvent.of(decode_event(chunk.data, chunk.index))  # raises, saying why
    kind = value.get("type") if isinstance(value, dict) else None
    if (
        isinstance(kind, str)
        and kind not in EVENT_DATA
        and _NEW_TYPE.fullmatch(kind)
        and isinstance(value.get("meta"), dict)
        and isinstance(value.get("data", {}), dict)
    ):
        wire = {"index": chunk.index, "type": kind, "data": value.get("data") or {}}
        wire["meta"] = value["meta"]
        return WireEvent(index=chunk.index, type=kind, event=None, json=orjson.dumps(wire))
    if not isinstance(value, dict):
        raise SerializationError(f"event {chunk.index} is not a session event: not an object")
    return WireEvent.of(SessionEvent.from_json({**value, "index": chunk.index}))


async def read_wire(session: Session, start: int) -> list[WireEvent]:
    """The session's events from index `start` (negative: from the tail), as wire events.

    Unlike `Session.read_events`, which leaves them out, an event of a type this
    version does not define is passed on as `wire_event` passes it.

    Raises:
        ContentDeletedError: The session's content was deleted (retention, erasure).
        SerializationError: An event is not a session event.
    """
    await session.read_events(-1)  # refuses a session whose content was deleted
    stream = session.host.client.stream(session.run_id, EVENTS_STREAM)
    return [await _whole(session, wire_event(chunk)) for chunk in await stream.read_all(start)]


def _refers(wire: WireEvent) -> bool:
    """Whether the event holds a large tool result by reference only (see `Session`)."""
    data = None if wire.event is None else wire.event.data
    return getattr(data, "content_ref", None) is not None and not getattr(data, "content", "")


async def _whole(session: Session, wire: WireEvent) -> WireEvent:
    """`wire` with a large tool result it refers to read back into it."""
    if not _refers(wire) or wire.event is None:
        return wire
    (event,) = await session.whole_events([wire.event])
    return WireEvent.of(event)


class Feed:
    """The events of one session that this process's followers share."""

    def __init__(self, run_id: str, base: int) -> None:
        self.run_id = run_id
        self.base = base
        self.events: list[WireEvent] = []
        self.changed = asyncio.Event()
        self.done = False
        self.error: BaseException | None = None
        self.refs = 0
        self.task: asyncio.Task[None] | None = None
        self.linger: asyncio.TimerHandle | None = None

    @property
    def end(self) -> int:
        """The index after the last event it holds."""
        return self.base + len(self.events)

    def publish(self, batch: list[WireEvent]) -> None:
        for event in batch:
            # The pump reads forward from `end`, so indexes arrive contiguous.
            if event.index == self.end:
                self.events.append(event)
        excess = len(self.events) - BUFFER_EVENTS
        if excess > 0:
            del self.events[:excess]
            self.base += excess
        self._wake()

    def finish(self, error: BaseException | None = None) -> None:
        self.done = True
        self.error = error
        self._wake()

    def _wake(self) -> None:
        old, self.changed = self.changed, asyncio.Event()
        old.set()


class FeedHub:
    """The feeds of one app: at most one per session, shared by its followers.

    Args:
        host: The agent host whose sessions are followed.
        linger: Seconds a feed stays up after its last follower left, so a client that
            reconnects finds it warm.
    """

    def __init__(self, host: AgentHost, *, linger: float = 5.0) -> None:
        self._host = host
        self._linger = linger
        self._feeds: dict[str, Feed] = {}
        self._closing = False

    def __len__(self) -> int:
        return len(self._feeds)

    async def close(self) -> None:
        """Stop every feed."""
        self._closing = True
        feeds = list(self._feeds.values())
        self._feeds.clear()
        for feed in feeds:
            self._stop(feed)
        for feed in feeds:
            if feed.task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await feed.task

    def end(self, run_id: str) -> int | None:
        """The index after the last event a live listener of the run holds, if one is up."""
        feed = self._feeds.get(run_id)
        return None if feed is None or feed.done else feed.end

    def _acquire(self, run_id: str, start: int) -> Feed:
        feed = self._feeds.get(run_id)
        # A listener that stopped holds what was true when it stopped (a run that ended
        # may have had its content deleted since): a new follower starts a new one.
        if feed is None or feed.done:
            feed = Feed(run_id, start)
            self._feeds[run_id] = feed
            feed.task = asyncio.create_task(self._pump(feed))
        feed.refs += 1
        if feed.linger is not None:
            feed.linger.cancel()
            feed.linger = None
        return feed

    def _release(self, feed: Feed) -> None:
        feed.refs -= 1
        if feed.refs > 0:
            return
        if feed.done or self._linger <= 0:
            self._stop(feed)
        else:
            feed.linger = asyncio.get_running_loop().call_later(self._linger, self._stop_idle, feed)

    def _stop_idle(self, feed: Feed) -> None:
        feed.linger = None
        if feed.refs <= 0:
            self._stop(feed)

    def _stop(self, feed: Feed) -> None:
        if self._feeds.get(feed.run_id) is feed:
            del self._feeds[feed.run_id]
        if feed.task is not None and not feed.task.done():
            feed.task.cancel()
        if not feed.done:
            feed.finish()

    async def follow(self, run_id: str, start: int) -> AsyncIterator[WireEvent]:
        """The session's events from index `start` (>= 0), live.

        Ends after a terminal event, or once the session's run has ended and every
        event is delivered.
        """
        stream = self._host.client.stream(run_id, EVENTS_STREAM)
        feed = self._acquire(run_id, start)
        index = start
        try:
            while True:
                if index < feed.base:
                    # Behind the shared buffer: read what it no longer holds.
                    chunks, _ = await stream.read(index, limit=min(1000, feed.base - index))
                    if not chunks:
                        index = feed.base
                        continue
                    for chunk in chunks:
                        if chunk.index < index:
                            continue
                        event = await self._whole(run_id, wire_event(chunk))
                        yield event
                        index = event.index + 1
                        if event.terminal:
                            return
                    continue
                position = index - feed.base
                if position < len(feed.events):
                    for event in feed.events[position:]:
                        yield event
                        index = event.index + 1
                        if event.terminal:
                            return
                    continue
                if feed.done:
                    if feed.error is not None:
                        raise feed.error
                    return
                await feed.changed.wait()
        finally:
            self._release(feed)

    async def _whole(self, run_id: str, wire: WireEvent) -> WireEvent:
        if not _refers(wire):
            return wire
        # A feed follows a session's chain from its first run: ``session:<id>``, or
        # ``task:<id>`` for a sub-agent's task.
        _, _, session_id = run_id.partition(":")
        session = await self._host.get_session(session_id)
        return await _whole(session, wire)

    async def _pump(self, feed: Feed) -> None:
        stream = self._host.client.stream(feed.run_id, EVENTS_STREAM)
        try:
            async for chunk in stream.follow(
                feed.end, poll_interval=STATUS_INTERVAL, status_interval=STATUS_INTERVAL
            ):
                event = await self._whole(feed.run_id, wire_event(chunk))
                feed.publish([event])
                if event.terminal:
                    break
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not self._closing:
                log.warning("feed of run %s failed: %r", feed.run_id, exc)
            feed.finish(exc)
            return
        feed.finish()


def frame(event: WireEvent, fmt: str) -> bytes:
    """`event` as one frame of a stream of `fmt` (``sse`` or ``ndjson``)."""
    return event.sse if fmt == "sse" else event.json + b"\n"


def format_of(accept: str) -> str:
    """The stream format an ``Accept`` header asks for: ``ndjson`` or ``sse``."""
    return "ndjson" if "ndjson" in accept and "event-stream" not in accept else "sse"
