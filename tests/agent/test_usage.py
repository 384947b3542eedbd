"""Token usage and cost through the public API, on every backend.

Each model call's usage is recorded with its reply (its transcript entry and its
``message.completed`` event), ``turn.completed`` carries the turn's sums, and
`Session.usage` sums a session by model and turn and prices it. A step retried after
its reply was recorded calls the model no more, and its call counts once; a call made
again because an attempt's reply never committed counts too, marked retried (the
SIGKILL of a real worker in that window is in ``test_usage_crash.py``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tether.agent import (
    Agent,
    AgentHost,
    Agents,
    AssistantEntry,
    CallUsage,
    MessageCompleted,
    Price,
    TokenCounts,
    ToolContext,
    TurnCompleted,
    decode_event,
    tool,
)
from tether.agent._records._events import encode_event
from tether.agent._records._usage import recorded_calls, session_usage
from tether.agent.models import ModelRequest, ToolResultMessage, Usage, UserMessage
from tether.errors import ConfigurationError, InvalidInputError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

FIRST = Usage(input_tokens=1000, output_tokens=50, cached_tokens=400, details={"x.y": 3})
SECOND = Usage(input_tokens=1200, output_tokens=80, cached_tokens=900)
THIRD = Usage(input_tokens=300, output_tokens=20)
slow_attempts: list[int] = []
#: The scripted model's name, as its replies report it.
MODEL = "scripted:m-small"


@tool
async def lookup(ctx: ToolContext, service: str) -> str:
    """Look up a service (slow on its step's first attempt: the step times out)."""
    slow_attempts.append(ctx.attempt)
    if ctx.attempt == 1 and service == "slow":
        await asyncio.sleep(30)
    return f"{service}: ok"


def answer(request: ModelRequest) -> Reply:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return Reply(text="All good.", usage=SECOND)
    text = last.text if isinstance(last, UserMessage) else ""
    if text.startswith("check "):
        service = text.removeprefix("check ")
        return Reply(tool_calls=(tool_call("lookup", {"service": service}),), usage=FIRST)
    return Reply(text=f"echo {text}", usage=THIRD)


@pytest.fixture
async def host(backend: Backend) -> AsyncIterator[AgentHost]:
    slow_attempts.clear()
    agent = Agent(
        name="ops",
        model=ScriptedModel(answer, name="m-small"),
        tools=[lookup],
        step_timeout=1.0,
    )
    # A second agent on the same model: usage across sessions is summed per agent.
    triage = Agent(name="triage", model=ScriptedModel(answer, name="m-small"), tools=[lookup])
    prices = {MODEL: Price(input=3.0, output=15.0, cached_input=0.3)}
    host = AgentHost(backend, Agents([agent, triage], prices=prices))
    async with host.worker(poll_interval=0.02):
        yield host


def counts(*usages: Usage) -> TokenCounts:
    return TokenCounts(
        calls=len(usages),
        input_tokens=sum(u.input_tokens for u in usages),
        output_tokens=sum(u.output_tokens for u in usages),
        cached_tokens=sum(u.cached_tokens for u in usages),
    )


async def test_usage_is_recorded_per_call_summed_per_turn_and_priced(host: AgentHost) -> None:
    session = await host.open_session("ops", session_id="u1")
    await session.send("check api")
    first = await session.wait_for("turn.completed", timeout=30)
    await session.send("hello")
    second = await session.wait_for("turn.completed", after=first.index, timeout=30)

    assert isinstance(first.data, TurnCompleted) and isinstance(second.data, TurnCompleted)
    assert first.data.usage == counts(FIRST, SECOND)
    assert second.data.usage == counts(THIRD)
    completed = [e.data for e in await session.read_events() if e.type == "message.completed"]
    assert all(isinstance(c, MessageCompleted) and c.usage for c in completed)
    first_call = completed[0]
    assert isinstance(first_call, MessageCompleted) and first_call.usage is not None
    assert (first_call.usage.model, first_call.usage.cached_tokens) == (MODEL, 400)
    assert first_call.usage.details == {"x.y": 3}
    replies = [e for e in await session.transcript() if isinstance(e, AssistantEntry)]
    assert [r.usage.input_tokens for r in replies if r.usage] == [1000, 1200, 300]

    usage = await session.usage()
    assert usage.total == counts(FIRST, SECOND, THIRD)
    assert usage.by_model == {MODEL: counts(FIRST, SECOND, THIRD)}
    assert list(usage.by_turn.values()) == [counts(FIRST, SECOND), counts(THIRD)]
    fresh = (1000 - 400) + (1200 - 900) + 300
    expected = (fresh * 3.0 + (400 + 900) * 0.3 + (50 + 80 + 20) * 15.0) / 1_000_000
    assert usage.cost == pytest.approx(expected) and usage.unpriced == ()
    # Other prices, given per call; a model without a price is named, not guessed.
    other = await session.usage({"another": Price(input=1.0, output=1.0)})
    assert other.cost == 0.0 and other.unpriced == (MODEL,)
    wire = usage.to_json()
    assert wire["total"]["calls"] == 3 and wire["by_model"][MODEL]["cached_tokens"] == 1300


async def test_a_step_retried_after_its_reply_was_recorded_counts_the_call_once(
    host: AgentHost,
) -> None:
    session = await host.open_session("ops", session_id="u2")
    await session.send("check slow")
    done = await session.wait_for("turn.completed", timeout=60)
    assert slow_attempts == [1, 2]  # the first attempt timed out in the tool
    assert isinstance(done.data, TurnCompleted)
    assert done.data.usage == counts(FIRST, SECOND)
    assert (await session.usage()).total == counts(FIRST, SECOND)


async def test_usage_across_sessions_is_summed_per_tenant_agent_and_model_in_a_window(
    host: AgentHost,
) -> None:
    async def turn(agent: str, session_id: str, owner: str | None, text: str) -> None:
        session = await host.open_session(agent, session_id=session_id, owner=owner)
        await session.send(text)
        await session.wait_for("turn.completed", timeout=30)

    await turn("ops", "w1", "acme", "hello")
    # Every reply above was recorded before this instant, every one below after it.
    middle = time.time()
    await turn("triage", "w2", "globex", "check api")
    await turn("ops", "w3", "acme", "hello")
    await turn("ops", "w4", None, "hello")

    report = await host.usage()
    assert report.sessions == 4 and report.unreadable == 0
    assert [(r.tenant, r.agent, r.model, r.counts) for r in report.rows] == [
        (None, "ops", MODEL, counts(THIRD)),
        ("acme", "ops", MODEL, counts(THIRD, THIRD)),
        ("globex", "triage", MODEL, counts(FIRST, SECOND)),
    ]
    assert report.total == counts(FIRST, SECOND, THIRD, THIRD, THIRD)
    assert report.by_tenant() == {
        None: counts(THIRD),
        "acme": counts(THIRD, THIRD),
        "globex": counts(FIRST, SECOND),
    }
    assert report.by_agent() == {
        "ops": counts(THIRD, THIRD, THIRD),
        "triage": counts(FIRST, SECOND),
    }
    assert report.by_model() == {MODEL: report.total}
    # The same prices as one session's usage: the report's cost is the sessions' sum.
    each = [await (await host.get_session(s)).usage() for s in ("w1", "w2", "w3", "w4")]
    assert report.cost == pytest.approx(sum(u.cost or 0.0 for u in each))
    assert report.unpriced == ()

    later = await host.usage(since=middle)
    assert later.sessions == 3
    assert later.by_tenant() == {
        None: counts(THIRD),
        "acme": counts(THIRD),
        "globex": counts(FIRST, SECOND),
    }
    earlier = await host.usage(until=middle)
    assert (earlier.sessions, earlier.total) == (1, counts(THIRD))
    acme = await host.usage(owner="acme", since=middle)
    assert [(r.tenant, r.counts) for r in acme.rows] == [("acme", counts(THIRD))]
    triage = await host.usage(agent="triage")
    assert triage.by_agent() == {"triage": counts(FIRST, SECOND)}
    empty = await host.usage(since=time.time() + 3600)
    assert (empty.sessions, empty.rows, empty.total.calls) == (0, (), 0)

    unpriced = await host.usage(prices={"another": Price(input=1.0, output=1.0)})
    assert unpriced.cost == 0.0 and unpriced.unpriced == (MODEL,)
    assert all(row.cost is None for row in unpriced.rows)
    wire = report.to_json()
    assert wire["total"]["calls"] == 5 and wire["since"] is None
    assert [t["tenant"] for t in wire["by_tenant"]] == [None, "acme", "globex"]
    assert wire["by_agent"][1] == {
        "agent": "triage",
        **{k: v for k, v in wire["rows"][2].items() if k not in ("tenant", "agent", "model")},
    }

    inverted = await host.usage(since=middle, until=middle - 1)  # ends before it starts
    assert (inverted.sessions, inverted.rows) == (0, ())
    with pytest.raises(InvalidInputError, match="not a time"):
        await host.usage(since="yesterday")  # type: ignore[arg-type]


def test_prices_are_checked() -> None:
    with pytest.raises(ConfigurationError, match="at least 0"):
        Price(input=-1.0, output=1.0)
    with pytest.raises(ConfigurationError, match="at least 0"):
        Price(input=1.0, output="2")  # type: ignore[arg-type]


def test_agents_refuse_prices_that_are_not_prices() -> None:
    agent = Agent(name="ops", model=ScriptedModel(answer, name="m-small"), tools=[lookup])
    with pytest.raises(ConfigurationError, match=r"prices\['m-small'\]"):
        Agents([agent], prices={"m-small": 3.0})  # type: ignore[dict-item]


def test_each_attempts_call_counts_once_and_a_call_made_again_is_retried() -> None:
    def completed(at: int, step: int, attempt: int, call_attempt: int | None) -> Any:
        usage = CallUsage(
            model=MODEL, input_tokens=100 * step, output_tokens=10, attempt=call_attempt
        )
        raw = encode_event(
            MessageCompleted(text="hi", usage=usage),
            turn_id="t1",
            step_index=step,
            sequence=3_999_999,
            attempt=attempt,
        )
        return decode_event(raw, at)

    events = [
        # Step 0: called by attempt 1, whose reply committed; attempt 2 adopted it (a
        # crash while its tool ran) and emitted its event again with the same call.
        completed(0, 0, 1, 1),
        completed(1, 0, 2, 1),
        # Step 1: attempt 1 was cut short after the answer; attempt 2 called again.
        completed(2, 1, 1, 1),
        completed(3, 1, 2, 2),
        # Step 2: recorded before the attempt was kept: one call by its place.
        completed(4, 2, 1, None),
        completed(5, 2, 2, None),
    ]
    usage = session_usage("s", recorded_calls(events))
    assert usage.total == TokenCounts(calls=4, input_tokens=0 + 100 + 100 + 200, output_tokens=40)
    assert usage.retried == TokenCounts(calls=1, input_tokens=100, output_tokens=10)
    assert usage.by_turn == {"t1": usage.total}
    assert usage.to_json()["retried"] == {
        "calls": 1,
        "input_tokens": 100,
        "output_tokens": 10,
        "cached_tokens": 0,
    }
