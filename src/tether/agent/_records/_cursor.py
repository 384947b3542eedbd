"""What a session's durable steps hand each other: its cursor, and each step's result.

These records are the steps' journaled inputs and outputs (the engine's codec keeps
their types), so a replay hands every step exactly what its first run got. The
transcript and the ledger hold the rest of the truth; the cursor holds only identity
and the turn's counters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

from ..._names import journaled

__all__ = [
    "Cursor",
    "ParkedCall",
    "ParkedResult",
    "Producer",
    "StepAction",
    "StepResult",
    "TurnPolicy",
    "TurnState",
]

#: How a message that arrives during a turn is taken: ``"steer"`` joins the running
#: turn at its next step, ``"queue"`` waits for the next turn.
TurnPolicy = Literal["steer", "queue"]

StepAction: TypeAlias = Literal["idle", "continue", "held", "park", "closed", "move", "dynamic"]
"""What the session's body does after a turn step: wait for its inbox (``idle``, ``held``:
parked on input), run the next step (``continue``), run workflow tools (``park``), end
the session (``closed``), move it to a new run with a fresh transcript (``move``,
`StepResult.reason` says why), or run the turn's ``turn.started`` handlers, each in its
own step, before its next turn step (``dynamic``)."""


@journaled("agent.Producer")
@dataclass(frozen=True, slots=True, kw_only=True)
class Producer:
    """The session's hold on its transcript (the fenced producer of its stream)."""

    path: str
    producer_id: str
    epoch: int
    incarnation: str


@journaled("agent.TurnState")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnState:
    """The turn in progress.

    Attributes:
        turn_id: The turn (``turn_<submission id>``; also its ledger attempt).
        submission_id: The message that began it.
        principal: Who the turn serves: only they may steer it while it is parked, and
            approve its calls (with the agent's approvers).
        policy: ``steer`` or ``queue``: whether messages join it at its boundaries.
        step_index: The `stepIndex` of the turn's next durable step (0 began it).
        steps: Turn steps it used (bounded by ``max_steps_per_turn``).
        requests: The input requests announced and not yet resolved.
        parked_through: The ledger sequence of the last message that arrived while the
            turn was parked: those from other principals wait for the turn to end.
        parked_at: When the turn parked on its pending `requests` (the time of its
            ``turn.waiting`` event); None while it waits for none. Journaled with the
            cursor, so the wait's span starts there whichever worker resumes it.
        started_at: When the step attempt that began the turn started (journaled: the
            turn's span starts there); None in turns begun before it was kept.
    """

    turn_id: str
    submission_id: str
    principal: str | None
    policy: TurnPolicy
    step_index: int = 0
    steps: int = 0
    requests: tuple[str, ...] = ()
    parked_through: int = 0
    parked_at: float | None = None
    started_at: float | None = None

    def next_step(self) -> TurnState:
        """The state for the turn's next durable step."""
        return replace(self, step_index=self.step_index + 1)


@journaled("agent.Cursor")
@dataclass(frozen=True, slots=True, kw_only=True)
class Cursor:
    """A session's state between two of its durable steps."""

    session_id: str
    agent_name: str
    owner: str | None
    producer: Producer
    inbox: str = ""
    turn: TurnState | None = None
    #: False for a sub-agent task: nobody can answer its requests (its calls that need
    #: an approval are refused).
    interactive: bool = True
    #: The transcript generation (see `SessionLine.generation`).
    generation: int = 0


@journaled("agent.ParkedCall")
@dataclass(frozen=True, slots=True, kw_only=True)
class ParkedCall:
    """A workflow tool call (or sub-agent task) the session's body runs."""

    call_id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)


@journaled("agent.ParkedResult")
@dataclass(frozen=True, slots=True, kw_only=True)
class ParkedResult:
    """What a workflow tool (or sub-agent) the body ran returned, for the next step."""

    call_id: str
    name: str
    content: str
    is_error: bool = False
    #: The state it set (JSON values) and reset, kept with its result.
    state_values: Mapping[str, Any] = field(default_factory=dict)
    state_removed: tuple[str, ...] = ()


@journaled("agent.StepResult")
@dataclass(frozen=True, slots=True, kw_only=True)
class StepResult:
    """What a turn step decided (see `StepAction`)."""

    action: StepAction
    cursor: Cursor
    calls: tuple[ParkedCall, ...] = ()
    #: For ``park``: the session's declared state (JSON values) as the step ended, what
    #: the workflow tools' ``ctx.state`` starts from.
    state: Mapping[str, Any] = field(default_factory=dict)
    #: Rings of the inbox the step accounted for: the body waits for a later one.
    rings: int = 0
    #: For ``move``: why (``clear``, ``compaction``).
    reason: str = ""
    #: For ``idle``: the step found nothing to do (no message, no command): the session
    #: is still in the idle time that began at its last idle point.
    quiet: bool = False
