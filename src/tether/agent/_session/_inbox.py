"""A session's inbox as clients write it: messages, answers, cancels and closes.

Everything a client sends is admitted to the session's ledger lanes (where admission
is idempotent by id, and the same id with other content is refused), and the session's
inbox hook is rung in the same transaction when the run has it open: the message lands
with its wake-up, or not at all. The ring carries nothing the run trusts.

The inbox hook's token is random (the engine creates it); a client finds it in the
session run's hooks, which only readers of the store can list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._version import ENGINE_VERSION
from ...durable import RunInfo
from ...errors import ConflictError, InvalidTransitionError, NotFoundError, SessionClosedError
from ...stores import (
    AdmitSubmission,
    Stores,
    SubmissionInput,
    data_scope,
    run_scope,
)
from .._agent import TurnPolicy
from .._records._attachments import Attachment
from .._records._keys import (
    COMMANDS_LANE,
    answer_id,
    cancel_id,
    clear_id,
    close_id,
    conversation_path,
    messages_lane,
)
from .._records._state import RUN_ENDINGS
from .._stored._line import SessionLine
from .._stored._mail import settle_lanes
from .._stored._transcript import Transcript
from .._turn._tracing import TRACEPARENT_KEY, message_traceparent

if TYPE_CHECKING:
    from ._session_host import SessionHost

__all__ = ["Inbox"]


class Inbox:
    """Writes into one session's inbox (see the module docstring)."""

    def __init__(
        self,
        host: SessionHost,
        agent_name: str,
        session_id: str,
        run_id: str,
    ) -> None:
        self._host = host
        self._agent = agent_name
        self._session = session_id
        self._run_id = run_id
        self._token: str | None = None

    @property
    def _stores(self) -> Stores:
        return self._host.backend.stores

    async def token(self) -> str | None:
        """The inbox hook's token (read once, then kept); None while it has none."""
        return await self._inbox_token()

    async def _inbox_token(self, current: str | None = None) -> str | None:
        """The token, read once; `current` is the chain's current run if the caller knows."""
        if self._token is None:
            client = self._host.client
            try:
                # The session's current run: its chain's (a move keeps the token, a
                # reset opens a new inbox).
                if current is None:
                    current = (await client.latest(self._run_id)).run_id
                hooks = await client.hooks(current)
            except NotFoundError:
                return None
            # The session run's first operation is its inbox: the hook at its lowest slot.
            if hooks:
                self._token = min(hooks, key=lambda h: h.slot).token
        return self._token

    async def _admit(
        self,
        submission: SubmissionInput,
        *,
        unless: str | None = None,
        current: str | None = None,
        fenced: bool = False,
    ) -> None:
        """Admit `submission` and ring the inbox, in one transaction when it is open.

        With `unless` (a close's submission id), a new submission is refused with
        `SessionClosedError` while the ledger holds that close. `current`: the chain's
        current run, if the caller knows it. `fenced`: admitted only while `current`
        holds the inbox; `NotFoundError` (nothing admitted) once it ended or moved on.
        """
        write = AdmitSubmission(submission=submission, unless=unless)
        token = await self._inbox_token(current)
        if token is None and fenced:
            raise NotFoundError(f"run {current!r} holds no inbox")
        if token is not None:
            try:
                await self._host.client.resume_hook(
                    token, {"ring": True}, writes=(write,), run_id=current if fenced else None
                )
                return
            except NotFoundError:
                # The run ended (or moved on): the caller checks its state again.
                self._token = None
                if fenced:
                    raise
            except InvalidTransitionError:
                if unless is not None and await self._holds(unless):
                    raise SessionClosedError(self._session, "closing") from None
                raise
        if unless is not None and await self._holds(unless):
            raise SessionClosedError(self._session, "closing")
        # Under the session run's key scope, as the ring's writes are (its run's): a
        # replay through either path seals to the same bytes, and erasing the session
        # erases the message.
        with data_scope(run_scope(self._run_id)):
            await self._stores.submissions.admit_direct(submission)
        # The run may have opened its inbox meanwhile, after reading the ledger: ring it.
        token = await self._inbox_token()
        if token is not None:
            try:
                await self._host.client.resume_hook(token, {"ring": True})
            except NotFoundError:
                self._token = None

    def _command(self, submission_id: str, payload: dict[str, Any]) -> SubmissionInput:
        return SubmissionInput(
            submission_id=submission_id,
            agent_name=self._agent,
            instance_id=self._session,
            session=COMMANDS_LANE,
            payload=payload,
            canonical_ready=True,
        )

    async def admit_message(
        self,
        submission_id: str,
        text: str,
        principal: str | None,
        policy: TurnPolicy | None,
        attachments: tuple[Attachment, ...] = (),
        *,
        generation: int | None = None,
        run_id: str | None = None,
        fenced: bool = False,
    ) -> None:
        """Admit a user message; with `generation`, refused while that generation closes.

        `run_id` is the chain's current run, when the caller has just read it (it spares
        the read the first ring needs to find the inbox). `fenced`: only while that run
        holds the inbox.

        Raises:
            SessionClosedError: (with `generation`) a close of it is in the ledger.
            NotFoundError: (`fenced`) `run_id` ended or moved on; nothing was admitted.
        """
        payload: dict[str, Any] = {"text": text, "principal": principal}
        if policy is not None:
            payload["turn_policy"] = policy
        if attachments:
            payload["attachments"] = [a.to_json() for a in attachments]
        traceparent = message_traceparent()
        if traceparent is not None:
            # The admitting caller's span becomes the parent of the message's turn.
            payload[TRACEPARENT_KEY] = traceparent
        try:
            await self._admit(
                SubmissionInput(
                    submission_id=submission_id,
                    agent_name=self._agent,
                    instance_id=self._session,
                    payload=payload,
                    canonical_ready=True,
                ),
                unless=None if generation is None else close_id(self._session, generation),
                current=run_id,
                fenced=fenced,
            )
        except ConflictError:
            # The same message sent again from another trace (a client's retry) is the
            # same message: only its traceparent differs.
            if not await self._same_but_trace(submission_id, payload):
                raise

    async def _same_but_trace(self, submission_id: str, payload: dict[str, Any]) -> bool:
        """Whether the admitted `submission_id` holds `payload` but for its traceparent."""
        with data_scope(run_scope(self._run_id)):
            found = await self._stores.submissions.get_submission(submission_id)
        if found is None or not isinstance(found.payload, dict):
            return False

        def bare(value: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in value.items() if k != TRACEPARENT_KEY}

        return bool(bare(found.payload) == bare(payload))

    async def admit_on_seen(
        self,
        seen: RunInfo,
        line: SessionLine,
        submission_id: str,
        text: str,
        principal: str | None,
        policy: TurnPolicy | None,
    ) -> bool:
        """Admit a message on `seen`, the run a client last read, with no read of it.

        Safe without the read because the admission is fenced by that run: it lands
        only while the run still holds the inbox, which it gives up by ending or moving
        on (a run's versions never change, and a close under way is checked in the
        admission itself). Only for a run on this host's versions (nothing to move)
        that is not stranded now.

        Returns:
            False when not admitted (nothing was): the caller reads the session's state
            and goes the usual way.
        """
        host = self._host
        if (
            seen.status in RUN_ENDINGS
            or (seen.engine_version, seen.deployment) != (ENGINE_VERSION, host.agents.deployment)
            or await host.client.is_stranded(seen)
        ):
            return False
        try:
            await self.admit_message(
                submission_id,
                text,
                principal,
                policy,
                generation=line.generation,
                run_id=seen.run_id,
                fenced=True,
            )
        except NotFoundError:
            return False
        return True

    async def answer(self, request_id: str, answer: Any, principal: str | None) -> None:
        """Admit the answer to a request.

        Raises:
            ConflictError: The request was answered otherwise (or by someone else).
        """
        payload = {
            "kind": "answer",
            "request_id": request_id,
            "answer": answer,
            "principal": principal,
        }
        await self._admit(self._command(answer_id(self._session, request_id), payload))

    async def cancel(self, turn_id: str, principal: str | None) -> None:
        payload = {"kind": "cancel", "turn_id": turn_id, "principal": principal}
        try:
            await self._admit(self._command(cancel_id(self._session, turn_id), payload))
        except ConflictError:
            pass  # already asked (by someone else): the turn is being cancelled

    async def close(self, generation: int) -> None:
        await self._admit(self._command(close_id(self._session, generation), {"kind": "close"}))

    async def clear(self, generation: int, principal: str | None) -> None:
        """Ask for a fresh transcript after generation `generation` (once per generation)."""
        payload = {"kind": "clear", "principal": principal}
        try:
            await self._admit(self._command(clear_id(self._session, generation), payload))
        except ConflictError:
            pass  # already asked (by someone else): the session is being cleared

    async def closing(self, generation: int) -> bool:
        """Whether a close was asked for."""
        return await self._holds(close_id(self._session, generation))

    async def _holds(self, submission_id: str) -> bool:
        return await self._stores.submissions.get_submission(submission_id) is not None

    async def settle_all(self, error: str) -> None:
        """Settle every unsettled message and command as failed (the session ended)."""
        await settle_lanes(self._stores, self._agent, self._session, error)

    async def busy(self) -> bool:
        """Whether a turn is in progress or a message waits."""
        rows = await self._stores.submissions.list_unsettled_submissions(
            [messages_lane(self._agent, self._session)]
        )
        return bool(rows)

    async def transcript_records(self, generation: int) -> list[Any]:
        return await Transcript(
            self._stores, conversation_path(self._agent, self._session, generation)
        ).entries()
