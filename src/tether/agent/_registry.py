"""`Agents`: agents declared without a backend, and the workflows that run their sessions.

`tether worker app:agents --db URL` loads an `Agents` object and runs its `registry`;
the session workflow finds the stores of the run it executes through the worker
(`tether.durable.current_backend()`), so nothing here holds a connection.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..durable import Client, FlowLimit, Registry, WorkflowContext, current_backend
from ..errors import ConfigurationError, FlowLimitError
from ..stores import Backend, Capability
from ._agent import Agent
from ._context._values import declared_state
from ._records._attachments import AttachmentCache
from ._records._budget import check_prices
from ._records._keys import SESSION_WORKFLOW, TASK_WORKFLOW
from ._records._usage import Price
from ._stored._prune import SessionPruner
from ._stored._transcript import TranscriptCache
from ._tools._tools import Tool
from ._turn._runtime import SessionRuntime
from ._turn._steps import SessionSteps
from ._turn._workflow import run_session, run_task
from .models import resolve_model

__all__ = ["SESSION_WORKFLOW", "TASK_WORKFLOW", "Agents"]


def _with_subagents(agents: Iterable[Agent]) -> dict[str, Agent]:
    """The agents and, recursively, those their tools delegate to (`Agent.as_tool`)."""
    found: dict[str, Agent] = {}
    todo = list(agents)
    while todo:
        agent = todo.pop(0)
        if not isinstance(agent, Agent):
            raise ConfigurationError(f"Agents takes Agent objects, not {agent!r}")
        known = found.get(agent.name)
        if known is not None:
            if known is not agent and known != agent:
                raise ConfigurationError(
                    f"two different agents are named {agent.name!r}; agent names are unique"
                )
            continue
        found[agent.name] = agent
        for tool in agent.tools:
            sub = getattr(getattr(tool, "fn", None), "__tether_agent__", None)
            if isinstance(sub, Agent):
                todo.append(sub)
    return found


def declare_limits(registry: Registry, limits: Iterable[FlowLimit]) -> tuple[str, ...]:
    """Declare `limits` on the agents' registry; their names, for its workflows."""
    names = []
    for limit in limits:
        if not isinstance(limit, FlowLimit):
            raise FlowLimitError(f"limits holds tether.durable.FlowLimit values, not {limit!r}")
        registry.limit(
            limit.name,
            concurrency=limit.concurrency,
            per_second=limit.per_second,
            burst=None if limit.per_second is None else limit.burst,
            key=limit.key,
        )
        names.append(limit.name)
    return tuple(names)


def check_step_limits(agents: Iterable[Agent], declared: Mapping[str, FlowLimit]) -> None:
    """Every limit the agents' tools and model calls name is declared."""
    for agent in agents:
        named = [(f"agent {agent.name!r}: model_limit", agent.model_limit)]
        named += [
            (f"tool {t.name!r} of agent {agent.name!r}", t.limit)
            for t in agent.tools
            if isinstance(t, Tool)
        ]
        for what, name in named:
            if name is not None and name not in declared:
                raise FlowLimitError(
                    f"{what} names limit {name!r}, which is not declared: add "
                    f"FlowLimit(name={name!r}, concurrency=..., per_second=...) to "
                    "Agents(step_limits=[...])",
                    limit=name,
                )


class Agents:
    """The agents an application serves, declared without a backend.

    Build it at import time (``agents = Agents([ops, researcher])``); hand it to
    `AgentHost` in clients, and to ``tether worker app:agents --db URL`` (or
    ``Worker(backend, agents.registry)``) to run the sessions.

    Args:
        agents: The agents; those their tools delegate to (`Agent.as_tool`) are
            included.
        deployment: The deployment version session runs record; only workers of the
            same deployment (and tether version) run them.
        prices: What each model's tokens cost (`Price`, by the model's name as its
            provider reports it): `Session.usage` and the server's usage route price
            sessions with it.
        limits: Flow-control limits (`tether.durable.FlowLimit`) every session and
            sub-agent task activation is under, held by the store across every worker:
            ``FlowLimit(name="tenants", concurrency=2, key="tether.owner")`` runs at
            most two turns of each owner at once, ``key="tether.agent"`` limits each
            agent (and so its model provider) apart.
        step_limits: Limits (`tether.durable.FlowLimit`) that tools (``@tool(limit=...)``)
            and agents' model calls (``Agent(model_limit=...)``) name: each call waits
            for a permit held in the store (a place under ``concurrency``, a token
            under ``per_second``), so the limit holds across every worker. A keyed one
            counts each value of the session's label apart (``key="tether.owner"``).

    Raises:
        ConfigurationError: No agent, two different agents share a name, or a price
            is not a `Price`.
        FlowLimitError: A limit is not a `FlowLimit`, or a bad one; a tool or an
            agent names a limit that neither `limits` nor `step_limits` declares.
    """

    def __init__(
        self,
        agents: Iterable[Agent],
        *,
        deployment: str = "agents",
        prices: Mapping[str, Price] | None = None,
        limits: Iterable[FlowLimit] = (),
        step_limits: Iterable[FlowLimit] = (),
    ) -> None:
        self._agents = _with_subagents(agents)
        if not self._agents:
            raise ConfigurationError("Agents needs at least one agent")
        self.prices: Mapping[str, Price] = dict(prices or {})
        for model, price in self.prices.items():
            if not isinstance(price, Price):
                raise ConfigurationError(
                    f"prices[{model!r}] must be a tether.agent.Price, not {price!r}"
                )
        check_prices(self._agents.values(), self.prices)
        self.registry = Registry(deployment=deployment)
        names = declare_limits(self.registry, limits)
        declare_limits(self.registry, step_limits)
        check_step_limits(self._agents.values(), self.registry.limits)
        self.registry.workflow(name=SESSION_WORKFLOW, limits=names)(self._session_workflow)
        self.registry.workflow(name=TASK_WORKFLOW, limits=names)(self._task_workflow)
        # The retention sweep of this registry's workers deletes sessions whole.
        self.registry.pruner = SessionPruner(self._agents.get)
        self._steps: dict[tuple[int, str], tuple[Any, SessionSteps]] = {}

    @property
    def deployment(self) -> str:
        """The deployment version session runs record."""
        return self.registry.deployment

    def __iter__(self) -> Iterator[Agent]:
        return iter(self._agents.values())

    def __len__(self) -> int:
        return len(self._agents)

    def __contains__(self, name: object) -> bool:
        return name in self._agents

    def __repr__(self) -> str:
        return f"Agents({sorted(self._agents)!r}, deployment={self.deployment!r})"

    def names(self) -> list[str]:
        """The agents' names, sorted."""
        return sorted(self._agents)

    def get(self, name: str) -> Agent:
        """The agent called `name`.

        Raises:
            ConfigurationError: No agent has that name.
        """
        try:
            return self._agents[name]
        except KeyError:
            raise ConfigurationError(
                f"no agent named {name!r} is served; served agents: {self.names()}"
            ) from None

    def steps(self, backend: Backend, agent_name: str) -> SessionSteps:
        """The step bodies of one agent bound to a backend's stores (built once)."""
        stores = backend.stores
        key = (id(stores), agent_name)
        cached = self._steps.get(key)
        # The cache holds the stores object itself, so its id cannot be reused meanwhile.
        if cached is not None and cached[0] is stores:
            return cached[1]
        agent = self.get(agent_name)
        runtime = SessionRuntime(
            backend=backend,
            agent=agent,
            model=resolve_model(agent.model),
            declared=declared_state(agent),
            client=Client(backend, registry=self.registry),
            prices=self.prices,
            deployment=self.deployment,
            transcript_cache=TranscriptCache(
                checkpoints=Capability.FOLD_CHECKPOINTS in backend.capabilities
            ),
            attachment_cache=AttachmentCache(),
        )
        steps = SessionSteps(runtime)
        self._steps[key] = (stores, steps)
        return steps

    async def _session_workflow(
        self,
        ctx: WorkflowContext,
        agent_name: str,
        session_id: str,
        owner: str | None = None,
        retention: Any = "default",
        line: Any = None,
    ) -> dict[str, Any]:
        steps = self.steps(current_backend(), agent_name)
        return await run_session(ctx, steps, session_id, owner, retention, line)

    async def _task_workflow(
        self,
        ctx: WorkflowContext,
        agent_name: str,
        session_id: str,
        task: str,
        retention: Any = "default",
        state: dict[str, Any] | None = None,
    ) -> str | dict[str, Any]:
        steps = self.steps(current_backend(), agent_name)
        return await run_task(ctx, steps, session_id, task, retention, state)
