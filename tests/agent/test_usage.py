"""Token usage and cost through the public API, on every backend.

Each model call's usage is recorded with its reply (its transcript entry and its
``message.completed`` event), ``turn.completed`` carries the turn's sums, and
`Session.usage` sums a session by model and turn and prices it. A step retried after
its reply was recorded calls the model no more, and its call counts once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tether.agent import (
    Agent,
    AgentHost,
    Agents,
    AssistantEntry,
    MessageCompleted,
    Price,
    TokenCounts,
    ToolContext,
    TurnCompleted,
    tool,
)
from tether.agent.models import ModelRequest, ToolResultMessage, Usage, UserMessage
from tether.errors import ConfigurationError
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
    prices = {MODEL: Price(input=3.0, output=15.0, cached_input=0.3)}
    host = AgentHost(backend, Agents([agent], prices=prices))
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


def test_prices_are_checked() -> None:
    with pytest.raises(ConfigurationError, match="at least 0"):
        Price(input=-1.0, output=1.0)
    with pytest.raises(ConfigurationError, match="at least 0"):
        Price(input=1.0, output="2")  # type: ignore[arg-type]


def test_agents_refuse_prices_that_are_not_prices() -> None:
    agent = Agent(name="ops", model=ScriptedModel(answer, name="m-small"), tools=[lookup])
    with pytest.raises(ConfigurationError, match=r"prices\['m-small'\]"):
        Agents([agent], prices={"m-small": 3.0})  # type: ignore[dict-item]
