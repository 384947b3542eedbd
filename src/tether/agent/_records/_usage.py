"""Token usage and cost: what a turn and a session used, summed from what is on record.

Every model call's usage (`CallUsage`, as its provider reported it) is on its
``message.completed`` event, written the moment the provider answered, before the
reply's commit; and on the reply's transcript entry, written by that commit. Each
attempt of a step that called the provider is counted once: its usage names the
attempt (`CallUsage.attempt`), so a reply adopted by a later attempt (emitted again
with the attempt that made it) is the same call, and a call made again because the
reply of an attempt cut short never committed is another call, paid for too. The
earlier one is *retried* (`SessionUsage.retried`): counted in the totals, and apart.

``turn.completed`` carries its turn's sums (the committed replies'); `Session.usage`
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

__all__ = [
    "Price",
    "RecordedCall",
    "SessionUsage",
    "counts_json",
    "recorded_calls",
    "session_usage",
    "turn_usage",
]


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
        retried: Of `total`, the calls whose reply never committed (the attempt was
            cut short after the provider answered) and that a later attempt of the
            step made again: both were paid for, both are counted.
    """

    session_id: str
    total: TokenCounts
    by_model: Mapping[str, TokenCounts] = field(default_factory=dict)
    by_turn: Mapping[str, TokenCounts] = field(default_factory=dict)
    cost: float | None = None
    unpriced: tuple[str, ...] = ()
    retried: TokenCounts = field(default_factory=TokenCounts)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        return {
            "session_id": self.session_id,
            "total": counts_json(self.total),
            "by_model": {m: counts_json(c) for m, c in self.by_model.items()},
            "by_turn": {t: counts_json(c) for t, c in self.by_turn.items()},
            "cost": self.cost,
            "unpriced": list(self.unpriced),
            "retried": counts_json(self.retried),
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


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordedCall:
    """One model call on record: its ``message.completed`` event, once per attempt.

    Attributes:
        event: The first event that recorded it.
        usage: What it used.
        retried: Its reply never committed and a later attempt of its step called the
            model again.
    """

    event: SessionEvent
    usage: CallUsage
    retried: bool = False


def recorded_calls(events: Iterable[SessionEvent]) -> list[RecordedCall]:
    """Each model call the ``message.completed`` events of a session record, once.

    A call is its event's coordinates (turn, step, place) and the attempt that made it
    (`CallUsage.attempt`): an event emitted again for an adopted reply names the same
    attempt and is the same call. At one place, every attempt but the last is retried:
    a reply that committed is adopted, never asked for again, so an earlier attempt's
    never committed. (The last may be uncommitted too, while its step is retried or
    once it failed for good: it is counted, and not marked.)
    """
    found: dict[tuple[str | None, int | None, int, int | None], RecordedCall] = {}
    last: dict[tuple[str | None, int | None, int], int] = {}
    for event in events:
        data = event.data
        if not isinstance(data, MessageCompleted) or data.usage is None:
            continue
        place = (event.meta.turn_id, event.meta.step_index, event.meta.sequence)
        key = (*place, data.usage.attempt)
        if key in found:
            continue
        found[key] = RecordedCall(event=event, usage=data.usage)
        if data.usage.attempt is not None:
            last[place] = max(last.get(place, 0), data.usage.attempt)
    out = []
    for (turn, step, sequence, attempt), call in found.items():
        if attempt is not None and attempt < last[(turn, step, sequence)]:
            call = RecordedCall(event=call.event, usage=call.usage, retried=True)
        out.append(call)
    return out


def session_usage(
    session_id: str,
    events: Iterable[SessionEvent],
    prices: Mapping[str, Price] | None = None,
) -> SessionUsage:
    """Sum the usage the ``message.completed`` events of a session carry.

    Each attempt's call counts once (see `recorded_calls`), retried ones too.
    """
    total = retried = TokenCounts()
    by_model: dict[str, TokenCounts] = {}
    by_turn: dict[str, TokenCounts] = {}
    for call in recorded_calls(events):
        usage = call.usage
        total = total.plus(usage)
        if call.retried:
            retried = retried.plus(usage)
        by_model[usage.model] = by_model.get(usage.model, TokenCounts()).plus(usage)
        turn = call.event.meta.turn_id
        if turn is not None:
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
        retried=retried,
    )
