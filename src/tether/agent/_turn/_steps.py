"""`SessionSteps`: the durable step bodies of one agent's sessions, bound to a backend.

Each method runs as one engine step (``ctx.step``), so its result is journaled and a
completed step never runs again. Their arguments are the journaled records of
`_cursor` (and ids), never live objects.
"""

from __future__ import annotations

from .._agent import Retention
from .._context._dynamic import DynamicEvent
from .._records._cursor import Cursor, ParkedResult, StepResult
from .._records._requests import InputRequest
from .._stored._line import SessionLine
from . import _lifecycle, _parked
from ._dynamic_step import run_dynamic
from ._parked import Deadline, Question, Task, Verdict
from ._parked_gauge import mark_parked
from ._runtime import SessionRuntime
from ._turn_step import run_turn_step
from ._work import StepWork

__all__ = ["SessionSteps"]


class SessionSteps:
    """The step bodies of one agent's sessions on one backend."""

    def __init__(self, runtime: SessionRuntime) -> None:
        self.runtime = runtime
        self.agent = runtime.agent
        self.stores = runtime.stores
        self.client = runtime.client

    async def open_session(
        self,
        session_id: str,
        owner: str | None,
        interactive: bool,
        inbox: str,
        line: SessionLine | None = None,
    ) -> Cursor:
        """Create the transcript, take its production, announce the session."""
        return await _lifecycle.open_session(
            self.runtime, session_id, owner, interactive, inbox, line
        )

    async def moved_inbox(self, run_id: str) -> str | None:
        """The token of the inbox hook moved to `run_id` with the session (None: none).

        Asked before the run creates a hook of its own, so its hooks are those it was
        handed; the session's inbox is the lowest of them, as clients read it.
        """
        hooks = await self.client.hooks(run_id)
        return min(hooks, key=lambda h: h.slot).token if hooks else None

    async def idle_expired(self, cursor: Cursor, deadline: float) -> bool:
        """Whether an idle session's timeout passed with nothing waiting for it."""
        return await _lifecycle.idle_expired(self.runtime, cursor, deadline)

    async def compact(self, cursor: Cursor) -> str | None:
        """The compacted transcript's opening text; None if compacting failed (logged)."""
        return await _lifecycle.compact(self.runtime, cursor)

    async def turn_step(self, cursor: Cursor, results: tuple[ParkedResult, ...] = ()) -> StepResult:
        """One turn step (see `_turn_step`)."""
        work = StepWork(self.runtime, cursor)
        try:
            result = await run_turn_step(work, tuple(results))
        finally:
            await work.emitter.settle()
        if cursor.turn is not None and result.cursor.turn is None:
            # The turn ended: what it still reserves or waits for goes back (a call of
            # an attempt that died before it settled, say).
            await self.stores.budgets.release_budget(cursor.turn.turn_id)
        # Before the step commits: a retry labels again (see `_parked_gauge`).
        await mark_parked(self.client, work.run_id, cursor.turn, result.cursor.turn)
        return result

    async def dynamic(
        self, cursor: Cursor, on: DynamicEvent, name: str, line: SessionLine | None = None
    ) -> str | None:
        """Run the agent's `Dynamic` handler `name` on `on`; its error, or None."""
        return await run_dynamic(self.runtime, cursor, on, name, line)

    async def fail_turn(self, cursor: Cursor, error: str) -> StepResult:
        """The turn's step used its attempts: fail the turn, go on."""
        result = await _lifecycle.fail_turn(self.runtime, cursor, error)
        if cursor.turn is not None:
            await self.stores.budgets.release_budget(cursor.turn.turn_id)
        return result

    async def fail_session(self, cursor: Cursor, error: str, retention: Retention) -> None:
        """The session cannot go on: settle, announce, apply retention."""
        await _lifecycle.fail_session(self.runtime, cursor, error, retention)

    async def fail_opening(
        self, session_id: str, interactive: bool, error: str, retention: Retention
    ) -> None:
        """The session could not open: settle what waits for it, announce it."""
        await _lifecycle.fail_opening(self.runtime, session_id, interactive, error, retention)

    async def close_session(self, cursor: Cursor, retention: Retention) -> None:
        """End the session; apply retention."""
        await _lifecycle.close_session(self.runtime, cursor, retention)

    async def request_input(self, cursor: Cursor, request: InputRequest) -> float:
        """Announce a question of a workflow tool; returns when the turn parked."""
        return await _parked.request_input(self.runtime, cursor, request)

    async def check_parked(self, cursor: Cursor, wait: Question | Deadline | Task) -> Verdict:
        """Whether a parked workflow tool's wait is over, or the turn was cancelled."""
        return await _parked.check_parked(self.runtime, cursor, wait)

    async def admit_task(self, session_id: str, task: str) -> str:
        """Admit a sub-agent's task as its session's first message."""
        return await _lifecycle.admit_task(self.runtime, session_id, task)

    async def final_reply(self, cursor: Cursor, submission_id: str) -> str | None:
        """The last reply of a task's turn; None if it was cancelled."""
        return await _lifecycle.final_reply(self.runtime, cursor, submission_id)

    def __repr__(self) -> str:
        return f"<SessionSteps of agent {self.agent.name!r}>"
