"""Declared session state (`State`): tools read and change it, durably, on every backend.

Tools change the state through ``ctx.state``; the change lands with the call's result,
so a retried attempt changes it once and a tool that raises changes nothing. The
values outlive the worker (a parked turn resumed by another host reads them), a
compaction and a clear carry them to the fresh transcript, and a deploy hand-off
reads them under the new code's declarations.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from _harness import hosted, wait_settled_steps
from pydantic import BaseModel

from tether.agent import (
    Agent,
    AgentHost,
    Compaction,
    KeepLast,
    State,
    StateEntry,
    StateValues,
    ToolContext,
    approval,
    tool,
)
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.errors import (
    ConfigurationError,
    StateConflictError,
    StateValueError,
    ToolUnavailableError,
    UnknownStateError,
)
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


class Cart(BaseModel):
    items: list[str] = []
    total: int = 0


visits = State(name="visits", type=int, default=0, description="Times the user came by.")
cart = State(name="cart", type=Cart, default_factory=Cart)
legacy = State(name="legacy", type=str, default="")


@tool(state=[visits])
def visit(ctx: ToolContext) -> str:
    """Count a visit."""
    ctx.state[visits] += 1
    return f"visit {ctx.state[visits]}"


@tool(state=[cart])
def add_item(ctx: ToolContext, item: str, price: int) -> dict[str, int]:
    """Add an item to the cart."""
    current = ctx.state[cart]
    current.items.append(item)
    current.total += price
    ctx.state[cart] = current
    return {"items": len(current.items), "total": current.total}


@tool
def set_visits(ctx: ToolContext, value: str) -> str:
    """Set the visit count (strings are validated as ints)."""
    ctx.state[visits] = 100  # dropped with the rest: the call raises below
    ctx.state[visits] = value
    return "set"


def tool_turns(*calls: tuple[str, dict[str, object]], n: int = 1) -> list[object]:
    """A script: each turn calls the tools, then replies "done"."""
    script: list[object] = []
    for _ in range(n):
        script += [Reply(tool_calls=tuple(tool_call(name, args) for name, args in calls)), "done"]
    return script


def results(request: ModelRequest) -> list[str]:
    return [m.content for m in request.messages if isinstance(m, ToolResultMessage)]


def shop(model: ScriptedModel, **options: object) -> Agent:
    return Agent(
        name="shop",
        model=model,
        tools=[visit, add_item, set_visits],
        state=[visits],
        **options,  # type: ignore[arg-type]
    )


async def test_tools_read_and_change_the_state_turn_after_turn(backend: Backend) -> None:
    script = tool_turns(("visit", {}), ("add_item", {"item": "tea", "price": 3}), n=2)
    model = ScriptedModel(script)
    async with hosted(backend, shop(model)) as host:
        session = await host.open_session("shop", session_id="st1")
        before = await session.state_values()
        assert before.to_json() == {"cart": {"items": [], "total": 0}, "visits": 0}
        for n, text in enumerate(("one", "two"), 1):
            await session.send(text)
            await _turns_done(session, n)
        values = await session.state_values()
        assert values[visits] == 2
        assert values.get(cart) == Cart(items=["tea", "tea"], total=6)
        assert values["visits"] == 2
        # Each call's change is an entry of the transcript, just before its result.
        transcript = await session.transcript()
        changes = [e for e in transcript if isinstance(e, StateEntry)]
        assert [dict(e.values) for e in changes] == [
            {"visits": 1},
            {"cart": {"items": ["tea"], "total": 3}},
            {"visits": 2},
            {"cart": {"items": ["tea", "tea"], "total": 6}},
        ]
        assert all(e.call_id for e in changes)
        # Each change is told by a state.changed event just before its call's result.
        events = await session.read_events()
        told = [e for e in events if e.type == "state.changed"]
        assert [(e.data.call_id, dict(e.data.values), e.data.reset) for e in told] == [
            (c.call_id, dict(c.values), ()) for c in changes
        ]
        for event in told:
            result = next(e for e in events[event.index + 1 :] if e.type == "tool.result")
            assert result.data.call_id == event.data.call_id
            assert (event.meta.turn_id, event.meta.step_index) == (
                result.meta.turn_id,
                result.meta.step_index,
            )
        # The second turn's tools read what the first one left.
        assert results(model.requests[-1])[-2:] == ["visit 2", '{"items":2,"total":6}']
        with pytest.raises(TypeError, match="read-only"):
            values[visits] = 5


async def _turns_done(session: object, n: int) -> None:
    from tether.agent import Session

    assert isinstance(session, Session)
    for _ in range(1000):
        events = await session.read_events()
        if sum(e.type == "turn.completed" for e in events) >= n:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the turns never completed")


async def test_a_bad_value_is_a_typed_error_and_changes_nothing(backend: Backend) -> None:
    script = [*tool_turns(("visit", {})), *tool_turns(("set_visits", {"value": "many"}))]
    model = ScriptedModel(script)
    async with hosted(backend, shop(model)) as host:
        session = await host.open_session("shop", session_id="st2")
        await session.send("one")
        await _turns_done(session, 1)
        await session.send("two")
        await _turns_done(session, 2)
        (result,) = results(model.requests[-1])[-1:]
        # The model is told what was wrong; the call's earlier change went with it.
        assert "StateValueError" in result
        assert "state 'visits' cannot take that value: 'many' does not fit int" in result
        assert (await session.state_values())[visits] == 1


def test_setting_a_bad_value_raises_a_typed_error_and_keeps_the_old_one() -> None:
    view = StateValues({"visits": visits, "cart": cart}, {"visits": 4})
    with pytest.raises(StateValueError) as raised:
        view[cart] = {"items": "not a list"}
    assert raised.value.key == "cart" and "items: Input should be a valid list" in str(raised.value)
    with pytest.raises(StateValueError, match=r"no JSON form|does not fit"):
        view[visits] = object()
    assert view[visits] == 4 and view.pending() is None
    with pytest.raises(StateValueError, match=r"65,5\d\d bytes, over the 65,536"):
        view[cart] = {"items": ["x" * 65_530]}
    with pytest.raises(ConfigurationError, match=r"bad default: .*over the 65,536"):
        State(name="big", type=str, default="x" * 70_000)
    assert view[visits] == 4 and view.pending() is None
    view[visits] = "7"  # validated (and converted) by pydantic
    assert view[visits] == 7
    view.reset(visits)
    assert view[visits] == 0
    assert view.pending() == StateEntry(values={}, removed=("visits",))
    with pytest.raises(UnknownStateError, match="no state 'other' is declared"):
        view.get("other")
    with pytest.raises(UnknownStateError):
        view[State(name="visits", type=str, default="")] = "x"


def test_declarations_are_checked_when_made() -> None:
    with pytest.raises(ConfigurationError, match="exactly one of default= and default_factory="):
        State(name="n", type=int)
    with pytest.raises(ConfigurationError, match="bad default"):
        State(name="n", type=int, default="x")
    with pytest.raises(ConfigurationError, match="must be 1-64"):
        State(name="9lives", type=int, default=0)
    with pytest.raises(ConfigurationError, match="declares state \\['visits'\\] more than once"):
        Agent(name="a", model="openai:x", state=[visits, State(name="visits", type=int, default=1)])
    with pytest.raises(ConfigurationError, match="takes State"):
        Agent(name="a", model="openai:x", state=["visits"])  # type: ignore[list-item]
    # One declaration shared by the agent and its tools is one key.
    agent = Agent(name="a", model="openai:x", state=[visits], tools=[visit])
    assert agent.state == (visits,)


@tool(state=[visits])
def bump_then_outage(ctx: ToolContext) -> str:
    """Count a visit, then find the service down on the step's first attempt."""
    ctx.state[visits] += 1
    if ctx.attempt == 1:
        raise ToolUnavailableError("flaky", "down for a moment", retry_after=0.05)
    return f"visit {ctx.state[visits]}"


async def test_a_retried_attempt_changes_the_state_once(backend: Backend) -> None:
    # One reply, two calls: `visit` finishes (its change lands with its result), the
    # other's outage fails the attempt; the retry runs only the one without a result.
    script = tool_turns(("visit", {}), ("bump_then_outage", {}))
    model = ScriptedModel(script)
    agent = Agent(name="shop", model=model, tools=[visit, bump_then_outage])
    async with hosted(backend, agent) as host:
        session = await host.open_session("shop", session_id="st3")
        await session.send("one")
        await _turns_done(session, 1)
        assert (await session.state_values())[visits] == 2
        assert sorted(results(model.requests[-1])) == ["visit 1", "visit 2"]
        changes = [e for e in await session.transcript() if isinstance(e, StateEntry)]
        assert [dict(e.values) for e in changes] == [{"visits": 1}, {"visits": 2}]
        # Told once each, whatever attempt emitted them (the coordinates are the same).
        told = [e for e in await session.read_events() if e.type == "state.changed"]
        coordinates = {(e.meta.turn_id, e.meta.step_index, e.meta.sequence) for e in told}
        assert sorted(dict(e.data.values)["visits"] for e in told if e.meta.attempt == 2) == [2]
        assert len(coordinates) == 2


@tool(approval=approval.always(), state=[visits])
def checkout(ctx: ToolContext) -> str:
    """Check out (needs an approval)."""
    ctx.state[visits] += 10
    return f"checked out at visit {ctx.state[visits]}"


async def test_a_parked_turn_resumed_by_another_worker_reads_the_values(
    backend: Backend,
) -> None:
    script = [*tool_turns(("visit", {})), *tool_turns(("checkout", {}))]
    model = ScriptedModel(script)
    agent = Agent(name="shop", model=model, tools=[visit, checkout])
    async with hosted(backend, agent) as host:
        session = await host.open_session("shop", session_id="st4")
        await session.send("one")
        await _turns_done(session, 1)
        await session.send("two")
        asked = await session.wait_for("input.requested")
        await wait_settled_steps(host, session)
    # Nothing in memory: a new host replays the run, and the tool reads the journal's
    # and the transcript's values.
    async with hosted(backend, agent) as again:
        resumed = again.session("shop", "st4")
        await resumed.answer(asked.data.request.request_id, True)
        await _turns_done(resumed, 2)
        assert (await resumed.state_values())[visits] == 11
        assert results(model.requests[-1])[-1] == "checked out at visit 11"


async def test_compaction_and_clear_carry_the_state(backend: Backend) -> None:
    script = tool_turns(("visit", {}), n=4)
    model = ScriptedModel(script)
    agent = shop(model, compaction=Compaction(max_turns=2, compactor=KeepLast(2)))
    async with hosted(backend, agent) as host:
        session = await host.open_session("shop", session_id="st5")
        for _ in range(2):
            await session.send("hi")
            await asyncio.sleep(0)
        moved = await session.wait_for("session.moved")
        assert moved.data.reason == "compaction"
        assert (await session.state_values())[visits] == 2
        transcript = await session.transcript()
        assert isinstance(transcript[1], StateEntry) and transcript[1].values == {"visits": 2}
        await session.send("three")
        await session.wait_for("turn.completed", after=moved.index)
        assert (await session.state_values())[visits] == 3
        await session.clear()
        cleared = await session.wait_for("session.moved", after=moved.index)
        assert cleared.data.reason == "clear"
        await session.send("four")
        await session.wait_for("turn.completed", after=cleared.index)
        assert (await session.state_values())[visits] == 4
        assert results(model.requests[-1]) == ["visit 4"]


async def test_a_hand_off_drops_the_keys_the_new_code_does_not_declare(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    @tool(state=[legacy])
    def remember(ctx: ToolContext, note: str) -> str:
        """Remember a note."""
        ctx.state[legacy] = note
        return "noted"

    v1 = Agent(
        name="shop",
        model=ScriptedModel(tool_turns(("visit", {}), ("remember", {"note": "old"}))),
        tools=[visit, remember],
    )
    v2_model = ScriptedModel(tool_turns(("visit", {})))
    v2 = Agent(name="shop", model=v2_model, tools=[visit])
    old, new = AgentHost(backend, [v1], deployment="v1"), AgentHost(backend, [v2], deployment="v2")
    session = await old.open_session("shop", session_id="st6")
    async with old.worker(poll_interval=0.02):
        await session.send("one")
        first = await session.wait_for("turn.completed")
        await wait_settled_steps(old, session)
        assert (await session.state_values()).to_json() == {"legacy": "old", "visits": 1}
    with caplog.at_level(logging.WARNING, logger="tether.agent"):
        async with new.worker(poll_interval=0.02):
            on_new = await new.get_session("st6")
            await on_new.send("two")
            moved = await on_new.wait_for("session.moved", after=first.index)
            assert moved.data.deployment == "v2"
            await on_new.wait_for("turn.completed", after=moved.index)
            # The session went on: the kept key was read and changed on v2.
            assert (await on_new.state_values()).to_json() == {"visits": 2}
            assert results(v2_model.requests[-1])[-1] == "visit 2"
    dropped = [r for r in caplog.records if "dropping unknown context key" in r.getMessage()]
    assert len(dropped) == 1 and "'legacy'" in dropped[0].getMessage()
    removed = [e for e in await on_new.transcript() if isinstance(e, StateEntry) and e.removed]
    assert [e.removed for e in removed] == [("legacy",)]


async def test_two_declarations_of_a_key_keep_the_session_where_it_is(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    other = State(name="visits", type=str, default="none")

    @tool(state=[other])
    def label(ctx: ToolContext) -> str:
        """A tool of another pack, declaring `visits` its own way."""
        return str(ctx.state[other])

    v1 = Agent(name="shop", model=ScriptedModel(tool_turns(("visit", {}), n=2)), tools=[visit])
    v2 = Agent(name="shop", model=ScriptedModel(["never"]), tools=[visit, label])
    old, new = AgentHost(backend, [v1], deployment="v1"), AgentHost(backend, [v2], deployment="v2")
    with pytest.raises(StateConflictError) as refused:
        await new.open_session("shop", session_id="elsewhere")
    assert refused.value.key == "visits" and "tool 'label'" in str(refused.value)
    session = await old.open_session("shop", session_id="st7")
    async with old.worker(poll_interval=0.02), new.worker(poll_interval=0.02):
        await session.send("one")
        first = await session.wait_for("turn.completed")
        await wait_settled_steps(old, session)
        on_new = await new.get_session("st7")
        with pytest.raises(StateConflictError):
            await on_new.hand_off()
        with caplog.at_level(logging.WARNING, logger="tether.agent"):
            assert await new.hand_off_sessions() == []
        with caplog.at_level(logging.WARNING, logger="tether.agent"):
            await on_new.send("two")
            await session.wait_for("turn.completed", after=first.index)
        state = await on_new.state()
        assert state.deployment == "v1"
        assert (await session.state_values())[visits] == 2
    assert any("session handoff failed" in r.getMessage() for r in caplog.records)
    assert not any(e.type == "session.moved" for e in await session.read_events())


async def test_instructions_may_read_the_state(backend: Backend) -> None:
    model = ScriptedModel(tool_turns(("visit", {}), n=2))
    agent = shop(model, instructions=lambda state: f"Visits so far: {state[visits]}.")
    async with hosted(backend, agent) as host:
        session = await host.open_session("shop", session_id="st8")
        for n in (1, 2):
            await session.send("hi")
            await _turns_done(session, n)
    # Each model call reads the state as it finds it: the call after the tool sees its
    # change, the next turn's first call what the first turn left.
    assert [r.instructions for r in model.requests] == [
        "Visits so far: 0.",
        "Visits so far: 1.",
        "Visits so far: 1.",
        "Visits so far: 2.",
    ]
    with pytest.raises(ConfigurationError, match="instructions is a string or a function"):
        Agent(name="a", model="openai:x", instructions=42)  # type: ignore[arg-type]


async def test_the_state_is_read_back_from_an_encrypted_store(encrypted: Backend) -> None:
    model = ScriptedModel(tool_turns(("add_item", {"item": "tea", "price": 3})))
    async with hosted(encrypted, shop(model)) as host:
        session = await host.open_session("shop", session_id="st9")
        await session.send("one")
        await _turns_done(session, 1)
        assert (await session.state_values())[cart] == Cart(items=["tea"], total=3)


@tool(state=[visits])
def forget_visits(ctx: ToolContext) -> str:
    """Put the visit count back to its default."""
    ctx.state.reset(visits)
    return "forgotten"


async def test_a_reset_is_told_with_the_default_it_went_back_to(backend: Backend) -> None:
    script = [*tool_turns(("visit", {})), *tool_turns(("forget_visits", {}))]
    agent = Agent(name="shop", model=ScriptedModel(script), tools=[visit, forget_visits])
    async with hosted(backend, agent) as host:
        session = await host.open_session("shop", session_id="st9")
        for n, text in enumerate(("one", "two"), 1):
            await session.send(text)
            await _turns_done(session, n)
        told = [e.data for e in await session.read_events() if e.type == "state.changed"]
        assert [(dict(d.values), d.reset) for d in told] == [
            ({"visits": 1}, ()),
            ({"visits": 0}, ("visits",)),
        ]
        assert (await session.state_values())[visits] == 0
