"""Watching a session's lanes while a step works: cancel requests and steering messages.

While the model generates or tools run, a watcher reads the ledger lanes every
`POLL_SECONDS`. A cancel (or close) of the turn stops the work; a message that may
join the turn is noted: before any text streamed it interrupts the generation, later
it joins at the next boundary (the streamed text is kept).
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from typing import TYPE_CHECKING

from ...errors import StoreUnavailableError
from .._records._cursor import TurnState
from .._stored._mail import Mail, MessageView

if TYPE_CHECKING:
    from ._work import StepWork

__all__ = ["POLL_SECONDS", "Watch", "joinable", "wants_cancel"]

#: How often a working step looks at its session's lanes.
POLL_SECONDS = 0.1


def joinable(
    mail: Mail,
    turn: TurnState,
    default_policy: str,
    *,
    parked: bool,
    joined: frozenset[str] | set[str] = frozenset(),
) -> list[MessageView]:
    """Queued messages that may join the turn now.

    A message joins unless it asked to queue (``turn_policy="queue"``, or the agent's
    default); while the turn is parked waiting for a human, only messages from the
    principal the turn serves join it (they withdraw its requests); the others wait for
    the turn to end, also once it runs again (`TurnState.parked_through`).
    """
    out = []
    for message in mail.queued:
        # The turn's own message and those already joined are still queued until the
        # step's writes land.
        if message.submission_id == turn.submission_id or message.submission_id in joined:
            continue
        if (message.policy or default_policy) != "steer":
            continue
        if message.principal != turn.principal and (
            parked or message.sequence <= turn.parked_through
        ):
            # Another principal's message that came while the turn waited for a human
            # waits for the turn to end; it is never merged into it.
            continue
        out.append(message)
    return out


def wants_cancel(mail: Mail, turn: TurnState) -> bool:
    """Whether a cancel of this turn waits in the lanes."""
    return turn.turn_id in mail.cancels


class Watch:
    """Polls the lanes in the background while a step works (an async context manager)."""

    def __init__(self, work: StepWork) -> None:
        self._work = work
        self.cancelled = asyncio.Event()
        self.steered = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def stopping(self) -> bool:
        """Whether the step is done with the watch (it ends at its next look)."""
        return self._stopping

    async def __aenter__(self) -> Watch:
        self._task = asyncio.get_running_loop().create_task(self._poll())
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # The flag ends the poll at its next look even if a read it was in swallowed
        # the cancellation (the step awaits the poll's end: a poll that ran on would
        # hold its turn forever).
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _poll(self) -> None:
        work = self._work
        turn = work.turn
        assert turn is not None
        while not self.stopping():
            await asyncio.sleep(POLL_SECONDS)
            try:
                mail = await work.reread_mail()
            except StoreUnavailableError:
                # An outage: the step works on, and so does the watch (a cancel sent
                # once the store answers again must still stop it).
                continue
            if self.stopping():
                return
            if wants_cancel(mail, turn):
                self.cancelled.set()
                return
            joined = work.joined_ids()
            if joinable(mail, turn, work.agent.turn_policy, parked=False, joined=joined):
                self.steered.set()
