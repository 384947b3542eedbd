"""A model call's budget: reserve before it starts, settle when its reply is in.

Before the turn step calls the model it reserves an estimate on every scope of the
session that has a budget (`BudgetStore.reserve_budget`, one transaction over them
all). The reservation is named by the call's coordinates and the step's attempt
(``<turn>/<step index>/<call>#<attempt>``), so every worker and every retry names it
alike. When the reply is in, and before the reply's commit, it settles to what the
provider reports the call used; a step that completes therefore never leaves its
call unsettled, and a retry that adopts the recorded reply calls nothing and settles
nothing.

The rule for a call whose reply never committed: an attempt that died between its
reserve and its settle (a crash, a lost lease) held only an estimate, and the call's
next attempt releases it when it reserves (the provider's usage of a reply nobody
received is not known); an attempt that died after its settle and before its commit
had its call counted, and the retry's new call counts again (the provider was paid
for both). The settle keeps the call's usage and place (`usage_json`), so
`Session.usage` counts such a call too, marked retried. A call that fails or is
cancelled releases its reservation, and so does the end of its turn.

A refusal parks the turn with a ``budget`` input request when the refusing budget's
policy is ``"ask"`` (its reservation waits in the store, where a raise finds it and
answers the request), and fails the turn when it is ``"fail"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ... import durable
from ...stores import BudgetRequest, BudgetState
from .._records._budget import BUDGET_REQUEST, DEFAULT_OUTPUT_ESTIMATE, BudgetScope, session_scopes
from .._records._entries import ApprovalEntry, AssistantEntry
from .._records._event_data import CallUsage, TokenCounts
from .._records._requests import InputRequest
from .._records._usage import usage_json
from ._emitter import PART, model_part

__all__ = [
    "EXCEEDED",
    "CallWork",
    "Refusal",
    "budget_declined",
    "release_turn",
    "reserve_call",
    "settle_call",
]

#: The code of ``turn.failed`` when a budget stopped the turn.
EXCEEDED = "budget_exceeded"


class CallWork(Protocol):
    """What a budget check reads of a step's attempt (`_work.StepWork`)."""

    runtime: Any
    agent: Any
    cursor: Any
    turn: Any
    entries: list[Any]
    budget_held: bool

    def turn_entries(self) -> list[Any]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """A call a budget refused: what refused it, and what the turn does."""

    state: BudgetState
    tokens: int
    cost: float
    request: InputRequest | None

    @property
    def message(self) -> str:
        """Why the call was refused, for ``turn.failed`` and the request's prompt."""
        s = self.state
        parts = []
        if s.tokens is not None:
            parts.append(f"{s.used_tokens} of {s.tokens} tokens used, {s.reserved_tokens} reserved")
        if s.cost is not None:
            parts.append(f"{s.used_cost:g} of {s.cost:g} spent, {s.reserved_cost:g} reserved")
        return (
            f"budget {s.scope!r} has no room for the next model call ({'; '.join(parts)}; "
            f"the call reserves {self.tokens} tokens"
            + (f" and {self.cost:g}" if s.cost is not None else "")
            + ")"
        )


def _call_key(work: CallWork, call: int) -> str:
    turn = work.turn
    assert turn is not None
    return f"{turn.turn_id}/{turn.step_index}/{call}"


def _reservation_id(work: CallWork, call: int) -> str:
    return f"{_call_key(work, call)}#{durable.step_info().attempt}"


def _price(work: CallWork, model: str | None) -> Any:
    prices = work.runtime.prices
    return prices.get(model or "") or prices.get(work.runtime.model.name)


def _estimate(work: CallWork) -> tuple[int, float]:
    agent = work.agent
    budget = agent.budget
    output = agent.max_tokens or DEFAULT_OUTPUT_ESTIMATE
    if budget is not None and budget.estimate is not None:
        tokens, prompt = budget.estimate, max(0, budget.estimate - output)
    else:
        # The next prompt holds the last one and what came since: its size is the best
        # guess at hand without counting tokens.
        last = next(
            (e for e in reversed(work.entries) if isinstance(e, AssistantEntry) and e.usage),
            None,
        )
        prompt = last.usage.input_tokens + last.usage.output_tokens if last and last.usage else 0
        tokens = prompt + output
    price = _price(work, None)
    if price is None:
        return tokens, 0.0
    return tokens, price.cost(TokenCounts(input_tokens=prompt, output_tokens=tokens - prompt))


async def reserve_call(work: CallWork, call: int) -> Refusal | None:
    """Reserve for the step's `call`-th model call; the refusal, if refused."""
    turn, cursor, agent = work.turn, work.cursor, work.agent
    assert turn is not None
    scopes = session_scopes(agent.name, cursor.session_id, cursor.owner)
    defaults = {scopes[0]: agent.budget.limits} if agent.budget is not None else {}
    tokens, cost = _estimate(work)
    rid = _reservation_id(work, call)
    grant = await work.runtime.stores.budgets.reserve_budget(
        BudgetRequest(
            reservation_id=rid,
            call=_call_key(work, call),
            holder=turn.turn_id,
            scopes=scopes,
            tokens=tokens,
            cost=cost,
            agent_name=agent.name,
            session_id=cursor.session_id,
        ),
        defaults=defaults,
    )
    if grant.scopes:
        work.budget_held = True
    if grant.granted:
        return None
    state = grant.refused
    assert state is not None
    refusal = Refusal(state=state, tokens=tokens, cost=cost, request=None)
    if state.on_exceeded != "ask":
        return refusal
    scope = BudgetScope.parse(state.scope)
    request = InputRequest(
        request_id=BUDGET_REQUEST + rid,
        kind="budget",
        turn_id=turn.turn_id,
        prompt=f"The turn waits for more budget: {refusal.message}.",
        data={
            "scope": state.scope,
            "scope_kind": scope.kind,
            "scope_name": scope.name,
            "tokens": state.tokens,
            "cost": state.cost,
            "used_tokens": state.used_tokens,
            "used_cost": state.used_cost,
            "reserved_tokens": state.reserved_tokens,
            "reserved_cost": state.reserved_cost,
            "needed_tokens": tokens,
            "needed_cost": cost,
        },
    )
    return Refusal(state=state, tokens=tokens, cost=cost, request=request)


async def settle_call(work: CallWork, call: int, usage: CallUsage) -> None:
    """Settle the call's reservation to what it used (before its reply is committed)."""
    if not work.budget_held:
        return
    price = _price(work, usage.model)
    counts = TokenCounts(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cached_tokens=usage.cached_tokens,
    )
    turn = work.turn
    assert turn is not None
    # The place of the call's ``message.completed``, so that both records of one call
    # are known as one.
    place = (turn.turn_id, turn.step_index, model_part(call) * PART + PART - 1)
    await work.runtime.stores.budgets.settle_budget(
        _reservation_id(work, call),
        tokens=usage.input_tokens + usage.output_tokens,
        cost=0.0 if price is None else price.cost(counts),
        usage=usage_json(usage, place),
    )


async def release_turn(work: CallWork, turn_id: str | None = None) -> None:
    """Release what the turn reserves (its call failed or was cancelled, it ended)."""
    held = turn_id or (work.turn.turn_id if work.turn is not None else None)
    if held is not None:
        await work.runtime.stores.budgets.release_budget(held)


def budget_declined(work: CallWork) -> bool:
    """Whether the turn's latest answer to a budget request declined it."""
    for entry in reversed(work.turn_entries()):
        if (
            isinstance(entry, ApprovalEntry)
            and entry.request_id is not None
            and entry.request_id.startswith(BUDGET_REQUEST)
        ):
            # A request withdrawn by a steering message is no answer to it.
            reason = entry.reason or ""
            return not entry.approved and not reason.startswith("revoked")
    return False
