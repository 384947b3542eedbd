"""`Session`: a client's handle to one session: send, answer, cancel, close, read, follow."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from .._ids import new_ulid
from ..durable import RunHandle, RunInfo
from ..errors import (
    ConfigurationError,
    ConflictError,
    ContentDeletedError,
    InputRequestError,
    NotFoundError,
    SessionClosedError,
    SessionStrandedError,
    WorkflowError,
)
from ._agent import TurnPolicy
from ._erasure import SessionErasure, erased_note
from ._event_data import TERMINAL_EVENTS
from ._events import EVENTS_STREAM, SessionEvent, decode_event
from ._inbox import Inbox
from ._requests import InputRequest
from ._retention import purge_session
from ._state import SessionInfo, SessionState, SessionStatus, fold_events

if TYPE_CHECKING:
    from ._host import AgentHost

__all__ = ["Session", "session_info", "session_run_id"]

# How long an erasure waits for a running session to obey its cancel (a lease's
# holder obeys at its next commit); past it the keys are destroyed all the same.
_ERASE_WAIT = 30.0

_ENDED: dict[str, SessionStatus] = {
    "completed": "closed",
    "failed": "failed",
    "cancelled": "cancelled",
}


def session_run_id(session_id: str) -> str:
    """The run id of a session's run."""
    return f"session:{session_id}"


async def session_info(host: AgentHost, run: RunInfo) -> SessionInfo | None:
    """The `SessionInfo` of a session run (None if the run is not a session)."""
    handle = await host.client.get(run.run_id)
    args = (await handle.input()).args
    if len(args) < 2:
        return None
    status = _ENDED.get(run.status)
    if status is None:
        inbox = Inbox(host, str(args[0]), str(args[1]), run.run_id)
        status = "running" if await inbox.busy() else "idle"
    return SessionInfo(
        session_id=str(args[1]),
        agent_name=str(args[0]),
        owner=args[2] if len(args) > 2 else None,
        status=status,
        created_at=run.created_at.timestamp(),
        updated_at=run.updated_at.timestamp(),
    )


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
        host: AgentHost,
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

    def __repr__(self) -> str:
        return f"<Session {self.session_id!r} of agent {self.agent_name!r}>"

    async def _handle(self) -> RunHandle:
        if self._run_handle is None:
            try:
                self._run_handle = await self.host.client.get(self.run_id)
            except NotFoundError:
                raise NotFoundError(f"no session {self.session_id!r}") from None
        return self._run_handle

    # -- writes -----------------------------------------------------------------------------
    async def send(
        self,
        text: str,
        *,
        client_message_id: str | None = None,
        principal: str | None = None,
        turn_policy: TurnPolicy | None = None,
    ) -> str:
        """Send a user message; returns its submission id.

        Idempotent by `client_message_id`: sending the same id again (after a timeout,
        say) admits nothing new. An idle session starts a turn; a running one is
        steered at its next boundary, or the message waits for the turn to end
        (``turn_policy="queue"``, or while the turn is parked for another principal).

        Args:
            text: The message.
            client_message_id: Makes the send idempotent.
            principal: Who sends it (only the turn's principal may steer it or answer
                its approvals).
            turn_policy: Overrides the agent's policy for this message.

        Raises:
            SessionClosedError: The session was closed, failed or its run ended.
            SessionStrandedError: No live worker serves the versions that built it.
            ConflictError: `client_message_id` was used before with other content.
            ConfigurationError: A bad argument (nothing is admitted).
        """
        if not isinstance(text, str):
            raise ConfigurationError(f"a message is a string, not {type(text).__name__}")
        if turn_policy not in (None, "steer", "queue"):
            raise ConfigurationError(f"turn_policy must be 'steer' or 'queue', not {turn_policy!r}")
        await self._require_open()
        submission_id = f"{self.session_id}:{client_message_id or new_ulid('msg_')}"
        await self._inbox.admit_message(submission_id, text, principal, turn_policy)
        return submission_id

    async def _require_open(self) -> RunInfo:
        info = await (await self._handle()).info()
        status = _ENDED.get(info.status)
        if status is not None:
            raise SessionClosedError(self.session_id, status)
        if info.stranded:
            raise SessionStrandedError(self.session_id, info.engine_version, info.deployment)
        if await self._inbox.closing():
            raise SessionClosedError(self.session_id, "closing")
        return info

    async def answer(self, request_id: str, answer: Any, *, principal: str | None = None) -> None:
        """Answer a pending approval, question or authorization.

        An approval takes ``"approve"``/``"deny"`` (or True/False, or
        ``{"approved": bool, "reason": ...}``); a question one of its options (or any
        text when it has none); an authorization ``{"authorized": True}``. Answering
        again with the same answer changes nothing; another answer is refused, also
        when both race to the worker (the first admitted wins).

        Raises:
            InputRequestError: No such request; it was answered otherwise; its turn was
                cancelled (or it was withdrawn); `principal` may not answer it (only the
                turn's principal, or an approver the agent names); or the answer is not
                one of the question's options. Nothing changes.
        """
        fold = fold_events(await self.read_events())
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
        _check_answer(self.session_id, request, answer, principal)
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
        fold = fold_events(await self.read_events())
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
        await self._inbox.close()

    async def erase(self) -> SessionErasure:
        """Erase this session now (see `AgentHost.erase_session`)."""
        handle = await self._handle()
        if (await handle.info()).status not in _ENDED:
            # Stops it (and its tasks) first: a step still running would write on. While a
            # worker holds the run the cancel is a request, obeyed at its next commit:
            # wait for the run to end so nothing it writes lands after the purge.
            await handle.cancel("session erased")
            with contextlib.suppress(WorkflowError):
                await handle.result(timeout=_ERASE_WAIT)
        agent = self.host.agents.get(self.agent_name)
        erasure = await purge_session(
            self.host.backend.stores,
            self.host.client,
            agent,
            self.session_id,
            self.run_id,
            shred=True,
        )
        assert erasure is not None
        return erasure

    # -- reads ------------------------------------------------------------------------------
    async def _ensure_readable(self, info: RunInfo | None = None) -> RunInfo:
        erased = await erased_note(self.host.backend.stores, self.run_id)
        if erased is not None:
            raise ContentDeletedError(
                f"session {self.session_id!r} was {erased}: its content is unreadable, "
                "its ids, timestamps and statuses remain"
            )
        handle = await self._handle()
        info = info or await handle.info()
        if info.status not in _ENDED:
            return info
        args = (await handle.input()).args
        retention = args[3] if len(args) > 3 else "default"
        if retention == 0:
            raise ContentDeletedError(
                f"session {self.session_id!r} ended under retention=0: its transcript, "
                "message texts, events and step contents were deleted (ids, timestamps, "
                "statuses and step names remain)"
            )
        return info

    async def state(self) -> SessionState:
        """What the session is doing now: idle, running, parked (on what), or ended."""
        handle = await self._handle()
        info = await handle.info()
        args = (await handle.input()).args
        owner = args[2] if len(args) > 2 else None
        status = _ENDED.get(info.status)
        fold = None
        if status is None:
            try:
                fold = fold_events(await self.read_events())
            except ContentDeletedError:
                # The run ended (under retention 0) between the two reads: report its end
                # rather than the deletion of content the caller did not ask for.
                info = await handle.info()
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
        return list(fold_events(await self.read_events()).pending.values())

    async def transcript(self) -> list[Any]:
        """The canonical transcript: typed entries (`TranscriptEntry`), in order.

        Raises:
            ContentDeletedError: The session ended under retention ``0``.
        """
        await self._ensure_readable()
        return await self._inbox.transcript_records()

    async def read_events(self, start: int = 0) -> list[SessionEvent]:
        """The events from index `start` (negative counts back from the tail).

        Raises:
            ContentDeletedError: The session ended under retention ``0``.
        """
        await self._ensure_readable()
        chunks = await self.host.client.stream(self.run_id, EVENTS_STREAM).read_all(start)
        return [decode_event(c.data, c.index) for c in chunks]

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
            for event in await self.read_events(start):
                yield event
            return
        info = await self._ensure_readable()
        if info.stranded:
            raise SessionStrandedError(self.session_id, info.engine_version, info.deployment)
        stream = self.host.client.stream(self.run_id, EVENTS_STREAM)
        async for chunk in stream.follow(start, poll_interval=0.02):
            event = decode_event(chunk.data, chunk.index)
            yield event
            if event.type in TERMINAL_EVENTS:
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

        async def find() -> SessionEvent:
            async for event in self.events(max(after + 1, 0)):
                if event.type == event_type and all(
                    getattr(event.data, k, None) == v for k, v in match.items()
                ):
                    return event
            raise NotFoundError(f"the event stream of {self.session_id!r} ended first")

        return await asyncio.wait_for(find(), timeout)


def _check_answer(
    session_id: str, request: InputRequest, answer: Any, principal: str | None
) -> None:
    if not request.may_answer(principal):
        allowed = [p for p in (request.principal, *request.approvers) if p]
        raise InputRequestError(
            session_id,
            request.request_id,
            f"{principal!r} may not answer it (it is for {allowed})",
        )
    if request.options and answer not in request.options:
        raise InputRequestError(
            session_id,
            request.request_id,
            f"the answer must be one of {list(request.options)}, not {answer!r}",
        )
