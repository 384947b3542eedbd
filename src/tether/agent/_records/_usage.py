"""Token usage and cost: what a turn and a session used, summed from what is on record.

Every model call's usage (`CallUsage`, as its provider reported it) is recorded with
its reply, on the reply's transcript entry and its ``message.completed`` event, in the
commit that records the reply. In a session with a budget it is also kept by the
budget's settle, written the moment the provider answered (`BudgetStore.settled_calls`),
so a call whose reply never committed (its attempt SIGKILLed or its commit refused
after the answer) is on record too. Each attempt of a step that called the provider is
counted once: its usage names the attempt (`CallUsage.attempt`), so a reply adopted by
a later attempt is the same call, and a call made again because an attempt's reply
never committed is another call, paid for too. The earlier one is *retried*
(`SessionUsage.retried`): counted in the totals, and apart.

``turn.completed`` carries its turn's sums (the committed replies'); `Session.usage`
sums the session's events, by model and by turn, and prices them with a `Price` table
the caller supplies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
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
    "usage_json",
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
    """One model call on record, once per attempt that called the provider.

    Attributes:
        turn_id: Its turn (None: a call outside a turn).
        at: When it was recorded (Unix seconds): its event's time, or its budget
            settle's for a call whose reply never committed.
        usage: What it used.
        retried: Its reply never committed and a later attempt of its step called the
            model again.
    """

    turn_id: str | None
    at: float
    usage: CallUsage
    retried: bool = False


#: A call's place: (turn id, step index, sequence of its ``message.completed``).
Place = tuple[str | None, int | None, int]


def usage_json(usage: CallUsage, place: Place) -> dict[str, Any]:
    """What a budget settle keeps of a call (`BudgetReservation.usage`): usage and place."""
    turn_id, step_index, sequence = place
    return {
        "model": usage.model,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cached_tokens": usage.cached_tokens,
        "details": dict(usage.details),
        "attempt": usage.attempt,
        "turn_id": turn_id,
        "step_index": step_index,
        "sequence": sequence,
    }


def _settled(reservation: Any) -> tuple[Place, CallUsage, float] | None:
    """A settled reservation's call (None: settled without its usage)."""
    kept = reservation.usage
    if not isinstance(kept, Mapping) or not isinstance(kept.get("sequence"), int):
        return None
    usage = CallUsage(
        model=str(kept.get("model", "")),
        input_tokens=int(kept.get("input_tokens", 0)),
        output_tokens=int(kept.get("output_tokens", 0)),
        cached_tokens=int(kept.get("cached_tokens", 0)),
        details={str(k): int(v) for k, v in dict(kept.get("details") or {}).items()},
        attempt=kept.get("attempt"),
    )
    place = (kept.get("turn_id"), kept.get("step_index"), kept["sequence"])
    return place, usage, float(reservation.settled_at or reservation.created_at)


def recorded_calls(
    events: Iterable[SessionEvent], settled: Iterable[Any] = ()
) -> list[RecordedCall]:
    """Each model call on record for a session, once per attempt that called the provider.

    Two records say a call was made: its ``message.completed`` event (with the reply's
    commit, or earlier when the step's stream writes live) and, in a session with a
    budget, its reservation's settle (`BudgetStore.settled_calls`, written the moment
    the provider answered, before anything of the reply). A call is its place (turn,
    step, the event's sequence) and the attempt that made it (`CallUsage.attempt`):
    the same call on both records, or emitted again for an adopted reply, counts once.
    At one place, every attempt but the last is retried: a reply that committed is
    adopted, never asked for again, so an earlier attempt's never committed. (The last
    may be uncommitted too, while its step waits to be retried or once it failed for
    good: it is counted, and not marked.)
    """
    found: dict[tuple[str | None, int | None, int, int | None], RecordedCall] = {}
    last: dict[Place, int] = {}

    def add(place: Place, usage: CallUsage, at: float) -> None:
        key = (*place, usage.attempt)
        if key in found:
            return
        found[key] = RecordedCall(turn_id=place[0], at=at, usage=usage)
        if usage.attempt is not None:
            last[place] = max(last.get(place, 0), usage.attempt)

    for event in events:
        data = event.data
        if isinstance(data, MessageCompleted) and data.usage is not None:
            meta = event.meta
            add((meta.turn_id, meta.step_index, meta.sequence), data.usage, meta.at)
    for reservation in settled:
        kept = _settled(reservation)
        if kept is not None:
            add(*kept)
    return [
        replace(call, retried=True)
        if attempt is not None and attempt < last[(turn, step, sequence)]
        else call
        for (turn, step, sequence, attempt), call in found.items()
    ]


def session_usage(
    session_id: str,
    calls: Iterable[RecordedCall],
    prices: Mapping[str, Price] | None = None,
) -> SessionUsage:
    """Sum the usage of a session's `calls` (`recorded_calls`), retried ones too."""
    total = retried = TokenCounts()
    by_model: dict[str, TokenCounts] = {}
    by_turn: dict[str, TokenCounts] = {}
    for call in calls:
        usage = call.usage
        total = total.plus(usage)
        if call.retried:
            retried = retried.plus(usage)
        by_model[usage.model] = by_model.get(usage.model, TokenCounts()).plus(usage)
        turn = call.turn_id
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
