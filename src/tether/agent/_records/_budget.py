"""Token and cost budgets: what an agent declares, the scopes they count on, their state.

A budget limits the tokens (input plus output) and the cost of model calls on one
scope: a session (`Agent.budget` declares the limit of each session of the agent),
an agent (all its sessions together) or a tenant (every session of one owner).
`AgentHost.set_budget` puts an agent's or a tenant's budget (or one session's) in the
store, where operators raise it at run time. Every model call counts against each of
the scopes of its session that have a budget; the counters are in the store, shared by
every worker.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

from ...errors import BudgetError, InvalidInputError
from ...stores import BudgetLimits, BudgetState

__all__ = [
    "BUDGET_REQUEST",
    "DEFAULT_OUTPUT_ESTIMATE",
    "Budget",
    "BudgetPolicy",
    "BudgetScope",
    "BudgetStatus",
    "ScopeKind",
    "check_declared",
    "check_prices",
    "check_raise",
    "session_scopes",
]

BudgetPolicy: TypeAlias = Literal["ask", "fail"]
"""What a turn does when its next model call would go over a budget: ``"ask"`` parks it
with a ``budget`` input request until the budget is raised; ``"fail"`` fails it."""

ScopeKind: TypeAlias = Literal["session", "agent", "tenant"]
SCOPE_KINDS: tuple[str, ...] = get_args(ScopeKind)

#: How a budget request's id begins (``budget:<reservation id>``).
BUDGET_REQUEST = "budget:"

#: The output tokens a call reserves when the agent sets no ``max_tokens``.
DEFAULT_OUTPUT_ESTIMATE = 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    """A token and cost budget.

    Args:
        tokens: The most tokens (input plus output, cached input included) the scope's
            model calls may use; None: no token limit.
        cost: The most they may cost, in the currency of the agent's ``prices``;
            None: no cost limit.
        on_exceeded: ``"ask"`` (default): a turn whose next call would go over parks
            with a ``budget`` input request, and raising the budget resumes it.
            ``"fail"``: the turn fails (``turn.failed`` with code
            ``budget_exceeded``).
        estimate: The tokens a call reserves before it starts. Default: the input
            tokens of the session's last call plus the agent's ``max_tokens``
            (`DEFAULT_OUTPUT_ESTIMATE` without). Only on `Agent.budget` (the agent's
            calls reserve with it on every scope).

    Raises:
        BudgetError: A limit that is not a number of at least 0, no limit at all, an
            unknown policy, or an estimate below 1.
    """

    tokens: int | None = None
    cost: float | None = None
    on_exceeded: BudgetPolicy = "ask"
    estimate: int | None = None

    def __post_init__(self) -> None:
        try:
            BudgetLimits(tokens=self.tokens, cost=self.cost, on_exceeded=self.on_exceeded)
        except InvalidInputError as exc:
            raise BudgetError(f"{exc.what} {exc.value!r} cannot be used: {exc.reason}") from None
        if self.tokens is None and self.cost is None:
            raise BudgetError(
                "give tokens=, cost= or both (a budget without a limit limits nothing)"
            )
        if self.estimate is not None and (
            isinstance(self.estimate, bool)
            or not isinstance(self.estimate, int)
            or self.estimate < 1
        ):
            raise BudgetError(
                f"estimate is a number of tokens of at least 1, not {self.estimate!r}"
            )

    @property
    def limits(self) -> BudgetLimits:
        """Its limits as the store keeps them."""
        return BudgetLimits(tokens=self.tokens, cost=self.cost, on_exceeded=self.on_exceeded)


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetScope:
    """What a budget counts: one session, one agent's sessions, or one tenant's.

    Make one with `BudgetScope.session`, `BudgetScope.agent` or `BudgetScope.tenant`;
    `key` is how the store names it (``"agent:support"``), `parse` reads one back.

    Attributes:
        kind: ``"session"``, ``"agent"`` or ``"tenant"``.
        name: The session id, the agent's name, or the tenant (a session's owner).
        agent_name: The session's agent (session scopes only).
    """

    kind: ScopeKind
    name: str
    agent_name: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in SCOPE_KINDS:
            raise BudgetError(f"a scope's kind is one of {list(SCOPE_KINDS)}, not {self.kind!r}")
        if not isinstance(self.name, str) or not self.name or "\x00" in self.name:
            raise BudgetError(f"a scope's name is a non-empty string, not {self.name!r}")
        if (self.kind == "session") != (self.agent_name is not None):
            raise BudgetError(
                "a session scope names its agent (BudgetScope.session(agent, session_id)); "
                "other scopes do not"
            )

    @classmethod
    def session(cls, agent: str, session_id: str) -> BudgetScope:
        """The scope of one session of `agent`."""
        return cls(kind="session", name=session_id, agent_name=agent)

    @classmethod
    def agent(cls, name: str) -> BudgetScope:
        """The scope of every session of the agent `name`."""
        return cls(kind="agent", name=name)

    @classmethod
    def tenant(cls, owner: str) -> BudgetScope:
        """The scope of every session opened with ``owner=owner``, of any agent."""
        return cls(kind="tenant", name=owner)

    @property
    def key(self) -> str:
        """The store's name of the scope."""
        if self.kind == "session":
            return f"session:{self.agent_name}/{self.name}"
        return f"{self.kind}:{self.name}"

    @classmethod
    def parse(cls, key: str) -> BudgetScope:
        """The scope a `key` names.

        Raises:
            BudgetError: Not a key of a scope.
        """
        kind, sep, rest = key.partition(":")
        if not sep or kind not in SCOPE_KINDS:
            raise BudgetError(
                f"a scope key is 'session:<agent>/<session id>', 'agent:<name>' or "
                f"'tenant:<owner>', not {key!r}"
            )
        if kind == "session":
            agent, slash, session_id = rest.partition("/")
            if not slash or not agent:
                raise BudgetError(f"a session scope key is 'session:<agent>/<id>', not {key!r}")
            return cls.session(agent, session_id)
        return cls(kind=kind, name=rest)  # type: ignore[arg-type]


def session_scopes(agent: str, session_id: str, owner: str | None) -> tuple[str, ...]:
    """The scope keys a session's calls count against, narrowest first."""
    scopes = [BudgetScope.session(agent, session_id).key, BudgetScope.agent(agent).key]
    if owner:
        scopes.append(BudgetScope.tenant(owner).key)
    return tuple(scopes)


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetStatus:
    """A budget as it stands: its limits, what was used and what calls in flight hold.

    Attributes:
        scope: What it counts.
        tokens: The token limit (None: none).
        cost: The cost limit (None: none).
        on_exceeded: ``"ask"`` or ``"fail"``.
        used_tokens: Tokens of the calls that returned.
        used_cost: Their cost.
        reserved_tokens: Tokens the calls in flight reserved.
        reserved_cost: The cost they reserved.
    """

    scope: BudgetScope
    tokens: int | None
    cost: float | None
    on_exceeded: BudgetPolicy
    used_tokens: int = 0
    used_cost: float = 0.0
    reserved_tokens: int = 0
    reserved_cost: float = 0.0

    @classmethod
    def of(cls, state: BudgetState) -> BudgetStatus:
        """The status of a stored budget."""
        return cls(
            scope=BudgetScope.parse(state.scope),
            tokens=state.tokens,
            cost=state.cost,
            on_exceeded=state.on_exceeded,
            used_tokens=state.used_tokens,
            used_cost=state.used_cost,
            reserved_tokens=state.reserved_tokens,
            reserved_cost=state.reserved_cost,
        )

    @property
    def remaining_tokens(self) -> int | None:
        """Tokens left for new calls (None: no token limit)."""
        if self.tokens is None:
            return None
        return max(0, self.tokens - self.used_tokens - self.reserved_tokens)

    @property
    def remaining_cost(self) -> float | None:
        """Cost left for new calls (None: no cost limit)."""
        if self.cost is None:
            return None
        return max(0.0, self.cost - self.used_cost - self.reserved_cost)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        return {
            "scope": self.scope.key,
            "kind": self.scope.kind,
            "name": self.scope.name,
            "tokens": self.tokens,
            "cost": self.cost,
            "on_exceeded": self.on_exceeded,
            "used_tokens": self.used_tokens,
            "used_cost": self.used_cost,
            "reserved_tokens": self.reserved_tokens,
            "reserved_cost": self.reserved_cost,
            "remaining_tokens": self.remaining_tokens,
            "remaining_cost": self.remaining_cost,
        }


def check_declared(agent: str, budget: object) -> None:
    """Refuse an agent's budget that is not a `Budget`.

    Raises:
        BudgetError: What is wrong.
    """
    if budget is not None and not isinstance(budget, Budget):
        raise BudgetError(f"agent {agent!r}: budget is a Budget or None, not {budget!r}")


def check_prices(agents: Iterable[Any], prices: Mapping[str, Any]) -> None:
    """Refuse a cost budget of an agent that has no prices to count cost at.

    Raises:
        BudgetError: Which agent, and how to give prices.
    """
    for agent in agents:
        budget = agent.budget
        if budget is not None and budget.cost is not None and not prices:
            raise BudgetError(
                f"agent {agent.name!r}: a cost budget needs prices to count cost at "
                "(Agents([...], prices={'model-name': Price(input=..., output=...)}))"
            )


def check_raise(
    scope: BudgetScope, old: BudgetLimits | None, tokens: int | None, cost: float | None
) -> BudgetLimits:
    """The limits after raising `old` to `tokens` and `cost` (None keeps a limit).

    Raises:
        BudgetError: Nothing to raise, a limit below the current one, or none given.
    """
    if old is None:
        raise BudgetError(
            "there is no such budget to raise (declare it with Agent(budget=...) or "
            "AgentHost.set_budget)",
            scope=scope.key,
        )
    if tokens is None and cost is None:
        raise BudgetError("give the new tokens=, cost= or both", scope=scope.key)
    try:
        new = BudgetLimits(
            tokens=old.tokens if tokens is None else tokens,
            cost=old.cost if cost is None else cost,
            on_exceeded=old.on_exceeded,
        )
    except InvalidInputError as exc:
        raise BudgetError(
            f"{exc.what} {exc.value!r} cannot be used: {exc.reason}", scope=scope.key
        ) from None
    for name, before, after in (("tokens", old.tokens, new.tokens), ("cost", old.cost, new.cost)):
        # None is no limit: the highest there is.
        if after is not None and (before is None or after < before):
            raise BudgetError(
                f"a raise does not lower a limit: {name} is {before!r}, not more than "
                f"{after!r} (use AgentHost.set_budget to change a budget otherwise)",
                scope=scope.key,
            )
    return new
