"""A session's canonical transcript in the conversation store, and the event writer.

The transcript is the truth of what happened in a turn: an assistant message is
appended as soon as its model call ends, a tool result as soon as its tool returns.
A step that crashes and runs again reads what its earlier attempt already appended
and adopts it — the model is not called again for a message that is on record, a
completed tool is not run again, and a non-idempotent tool that had started but left
no result is recorded as "outcome unknown".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from .. import durable
from ..errors import FatalError, FencedError
from ..stores import Stores, StreamIdentity
from ..stores._agent_records import OFFSET_START, ProducerClaim
from ._event_data import EVENT_DATA, SessionEventType, ToolCallRef
from ._events import EVENTS_STREAM, encode_event
from ._requests import InputRequest, TaskRef
from .models import AssistantMessage, ChatMessage, ToolCall, ToolResultMessage, UserMessage

__all__ = ["EventWriter", "Transcript", "conversation_path", "to_messages"]

Record = dict[str, Any]
#: Sessions whose transcripts one process keeps read (oldest dropped first).
TRANSCRIPT_CACHE_SIZE = 256


def conversation_path(agent_name: str, session_id: str) -> str:
    """The conversation stream of one session."""
    return f"agents/{agent_name}/{session_id}"


@dataclass(slots=True)
class Transcript:
    """Appends and reads one session's records as its fenced producer.

    Appends from concurrent tasks of one step (parallel tool calls) are serialized: each
    takes the next producer sequence, and two taking the same one would conflict.
    """

    stores: Stores
    path: str
    claim: ProducerClaim
    cache: dict[str, tuple[str, list[Record]]] | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, init=False, repr=False, compare=False)
    # The next producer sequence, read once per Transcript (one step's appends) and kept:
    # this object is the stream's only producer while the step runs.
    _sequence: int | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    async def open(cls, stores: Stores, agent_name: str, session_id: str) -> ProducerClaim:
        """Create the stream (idempotent) and take production of it."""
        path = conversation_path(agent_name, session_id)
        await stores.conversations.create_stream(
            path, StreamIdentity(agent_name=agent_name, instance_id=session_id)
        )
        return await stores.conversations.acquire_producer(path, f"session:{session_id}")

    async def append(self, records: Sequence[Record]) -> str:
        """Append records as one all-or-nothing batch; returns its offset."""
        async with self._lock:
            if self._sequence is None:
                meta = await self.stores.conversations.get_meta(self.path)
                self._sequence = 0 if meta is None else meta.next_producer_sequence
            try:
                offset = await self.stores.conversations.append(
                    path=self.path,
                    producer_id=self.claim.producer_id,
                    producer_epoch=self.claim.producer_epoch,
                    incarnation=self.claim.incarnation,
                    producer_sequence=self._sequence,
                    records=list(records),
                )
            except FencedError as exc:
                self._sequence = None
                # Another producer took the conversation over: retrying cannot help.
                raise FatalError(f"the session's transcript was taken over: {exc}") from exc
            except BaseException:
                self._sequence = None
                raise
            self._sequence += 1
            return offset

    async def read(self, after: str = OFFSET_START) -> tuple[list[Record], str]:
        """Every record after `after`, and the offset they end at.

        A whole-transcript read continues from the `cache` of a previous one: the stream
        is append-only, so what was read stays true and only the tail is fetched.
        """
        cached = (
            self.cache.get(self.path) if after == OFFSET_START and self.cache is not None else None
        )
        records: list[Record] = list(cached[1]) if cached else []
        offset = cached[0] if cached else after
        while True:
            page = await self.stores.conversations.read(self.path, offset=offset, limit=1000)
            for batch in page.batches:
                records.extend(r for r in batch.records if isinstance(r, dict))
            offset = page.next_offset
            if page.up_to_date or not page.batches:
                if after == OFFSET_START and self.cache is not None:
                    self.cache[self.path] = (offset, list(records))
                    while len(self.cache) > TRANSCRIPT_CACHE_SIZE:
                        self.cache.pop(next(iter(self.cache)))
                return records, offset


def to_messages(records: Sequence[Record]) -> list[ChatMessage]:
    """The model-facing conversation a list of transcript records amounts to."""
    out: list[ChatMessage] = []
    for record in records:
        kind = record.get("kind")
        if kind == "user":
            out.append(UserMessage(text=str(record.get("text", ""))))
        elif kind == "assistant":
            calls = tuple(
                ToolCall(
                    call_id=c["call_id"],
                    name=c["name"],
                    arguments=c.get("arguments", {}),
                    arguments_json=orjson.dumps(c.get("arguments", {})).decode(),
                )
                for c in record.get("tool_calls", ())
            )
            out.append(AssistantMessage(text=str(record.get("text", "")), tool_calls=calls))
        elif kind == "tool_result":
            out.append(
                ToolResultMessage(
                    call_id=record["call_id"],
                    name=record["name"],
                    content=str(record["content"]),
                    is_error=bool(record.get("is_error")),
                )
            )
    return out


class EventWriter:
    """Writes session events to the run's event stream, batching bursts.

    Events queue in memory and a background flush writes whatever is queued as one
    stream write; `close()` (at the end of every step) flushes the rest, so a step's
    events are on record before the step commits.
    """

    def __init__(
        self,
        stores: Stores,
        run_id: str,
        *,
        turn_id: str | None,
        step_index: int | None,
        flush_interval: float = 0.02,
    ) -> None:
        self._store = stores.workflow
        self._run_id = run_id
        self.turn_id = turn_id
        self.step_index = step_index
        self._sequence = 0
        self._queued: list[bytes] = []
        self._interval = flush_interval
        self._task: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()

    def emit(self, type_: SessionEventType, **data: Any) -> None:
        """Queue one event; its sequence is its position within this step."""
        self._queued.append(
            encode_event(
                _record(type_, data, self.turn_id),
                turn_id=self.turn_id,
                step_index=self.step_index,
                sequence=self._sequence,
                attempt=_attempt(),
            )
        )
        self._sequence += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        await asyncio.sleep(self._interval)
        # Shielded: `close()` cancels this task, and a write already under way must
        # still land (and before anything `close()` writes after it).
        await asyncio.shield(self.flush())

    async def flush(self) -> None:
        """Write what is queued (writes are serialized, in emission order)."""
        async with self._writing:
            if self._queued:
                chunk, self._queued = self._queued, []
                await self._store.write_stream(self._run_id, EVENTS_STREAM, chunk)

    async def close(self) -> None:
        """Flush everything and stop the background flusher."""
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.flush()


def _attempt() -> int:
    try:
        return durable.step_info().attempt
    except Exception:
        return 1


def _record(type_: SessionEventType, data: dict[str, Any], turn_id: str | None) -> Any:
    if type_ in ("input.requested", "authorization.required"):
        request = InputRequest(
            request_id=data["request_id"],
            kind=data["kind"],
            turn_id=turn_id or "",
            principal=data.get("principal"),
            tool_name=data.get("tool"),
            call_id=data.get("call_id"),
            prompt=data.get("prompt") or data.get("message"),
            options=tuple(data["options"]) if data.get("options") else None,
            approvers=tuple(data.get("approvers") or ()),
            data={k: data[k] for k in ("arguments", "provider", "url") if data.get(k) is not None},
        )
        if type_ == "input.requested":
            return EVENT_DATA[type_](request=request)  # type: ignore[call-arg]
        return EVENT_DATA[type_](  # type: ignore[call-arg]
            request=request, provider=data.get("provider") or "", url=data.get("url")
        )
    if type_ == "turn.waiting":
        tasks = tuple(
            TaskRef(
                call_id=t["call_id"],
                agent=t["agent"],
                task_session_id=t["task_session_id"],
                run_id=f"task:{t['task_session_id']}",
            )
            for t in data.get("tasks") or ()
        )
        return EVENT_DATA[type_](  # type: ignore[call-arg]
            on=data["on"], request_ids=tuple(data.get("request_ids") or ()), tasks=tasks
        )
    if type_ == "message.completed":
        calls = tuple(ToolCallRef(call_id=c["call_id"], name=c["name"]) for c in data["tool_calls"])
        return EVENT_DATA[type_](text=data["text"], tool_calls=calls)  # type: ignore[call-arg]
    return EVENT_DATA[type_](**data)
