"""Token usage and cost: what a turn and a session used, summed from what is on record.

Every model call's usage (`CallUsage`, as its provider reported it) is recorded with
its reply: on the reply's transcript entry and on its ``message.completed`` event, in
the commit that records the reply. A reply is recorded once, whatever happens to the
step after it (a retry adopts the recorded reply and calls the model no more), so each
call is counted once. ``turn.completed`` carries its turn's sums; `Session.usage`
sums the session's events, by model and by turn, and prices them with a `Price` table
the caller supplies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import ConfigurationError
from ._entries import AssistantEntry
from ._event_data import CallUsage, MessageCompleted, TokenCounts
from ._events import SessionEvent

__all__ = ["Price", "SessionUsage", "counts_json", "session_usage", "turn_usage"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Price:
    """What a model's tokens cost, per million tokens, in the caller's currency.

    Attributes:
        input: Per million input tokens not read from a cache.
        output: Per million output tokens.
        cached_input: Per million input tokens read from the provider's prompt cache
            (None: priced as `input`).
    """

    input: float
    output: float
    cached_input: float | None = None

    def __post_init__(self) -> None:
        for name in ("input", "output", "cached_input"):
            value = getattr(self, name)
            if value is None and name == "cached_input":
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ConfigurationError(
                    f"Price({name}=...) must be a number of at least 0 (per million "
                    f"tokens), not {value!r}"
                )

    def cost(self, counts: TokenCounts) -> float:
        """The cost of `counts` at this price."""
        cached = self.input if self.cached_input is None else self.cached_input
        fresh = counts.input_tokens - counts.cached_tokens
        return (
            fresh * self.input + counts.cached_tokens * cached + counts.output_tokens * self.output
        ) / 1_000_000


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionUsage:
    """What a session's model calls used, and what they cost.

    Attributes:
        session_id: The session.
        total: Summed over every call on record.
        by_model: Summed per model, as the provider named it.
        by_turn: Summed per turn (by turn id), in the order the turns began.
        cost: The total cost at the prices given; None without prices (none given, or
            an empty table).
        unpriced: Models that were used and have no price (their calls are not in
            `cost`).
    """

    session_id: str
    total: TokenCounts
    by_model: Mapping[str, TokenCounts] = field(default_factory=dict)
    by_turn: Mapping[str, TokenCounts] = field(default_factory=dict)
    cost: float | None = None
    unpriced: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        return {
            "session_id": self.session_id,
            "total": counts_json(self.total),
            "by_model": {m: counts_json(c) for m, c in self.by_model.items()},
            "by_turn": {t: counts_json(c) for t, c in self.by_turn.items()},
            "cost": self.cost,
            "unpriced": list(self.unpriced),
        }


def counts_json(counts: TokenCounts) -> dict[str, int]:
    """Counts in their JSON form."""
    return {
        "calls": counts.calls,
        "input_tokens": counts.input_tokens,
        "output_tokens": counts.output_tokens,
        "cached_tokens": counts.cached_tokens,
    }


def turn_usage(entries: Iterable[Any], turn_id: str) -> TokenCounts:
    """The sums of a turn's recorded replies (its transcript entries)."""
    counts = TokenCounts()
    for entry in entries:
        if isinstance(entry, AssistantEntry) and entry.turn_id == turn_id and entry.usage:
            counts = counts.plus(entry.usage)
    return counts


def session_usage(
    session_id: str,
    events: Iterable[SessionEvent],
    prices: Mapping[str, Price] | None = None,
) -> SessionUsage:
    """Sum the usage the ``message.completed`` events of a session carry.

    An event emitted again by a later attempt of its step (same turn, step and place)
    is the same call: it counts once.
    """
    seen: set[tuple[str | None, int | None, int]] = set()
    total = TokenCounts()
    by_model: dict[str, TokenCounts] = {}
    by_turn: dict[str, TokenCounts] = {}
    for event in events:
        data = event.data
        if not isinstance(data, MessageCompleted) or data.usage is None:
            continue
        key = (event.meta.turn_id, event.meta.step_index, event.meta.sequence)
        if key in seen:
            continue
        seen.add(key)
        usage: CallUsage = data.usage
        total = total.plus(usage)
        by_model[usage.model] = by_model.get(usage.model, TokenCounts()).plus(usage)
        if event.meta.turn_id is not None:
            turn = event.meta.turn_id
            by_turn[turn] = by_turn.get(turn, TokenCounts()).plus(usage)
    cost: float | None = None
    unpriced: list[str] = []
    if prices:
        cost = 0.0
        for model, counts in by_model.items():
            price = prices.get(model)
            if price is None:
                unpriced.append(model)
            else:
                cost += price.cost(counts)
    return SessionUsage(
        session_id=session_id,
        total=total,
        by_model=by_model,
        by_turn=by_turn,
        cost=cost,
        unpriced=tuple(unpriced),
    )
