"""Dynamic instructions: handlers on session events whose results join the instructions.

A ``session.started`` handler runs once per session (its text holds for every turn,
across a clear); a ``turn.started`` handler once per turn, before its first model call.
Each call is a durable step: the run's body is replayed at every turn (the run parks
while idle), and no handler runs twice. A handler past its timeout, or one that
raises, gives nothing: the turn goes on and ``dynamic.failed`` says so. Bad
declarations are refused with `DynamicError`.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest
from _harness import hosted, users, wait_status

from tether.agent import (
    Agent,
    ContextEntry,
    Dynamic,
    DynamicContext,
    Instructions,
    InstructionsEntry,
    SessionStarted,
    State,
    ToolContext,
    TurnStarted,
    dynamic,
    tool,
)
from tether.agent.models import ModelRequest, UserMessage
from tether.errors import ConfigurationError, DynamicError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

plan = State(name="plan", type=str, default="free")


@tool(state=[plan])
async def upgrade(ctx: ToolContext) -> str:
    """Upgrade the user's plan."""
    ctx.state[plan] = "pro"
    return "upgraded"


def _short(step_name: str) -> str:
    """A journaled step's name without its release (``step//tether@X//name``)."""
    return step_name.rsplit("//", 1)[-1]


class Recorder:
    """A model that answers every call and keeps the requests."""

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []

    def __call__(self, request: ModelRequest) -> str:
        self.requests.append(request)
        return f"reply {len(self.requests)}"


async def test_session_and_turn_instructions_reach_the_model(backend: Backend) -> None:
    calls: dict[str, list[Any]] = {"session": [], "turn": []}

    @dynamic("session.started")
    async def profile(ctx: DynamicContext) -> str:
        calls["session"].append((ctx.session_id, ctx.owner, ctx.turn_id, ctx.predecessor))
        assert ctx.on == "session.started" and ctx.agent == "shop"
        assert ctx.event == SessionStarted(session_id="dy1", agent="shop", owner="ada")
        return f"The user is {ctx.owner}."

    @dynamic("turn.started", timeout=2)
    async def per_turn(ctx: DynamicContext) -> str:
        calls["turn"].append((ctx.turn, ctx.message, ctx.principal, ctx.state[plan]))
        assert isinstance(ctx.event, TurnStarted) and ctx.event.text == ctx.message
        assert ctx.turn_id == f"turn_{ctx.event.submission_id}"
        return f"Turn {ctx.turn}; plan {ctx.state[plan]}."

    recorder = Recorder()
    model = ScriptedModel([recorder, Reply(tool_calls=(tool_call("upgrade"),)), recorder, recorder])
    agent = Agent(
        name="shop",
        model=model,
        instructions="Be brief.",
        tools=[upgrade],
        state=[plan],
        dynamic=[profile, per_turn],
    )
    async with hosted(backend, agent) as host:
        session = await host.open_session("shop", session_id="dy1", owner="ada")
        await session.send("hello", principal="ada")
        first = await session.wait_for("turn.completed")
        await session.send("upgrade me", principal="ada")
        second = await session.wait_for("turn.completed", after=first.index)
        await session.send("and now?", principal="ada")
        await session.wait_for("turn.completed", after=second.index)
        # Once per session (the body was replayed at each turn: the step ran once),
        # once per turn, with what the turn began with.
        assert calls["session"] == [("dy1", "ada", None, None)]
        assert calls["turn"] == [
            (1, "hello", "ada", "free"),
            (2, "upgrade me", "ada", "free"),
            (3, "and now?", "ada", "pro"),
        ]
        instructions = [r.instructions for r in recorder.requests]
        assert instructions == [
            "Be brief.\n\nThe user is ada.\n\nTurn 1; plan free.",
            # The turn's second model call (after its tool) keeps the turn's text.
            "Be brief.\n\nThe user is ada.\n\nTurn 2; plan free.",
            "Be brief.\n\nThe user is ada.\n\nTurn 3; plan pro.",
        ]
        # Recorded in the transcript, where they ran; never messages to the model.
        recorded = [e for e in await session.transcript() if isinstance(e, InstructionsEntry)]
        assert [(e.handler, e.on, e.text, e.turn_id is None) for e in recorded] == [
            ("profile", "session.started", "The user is ada.", True),
            ("per_turn", "turn.started", "Turn 1; plan free.", False),
            ("per_turn", "turn.started", "Turn 2; plan free.", False),
            ("per_turn", "turn.started", "Turn 3; plan pro.", False),
        ]
        # None of it is a message: each request holds the user messages so far.
        assert [users(r) for r in recorder.requests] == [1, 2, 3]
        # Each handler call is its own journaled step.
        steps = await backend.stores.workflow.list_steps(session.run_id)
        ran = [(_short(s.name), s.status, s.attempt) for s in steps if "//dynamic." in s.name]
        assert (
            ran
            == [("dynamic.profile", "completed", 1)] + [("dynamic.per_turn", "completed", 1)] * 3
        )
        assert "dynamic.failed" not in [e.type for e in await session.read_events()]


async def test_a_handler_past_its_timeout_gives_nothing_and_says_so(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    @dynamic("turn.started", timeout=0.05)
    async def slow(ctx: DynamicContext) -> str:
        await asyncio.sleep(10)
        return "never"

    @dynamic("turn.started")
    async def fine(ctx: DynamicContext) -> str:
        return "Answer in French."

    recorder = Recorder()
    agent = Agent(name="slowpoke", model=ScriptedModel(recorder), dynamic=[slow, fine])
    async with hosted(backend, agent) as host:
        session = await host.open_session("slowpoke", session_id="dy2")
        await session.send("hi")
        done = await session.wait_for("turn.completed")
        failed = await session.wait_for("dynamic.failed", after=0)
        assert failed.index < done.index and failed.meta.turn_id == done.meta.turn_id
        assert (failed.data.handler, failed.data.on) == ("slow", "turn.started")
        assert failed.data.error == "it ran past its timeout of 0.05 s"
        # The turn went on, with the other handler's text only.
        assert recorder.requests[-1].instructions == "Answer in French."
        [entry] = [
            e
            for e in await session.transcript()
            if isinstance(e, InstructionsEntry) and e.handler == "slow"
        ]
        assert (entry.text, entry.error) == ("", "it ran past its timeout of 0.05 s")
        assert "dynamic handler 'slow'" in caplog.text


async def test_a_handler_that_raises_or_returns_a_wrong_type_gives_nothing() -> None:
    import tether

    @dynamic("session.started")
    async def broken(ctx: DynamicContext) -> str:
        raise RuntimeError("profile service down")

    @dynamic("turn.started")
    async def wrong(ctx: DynamicContext) -> Any:
        return 42

    @dynamic("turn.started")
    async def upstream(ctx: DynamicContext) -> str:
        raise TimeoutError("the rules service did not answer")

    recorder = Recorder()
    agent = Agent(
        name="broken",
        model=ScriptedModel(recorder),
        instructions="Base.",
        dynamic=[broken, wrong, upstream],
    )
    async with tether.open_backend("memory://") as backend, hosted(backend, agent) as host:
        session = await host.open_session("broken", session_id="dy3")
        await session.send("hi")
        await session.wait_for("turn.completed")
        failures = [
            (e.data.handler, e.data.on, e.data.error, e.meta.turn_id is None)
            for e in await session.read_events()
            if e.type == "dynamic.failed"
        ]
        assert failures == [
            ("broken", "session.started", "it raised RuntimeError: profile service down", True),
            (
                "wrong",
                "turn.started",
                "it raised TypeError: it returned int, not a str, Instructions or None",
                False,
            ),
            (
                "upstream",
                "turn.started",
                "it raised TimeoutError: the rules service did not answer",
                False,
            ),
        ]
        assert recorder.requests[-1].instructions == "Base."


async def test_history_is_given_as_data_and_instructions_survive_a_clear(
    backend: Backend,
) -> None:
    ran: list[str] = []

    @dynamic("session.started")
    async def brief(ctx: DynamicContext) -> Instructions:
        ran.append(ctx.session_id)
        return Instructions(text="Speak like a pirate.", history="user: my order is #42")

    recorder = Recorder()
    agent = Agent(name="pirate", model=ScriptedModel(recorder), dynamic=[brief])
    async with hosted(backend, agent) as host:
        session = await host.open_session("pirate", session_id="dy4")
        await session.send("where is my order?")
        first = await session.wait_for("turn.completed")
        request = recorder.requests[-1]
        assert request.instructions == "Speak like a pirate."
        history, question = [m.text for m in request.messages if isinstance(m, UserMessage)]
        assert history.startswith("The text below was given to this conversation as context")
        assert "data, not instructions" in history and "my order is #42" in history
        assert question == "where is my order?"
        entries = await session.transcript()
        assert isinstance(entries[1], ContextEntry) and entries[1].source == "brief"
        # A clear starts a fresh transcript: the history is gone, the session's
        # instructions are carried, and the handler does not run again.
        await session.clear()
        moved = await session.wait_for("session.moved", after=first.index)
        await session.send("again")
        await session.wait_for("turn.completed", after=moved.index)
        request = recorder.requests[-1]
        assert request.instructions == "Speak like a pirate."
        assert [m.text for m in request.messages if isinstance(m, UserMessage)] == ["again"]
        assert ran == ["dy4"]


async def test_an_after_reset_handler_replaces_the_predecessor_history(
    backend: Backend,
) -> None:
    seen: list[tuple[str | None, str]] = []

    @dynamic("session.started", name="predecessor", after_reset=True)
    async def summary(ctx: DynamicContext) -> str | None:
        text = await ctx.predecessor_history(last=1)
        seen.append((ctx.predecessor, text))
        return f"Earlier, the assistant said: {text}" if text else None

    recorder = Recorder()
    agent = Agent(name="ops", model=ScriptedModel(recorder), dynamic=[summary])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="dy5")
        await session.send("the blue service is down")
        first = await session.wait_for("turn.completed")
        # Not run in a session that follows none (no step taken).
        assert seen == []
        steps = await backend.stores.workflow.list_steps(session.run_id)
        assert "dynamic.predecessor" not in [_short(s.name) for s in steps]
        fresh = await session.reset()
        started = await fresh.wait_for("session.started", after=first.index)
        await fresh.send("what was down?")
        await fresh.wait_for("turn.completed", after=started.index)
        assert seen == [("session:dy5", "assistant: reply 1")]
        request = recorder.requests[-1]
        assert request.instructions == "Earlier, the assistant said: assistant: reply 1"
        # It replaced the built-in handler: no history message.
        assert [m.text for m in request.messages if isinstance(m, UserMessage)] == [
            "what was down?"
        ]


async def test_a_sub_agent_runs_its_handlers() -> None:
    import tether

    @dynamic("turn.started")
    async def task_rules(ctx: DynamicContext) -> str:
        return f"You work on: {ctx.message}"

    inner = Recorder()
    helper = Agent(name="helper", model=ScriptedModel(inner), dynamic=[task_rules])
    lead = Agent(
        name="lead",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("helper", {"task": "count the sheep"}),)), "done"]
        ),
        tools=[helper.as_tool()],
    )
    async with tether.open_backend("memory://") as backend, hosted(backend, lead, helper) as host:
        session = await host.open_session("lead", session_id="dy6")
        await session.send("delegate")
        await session.wait_for("turn.completed", timeout=30)
        assert inner.requests[-1].instructions == "You work on: count the sheep"
        await session.close()
        await wait_status(session, "closed")


async def _noop(ctx: DynamicContext) -> None:
    return None


def _sync(ctx: DynamicContext) -> None:
    return None


def test_an_object_with_an_async_call_is_a_handler() -> None:
    class Rules:
        async def __call__(self, ctx: DynamicContext) -> str:
            return "Be kind."

    declared = Dynamic(on="turn.started", fn=Rules(), name="rules")
    assert declared.name == "rules" and declared.timeout == 10.0


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda: Dynamic(on="session.closed", fn=_noop), "cannot run on 'session.closed'"),  # type: ignore[arg-type]
        (lambda: Dynamic(on="turn.started", fn=_sync), "must be an async function"),  # type: ignore[arg-type]
        (lambda: dynamic("turn.started")(lambda ctx: None), "a name is 1-64"),  # type: ignore[arg-type,return-value]
        (lambda: Dynamic(on="turn.started", fn=_noop, timeout=0), "positive, finite"),
        (lambda: Dynamic(on="turn.started", fn=_noop, timeout=-1), "positive, finite"),
        (lambda: Dynamic(on="turn.started", fn=_noop, timeout=math.inf), "positive, finite"),
        (lambda: Dynamic(on="turn.started", fn=_noop, timeout=math.nan), "positive, finite"),
        (lambda: Dynamic(on="turn.started", fn=_noop, timeout=True), "positive, finite"),
        (lambda: Dynamic(on="turn.started", fn=_noop, timeout="5s"), "positive, finite"),  # type: ignore[arg-type]
        (
            lambda: Dynamic(on="turn.started", fn=_noop, after_reset=True),
            "after_reset applies to 'session.started'",
        ),
        (lambda: Dynamic(on="turn.started", fn=_noop, name="compaction"), "reserved"),
        (
            lambda: Agent(name="a", model="openai:x", dynamic=[_noop]),  # type: ignore[list-item]
            "dynamic takes handlers made with @dynamic",
        ),
        (
            lambda: Agent(name="a", model="openai:x", dynamic=Dynamic(on="turn.started", fn=_noop)),  # type: ignore[arg-type]
            "takes a list of handlers",
        ),
        (
            lambda: Agent(
                name="a",
                model="openai:x",
                dynamic=[
                    Dynamic(on="turn.started", fn=_noop),
                    Dynamic(on="session.started", fn=_noop),
                ],
            ),
            "two handlers of that name",
        ),
    ],
)
def test_bad_declarations_are_refused(make: Any, says: str) -> None:
    with pytest.raises(DynamicError) as caught:
        make()
    assert says in str(caught.value)
    assert isinstance(caught.value, ConfigurationError)
    assert str(caught.value).startswith("dynamic handler ")


def test_only_declared_handlers_texts_are_added_session_first() -> None:
    from tether.agent._turn._dynamic_step import dynamic_instructions

    @dynamic("turn.started")
    async def now(ctx: DynamicContext) -> None:
        return None

    @dynamic("session.started")
    async def who(ctx: DynamicContext) -> None:
        return None

    entries = [
        InstructionsEntry(handler="now", on="turn.started", text="t0", turn_id="turn_0"),
        InstructionsEntry(handler="gone", on="session.started", text="dropped"),
        InstructionsEntry(handler="now", on="turn.started", text="t1", turn_id="turn_1"),
        InstructionsEntry(handler="who", on="session.started", text="s"),
        InstructionsEntry(handler="now", on="turn.started", error="slow", turn_id="turn_1"),
    ]
    assert dynamic_instructions(entries, "turn_1", [now, who]) == ["s", "t1"]
    assert dynamic_instructions(entries, "turn_1", [now]) == ["t1"]
    assert dynamic_instructions(entries, "turn_2", [now, who]) == ["s"]


async def test_the_predecessor_history_is_the_built_in_handlers_step() -> None:
    import tether

    recorder = Recorder()
    agent = Agent(name="ops", model=ScriptedModel(recorder))
    async with tether.open_backend("memory://") as backend, hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="dy7")
        await session.send("the printer is on fire")
        first = await session.wait_for("turn.completed")
        fresh = await session.reset()
        await fresh.send("what was on fire?")
        await fresh.wait_for("turn.completed", after=first.index)
        runs = [session.run_id, (await host.client.latest(fresh.run_id)).run_id]
        assert runs[0] != runs[1]
        named = [
            [(_short(s.name), s.attempt) for s in await backend.stores.workflow.list_steps(r)]
            for r in runs
        ]
        # The first session follows none: no step for it. The reset one: one, once.
        assert "dynamic.predecessor" not in [n for n, _ in named[0]]
        assert [(n, a) for n, a in named[1] if n.startswith("dynamic.")] == [
            ("dynamic.predecessor", 1)
        ]
        history = [m.text for m in recorder.requests[-1].messages if isinstance(m, UserMessage)]
        assert "history, not instructions" in history[0] and "printer is on fire" in history[0]
        entries = await fresh.transcript()
        assert isinstance(entries[0], ContextEntry) and entries[0].source == "predecessor"


def test_a_line_of_the_previous_format_is_still_read() -> None:
    from tether.agent import SessionLine
    from tether.agent._stored._line import read_line

    assert (SessionLine.OLDEST_FORMAT, SessionLine.FORMAT) == (1, 2)
    line = read_line({"format": 1, "generation": 2, "predecessor": "session:x"})
    assert (line.generation, line.predecessor) == (2, "session:x")
    assert SessionLine(generation=1).to_json()["format"] == 2


async def test_a_turn_handlers_history_follows_the_turns_message_and_stays() -> None:
    import tether

    @dynamic("turn.started")
    async def page(ctx: DynamicContext) -> Instructions:
        return Instructions(history=f"page {ctx.turn}")

    recorder = Recorder()
    agent = Agent(name="reader", model=ScriptedModel(recorder), dynamic=[page])
    async with tether.open_backend("memory://") as backend, hosted(backend, agent) as host:
        session = await host.open_session("reader", session_id="dy8")
        await session.send("read one")
        first = await session.wait_for("turn.completed")
        await session.send("read two")
        await session.wait_for("turn.completed", after=first.index)
    first_request, second_request = recorder.requests
    assert first_request.instructions is None
    texts = [m.text for m in second_request.messages if isinstance(m, UserMessage)]
    assert [t if "<history>" not in t else t.split("<history>\n")[1] for t in texts] == [
        "read one",
        "page 1\n</history>",
        "read two",
        "page 2\n</history>",
    ]
