"""Budgets: durable token and cost counters per scope, shared by every worker.

A budget is a row per scope (a session, an agent, a tenant: the agent layer names
them): its limits, what settled calls used, and what calls in flight reserved. A
model call reserves an estimate on every scope it counts against, in one transaction
that refuses it when any scope would go over its limit, and settles to what the call
really used once its reply is in.

A reservation is named by its caller (`BudgetRequest.reservation_id`), so a retried
reserve of the same id changes nothing. A reservation belongs to a `call` (what one
model call is, across attempts) and a `holder` (the turn): reserving for a call
releases the call's earlier reservations (those of attempts that never settled), and
`release_budget` releases what a holder still holds. A refusal of a scope whose policy
is ``"ask"`` is kept as a waiting reservation (a waiter), which
`BudgetStore.budget_waiters` lists so that whoever raises the budget can wake it.

The rules are here, once (`plan_reserve`, `plan_settle`, `plan_release`); each
backend loads the rows, applies them, and writes back what changed, in one
transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol, TypeAlias

from ..errors import InvalidInputError

__all__ = [
    "BudgetGrant",
    "BudgetLimits",
    "BudgetPlan",
    "BudgetPolicy",
    "BudgetRequest",
    "BudgetReservation",
    "BudgetState",
    "BudgetStore",
    "CallCounts",
    "ReservationStatus",
    "check_limits",
    "check_scope",
    "plan_release",
    "plan_reserve",
    "plan_settle",
]

BudgetPolicy: TypeAlias = Literal["ask", "fail"]
#: What a settle keeps of its call (`BudgetReservation.usage`): counts, a model's name and
#: the call's place, never content.
CallCounts: TypeAlias = Mapping[str, "int | str | Mapping[str, int] | None"]
ReservationStatus: TypeAlias = Literal["reserved", "settled", "released", "waiting"]

POLICIES = ("ask", "fail")


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetLimits:
    """A scope's limits and what happens when a call would go over them.

    Attributes:
        tokens: The most tokens (input plus output) its calls may use; None: no limit.
        cost: The most its calls may cost, in the prices' currency; None: no limit.
        on_exceeded: ``"ask"`` (the turn waits for more budget) or ``"fail"``.
    """

    tokens: int | None = None
    cost: float | None = None
    on_exceeded: BudgetPolicy = "ask"

    def __post_init__(self) -> None:
        check_limits(self.tokens, self.cost, self.on_exceeded)


def check_limits(tokens: object, cost: object, on_exceeded: object) -> None:
    """Refuse limits that are not numbers of at least 0, or an unknown policy.

    Raises:
        InvalidInputError: What is wrong, and what is allowed.
    """
    if tokens is not None and (
        isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0
    ):
        raise InvalidInputError(
            "a budget's tokens", tokens, "it is an int of at least 0, or None for no limit"
        )
    if cost is not None and (
        isinstance(cost, bool) or not isinstance(cost, int | float) or not cost >= 0
    ):
        raise InvalidInputError(
            "a budget's cost", cost, "it is a number of at least 0, or None for no limit"
        )
    if on_exceeded not in POLICIES:
        raise InvalidInputError(
            "a budget's on_exceeded", on_exceeded, f"it is one of {list(POLICIES)}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetState:
    """A scope's budget as stored: its limits, what was used, what is reserved.

    Attributes:
        scope: The scope's key.
        tokens: Its token limit (None: none).
        cost: Its cost limit (None: none).
        on_exceeded: ``"ask"`` or ``"fail"``.
        used_tokens: What settled calls used.
        used_cost: What settled calls cost.
        reserved_tokens: What calls in flight reserved.
        reserved_cost: The cost calls in flight reserved.
        updated_at: When it last changed (seconds since the epoch).
    """

    scope: str
    tokens: int | None = None
    cost: float | None = None
    on_exceeded: BudgetPolicy = "ask"
    used_tokens: int = 0
    used_cost: float = 0.0
    reserved_tokens: int = 0
    reserved_cost: float = 0.0
    updated_at: float = 0.0

    @property
    def limits(self) -> BudgetLimits:
        """Its limits alone."""
        return BudgetLimits(tokens=self.tokens, cost=self.cost, on_exceeded=self.on_exceeded)

    def fits(self, tokens: int, cost: float) -> bool:
        """Whether `tokens` and `cost` more fit under the limits, with what is reserved."""
        if self.tokens is not None and self.used_tokens + self.reserved_tokens + tokens > (
            self.tokens
        ):
            return False
        # A float sum may land a hair above a limit it meets exactly.
        return self.cost is None or (
            self.used_cost + self.reserved_cost + cost <= self.cost * (1 + 1e-12)
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetRequest:
    """What one reserve asks for.

    Attributes:
        reservation_id: Names the reservation (a second reserve of it changes nothing).
        call: What one model call is across its attempts: reserving releases the
            call's other reservations.
        holder: Who holds it (a turn): `BudgetStore.release_budget` releases by it.
        scopes: The scopes it counts against; those without a budget (and without a
            default) are left out.
        tokens: The tokens to reserve.
        cost: The cost to reserve.
        agent_name: The agent of the session that asks (kept with a waiter).
        session_id: The session that asks (kept with a waiter).
    """

    reservation_id: str
    call: str
    holder: str
    scopes: tuple[str, ...]
    tokens: int
    cost: float = 0.0
    agent_name: str = ""
    session_id: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetReservation:
    """A reservation as stored.

    Attributes:
        reservation_id: Its name.
        call: The model call it is for.
        holder: The turn that holds it.
        agent_name: The agent of its session.
        session_id: Its session.
        scopes: The scopes it counts against.
        tokens: Reserved tokens (settled: the tokens the call used).
        cost: Reserved cost (settled: what the call cost).
        status: ``"reserved"``, ``"settled"``, ``"released"``, or ``"waiting"`` (refused
            by `refused_scope`, whose policy is to ask for more).
        refused_scope: The scope that refused it (waiting only).
        created_at: When it was made.
        usage: What its call used, as the caller recorded it when it settled (the
            provider's counts, as JSON; None: settled without them, or not settled).
            A settle is written the moment the provider answered, before the reply is
            committed anywhere, so a settled reservation is a call that was paid for,
            whether or not its reply was ever committed.
        settled_at: When it settled (None: not settled).
    """

    reservation_id: str
    call: str
    holder: str
    agent_name: str = ""
    session_id: str = ""
    scopes: tuple[str, ...] = ()
    tokens: int = 0
    cost: float = 0.0
    status: ReservationStatus = "reserved"
    refused_scope: str | None = None
    created_at: float = 0.0
    usage: CallCounts | None = None
    settled_at: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetGrant:
    """The answer to a reserve.

    Attributes:
        granted: Whether the call may go on.
        refused: The scope that refused it, as it stood (None when granted).
        scopes: The scopes it counts against (empty: no budget applies).
    """

    granted: bool
    refused: BudgetState | None = None
    scopes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetPlan:
    """What a rule changes: rows to write back (states and reservations)."""

    states: tuple[BudgetState, ...] = ()
    reservations: tuple[BudgetReservation, ...] = ()
    grant: BudgetGrant | None = None
    changed: bool = False


def _undo(states: dict[str, BudgetState], held: BudgetReservation, now: float) -> None:
    for scope in held.scopes:
        state = states.get(scope)
        if state is None:
            continue
        states[scope] = replace(
            state,
            reserved_tokens=max(0, state.reserved_tokens - held.tokens),
            reserved_cost=max(0.0, state.reserved_cost - held.cost),
            updated_at=now,
        )


def plan_reserve(
    request: BudgetRequest,
    *,
    states: Mapping[str, BudgetState],
    existing: BudgetReservation | None,
    held: Sequence[BudgetReservation],
    defaults: Mapping[str, BudgetLimits],
    now: float,
) -> BudgetPlan:
    """Reserve (see the module docstring).

    `states` holds the stored budgets of the request's scopes (and of the scopes of
    `held`), `existing` the stored reservation of the request's id, `held` the holder's
    reservations that are ``reserved`` or ``waiting``.
    """
    if existing is not None and existing.status in ("reserved", "settled"):
        return BudgetPlan(grant=BudgetGrant(granted=True, scopes=existing.scopes))
    rows: dict[str, BudgetState] = dict(states)
    changed: dict[str, BudgetReservation] = {}
    # The call's earlier attempts never settled (their replies never committed): what
    # they reserved goes back. Waiters of the holder are over: it asks again now.
    for other in held:
        if other.reservation_id == request.reservation_id:
            continue
        if other.status == "waiting" or other.call == request.call:
            if other.status == "reserved":
                _undo(rows, other, now)
            changed[other.reservation_id] = replace(other, status="released")
    scopes: list[str] = []
    for scope in dict.fromkeys(request.scopes):
        if scope not in rows and scope in defaults:
            limits = defaults[scope]
            rows[scope] = BudgetState(
                scope=scope,
                tokens=limits.tokens,
                cost=limits.cost,
                on_exceeded=limits.on_exceeded,
                updated_at=now,
            )
        if scope in rows:
            scopes.append(scope)
    refused = next(
        (rows[s] for s in scopes if not rows[s].fits(request.tokens, request.cost)), None
    )
    row = BudgetReservation(
        reservation_id=request.reservation_id,
        call=request.call,
        holder=request.holder,
        agent_name=request.agent_name,
        session_id=request.session_id,
        scopes=tuple(scopes),
        tokens=request.tokens,
        cost=request.cost,
        created_at=now,
    )
    if refused is not None:
        if refused.on_exceeded == "ask":
            changed[row.reservation_id] = replace(
                row, status="waiting", refused_scope=refused.scope
            )
        grant = BudgetGrant(granted=False, refused=refused, scopes=tuple(scopes))
    else:
        if scopes:
            changed[row.reservation_id] = row
            for scope in scopes:
                state = rows[scope]
                rows[scope] = replace(
                    state,
                    reserved_tokens=state.reserved_tokens + request.tokens,
                    reserved_cost=state.reserved_cost + request.cost,
                    updated_at=now,
                )
        grant = BudgetGrant(granted=True, scopes=tuple(scopes))
    touched = tuple(v for k, v in rows.items() if states.get(k) != v)
    return BudgetPlan(
        states=touched,
        reservations=tuple(changed.values()),
        grant=grant,
        changed=bool(touched or changed),
    )


def plan_settle(
    reservation: BudgetReservation | None,
    *,
    states: Mapping[str, BudgetState],
    tokens: int,
    cost: float,
    now: float,
    usage: CallCounts | None = None,
) -> BudgetPlan:
    """Settle a reserved reservation to what its call used (once: else nothing)."""
    if reservation is None or reservation.status != "reserved":
        return BudgetPlan()
    rows = dict(states)
    _undo(rows, reservation, now)
    for scope in reservation.scopes:
        state = rows.get(scope)
        if state is None:
            continue
        rows[scope] = replace(
            state, used_tokens=state.used_tokens + tokens, used_cost=state.used_cost + cost
        )
    settled = replace(
        reservation,
        status="settled",
        tokens=tokens,
        cost=cost,
        usage=None if usage is None else dict(usage),
        settled_at=now,
    )
    touched = tuple(v for k, v in rows.items() if states.get(k) != v)
    return BudgetPlan(states=touched, reservations=(settled,), changed=True)


def plan_release(
    held: Sequence[BudgetReservation], *, states: Mapping[str, BudgetState], now: float
) -> BudgetPlan:
    """Release reservations (``reserved`` ones give back what they reserved)."""
    rows = dict(states)
    released: list[BudgetReservation] = []
    for row in held:
        if row.status not in ("reserved", "waiting"):
            continue
        if row.status == "reserved":
            _undo(rows, row, now)
        released.append(replace(row, status="released"))
    touched = tuple(v for k, v in rows.items() if states.get(k) != v)
    return BudgetPlan(states=touched, reservations=tuple(released), changed=bool(released))


def check_scope(scope: object) -> str:
    """`scope` if it is a usable scope key.

    Raises:
        InvalidInputError: Not a non-empty string of at most 512 characters.
    """
    if not isinstance(scope, str) or not scope or len(scope) > 4096 or "\x00" in scope:
        raise InvalidInputError(
            "a budget scope", scope, "it is a non-empty string of at most 4096 characters"
        )
    return scope


class BudgetStore(Protocol):
    """Budgets per scope and the reservations of model calls (see the module docstring).

    Budgets hold counters and ids only, no content: an encrypting backend stores them
    as they are.
    """

    async def put_budget(self, scope: str, limits: BudgetLimits) -> BudgetState:
        """Create the scope's budget, or change its limits (what was used stays)."""
        ...

    async def get_budget(self, scope: str) -> BudgetState | None:
        """The scope's budget; None if it has none."""
        ...

    async def reserve_budget(
        self, request: BudgetRequest, *, defaults: Mapping[str, BudgetLimits] | None = None
    ) -> BudgetGrant:
        """Reserve on every scope of `request` that has a budget, or refuse.

        `defaults` creates the budgets of scopes that have none yet (a session's, from
        its agent's declaration). All or nothing, in one transaction; a reserve of a
        reservation id already reserved or settled is granted and changes nothing.
        """
        ...

    async def settle_budget(
        self,
        reservation_id: str,
        *,
        tokens: int,
        cost: float,
        usage: CallCounts | None = None,
    ) -> bool:
        """Settle a reserved reservation to what its call used.

        `usage` (the call's counts as the caller records them, JSON) is kept with it,
        for `settled_calls`. False if it was not reserved (settled before, released,
        waiting, unknown): nothing changes then.
        """
        ...

    async def release_budget(self, holder: str) -> int:
        """Release what `holder` reserves or waits for; returns how many reservations."""
        ...

    async def budget_waiters(self, scope: str) -> list[BudgetReservation]:
        """The waiting reservations `scope` refused, oldest first."""
        ...

    async def settled_calls(self, session_id: str) -> list[BudgetReservation]:
        """The settled reservations of `session_id`'s calls, in the order they settled.

        One per attempt that called the provider, including attempts whose reply was
        never committed (a crash or a lost lease after the answer).
        """
        ...
