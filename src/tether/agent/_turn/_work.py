"""One attempt of one durable step of a session: what it read, what it will write.

A step reads the transcript and the ledger lanes once, decides, and writes through
the engine: `checkpoint()` makes what is pending durable now (fenced by the run's
lease), `finish()` hands the rest to the step's completion commit. Either way the
transcript entries, the ledger changes and the buffered events of the step land in
one transaction, in that order.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ... import durable
from ...errors import TranscriptLostError
from ...stores import AppendRecords, StoreWrite
from .._context._values import StateValues, fold_state
from .._records._cursor import Cursor, TurnState
from .._records._entries import (
    ApprovalEntry,
    AssistantEntry,
    StateEntry,
    ToolResultEntry,
    UserEntry,
)
from .._records._event_data import StateChanged
from .._stored._mail import Mail, read_mail
from .._stored._transcript import Transcript
from ._emitter import Emitter
from ._toolset import TurnTools, own_tools

if TYPE_CHECKING:
    from ._runtime import SessionRuntime

__all__ = ["StepWork"]


class StepWork:
    """The state of one attempt of a session step."""

    def __init__(self, runtime: SessionRuntime, cursor: Cursor) -> None:
        self.runtime = runtime
        self.agent = runtime.agent
        self.cursor = cursor
        self.turn: TurnState | None = cursor.turn
        self.transcript = Transcript(
            runtime.stores, cursor.producer.path, cursor.producer, runtime.transcript_cache
        )
        self.entries: list[Any] = []
        # What `turn_entries` and `joined_ids` found so far, and how far they looked:
        # entries are only ever appended, so each call scans only the new ones.
        self._seen: tuple[list[Any] | None, str | None, int] = (None, None, 0)
        self._turn_found: list[Any] = []
        self._joined: set[str] = set()
        self.mail = Mail()
        # The agent's own tools until the turn's are known (`_toolset.turn_tools`).
        self.tools: TurnTools = own_tools(runtime.agent)
        self._entries: list[Any] = []
        self._writes: list[StoreWrite] = []
        # The session's declared state as stored (folded from the transcript when a
        # tool first reads it; a step that never does, never folds it).
        self._state: dict[str, Any] | None = None
        self.emitter = Emitter(
            None if cursor.turn is None else cursor.turn.turn_id,
            None if cursor.turn is None else cursor.turn.step_index,
        )
        # Rings of the inbox that arrived before this step read the lanes: the body
        # waits only for later ones.
        self.rings = durable.hook_received(cursor.inbox) if cursor.inbox else 0
        #: Whether a model call of this attempt reserved on a budget (see `_budget_call`).
        self.budget_held = False

    @property
    def run_id(self) -> str:
        return durable.step_info().run_id

    @property
    def known_requests(self) -> frozenset[str]:
        """Requests of the turn announced by earlier runtime."""
        return frozenset(() if self.turn is None else self.turn.requests)

    async def load(self, *, check_producer: bool | None = None) -> None:
        """Read the transcript and the lanes; check the session still owns its transcript.

        The check is a read of the stream's producer, made on a retry (default): on a
        first attempt a lost transcript refuses the step's commit (fenced), and the
        retry finds out why.
        """
        info = durable.step_info()
        if check_producer is None:
            check_producer = info.attempt > 1
        if check_producer:
            meta = await self.runtime.stores.conversations.get_meta(self.cursor.producer.path)
            producer = self.cursor.producer
            if meta is None or (meta.producer_id, meta.producer_epoch, meta.incarnation) != (
                producer.producer_id,
                producer.epoch,
                producer.incarnation,
            ):
                raise TranscriptLostError(
                    f"the transcript of session {self.cursor.session_id!r} was taken over by "
                    f"another producer ({None if meta is None else meta.producer_id!r})"
                )
        # Two independent reads, at once: only this run writes the transcript, and what
        # others add to the lanes may land before either read or after both alike. The
        # transcript's is no read at all while this process saw every write to it.
        entries, self.mail = await asyncio.gather(
            self.transcript.entries(info.lineage),
            read_mail(self.runtime.stores, self.agent.name, self.cursor.session_id),
        )
        self.entries = list(entries)
        self._state = None

    async def reread_mail(self) -> Mail:
        self.mail = await read_mail(self.runtime.stores, self.agent.name, self.cursor.session_id)
        return self.mail

    # -- what the step writes -------------------------------------------------------------
    def record(self, *entries: Any) -> None:
        """Add transcript entries (written at the next checkpoint or the completion)."""
        self.entries.extend(entries)
        self._entries.extend(entries)

    def stored_state(self) -> dict[str, Any]:
        """The declared state's stored (JSON) values, keys this code declares only."""
        if self._state is None:
            keys = self.runtime.declared.keys
            self._state = {k: v for k, v in fold_state(self.entries).items() if k in keys}
        return self._state

    def state_view(self, *, readonly: bool = False) -> StateValues:
        """A view of the state for one tool call: its changes are its own until kept."""
        return StateValues(self.runtime.declared.keys, self.stored_state, readonly=readonly)

    def keep_state(self, view: StateValues, call_id: str) -> StateChanged | None:
        """Record the changes a tool call made through `view` (with its result, next).

        Returns what the call changed, as its ``state.changed`` event tells it (None:
        nothing changed).
        """
        entry = view.pending()
        return None if entry is None else self.keep_entry(entry, call_id)

    def keep_entry(self, entry: StateEntry, call_id: str) -> StateChanged:
        """Record a tool call's state change `entry` (with its result, next)."""
        stored = self.stored_state()
        self.record(replace(entry, call_id=call_id))
        for key in entry.removed:
            stored.pop(key, None)
        stored.update(entry.values)
        declared = self.runtime.declared.keys
        reset = tuple(k for k in entry.removed if k in declared)
        defaults = {k: declared[k].dump(declared[k].initial()) for k in reset}
        return StateChanged(call_id=call_id, values={**entry.values, **defaults}, reset=reset)

    def write(self, *writes: StoreWrite) -> None:
        """Add ledger writes (written at the next checkpoint or the completion)."""
        self._writes.extend(writes)

    def _pending(self) -> tuple[list[StoreWrite], AppendRecords | None]:
        """The pending writes, and among them the transcript's append (if any)."""
        out = list(self._writes)
        appended = self.transcript.append(self._entries) if self._entries else None
        if appended is not None:
            out.append(appended)
        self._writes, self._entries = [], []
        return out, appended

    async def checkpoint(self) -> None:
        """Make everything pending durable now, with the buffered events."""
        await self.emitter.settle()
        writes, appended = self._pending()
        await durable.checkpoint(*writes)
        if appended is not None:
            self.transcript.landed(appended)

    async def finish(self) -> None:
        """Hand everything pending to the step's completion commit."""
        await self.emitter.settle()
        writes, appended = self._pending()
        durable.commit_with_step(*writes)
        if appended is not None:
            durable.after_commit(functools.partial(self.transcript.landed, appended))

    # -- the turn as recorded ---------------------------------------------------------------
    def turn_entries(self) -> list[Any]:
        """The entries of the turn in progress."""
        if self.turn is None:
            return []
        self._scan()
        return list(self._turn_found)

    def last_reply(self) -> AssistantEntry | None:
        """The turn's latest model reply."""
        return next(
            (e for e in reversed(self.turn_entries()) if isinstance(e, AssistantEntry)), None
        )

    def open_calls(self) -> list[Any]:
        """Calls of the turn's latest reply without a result."""
        last = self.last_reply()
        if last is None:
            return []
        done = {e.call_id for e in self.turn_entries() if isinstance(e, ToolResultEntry)}
        return [c for c in last.tool_calls if c.call_id not in done]

    def finished(self) -> bool:
        """Whether the turn's last word is a reply without calls (nothing joined after it)."""
        for entry in reversed(self.turn_entries()):
            if isinstance(entry, UserEntry):
                return False
            if isinstance(entry, AssistantEntry):
                return not entry.tool_calls
        return False

    def decisions(self) -> dict[str, ApprovalEntry]:
        """The turn's recorded decisions on its requests, by request id."""
        return {
            e.request_id: e
            for e in self.turn_entries()
            if isinstance(e, ApprovalEntry) and e.request_id is not None
        }

    def joined_ids(self) -> set[str]:
        """Messages already in the transcript."""
        self._scan()
        return set(self._joined)

    def _scan(self) -> None:
        entries, turn_id = self.entries, None if self.turn is None else self.turn.turn_id
        listed, seen_turn, upto = self._seen
        if listed is not entries or seen_turn != turn_id or upto > len(entries):
            # Another list (the step loaded the transcript), or another turn: afresh.
            upto, self._turn_found, self._joined = 0, [], set()
        for entry in entries[upto:]:
            if turn_id is not None and getattr(entry, "turn_id", None) == turn_id:
                self._turn_found.append(entry)
            if isinstance(entry, UserEntry):
                self._joined.add(entry.submission_id)
        self._seen = (entries, turn_id, len(entries))
