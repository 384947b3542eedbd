"""What waits in a session's ledger lanes, as its run reads it.

Clients write only there (messages in the messages lane, answers, cancels and closes in
the commands lane) and ring the session's inbox hook, which carries nothing but the
ring: whatever a ring's payload says, the run acts on the ledger alone, where every
command was checked and admitted once (an answer's id is its request's: a second,
different answer is refused at admission).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...stores import AttemptRef, Stores, Submission
from .._records._attachments import Attachment, read_refs
from .._records._keys import commands_lane, messages_lane

__all__ = ["Mail", "MessageView", "read_mail", "settle_lanes"]


@dataclass(frozen=True, slots=True, kw_only=True)
class MessageView:
    """A message as the turn logic needs it."""

    submission_id: str
    sequence: int
    text: str
    principal: str | None
    policy: str | None
    status: str
    attachments: tuple[Attachment, ...] = ()
    #: The W3C ``traceparent`` of whoever admitted it, when tracing was on.
    traceparent: str | None = None
    #: When its turn began (the ledger's claim), if it began.
    started_at: float | None = None

    @classmethod
    def of(cls, sub: Submission) -> MessageView:
        payload: Mapping[str, Any] = sub.payload if isinstance(sub.payload, Mapping) else {}
        return cls(
            submission_id=sub.submission_id,
            sequence=sub.sequence,
            text=str(payload.get("text", "")),
            principal=payload.get("principal"),
            policy=payload.get("turn_policy"),
            status=sub.status,
            attachments=read_refs(payload.get("attachments")),
            traceparent=payload.get("traceparent"),
            started_at=sub.started_at,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Mail:
    """The unsettled submissions of a session's two lanes."""

    messages: tuple[MessageView, ...] = ()
    answers: Mapping[str, Submission] = field(default_factory=dict)
    cancels: Mapping[str, Submission] = field(default_factory=dict)
    close: Submission | None = None
    clear: Submission | None = None
    stray: tuple[Submission, ...] = ()

    @property
    def queued(self) -> list[MessageView]:
        """Messages waiting for a turn, in order."""
        return [m for m in self.messages if m.status == "queued"]

    @property
    def next_turn(self) -> MessageView | None:
        """The message the session's next turn is for.

        A message already running began its turn in an earlier attempt of the step that
        reads this (its claim landed with a checkpoint): the turn goes on with it.
        Otherwise the oldest queued one.
        """
        running = [m for m in self.messages if m.status == "running"]
        if running:
            return running[0]
        queued = self.queued
        return queued[0] if queued else None

    def answer_of(self, request_id: str) -> tuple[Any, str | None] | None:
        """The (answer, principal) admitted for a request, or None."""
        sub = self.answers.get(request_id)
        if sub is None or not isinstance(sub.payload, Mapping):
            return None
        return sub.payload.get("answer"), sub.payload.get("principal")

    @property
    def last_sequence(self) -> int:
        """The admission sequence of the newest message waiting (0 if none)."""
        return max((m.sequence for m in self.messages), default=0)

    @property
    def command_ids(self) -> list[str]:
        """Every unsettled command."""
        ids = [s.submission_id for s in (*self.answers.values(), *self.cancels.values())]
        for command in (self.close, self.clear):
            if command is not None:
                ids.append(command.submission_id)
        return ids + [s.submission_id for s in self.stray]


async def read_mail(stores: Stores, agent_name: str, session_id: str) -> Mail:
    """Read both lanes of a session in one query."""
    msgs, cmds = messages_lane(agent_name, session_id), commands_lane(agent_name, session_id)
    rows = await stores.submissions.list_unsettled_submissions([msgs, cmds])
    messages: list[MessageView] = []
    answers: dict[str, Submission] = {}
    cancels: dict[str, Submission] = {}
    close: Submission | None = None
    clear: Submission | None = None
    stray: list[Submission] = []
    for sub in rows:
        if sub.session_key == msgs:
            messages.append(MessageView.of(sub))
            continue
        payload = sub.payload if isinstance(sub.payload, Mapping) else {}
        kind = payload.get("kind")
        if kind == "answer" and isinstance(payload.get("request_id"), str):
            answers[payload["request_id"]] = sub
        elif kind == "cancel" and isinstance(payload.get("turn_id"), str):
            cancels[payload["turn_id"]] = sub
        elif kind == "close":
            close = sub
        elif kind == "clear":
            clear = sub
        else:
            stray.append(sub)
    return Mail(
        messages=tuple(messages),
        answers=answers,
        cancels=cancels,
        close=close,
        clear=clear,
        stray=tuple(stray),
    )


async def settle_lanes(stores: Stores, agent_name: str, session_id: str, error: str) -> None:
    """Settle every unsettled message and command of a session as failed.

    For a session that ended with its lanes unsettled (reset, or its run could not
    open it). Idempotent: a second call finds nothing left to settle.
    """
    lanes = [messages_lane(agent_name, session_id), commands_lane(agent_name, session_id)]
    submissions = stores.submissions
    for sub in await submissions.list_unsettled_submissions(lanes):
        if sub.status == "running" and sub.attempt_id is not None:
            ref = AttemptRef(submission_id=sub.submission_id, attempt_id=sub.attempt_id)
            await submissions.fail_submission(ref, error)
    # Failing a running turn sends what joined it back to the queue: settle those too.
    for sub in await submissions.list_unsettled_submissions(lanes):
        if sub.status == "queued":
            await submissions.settle_queued_submission(sub.submission_id, error=error)
