"""`Agent`: what an agent is — model, instructions, tools and its durability policies."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigurationError
from ._records._cursor import TurnPolicy

if TYPE_CHECKING:
    from ._context._compaction import Compaction
    from ._context._dynamic import Dynamic
    from ._context._values import State, StateValues
    from ._records._budget import Budget
    from ._tools._tools import Tool
    from .mcp import McpServer
    from .models import Model

__all__ = ["DEFAULT_MAX_STEPS_PER_TURN", "Agent", "Retention", "TurnPolicy", "check_retention"]

Retention = Literal[0, "default"]
"""``0`` deletes a session's content when it ends; ``"default"`` keeps it for the store's
retention period of ended runs (`open_backend(retention=...)`; forever without one)."""
DEFAULT_MAX_STEPS_PER_TURN = 50
_NAME = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Agent:
    """An agent definition; hosted by `AgentHost`, which runs its sessions durably.

    Args:
        name: Stable name (sessions record it).
        model: A ``"provider:model"`` string (``"openai:gpt-4o-mini"``,
            ``"anthropic:claude-..."``) or a `Model` object such as `ScriptedModel`.
        instructions: The system prompt; or a function of the session's declared
            state (`StateValues`, read-only) that returns it, called for each model
            call (``lambda state: f"The user has {state[cart].items}"``).
        tools: Tools made with ``@tool`` or ``@workflow_tool``, and MCP servers
            (`mcp_server`) whose tools the agent gets (listed when each turn begins).
        model_calls_per_step: Model calls one durable step may hold (default 1). A batch
            always ends at human input, authorization, blocking coordination, turn end
            and steering.
        turn_policy: ``"steer"`` (default): a message sent during a turn is merged into
            it at the next boundary. ``"queue"``: it waits for the turn to end.
        max_steps_per_turn: A turn that needs more steps fails (a loop guard).
        retention: The retention of this agent's sessions (`open_session` may override
            it per session; the choice is recorded when the session opens).
            ``"default"`` keeps their content for the store's retention period of ended
            runs (forever without one); ``0`` deletes it when the session ends (closed,
            failed or cancelled): transcript, message texts, event payloads, step inputs
            and outputs, and those of its sub-agent tasks, keeping ids, timestamps,
            statuses and names. None (default): decided when each session opens, by its
            audience and the host's environment (`default_retention`: ``0`` for private
            and unknown sessions in production, else ``"default"``).
        approvers: Principals who may answer this agent's approvals besides the
            principal the turn serves.
        tool_timeout: Seconds a tool call may run before it fails with a timeout (the
            model sees the error); None waits as long as it takes. A tool can set its
            own (``@tool(timeout=...)``).
        step_timeout: Seconds one turn step (model calls and inline tools) may run
            before its attempt fails and is retried within the step's 4 attempts; None
            waits as long as it takes.
        max_tokens: Passed to the model on every call.
        compaction: When a session's transcript passes its threshold, the session
            goes on in a new run with a compacted transcript (see `Compaction`); None
            (default) never compacts.
        session_timeout: Seconds a session may stay idle: past that it closes (a
            durable timer; a message re-arms it, and so does a move to a new
            deployment; a compaction does not). None (default): never.
        state: The session state its tools read and change (`State` declarations;
            tools may declare more, ``@tool(state=[...])``). See `StateValues`.
        dynamic: Handlers on session events whose results join the instructions
            (`Dynamic`, made with ``@dynamic("session.started")`` or
            ``@dynamic("turn.started")``): computed once per session or once per turn,
            each call a durable step with a time limit. Every agent also has the
            built-in `PREDECESSOR_HISTORY` (a reset session's predecessor's last
            messages, as history); a handler named ``predecessor`` replaces it.
        budget: The token and cost budget of each of its sessions (see `Budget`);
            None (default): none. Agent and tenant budgets are set with
            `AgentHost.set_budget`. Cost is counted at the prices of `Agents`
            (``Agents(..., prices=...)``); a cost budget needs them.
        model_limit: The name of a step-level limit its model calls are under,
            across every worker sharing the store (declared with
            ``Agents(step_limits=[...])``): a call waits for a permit before it
            starts. None (default): none.
    """

    name: str
    model: str | Model
    instructions: str | Callable[[StateValues], str] = ""
    tools: Sequence[Tool | McpServer] = field(default_factory=tuple)
    model_calls_per_step: int = 1
    turn_policy: TurnPolicy = "steer"
    max_steps_per_turn: int = DEFAULT_MAX_STEPS_PER_TURN
    retention: Retention | None = None
    approvers: Sequence[str] = ()
    tool_timeout: float | None = None
    step_timeout: float | None = None
    max_tokens: int | None = None
    compaction: Compaction | None = None
    session_timeout: float | None = None
    state: Sequence[State[Any]] = ()
    dynamic: Sequence[Dynamic] = ()
    budget: Budget | None = None
    model_limit: str | None = None

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ConfigurationError(
                f"agent name {self.name!r} must be 1-64 letters, digits, '_', '-' or '.'"
            )
        if not isinstance(self.instructions, str) and not callable(self.instructions):
            raise ConfigurationError(
                f"agent {self.name!r}: instructions is a string or a function of the "
                f"session's state, not {self.instructions!r}"
            )
        if self.model_calls_per_step < 1:
            raise ConfigurationError("model_calls_per_step must be at least 1")
        if self.turn_policy not in ("steer", "queue"):
            raise ConfigurationError(
                f"turn_policy must be 'steer' or 'queue', not {self.turn_policy!r}"
            )
        if self.max_steps_per_turn < 1:
            raise ConfigurationError("max_steps_per_turn must be at least 1")
        check_retention(self.retention)
        from ._context._compaction import Compaction
        from ._tools._tools import check_timeout

        if self.compaction is not None and not isinstance(self.compaction, Compaction):
            raise ConfigurationError(
                f"compaction must be a Compaction, not {type(self.compaction).__name__}"
            )

        from ._records._budget import check_declared

        check_declared(self.name, self.budget)
        check_timeout(self.tool_timeout, "tool_timeout")
        check_timeout(self.step_timeout, "step_timeout")
        check_timeout(self.session_timeout, "session_timeout")
        if self.model_limit is not None and (
            not isinstance(self.model_limit, str) or not self.model_limit
        ):
            raise ConfigurationError(
                f"agent {self.name!r}: model_limit is the name of a limit its model calls "
                f"are under (declared with Agents(step_limits=[...])), not {self.model_limit!r}"
            )
        from ._context._values import state_keys

        object.__setattr__(self, "state", state_keys(self.state, f"agent {self.name!r}"))
        from ._context._dynamic import check_dynamic

        object.__setattr__(self, "dynamic", check_dynamic(self.dynamic, self.name))
        from ._tools._tools import Tool
        from .mcp import McpServer

        for each in self.tools:
            if not isinstance(each, Tool | McpServer):
                raise ConfigurationError(
                    f"agent {self.name!r}: tools takes tools (@tool, @workflow_tool) and MCP "
                    f"servers (mcp_server(...)), not {each!r}"
                )
        names = [t.name for t in self.tools if isinstance(t, Tool)]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ConfigurationError(f"agent {self.name!r} has duplicate tool names: {duplicates}")
        servers = [s.name for s in self.mcp_servers]
        duplicates = sorted({n for n in servers if servers.count(n) > 1})
        if duplicates:
            raise ConfigurationError(
                f"agent {self.name!r} has two MCP servers named alike: {duplicates}"
            )

    def as_tool(
        self,
        *,
        name: str | None = None,
        description: str | None = None,
        state: Sequence[State[Any]] = (),
    ) -> Tool:
        """This agent as a tool of another: each call runs it as a child run.

        The calling turn waits on ``tasks`` (parked, no worker held) until the
        sub-agent's turn ends; its final reply is the tool's result. The sub-agent's
        task has a session of its own, with its own state.

        Args:
            name: The tool name; default the agent's name.
            description: What the calling model is told; default names the agent.
            state: Keys of session state shared with the sub-agent: its task starts
                with the caller's values, and what it leaves in them comes back to
                the caller with the tool's result. The sub-agent must declare each.

        Raises:
            ConfigurationError: A shared key the sub-agent does not declare (or
                declares otherwise).
        """
        from ._context._values import declared_state, state_keys
        from ._tools._tools import Tool

        agent = self
        shared = state_keys(state, f"{self.name!r}.as_tool(state=...)")
        mine = declared_state(self).keys
        for key in shared:
            if mine.get(key.name) != key:
                raise ConfigurationError(
                    f"as_tool(state=...) shares {key.name!r}, which agent {self.name!r} "
                    "does not declare as given; declare the same State on the agent "
                    "(Agent(state=[...])) or on one of its tools"
                )

        async def delegate(ctx: Any, task: str) -> str:
            return str(await ctx.run_agent(agent, task, state=shared))

        delegate.__tether_agent__ = agent  # type: ignore[attr-defined]
        return Tool(
            delegate,
            name=name or self.name.replace(".", "_"),
            description=description
            or f"Delegate a task to the {self.name!r} agent; "
            "pass the whole task as `task`. Returns its final answer.",
            is_workflow=True,
            state=shared,
        )

    @property
    def mcp_servers(self) -> tuple[McpServer, ...]:
        """The MCP servers among `tools`."""
        from .mcp import McpServer

        return tuple(t for t in self.tools if isinstance(t, McpServer))

    def state_keys(self) -> tuple[str, ...]:
        """The session state keys it declares: its own `state` and its tools'."""
        from ._context._values import declared_state

        return tuple(declared_state(self).keys)

    def tool(self, name: str) -> Tool | None:
        """The agent's own tool called `name` (not an MCP server's), or None."""
        from ._tools._tools import Tool

        for candidate in self.tools:
            if isinstance(candidate, Tool) and candidate.name == name:
                return candidate
        return None


def check_retention(value: object) -> Retention:
    """Validate a retention setting; None means ``"default"``.

    Raises:
        ConfigurationError: Not ``0`` or ``"default"``.
    """
    if value is None or value == "default":
        return "default"
    if value == 0 and not isinstance(value, bool):
        return 0
    raise ConfigurationError(
        f"retention must be 0 (delete the session's content when it ends) or 'default' "
        f"(keep it), not {value!r}"
    )
