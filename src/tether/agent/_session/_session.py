"""`Session`: a client's handle to one session: send, answer, cancel, close, read, follow."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Mapping, Sequence
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from ..._aio import within
from ..._ids import new_ulid
from ..._validate import check_identifier
from ...durable import RunHandle, RunInfo
from ...errors import (
    ConfigurationError,
    ConflictError,
    ContentDeletedError,
    InputRequestError,
    NotFoundError,
    SessionClosedError,
    SessionStrandedError,
    StoreUnavailableError,
)
from .._agent import TurnPolicy
from .._context._values import StateValues, read_values
from .._records._attachments import (
    Attachment,
    read_attachment,
    resolve_attachments,
    store_attachment,
)
from .._records._budget import BudgetScope, BudgetStatus
from .._records._event_data import TERMINAL_EVENTS
from .._records._events import EVENTS_STREAM, SessionEvent, decode_event, decode_events, first_event
from .._records._requests import InputRequest, check_answer
from .._records._state import RUN_ENDINGS as _ENDED
from .._records._state import Fold, SessionState, fold_events
from .._records._usage import Price, RecordedCall, SessionUsage, recorded_calls, session_usage
from .._stored._erasure import SessionErasure
from .._stored._line import (
    PREDECESSOR_ENTRIES,
    PREDECESSOR_TIMEOUT,
    Predecessor,
    SessionLine,
    read_line,
)
from .._stored._payloads import resolve_events
from .._stored._retention import check_readable, erase_session
from ._fork import fork_session
from ._handoff import deliver_moving, hand_off, wants_move
from ._inbox import Inbox
from ._reset import open_again, predecessor_of, stop_run

if TYPE_CHECKING:
    from ._session_host import SessionHost

__all__ = ["Session", "session_run_id"]

#: Seconds a quiet event follower waits for an announcement before it reads anyway.
_SAFETY_POLL = 1.0


def session_run_id(session_id: str) -> str:
    """The run id of a session's run."""
    return f"session:{session_id}"


class Session:
    """A client's handle to one session.

    Attributes:
        session_id: The session's id.
        agent_name: Its agent.
        run_id: The durable run that serves it.
        owner: Who opened it, when this handle knows (`state()` always does).
    """

    def __init__(
        self,
        host: SessionHost,
        agent_name: str,
        session_id: str,
        run_id: str,
        *,
        owner: str | None = None,
    ) -> None:
        self.host = host
        self.agent_name = agent_name
        self.session_id = session_id
        self.run_id = run_id
        self.owner = owner
        self._inbox = Inbox(host, agent_name, session_id, run_id)
        self._run_handle: RunHandle | None = None
        self._lines: dict[str, SessionLine] = {}
        #: The chain's current run as `_current` last read it (see `Inbox.admit_on_seen`).
        self._seen: RunInfo | None = None

    def __repr__(self) -> str:
        return f"<Session {self.session_id!r} of agent {self.agent_name!r}>"

    def started(self, handle: RunHandle) -> None:
        """Told by the host that it has just started the session's run (`handle`).

        Spares the first reads a lookup of the run, and of its line: a session's first
        run is started without one.
        """
        self._run_handle = handle
        self._lines = {handle.run_id: read_line(None)}

    async def _handle(self) -> RunHandle:
        if self._run_handle is None:
            try:
                self._run_handle = await self.host.client.get(self.run_id)
            except NotFoundError:
                raise NotFoundError(f"no session {self.session_id!r}") from None
        return self._run_handle

    async def _current(self) -> tuple[RunInfo, SessionLine]:
        """The session's current run (its chain's latest) and the line it was given."""
        client = self.host.client
        try:
            info = await client.latest(self.run_id)
        except NotFoundError:
            raise NotFoundError(f"no session {self.session_id!r}") from None
        line = self._lines.get(info.run_id)
        if line is None:
            # A run's input never changes: read its line once per run.
            args = (await (await client.get(info.run_id, follow=False)).input()).args
            line = read_line(args[4] if len(args) > 4 else None)
            self._lines = {info.run_id: line}
        self._seen = info
        return info, line

    # -- writes -----------------------------------------------------------------------------
    async def send(
        self,
        text: str,
        *,
        client_message_id: str | None = None,
        principal: str | None = None,
        turn_policy: TurnPolicy | None = None,
        attachments: Sequence[Attachment | str] = (),
    ) -> str:
        """Send a user message; returns its submission id.

        Idempotent by `client_message_id`: sending the same id again (after a timeout,
        say) admits nothing new, also once retention deleted the message's text (the
        ledger keeps its receipt). An idle session starts a turn; a running one is
        steered at its next boundary, or the message waits for the turn to end
        (``turn_policy="queue"``, or while the turn is parked for another principal).

        Args:
            text: The message (may be empty when it carries files).
            client_message_id: Makes the send idempotent.
            principal: Who sends it (only the turn's principal may steer it or answer
                its approvals).
            turn_policy: Overrides the agent's policy for this message.
            attachments: Files stored with `attach` (references or ids): the message
                carries them by reference, the model is given their bytes.

        Raises:
            SessionClosedError: The session was closed, failed or its run ended.
            SessionStrandedError: No live worker serves the versions that built it.
            ConflictError: `client_message_id` was used before with other content.
            AttachmentError: An attachment unknown to this session, or of a type the
                agent's model does not take (nothing is admitted).
            ConfigurationError: A bad argument (nothing is admitted).
        """
        if not isinstance(text, str):
            raise ConfigurationError(f"a message is a string, not {type(text).__name__}")
        if turn_policy not in (None, "steer", "queue"):
            raise ConfigurationError(f"turn_policy must be 'steer' or 'queue', not {turn_policy!r}")
        if client_message_id is not None:
            check_identifier(client_message_id, what="client_message_id")
        submission_id = f"{self.session_id}:{client_message_id or new_ulid('msg_')}"
        seen = self._seen
        if seen is not None and not attachments:
            # No read of the run: the admission is fenced by the run last read.
            seen_line = self._lines.get(seen.run_id)
            if seen_line is not None and await self._inbox.admit_on_seen(
                seen, seen_line, submission_id, text, principal, turn_policy
            ):
                return submission_id
            self._seen = None
        info, line = await self._current()
        self._check_open(info)
        if attachments and await self._inbox.closing(line.generation):
            # Before the files are looked up: a closing session says so, not that its
            # files are gone. (Without files the admission itself checks: one
            # transaction, no read before it.)
            raise SessionClosedError(self.session_id, "closing")
        refs = await resolve_attachments(
            self.host.backend.stores,
            agent_name=self.agent_name,
            session_id=self.session_id,
            model=self.host.agents.get(self.agent_name).model,
            items=attachments,
        )

        async def admit() -> None:
            await self._inbox.admit_message(
                submission_id,
                text,
                principal,
                turn_policy,
                refs,
                generation=line.generation,
                run_id=info.run_id,
            )

        if await wants_move(self, info):
            if await deliver_moving(self, info, admit):
                return submission_id
            info, line = await self._current()
            self._check_open(info)
        if info.stranded:
            raise SessionStrandedError(self.session_id, info.engine_version, info.deployment)
        await admit()
        return submission_id

    async def attach(
        self,
        data: bytes,
        *,
        mime_type: str,
        filename: str | None = None,
        attachment_id: str | None = None,
    ) -> Attachment:
        """Store a file or image with the session, to send with messages (`send`).

        The bytes are stored once, immutable and verified by their SHA-256, under the
        session's data key on an encrypted store; retention and erasure delete them
        with the session. Messages, the transcript and events carry the returned
        reference only.

        Args:
            data: The bytes.
            mime_type: Their media type: ``image/png``, ``image/jpeg``, ``image/gif``,
                ``image/webp``, ``application/pdf``, or text (``text/*``, JSON, XML,
                YAML, ...; UTF-8), as far as the agent's model takes it.
            filename: Its name (shown to the model for files).
            attachment_id: Makes the upload idempotent (default: a new id).

        Raises:
            AttachmentError: A type the agent's model does not take, a malformed type,
                id or filename, or text that is not UTF-8 (nothing is stored).
            ConflictError: `attachment_id` holds other bytes or another type.
            SessionClosedError: The session ended (or is closing).
            SessionStrandedError: No live worker serves it.
        """
        await self._require_open()
        return await store_attachment(
            self.host.backend.stores,
            agent_name=self.agent_name,
            session_id=self.session_id,
            run_id=self.run_id,
            model=self.host.agents.get(self.agent_name).model,
            data=data,
            mime_type=mime_type,
            filename=filename,
            attachment_id=attachment_id,
        )

    async def read_attachment(self, attachment_id: str) -> tuple[Attachment, bytes]:
        """An attachment of this session: its reference and its bytes (verified).

        Raises:
            NotFoundError: The session has no attachment of that id.
            ContentDeletedError: Retention or erasure deleted the session's content.
        """
        await self._ensure_readable()
        stored = await read_attachment(
            self.host.backend.stores, self.agent_name, self.session_id, attachment_id
        )
        if stored is None:
            raise NotFoundError(f"session {self.session_id!r} has no attachment {attachment_id!r}")
        return Attachment.of(stored), stored.data

    def _check_open(self, info: RunInfo) -> None:
        status = _ENDED.get(info.status)
        if status is not None:
            raise SessionClosedError(self.session_id, status)

    async def hand_off(self) -> bool:
        """Move the session to this host's deployment now, if it is idle.

        What `send` does by itself when this host's deployment is the newest one live;
        call it to move sessions ahead of their next message (after a deploy, say).

        Returns:
            Whether it moved (False: it runs there already, or something is in flight:
            a turn running or parked, a step to run again; or it ended).

        Raises:
            StateConflictError: This host's agent declares a state key twice, differently.
        """
        info, _ = await self._current()
        return await hand_off(self, info)

    async def _require_open(self) -> tuple[RunInfo, SessionLine]:
        info, line = await self._current()
        self._check_open(info)
        if info.stranded:
            raise SessionStrandedError(self.session_id, info.engine_version, info.deployment)
        if await self._inbox.closing(line.generation):
            raise SessionClosedError(self.session_id, "closing")
        return info, line

    async def answer(self, request_id: str, answer: Any, *, principal: str | None = None) -> None:
        """Answer a pending approval, question or authorization.

        An approval takes ``"approve"``/``"deny"`` (or True/False, or ``{"approved":
        bool, "reason": ...}``); a question an option's id (any string without options)
        or `DECLINE`; an authorization ``{"authorized": True}``. The same answer again
        changes nothing; another one is refused, also when both race (the first wins).

        Raises:
            InvalidAnswerError: Not one of the question's ``option_ids`` (or, for free
                text, not a string).
            InputRequestError: No such request; it was answered otherwise; its turn was
                cancelled (or it was withdrawn); or `principal` may not answer it (only
                the turn's principal, or an approver the agent names). Nothing changes.
        """
        fold = await self._fold()
        request = fold.pending.get(request_id)
        if request is None:
            if request_id in fold.answered:
                if fold.answered[request_id] == answer:
                    return
                reason = "it was already answered otherwise"
            elif request_id in fold.dropped:
                reason = "its turn was cancelled or it was withdrawn"
            else:
                reason = "no such request"
            raise InputRequestError(self.session_id, request_id, reason)
        check_answer(self.session_id, request, answer, principal)
        try:
            await self._inbox.answer(request_id, answer, principal)
        except ConflictError:
            raise InputRequestError(
                self.session_id, request_id, "it was already answered otherwise"
            ) from None

    async def cancel_turn(self, *, principal: str | None = None) -> None:
        """Cancel the turn in progress; without one, nothing happens.

        The turn ends ``turn.cancelled`` and its message settles ``aborted``. What it was
        doing stops: the model's generation, its tools, a workflow tool's question or
        sleep, its sub-agents (their runs are cancelled). Its pending requests are
        dropped (answering one raises `InputRequestError`) and every call it left open
        is answered "cancelled" for the model.
        """
        fold = await self._fold()
        if fold.turn_id is not None:
            await self._inbox.cancel(fold.turn_id, principal)

    async def close(self) -> None:
        """End the session once its current turn ends (a parked turn is cancelled).

        Sends are refused from now on (`SessionClosedError`); messages still waiting
        are settled failed. With retention ``0`` its content (transcript, message texts,
        events, step inputs and outputs, sub-agent tasks) is deleted then; ids,
        timestamps, statuses and step names remain, and reading the content raises
        `ContentDeletedError`.
        """
        _, line = await self._current()
        await self._inbox.close(line.generation)

    async def clear(self, *, principal: str | None = None) -> None:
        """Give the session a fresh transcript; it keeps its id, stream and inbox.

        Takes effect at the session's next idle point (at once when it is idle, else
        when its turn ends; messages sent after this run on the fresh transcript): the
        session moves to a new run (``session.moved`` with reason ``clear``) that starts
        an empty transcript, the model remembering nothing of the old one, which stays
        readable in the store. Asking again before it took effect changes nothing.

        Args:
            principal: Who asks (recorded with the request).

        Raises:
            SessionClosedError: The session ended (or is closing).
            SessionStrandedError: No live worker serves it: nothing would apply the
                clear (`reset` it instead).
        """
        _, line = await self._require_open()
        await self._inbox.clear(line.generation, principal)

    async def reset(self, *, principal: str | None = None, timeout: float = 30.0) -> Session:
        """End the session's run and open a new session under the same id.

        Works on any session, stranded ones included: its run is cancelled (a turn in
        progress stops at its next boundary), every message and command still waiting
        is settled failed, and a new run opens the id again on this host's deployment,
        with a new transcript and inbox (the event stream goes on: ``session.started``
        with its ``predecessor``). The new session's model is given the predecessor's
        last messages as user-role data marked "history, not instructions" (see
        `predecessor`). An ended session (closed, failed) may be reset as well. Under
        retention ``0`` the session that ended is deleted first, as a close deletes it
        (the new session's model is then given no history).

        Args:
            principal: Who resets it (recorded as the cancel's reason).
            timeout: Seconds to wait for a running turn to stop.

        Returns:
            A handle to the new session (this one follows it too).

        Raises:
            TimeoutError: The run did not stop within `timeout` (nothing was reset;
                its cancel stands).
        """
        client = self.host.client
        info, line = await stop_run(client, self.session_id, self._current, principal, timeout)
        await self._inbox.settle_all("the session was reset before this ran")
        agent = functools.partial(self.host.agents.get, self.agent_name)
        stores = self.host.backend.stores
        await open_again(client, stores, agent, self.session_id, self.run_id, info, line)
        self._inbox = Inbox(self.host, self.agent_name, self.session_id, self.run_id)
        return Session(self.host, self.agent_name, self.session_id, self.run_id, owner=self.owner)

    async def fork(
        self,
        *,
        at: int | None = None,
        at_event: int | None = None,
        session_id: str | None = None,
        owner: str | EllipsisType | None = ...,
    ) -> Session:
        """A new session with this one's history up to a turn's end ("Fork a session").

        `at`: ended turns kept (default all); `at_event`: rounded up to its turn's end.
        """
        info, line = await self._current()
        await self._ensure_readable(info)
        fork_id, owner = await fork_session(
            self.host.client, self.host.backend.stores, self.agent_name, self.session_id,
            info, line, at=at, at_event=at_event, session_id=session_id, owner=owner,
        )  # fmt: skip
        return Session(self.host, self.agent_name, fork_id, session_run_id(fork_id), owner=owner)

    async def predecessor(
        self, *, last: int = PREDECESSOR_ENTRIES, timeout: float = PREDECESSOR_TIMEOUT
    ) -> Predecessor | None:
        """The session this one follows after a `reset` (None if it follows none).

        Args:
            last: How many of its last messages `Predecessor.text` holds.
            timeout: Seconds its transcript may take to read (past that, no text).
        """
        _, line = await self._current()
        stores = self.host.backend.stores
        return await predecessor_of(stores, self.agent_name, self.session_id, line, last, timeout)

    async def erase(self) -> SessionErasure:
        """Erase this session now (see `AgentHost.erase_session`)."""
        current, _ = await self._current()
        return await erase_session(
            self.host.client,
            self.host.backend.stores,
            self.host.agents.get(self.agent_name),
            self.session_id,
            self.run_id,
            current,
        )

    # -- reads ------------------------------------------------------------------------------
    async def _ensure_readable(self, info: RunInfo | None = None) -> RunInfo:
        info = info or (await self._current())[0]
        handle = await self._handle()
        return await check_readable(
            self.host.backend.stores, self.session_id, self.run_id, handle, info
        )

    async def state(self) -> SessionState:
        """What the session is doing now: idle, running, parked (on what), or ended."""
        handle = await self._handle()
        info, line = await self._current()
        args = (await handle.input()).args
        owner = args[2] if len(args) > 2 else None
        status = _ENDED.get(info.status)
        fold = None
        if status is None:
            try:
                # Read as of `info`: a run that ends meanwhile is read as it was.
                events = await self._read_events(0, info)
                fold = fold_events(events, follows=line.predecessor)
            except ContentDeletedError:
                # The run ended (under retention 0) and its content went between the two
                # reads: report its end rather than the deletion of content the caller
                # did not ask for.
                info, _ = await self._current()
                status = _ENDED.get(info.status)
                if status is None:
                    raise
        return SessionState(
            session_id=self.session_id,
            agent_name=self.agent_name,
            owner=owner,
            status=status or (fold.status if fold is not None else "idle"),
            parked_on=fold.parked_on if fold is not None else None,
            turn_id=fold.turn_id if fold is not None else None,
            pending=tuple(fold.pending.values()) if fold is not None else (),
            stranded=info.stranded,
            deployment=info.deployment,
            engine_version=info.engine_version,
            created_at=info.created_at.timestamp(),
            updated_at=info.updated_at.timestamp(),
        )

    async def pending_requests(self) -> list[InputRequest]:
        """The input requests (approvals, questions, authorizations) waiting for answers.

        Requests of a cancelled turn are not among them.
        """
        return list((await self._fold()).pending.values())

    async def _fold(self) -> Fold:
        """What the events of the session's current run say (see `fold_events`)."""
        info, line = await self._current()
        return fold_events(await self._read_events(0, info), follows=line.predecessor)

    async def transcript(self) -> list[Any]:
        """The canonical transcript: typed entries (`TranscriptEntry`), in order.

        After a clear, a compaction or a reset, the fresh one (earlier ones stay stored).

        Raises:
            ContentDeletedError: The session ended under retention ``0``.
        """
        await self._ensure_readable()
        _, line = await self._current()
        return await self._inbox.transcript_records(line.generation)

    async def state_values(self) -> StateValues:
        """Its declared state now (`State`, read-only; defaults where none was set)."""
        return read_values(self.host.agents.get(self.agent_name), await self.transcript())

    async def read_events(self, start: int = 0) -> list[SessionEvent]:
        """The events from index `start` (negative counts back from the tail).

        Raises:
            ContentDeletedError: The session ended under retention ``0``.
        """
        return await self._read_events(start)

    async def usage(self, prices: Mapping[str, Price] | None = None) -> SessionUsage:
        """Its model calls' tokens by model and turn, at `prices` (default: `Agents.prices`).

        Each attempt that called the provider counts once, calls whose reply never
        committed included when the session has a budget (`SessionUsage.retried`).
        """
        table = self.host.agents.prices if prices is None else prices
        return session_usage(self.session_id, await self.calls(), table)

    async def calls(self) -> list[RecordedCall]:
        """Its model calls on record, once per attempt that called the provider.

        Raises:
            ContentDeletedError: The session ended under retention ``0``.
        """
        events = await self.read_events(0)
        settled = await self.host.backend.stores.budgets.settled_calls(self.session_id)
        return recorded_calls(events, settled)

    async def budget(self) -> BudgetStatus | None:
        """Its own budget (`Agent.budget`, or one set for it); None if it has none."""
        return await self.host.budget(BudgetScope.session(self.agent_name, self.session_id))

    async def raise_budget(
        self, *, tokens: int | None = None, cost: float | None = None
    ) -> BudgetStatus:
        """Raise its own budget (see `AgentHost.raise_budget`); a parked turn resumes."""
        scope = BudgetScope.session(self.agent_name, self.session_id)
        return await self.host.raise_budget(scope, tokens=tokens, cost=cost)

    async def _read_events(self, start: int, info: RunInfo | None = None) -> list[SessionEvent]:
        await self._ensure_readable(info)
        chunks = await self.host.client.stream(self.run_id, EVENTS_STREAM).read_all(start)
        return await self.whole_events(decode_events(chunks))

    async def whole_events(self, events: Sequence[SessionEvent]) -> list[SessionEvent]:
        """`events` of this session with each large tool result read back into them.

        A ``tool.result`` whose content was stored once, by content, holds only its
        ``content_ref`` in the event stream; this reads the content from the session's
        attachment stream (`Session.read_events` and `Session.events` do it already).

        Raises:
            IntegrityError: A result is no longer stored.
        """
        return await resolve_events(
            self.host.backend.stores, self.agent_name, self.session_id, events
        )

    async def events(self, start: int = 0, *, follow: bool = True) -> AsyncIterator[SessionEvent]:
        """The events from index `start` (negative counts back from the tail).

        With `follow` the iterator waits for new events and ends after a terminal one
        (``session.closed``, ``session.failed``) or once the session's run has ended
        (cancelled, say); it never hangs on a session that is over.

        Raises:
            ContentDeletedError: The session ended under retention ``0``.
            SessionStrandedError: (`follow`) no live worker serves the session: nothing
                more will happen; read it with ``follow=False``.
        """
        if not follow:
            for each in await self.read_events(start):
                yield each
            return
        info = await self._ensure_readable()
        if info.stranded:
            raise SessionStrandedError(self.session_id, info.engine_version, info.deployment)
        # The session's run id is its chain's (the chain's first run).
        stream = self.host.client.stream(self.run_id, EVENTS_STREAM, chain_id=self.run_id)
        running = info.status not in _ENDED
        # Every backend announces appends to its followers (a tap in this process, a
        # notification or a look at the file from others): a read is only a safety net.
        async for chunk in stream.follow(start, poll_interval=_SAFETY_POLL, known_running=running):
            if (event := decode_event(chunk.data, chunk.index, unknown="skip")) is None:
                continue  # a type a newer release emits: see `decode_events`
            if getattr(event.data, "content_ref", None) is not None:
                (event,) = await self.whole_events([event])
            yield event
            if event.type in TERMINAL_EVENTS:
                # Over, unless the id was opened again since (a reset, whose run starts
                # after the ending one: its events follow).
                try:
                    current, _ = await self._current()
                except StoreUnavailableError:
                    # No one can tell now: follow on. The stream ends by itself once
                    # the chain's run has ended, and it rides out the outage meanwhile.
                    continue
                if current.status in _ENDED or current.created_at.timestamp() <= event.meta.at:
                    return

    async def wait_for(
        self, event_type: str, *, after: int = -1, timeout: float = 30.0, **match: Any
    ) -> SessionEvent:
        """The first event of `event_type` with index > `after` whose data matches.

        Args:
            event_type: E.g. ``"turn.completed"``.
            after: Only events after this index.
            timeout: Seconds to wait.
            **match: Data fields that must equal the given values.

        Raises:
            TimeoutError: None came within `timeout`.
            NotFoundError: The session ended first.
        """
        found = first_event(self.events(max(after + 1, 0)), event_type, match, self.session_id)
        return await within(found, timeout)
