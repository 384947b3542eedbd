"""`Agent`: what an agent is — model, instructions, tools and its durability policies."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigurationError

if TYPE_CHECKING:
    from ._tools import Tool
    from .models import Model

__all__ = ["DEFAULT_MAX_STEPS_PER_TURN", "Agent", "TurnPolicy"]

TurnPolicy = Literal["steer", "queue"]
DEFAULT_MAX_STEPS_PER_TURN = 50
_NAME = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Agent:
    """An agent definition; hosted by `AgentHost`, which runs its sessions durably.

    Args:
        name: Stable name (sessions record it).
        model: A ``"provider:model"`` string (``"openai:gpt-4o-mini"``,
            ``"anthropic:claude-..."``) or a `Model` object such as `ScriptedModel`.
        instructions: The system prompt.
        tools: Tools made with ``@tool`` or ``@workflow_tool``.
        model_calls_per_step: Model calls one durable step may hold (default 1). A batch
            always ends at human input, authorization, blocking coordination, turn end
            and steering.
        turn_policy: ``"steer"`` (default): a message sent during a turn is merged into
            it at the next boundary. ``"queue"``: it waits for the turn to end.
        max_steps_per_turn: A turn that needs more steps fails (a loop guard).
        retention: ``None`` keeps everything; ``0`` deletes inputs, outputs and event
            payloads when the session ends, keeping ids, timestamps, status and names.
        max_tokens: Passed to the model on every call.
    """

    name: str
    model: str | Model
    instructions: str = ""
    tools: Sequence[Tool] = field(default_factory=tuple)
    model_calls_per_step: int = 1
    turn_policy: TurnPolicy = "steer"
    max_steps_per_turn: int = DEFAULT_MAX_STEPS_PER_TURN
    retention: int | None = None
    max_tokens: int | None = None

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ConfigurationError(
                f"agent name {self.name!r} must be 1-64 letters, digits, '_', '-' or '.'"
            )
        if self.model_calls_per_step < 1:
            raise ConfigurationError("model_calls_per_step must be at least 1")
        if self.turn_policy not in ("steer", "queue"):
            raise ConfigurationError(
                f"turn_policy must be 'steer' or 'queue', not {self.turn_policy!r}"
            )
        if self.max_steps_per_turn < 1:
            raise ConfigurationError("max_steps_per_turn must be at least 1")
        if self.retention not in (None, 0):
            raise ConfigurationError("retention must be None (keep) or 0 (delete at session end)")
        names = [t.name for t in self.tools]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ConfigurationError(f"agent {self.name!r} has duplicate tool names: {duplicates}")

    def as_tool(self, *, name: str | None = None, description: str | None = None) -> Tool:
        """This agent as a tool of another: each call runs it as a child run.

        The calling turn waits on ``tasks`` (parked, no worker held) until the
        sub-agent's turn ends; its final reply is the tool's result.

        Args:
            name: The tool name; default the agent's name.
            description: What the calling model is told; default names the agent.
        """
        from ._tools import Tool

        agent = self

        async def delegate(ctx: Any, task: str) -> str:
            return str(await ctx.run_agent(agent, task))

        delegate.__tether_agent__ = agent  # type: ignore[attr-defined]
        return Tool(
            delegate,
            name=name or self.name.replace(".", "_"),
            description=description
            or f"Delegate a task to the {self.name!r} agent; "
            "pass the whole task as `task`. Returns its final answer.",
            is_workflow=True,
        )

    def tool(self, name: str) -> Tool | None:
        """The tool called `name`, or None."""
        for candidate in self.tools:
            if candidate.name == name:
                return candidate
        return None
