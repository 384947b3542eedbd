"""What a ``@workflow_tool`` body gets: durable steps, questions, sleeps, sub-agents.

The body runs inside the session's workflow and is replayed like any workflow body, so
it must be deterministic: side effects go in `step`. Questions, sleeps and sub-agents
park the run; each of them also listens to the session's inbox, so cancelling the turn
stops them (a sub-agent's run is cancelled with its children). A cancelled turn unwinds
the tool with a private `BaseException` that ``except Exception`` cannot swallow.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar, overload

from ...durable import Hook, RetryPolicy, WorkflowContext, parse_duration
from ...errors import ConfigurationError
from .._context._values import State, StateValues
from .._records._keys import TASK_WORKFLOW, task_run_id, task_session_id
from .._records._questions import DISPLAYS, Answer, Display, Option, answer_of, options_of
from .._records._requests import InputRequest
from ._parked import Deadline, Question, Task, Verdict

if TYPE_CHECKING:
    from .._agent import Retention
    from .._records._cursor import Cursor, ParkedCall
    from ._steps import SessionSteps

__all__ = ["ToolWorkflowContext", "TurnUnwind"]

T = TypeVar("T")


class TurnUnwind(BaseException):
    """The turn was cancelled: unwinds its workflow tools (not an `Exception`)."""


class ToolWorkflowContext:
    """The durable operations a workflow tool may use (its first argument).

    Attributes:
        call_id: The model's id of this tool call.
        session_id: The session it runs in.
        state: The session's declared state (`StateValues`), as for a plain tool.
    """

    def __init__(
        self,
        ctx: WorkflowContext,
        steps: SessionSteps,
        inbox: Hook,
        holder: Any,
        call: ParkedCall,
        retention: Retention,
    ) -> None:
        self._ctx = ctx
        self._steps = steps
        self._inbox = inbox
        self._holder = holder
        self._retention = retention
        self.call_id = call.call_id
        self.session_id: str = holder.cursor.session_id
        self._questions = 0
        #: The session's declared state: read it, change it (``ctx.state[key] = v``).
        #: The changes are kept with the tool's result when it returns, and none of
        #: them when it raises or its turn is cancelled.
        self.state = StateValues(steps.runtime.declared.keys, holder.state)

    @property
    def idempotency_key(self) -> str:
        """``<session id>:<call id>``, stable across retries."""
        return f"{self.session_id}:{self.call_id}"

    # -- plumbing ---------------------------------------------------------------------------
    def _cursor(self) -> Cursor:
        """The cursor for the turn's next step (its step index moves on)."""
        cursor: Cursor = self._holder.cursor
        turn = cursor.turn
        assert turn is not None
        self._holder.cursor = replace(cursor, turn=replace(turn, step_index=turn.step_index + 1))
        return cursor

    async def _check(self, wait: Question | Deadline | Task) -> Verdict:
        verdict: Verdict = await self._ctx.step(
            self._steps.check_parked, self._cursor(), wait, name="check_parked"
        )
        return verdict

    async def _until(
        self, wait: Question | Deadline | Task, target: Callable[[], Awaitable[Any]] | None
    ) -> Verdict:
        """Wait for `target` or a new ring, then let a step decide; until it is not "wait".

        The ring wait consumes nothing and counts from what the last step saw, so
        cancelling whichever did not finish loses nothing, and a replay waits for the
        same things.
        """
        while True:
            racers: list[asyncio.Future[Any]] = [
                asyncio.ensure_future(self._inbox.wait_beyond(self._holder.rings))
            ]
            if target is not None:
                racers.append(asyncio.ensure_future(target()))
            await asyncio.wait(racers, return_when=asyncio.FIRST_COMPLETED)
            for racer in racers:
                if not racer.done():
                    racer.cancel()
            for racer in racers:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await racer
            # Which one won is not journaled: the step's verdict is, so a replay that
            # finds both ready goes the same way.
            verdict = await self._check(wait)
            self._holder.rings = verdict.rings
            if verdict.action == "cancel":
                raise TurnUnwind(f"the turn of call {self.call_id!r} was cancelled")
            if verdict.action == "done":
                return verdict

    # -- the tool's operations --------------------------------------------------------------
    @overload
    async def step(
        self,
        fn: Callable[..., Awaitable[T]],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> T: ...

    @overload
    async def step(
        self,
        fn: Callable[..., T],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> T: ...

    async def step(
        self,
        fn: Callable[..., Any],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> Any:
        """Run a durable step (see `WorkflowContext.step`)."""
        return await self._ctx.step(fn, *args, name=name, retry=retry, **kwargs)

    async def sleep(self, duration: float | timedelta | str) -> None:
        """Sleep durably; the session parks meanwhile (a cancel of the turn ends it)."""
        seconds = parse_duration(duration)
        since = self._ctx.now().timestamp()  # the same on every replay: the span's start
        deadline = since + seconds

        def remaining() -> Awaitable[None]:
            return self._ctx.sleep(max(0.0, deadline - self._ctx.now().timestamp()))

        await self._until(Deadline(at=deadline, since=since, call_id=self.call_id), remaining)

    async def ask(
        self,
        prompt: str,
        *,
        options: Sequence[Option | str] | None = None,
        display: Display | None = None,
    ) -> Answer:
        """Ask the turn's principal a question and wait (parked) for the answer.

        The question is announced by ``input.requested`` (its request carries the
        prompt, the options and the display hint) and answered with `Session.answer`:
        one of the option ids, any text when there are no options, or `DECLINE` to
        dismiss it. A cancelled turn (or a closed session) does not return here: the
        tool unwinds with its turn, so nothing it would do next runs after the cancel.

        Args:
            prompt: The question.
            options: The allowed answers; a string ``s`` is ``Option(id=s, label=s)``.
                None (or empty) takes free text.
            display: How a client should show it: ``"text"`` (free text; the default
                without options), ``"choice"`` (pick one; the default with options) or
                ``"confirmation"`` (a dialog with one button per option).

        Returns:
            The `Answer`: ``status`` ``"answered"`` with the chosen ``option_id`` and
            its label as ``text`` (or the free ``text``), or ``"cancelled"`` when the
            person declined.

        Raises:
            ConfigurationError: Bad options (not `Option` or str, repeated ids), an
                unknown display, or a display that does not fit the options.
        """
        choices = options_of(options)
        shown = display if display is not None else ("choice" if choices else "text")
        if shown not in DISPLAYS:
            raise ConfigurationError(
                f"ctx.ask: display must be one of {list(DISPLAYS)}, not {display!r}"
            )
        if (shown == "text") != (choices is None):
            raise ConfigurationError(
                f"ctx.ask: display {shown!r} "
                + ("takes no options" if shown == "text" else "needs options to show")
            )
        self._questions += 1
        cursor: Cursor = self._holder.cursor
        turn = cursor.turn
        assert turn is not None
        request = InputRequest(
            request_id=f"ask:{self.call_id}:{self._questions}",
            kind="question",
            turn_id=turn.turn_id,
            principal=turn.principal,
            call_id=self.call_id,
            prompt=prompt,
            options=choices,
            display=shown,
            approvers=tuple(self._steps.agent.approvers),
        )
        since = await self._ctx.step(
            self._steps.request_input, self._cursor(), request, name="request_input"
        )
        wait = Question(
            request_id=request.request_id, since=since if isinstance(since, float) else None
        )
        verdict = await self._until(wait, None)
        # Built from the journaled verdict and the request, so a replay returns the same.
        return answer_of(choices, verdict.answer, verdict.by)

    async def run_agent(self, agent: Any, task: str, *, state: Sequence[State[Any]] = ()) -> str:
        """Run a served agent on `task` as a child run; returns its final reply.

        The turn waits on ``tasks`` meanwhile (parked: no worker, no memory). The keys
        of `state` are shared (see `Agent.as_tool`): the task starts with this tool's
        values, and the values it leaves come back into ``ctx.state``.
        """
        name = agent if isinstance(agent, str) else agent.name
        task_session = task_session_id(self.session_id, self.call_id)
        run_id = task_run_id(task_session)
        values = self.state.to_json()
        shared = {key.name: values[key.name] for key in state}
        # A task sharing no state is started as before: its input stays what older
        # journals hold for it.
        extra = (shared,) if shared else ()
        child = await self._ctx.start_child(
            TASK_WORKFLOW, name, task_session, task, self._retention, *extra, run_id=run_id
        )
        waiting = Task(
            run_id=run_id, task_session_id=task_session, agent=name, call_id=self.call_id
        )
        await self._until(waiting, child.result)
        result = await child.result()
        if not isinstance(result, dict):
            return str(result)
        for key in state:
            left = result["state"].get(key.name, shared[key.name])
            if left != shared[key.name]:
                self.state.set(key, key.load(left))
        return str(result["reply"])
