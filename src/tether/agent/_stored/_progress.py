"""Why a session is not moving: a slow turn, a wait for someone, or a lost message.

`SessionProgress` joins what the session's ledger holds (the messages and commands
admitted and not settled) with what its run is doing (`tether.durable.RunProgress`)
and the session's own state, and names one of:

- ``working``: a live worker holds the run (the step it runs, for how long);
- ``queued``: a wake-up waits in the queue for a worker (due when);
- ``recovering``: the worker holding the run stopped answering; a live worker of the
  run's versions takes it over once its lease runs out;
- ``waiting``: the turn waits for someone (an answer, an authorization, sub-agents)
  or a timer; messages of others wait behind it;
- ``idle``: nothing waits; the run is parked on its inbox;
- ``stuck``: something waits and nothing will move the run (no worker serves its
  versions, or a message is admitted and nothing will wake the run to take it);
- ``ended``: the run is over (and nothing waits).

The worker's inbox sweep (`InboxSweep`) acts on ``stuck`` messages of live runs.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from ...durable import RunProgress
from .._records._keys import commands_lane, messages_lane
from .._records._state import SessionState

if TYPE_CHECKING:
    from ...durable import Client
    from ...stores import Stores, Submission

__all__ = [
    "STUCK_AFTER",
    "ProgressState",
    "SessionProgress",
    "WaitingSubmission",
    "judge",
    "read_progress",
    "worker_alias",
]

#: Seconds a message may wait with nothing to wake its run before it counts as stuck.
STUCK_AFTER = 5.0

ProgressState: TypeAlias = Literal[
    "working", "queued", "recovering", "waiting", "idle", "stuck", "ended"
]


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitingSubmission:
    """A message or command admitted to a session and not settled yet.

    Attributes:
        submission_id: Its id.
        kind: ``message``, or the command: ``answer``, ``cancel``, ``close``, ``clear``.
        status: ``queued`` (not begun), ``running`` (its turn began), or a settling
            state.
        age: Seconds since it was admitted.
        turn_id: The turn running it, once begun.
    """

    submission_id: str
    kind: str
    status: str
    age: float
    turn_id: str | None = None

    @classmethod
    def of(cls, sub: Submission, now: float) -> WaitingSubmission:
        payload: Mapping[str, Any] = sub.payload if isinstance(sub.payload, Mapping) else {}
        kind = str(payload.get("kind", "message"))
        return cls(
            submission_id=sub.submission_id,
            kind=kind,
            status=sub.status,
            age=round(now - sub.accepted_at, 3),
            turn_id=sub.attempt_id,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionProgress:
    """Why a session is or is not moving (see the module docstring).

    Attributes:
        session_id: The session.
        state: One of `ProgressState`.
        reason: One sentence saying why, for an operator.
        waiting: What its ledger holds unsettled, oldest first.
        run: What its current run is doing.
    """

    session_id: str
    state: ProgressState
    reason: str
    waiting: tuple[WaitingSubmission, ...]
    run: RunProgress

    def opaque(self) -> SessionProgress:
        """This progress with every worker id replaced by its `worker_alias`.

        A worker id names its host and process: what an operator needs and a tenant of
        the HTTP API should not learn. The alias still tells one worker from another
        (and the same worker across reads).
        """
        ids = {self.run.holder, *(w.held_by for w in self.run.wake_ups)} - {None}
        reason = self.reason
        for worker in sorted((i for i in ids if i), key=len, reverse=True):
            reason = reason.replace(worker, worker_alias(worker))
        run = replace(
            self.run,
            holder=None if self.run.holder is None else worker_alias(self.run.holder),
            wake_ups=tuple(
                replace(w, held_by=None if w.held_by is None else worker_alias(w.held_by))
                for w in self.run.wake_ups
            ),
        )
        return replace(self, reason=reason, run=run)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        return {
            "session_id": self.session_id,
            "state": self.state,
            "reason": self.reason,
            "waiting": [
                {
                    "submission_id": w.submission_id,
                    "kind": w.kind,
                    "status": w.status,
                    "age": w.age,
                    "turn_id": w.turn_id,
                }
                for w in self.waiting
            ],
            "run": self.run.to_json(),
        }


async def read_progress(
    client: Client,
    stores: Stores,
    agent_name: str,
    session_id: str,
    run_id: str,
    state: SessionState,
    *,
    stuck_after: float = STUCK_AFTER,
) -> SessionProgress:
    """What the session `session_id` (its chain `run_id`, now in `state`) is doing.

    A message that waited less than `stuck_after` seconds with nothing to wake its run
    is ``queued``, not ``stuck``: its ring may be on its way.
    """
    lanes = [messages_lane(agent_name, session_id), commands_lane(agent_name, session_id)]
    # The ledger first: whatever it shows was admitted with its wake-up (or before a
    # ring that follows at once), so the run read after it shows what will take it.
    rows = await stores.submissions.list_unsettled_submissions(lanes)
    now = time.time()
    current = await client.latest(run_id)
    run = await client.progress(current.run_id)
    waiting = tuple(WaitingSubmission.of(s, now) for s in sorted(rows, key=lambda s: s.accepted_at))
    verdict, reason = judge(run, waiting, state, stuck_after)
    return SessionProgress(
        session_id=session_id, state=verdict, reason=reason, waiting=waiting, run=run
    )


def worker_alias(worker_id: str) -> str:
    """A stable opaque name of a worker: ``w_`` and 12 hex digits of its id's SHA-256."""
    return "w_" + hashlib.sha256(worker_id.encode()).hexdigest()[:12]


def _serving(run: RunProgress) -> str:
    return (
        "a live worker of its version takes it"
        if run.serving_workers
        else ("but no live worker serves its version: start one of its deployment")
    )


def judge(
    run: RunProgress,
    waiting: tuple[WaitingSubmission, ...],
    state: SessionState,
    stuck_after: float = STUCK_AFTER,
) -> tuple[ProgressState, str]:
    """The state and the reason `SessionProgress` gives for these facts."""
    queued = [w for w in waiting if w.status == "queued"]
    behind = f"; {len(queued)} waiting, the oldest for {queued[0].age:.0f} s" if queued else ""
    if run.ended:
        if waiting:
            return "stuck", (
                f"its run ended ({run.status}) with {len(waiting)} message(s) or command(s) "
                "not settled: reset the session to settle them"
            )
        return "ended", f"its run ended ({run.status})"
    if run.held:
        step = run.steps[-1] if run.steps else None
        doing = (
            f"; step {step.name} (attempt {step.attempt}) has run for {step.running_for:.0f} s"
            if step is not None
            else ""
        )
        return "working", f"worker {run.holder} holds its run{doing}{behind}"
    if run.holder is None and run.lease_left is not None:
        verdict: ProgressState = "recovering" if run.serving_workers else "stuck"
        return verdict, (
            f"the lease of its last worker ran out {-run.lease_left:.0f} s ago; "
            f"{_serving(run)} over{behind}"
        )
    if run.wake_ups:
        wake = run.wake_ups[0]
        if wake.held_by is not None:
            return "working", f"worker {wake.held_by} took its wake-up{behind}"
        when = (
            f"due in {wake.due_in:.0f} s"
            if wake.due_in > 0
            else (f"overdue by {-wake.due_in:.0f} s")
        )
        if not run.serving_workers:
            return "stuck", f"a wake-up is {when}, {_serving(run)}{behind}"
        return "queued", f"a wake-up is {when} in queue {wake.queue}{behind}"
    if state.status == "parked":
        ids = ", ".join(r.request_id for r in state.pending) or "sub-agents"
        return "waiting", f"its turn waits on {state.parked_on} ({ids}){behind}"
    if waiting and waiting[0].age < stuck_after:
        # Admitted an instant ago: its ring may still be on its way (a message admitted
        # before the session's inbox opened is rung right after).
        return "queued", f"a message was admitted {waiting[0].age:.1f} s ago"
    if waiting:
        return "stuck", (
            f"{len(waiting)} message(s) or command(s) admitted, the oldest "
            f"{waiting[0].age:.0f} s ago, and nothing will wake its run to take them (no "
            "lease, no wake-up, no timer): the worker's inbox sweep rings its inbox"
        )
    if run.timers:
        return "waiting", f"a timer fires in {min(run.timers):.0f} s"
    return "idle", "nothing waits; its run is parked on its inbox"
