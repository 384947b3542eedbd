"""Input requests: what a parked turn waits for (an approval, a question, an authorization)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from ..._codec import journaled
from ...errors import InputRequestError, InvalidAnswerError
from ._json import json_value
from ._questions import Display, Option, is_decline, options_of, read_options

__all__ = ["InputRequest", "RequestKind", "TaskRef", "check_answer"]

RequestKind = Literal["approval", "question", "authorization", "budget"]


@journaled("agent.InputRequest")
@dataclass(frozen=True, slots=True, kw_only=True)
class InputRequest:
    """A question a parked turn asks a human; answer it with `Session.answer`.

    Attributes:
        request_id: Names the request in `Session.answer`.
        kind: ``"approval"`` (a tool call waits for a yes or no), ``"question"``
            (``ctx.ask`` in a workflow tool) or ``"authorization"`` (a tool needs a
            connection authorized; answer ``{"authorized": True}`` once done) or
            ``"budget"`` (the next model call would go over a budget: raising it
            answers; ``data`` says which budget and what the call needs).
        turn_id: The turn that asks.
        principal: Who may answer: the principal the turn serves (None when the
            message had none; then anyone may).
        tool_name: The tool the request is about, if any.
        call_id: The tool call the request is about, if any.
        prompt: The question, for questions and authorizations.
        options: The allowed answers of a question (None accepts free text); bare
            strings given here become ``Option(id=s, label=s)``.
        display: How a client should show a question (``"text"``, ``"choice"`` or
            ``"confirmation"``); None for approvals, authorizations and questions an
            earlier release recorded (show those by their options).
        approvers: Principals besides `principal` who may answer an approval.
        data: What else the request carries: the call's arguments for an approval,
            ``provider`` and ``url`` for an authorization.
    """

    request_id: str
    kind: RequestKind
    turn_id: str
    principal: str | None = None
    tool_name: str | None = None
    call_id: str | None = None
    prompt: str | None = None
    # Stored events and journals may hold options as bare strings (their shape before
    # options had labels): the validator reads those for pydantic, `__post_init__` for
    # the journal's codec, which calls the constructor.
    options: Annotated[tuple[Option, ...] | None, BeforeValidator(read_options)] = None
    approvers: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    display: Display | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", options_of(self.options))

    @property
    def option_ids(self) -> tuple[str, ...]:
        """The ids of the options (empty for free text)."""
        return tuple(o.id for o in self.options or ())

    def may_answer(self, principal: str | None) -> bool:
        """Whether `principal` may answer: the turn's principal or a named approver."""
        if self.principal is None and not self.approvers:
            return True
        return principal is not None and (
            principal == self.principal or principal in self.approvers
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        out: dict[str, Any] = json_value(self)
        return out


@journaled("agent.TaskRef")
@dataclass(frozen=True, slots=True, kw_only=True)
class TaskRef:
    """A sub-agent task a turn waits for (``turn.waiting`` on ``tasks``).

    Attributes:
        call_id: The tool call that started it.
        agent: The sub-agent's name.
        task_session_id: The session the sub-agent runs the task in.
        run_id: The task's child run.
    """

    call_id: str
    agent: str
    task_session_id: str
    run_id: str


def check_answer(
    session_id: str, request: InputRequest, answer: Any, principal: str | None
) -> None:
    """Refuse an answer its principal may not give, or one that does not fit a question.

    A question takes one of its option ids, any string when it has none, or `DECLINE`.

    Raises:
        InvalidAnswerError: The answer does not fit the question.
        InputRequestError: The principal may not answer.
    """
    if not request.may_answer(principal):
        allowed = [p for p in (request.principal, *request.approvers) if p]
        raise InputRequestError(
            session_id,
            request.request_id,
            f"{principal!r} may not answer it (it is for {allowed})",
        )
    if request.kind != "question" or is_decline(answer):
        return
    ids = request.option_ids
    if ids and answer not in ids:
        raise InvalidAnswerError(
            session_id,
            request.request_id,
            f"the answer must be one of the option ids {list(ids)} "
            f'(or {{"cancelled": true}} to decline), not {answer!r}',
            option_ids=ids,
        )
    if not ids and not isinstance(answer, str):
        raise InvalidAnswerError(
            session_id,
            request.request_id,
            f'the answer is free text (a string, or {{"cancelled": true}} to decline), '
            f"not {answer!r}",
        )
