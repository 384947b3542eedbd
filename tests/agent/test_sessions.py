"""Sessions and turns through the public API, on every backend."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tether
from tether.agent import Agent, AgentHost, Session, ToolContext, approval, tool, workflow_tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.errors import (
    AuthorizationRequired,
    ContentDeletedError,
    InputRequestError,
    InvalidInputError,
    ModelError,
)
from tether.stores import Backend, make_session_key
from tether.testing import Reply, ScriptedModel, tool_call

effects: list[Any] = []


@tool(approval=approval.always())
async def restart_service(service: str) -> dict[str, str]:
    """Restart a service."""
    effects.append(("restart", service))
    return {"restarted": service}


@tool
def lookup(service: str) -> str:
    """Look up a service's status."""
    effects.append(("lookup", service))
    return f"{service}: degraded"


@tool
async def refund(ctx: ToolContext, charge_id: str, amount: int) -> dict[str, Any]:
    """Refund a charge."""
    effects.append(("refund", charge_id, amount, ctx.idempotency_key))
    return {"refunded": amount}


@tool
async def slow_tool(seconds: float) -> str:
    """Take a while."""
    await asyncio.sleep(seconds)
    effects.append(("slow", seconds))
    return "slow done"


def collect(incident_id: str) -> str:
    effects.append(("collect", incident_id))
    return f"context of {incident_id}"


@workflow_tool
async def handle_incident(ctx: Any, incident_id: str) -> dict[str, Any]:
    """Triage an incident with a human."""
    context = await ctx.step(collect, incident_id)
    level = await ctx.ask(f"Severity of {incident_id}?", options=["p1", "p2", "p3"])
    await ctx.sleep("50ms")
    return {"incident": incident_id, "level": level.option_id, "context": context}


TOOLS = [restart_service, lookup, refund, slow_tool, handle_incident]


@pytest.fixture(autouse=True)
def _reset() -> None:
    effects.clear()


class Harness:
    def __init__(self, host: AgentHost, model: ScriptedModel) -> None:
        self.host = host
        self.model = model

    async def session(self, session_id: str = "s1") -> Session:
        return await self.host.open_session("ops", session_id=session_id)


@pytest.fixture
def script() -> list[Any]:
    return []


@pytest.fixture
def policy() -> str:
    return "steer"


@pytest.fixture
async def harness(backend: Backend, script: list[Any], policy: str) -> AsyncIterator[Harness]:
    model = ScriptedModel(script)
    agent = Agent(
        name="ops", model=model, instructions="You run ops.", tools=TOOLS, turn_policy=policy
    )  # type: ignore[arg-type]
    host = AgentHost(backend, [agent])
    async with host.worker(poll_interval=0.02):
        yield Harness(host, model)


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


async def settled(backend: Backend, submission_id: str) -> Any:
    for _ in range(500):
        sub = await backend.stores.submissions.get_submission(submission_id)
        if sub is not None and sub.status == "settled":
            return sub
        await asyncio.sleep(0.01)
    raise AssertionError(f"{submission_id} never settled")


# -- turns, tools, approvals -------------------------------------------------------------


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(text="Checking.", tool_calls=(tool_call("lookup", {"service": "api"}),)),
            Reply(
                text="Restarting.", tool_calls=(tool_call("restart_service", {"service": "api"}),)
            ),
            "Done: api restarted.",
        ]
    ],
)
async def test_turn_parks_for_approval_and_completes(harness: Harness, backend: Backend) -> None:
    session = await harness.session()
    sub_id = await session.send("api is slow", client_message_id="m1", principal="ada")
    requested = await session.wait_for("input.requested")
    assert requested.data.request.tool_name == "restart_service" and effects == [("lookup", "api")]
    waiting = await session.wait_for("turn.waiting", after=requested.index)
    assert waiting.data.on == "input"
    await session.answer(requested.data.request.request_id, "approve", principal="ada")
    done = await session.wait_for("turn.completed")
    events = await session.read_events()
    assert types(events)[:3] == ["session.started", "turn.started", "message.delta"]
    assert types(events)[-2:] == ["turn.completed", "session.waiting"]
    turn_ids = {e.meta.turn_id for e in events if e.meta.turn_id}
    assert turn_ids == {done.meta.turn_id}
    assert len({e.meta.id for e in events}) == len(events)
    assert effects == [("lookup", "api"), ("restart", "api")]
    sub = await settled(backend, sub_id)
    assert sub.outcome == "completed"
    kinds = [r.kind for r in await session.transcript()]
    assert kinds == [
        "user",
        "assistant",
        "tool_result",
        "assistant",
        "approval",
        "tool_result",
        "assistant",
        "turn_end",
    ]


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(tool_calls=(tool_call("restart_service", {"service": "db"}),)),
            "Understood, not restarting.",
        ]
    ],
)
async def test_denied_approval_reaches_the_model(harness: Harness) -> None:
    session = await harness.session()
    await session.send("restart db")
    requested = await session.wait_for("input.requested")
    await session.answer(requested.data.request.request_id, {"approved": False, "reason": "no"})
    await session.wait_for("turn.completed")
    assert effects == []
    last = harness.model.requests[-1].messages[-1]
    assert isinstance(last, ToolResultMessage) and last.is_error
    assert "did not approve" in last.content


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(
                tool_calls=(
                    tool_call("nope", {}),
                    tool_call("lookup", {"service": 3}),
                    tool_call("lookup", {}),
                )
            ),
            "Sorry.",
        ]
    ],
)
async def test_bad_tool_calls_go_back_to_the_model(harness: Harness) -> None:
    session = await harness.session()
    await session.send("go")
    await session.wait_for("turn.completed")
    results = [m for m in harness.model.requests[-1].messages if isinstance(m, ToolResultMessage)]
    assert [r.is_error for r in results] == [True, True, True]
    assert "unknown tool 'nope'" in results[0].content and "lookup" in results[0].content
    assert "service" in results[1].content and "service" in results[2].content
    assert effects == []


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(
                tool_calls=(tool_call("refund", {"charge_id": "ch_1", "amount": 5}, call_id="c1"),)
            ),
            "Refunded.",
        ]
    ],
)
async def test_tool_context_idempotency_key(harness: Harness) -> None:
    session = await harness.session("s9")
    await session.send("refund ch_1")
    await session.wait_for("turn.completed")
    assert effects == [("refund", "ch_1", 5, "s9:c1")]


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(tool_calls=(tool_call("handle_incident", {"incident_id": "inc-7"}),)),
            "Triaged.",
        ]
    ],
)
async def test_workflow_tool_asks_sleeps_and_returns(harness: Harness) -> None:
    session = await harness.session()
    await session.send("handle inc-7")
    asked = await session.wait_for("input.requested")
    assert asked.data.request.kind == "question"
    assert asked.data.request.option_ids == ("p1", "p2", "p3")
    with pytest.raises(InputRequestError, match="must be one of"):
        await session.answer(asked.data.request.request_id, "p9")
    await session.answer(asked.data.request.request_id, "p2")
    await session.wait_for("turn.completed")
    result = next(
        m for m in harness.model.requests[-1].messages if isinstance(m, ToolResultMessage)
    )
    assert '"level":"p2"' in result.content and "context of inc-7" in result.content
    assert effects == [("collect", "inc-7")]


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)),
            "ok",
        ]
    ],
)
async def test_answer_errors_change_nothing(harness: Harness) -> None:
    session = await harness.session()
    with pytest.raises(InputRequestError, match="no such request"):
        await session.answer("approve:nope", "approve")
    await session.send("restart")
    requested = await session.wait_for("input.requested")
    await session.answer(requested.data.request.request_id, "approve")
    await session.wait_for("turn.completed")
    # The same answer again is a no-op (a client retrying); another one is refused.
    await session.answer(requested.data.request.request_id, "approve")
    with pytest.raises(InputRequestError, match="already answered"):
        await session.answer(requested.data.request.request_id, "deny")
    assert effects == [("restart", "api")]


@pytest.mark.parametrize("script", [["one", "two"]])
async def test_send_is_idempotent_by_client_message_id(harness: Harness) -> None:
    session = await harness.session()
    first = await session.send("hello", client_message_id="c-1")
    again = await session.send("hello", client_message_id="c-1")
    assert first == again
    await session.wait_for("turn.completed")
    await asyncio.sleep(0.2)
    events = await session.read_events()
    assert types(events).count("turn.started") == 1 and harness.model.calls == 1


@pytest.mark.parametrize(
    "script",
    [
        [
            ModelError("overloaded", provider="scripted", retryable=True, retry_after=0.01),
            "recovered",
            ModelError("bad key", provider="scripted", status_code=401, retryable=False),
            "second turn works",
        ]
    ],
)
async def test_model_errors_retry_or_fail_the_turn(harness: Harness) -> None:
    session = await harness.session()
    await session.send("one")
    first = await session.wait_for("turn.completed")
    await session.send("two")
    failed = await session.wait_for("turn.failed", after=first.index)
    assert failed.data.terminal is False and "bad key" in failed.data.error
    await session.wait_for("session.waiting", after=failed.index)
    await session.send("three")
    await session.wait_for("turn.completed", after=failed.index)
    assert harness.model.calls == 4


# -- steering ------------------------------------------------------------------------------


async def _slow_reply(request: ModelRequest) -> str:
    await asyncio.sleep(0.6)
    return f"seen {sum(isinstance(m, UserMessage) for m in request.messages)} messages"


@pytest.mark.parametrize("script", [["first answer", "second answer"]])
async def test_idle_session_starts_a_new_turn(harness: Harness) -> None:
    session = await harness.session()
    await session.send("a")
    first = await session.wait_for("turn.completed")
    await session.send("b")
    second = await session.wait_for("turn.completed", after=first.index)
    assert first.meta.turn_id != second.meta.turn_id


@pytest.mark.parametrize("script", [[_slow_reply, _slow_reply]])
async def test_message_while_generating_steers_the_same_turn(
    harness: Harness, backend: Backend
) -> None:
    session = await harness.session()
    first = await session.send("first", principal="ada")
    await session.wait_for("turn.started")
    await asyncio.sleep(0.2)
    second = await session.send("actually, second", principal="ada")
    steered = await session.wait_for("turn.steered")
    done = await session.wait_for("turn.completed")
    assert steered.meta.turn_id == done.meta.turn_id
    events = await session.read_events()
    assert types(events).count("turn.started") == 1
    completed = [e for e in events if e.type == "message.completed"]
    assert [e.data.text for e in completed] == ["seen 2 messages"]
    assert (await settled(backend, first)).outcome == "completed"
    assert (await settled(backend, second)).outcome == "completed"


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(tool_calls=(tool_call("slow_tool", {"seconds": 0.5}),)),
            lambda r: f"users: {sum(isinstance(m, UserMessage) for m in r.messages)}",
        ]
    ],
)
async def test_message_while_a_tool_runs_applies_after_the_step(harness: Harness) -> None:
    session = await harness.session()
    await session.send("do slow thing")
    await session.wait_for("tool.call")
    await session.send("and also this")
    done = await session.wait_for("turn.completed")
    events = await session.read_events()
    order = types(events)
    assert order.index("tool.result") < order.index("turn.steered")
    assert events[-2].meta.turn_id == done.meta.turn_id
    assert [e.data.text for e in events if e.type == "message.completed"][-1] == "users: 2"
    assert effects == [("slow", 0.5)]


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)),
            lambda r: (
                "restart skipped"
                if any(isinstance(m, ToolResultMessage) and m.is_error for m in r.messages)
                else "restarted"
            ),
        ]
    ],
)
async def test_message_while_parked_revokes_and_steers(harness: Harness, backend: Backend) -> None:
    session = await harness.session()
    first = await session.send("restart api", principal="ada")
    requested = await session.wait_for("input.requested")
    second = await session.send("no wait, don't", principal="ada")
    done = await session.wait_for("turn.completed")
    resolved = await session.wait_for("input.resolved")
    assert resolved.data.request_id == requested.data.request.request_id
    steered = await session.wait_for("turn.steered")
    assert steered.meta.turn_id == done.meta.turn_id
    assert effects == []
    texts = [e.data.text for e in await session.read_events() if e.type == "message.completed"]
    assert texts[-1] == "restart skipped"
    with pytest.raises(InputRequestError, match="withdrawn"):
        await session.answer(requested.data.request.request_id, "approve")
    assert (await settled(backend, first)).outcome == "completed"
    assert (await settled(backend, second)).outcome == "completed"


@pytest.mark.parametrize("policy", ["queue"])
@pytest.mark.parametrize("script", [[_slow_reply, _slow_reply]])
async def test_queue_policy_waits_for_the_turn_to_end(harness: Harness) -> None:
    session = await harness.session()
    await session.send("first")
    await session.wait_for("turn.started")
    await session.send("second")
    first = await session.wait_for("turn.completed")
    second = await session.wait_for("turn.completed", after=first.index)
    assert first.meta.turn_id != second.meta.turn_id
    texts = [e.data.text for e in await session.read_events() if e.type == "message.completed"]
    assert texts == ["seen 1 messages", "seen 2 messages"]


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)),
            "never",
        ]
    ],
)
async def test_cancel_a_parked_turn(harness: Harness, backend: Backend) -> None:
    session = await harness.session()
    sub_id = await session.send("restart")
    await session.wait_for("input.requested")
    await session.cancel_turn()
    await session.wait_for("turn.cancelled")
    assert (await settled(backend, sub_id)).outcome == "aborted"
    assert effects == []


@pytest.mark.parametrize("script", [[_slow_reply]])
async def test_cancel_while_generating(harness: Harness, backend: Backend) -> None:
    session = await harness.session()
    sub_id = await session.send("think hard")
    await session.wait_for("turn.started")
    await session.cancel_turn()
    await session.wait_for("turn.cancelled")
    assert (await settled(backend, sub_id)).outcome == "aborted"
    assert not [e for e in await session.read_events() if e.type == "message.completed"]


# -- sub-agents ----------------------------------------------------------------------------


async def test_sub_agent_runs_as_a_child_run_and_the_parent_waits_on_tasks(
    backend: Backend,
) -> None:
    researcher_model = ScriptedModel(
        [Reply(tool_calls=(tool_call("lookup", {"service": "db"}),)), "db is degraded"]
    )
    researcher = Agent(name="researcher", model=researcher_model, tools=[lookup])
    lead_model = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("researcher", {"task": "check the db"}),)),
            lambda r: (
                "report: " + next(m.content for m in r.messages if isinstance(m, ToolResultMessage))
            ),
        ]
    )
    lead = Agent(name="lead", model=lead_model, tools=[researcher.as_tool()])
    host = AgentHost(backend, [lead])
    assert host.agents.names() == ["lead", "researcher"]
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("lead", session_id="p1")
        await session.send("how is the db?")
        waiting = await session.wait_for("turn.waiting", on="tasks")
        done = await session.wait_for("turn.completed")
    (task,) = waiting.data.tasks
    assert task.agent == "researcher"
    texts = [e.data.text for e in await session.read_events() if e.type == "message.completed"]
    assert texts[-1] == "report: db is degraded"
    assert done.meta.turn_id == waiting.meta.turn_id
    child = await host.client.get(f"task:{task.task_session_id}")
    info = await child.info()
    assert info.parent_run_id == session.run_id and info.status == "completed"
    assert effects == [("lookup", "db")]


# -- closing and retention -----------------------------------------------------------------


@pytest.mark.parametrize("retention", [None, 0])
async def test_close_applies_retention(backend: Backend, retention: int | None) -> None:
    model = ScriptedModel(["the secret answer"])
    agent = Agent(name="ops", model=model, tools=TOOLS, retention=retention)
    host = AgentHost(backend, [agent])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="r1")
        sub_id = await session.send("a private question")
        await session.wait_for("turn.completed")
        await session.close()
        handle = await host.client.get(session.run_id)
        ended = await handle.result(timeout=10)
    assert ended["retention"] == ("deleted" if retention == 0 else "kept")
    steps = await handle.steps()
    assert [s.name.rsplit("//", 1)[-1] for s in steps][-1] == "close_session"
    assert all(s.status == "completed" for s in steps)
    sub = await backend.stores.submissions.get_submission(sub_id)
    assert sub is not None and sub.outcome == "completed"
    if retention == 0:
        assert all(s.input is None and s.output is None for s in steps[:-1])
        with pytest.raises(ContentDeletedError, match="retention=0"):
            await session.transcript()
        with pytest.raises(ContentDeletedError):
            await session.read_events()
    else:
        texts = [getattr(r, "text", None) for r in await session.transcript()]
        assert "the secret answer" in texts
        assert (await session.read_events())[-1].type == "session.closed"


@pytest.mark.parametrize(
    "script",
    [
        [
            Reply(tool_calls=(tool_call("handle_incident", {"incident_id": "inc-8"}),)),
            Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)),
            "done",
        ]
    ],
)
async def test_event_coordinates_are_unique_within_a_turn(harness: Harness) -> None:
    session = await harness.session()
    await session.send("go")
    asked = await session.wait_for("input.requested")
    await session.answer(asked.data.request.request_id, "p1")
    approval_request = await session.wait_for("input.requested", after=asked.index)
    await session.answer(approval_request.data.request.request_id, "approve")
    await session.wait_for("turn.completed")
    events = [e for e in await session.read_events() if e.meta.turn_id]
    coordinates = [(e.meta.turn_id, e.meta.step_index, e.meta.sequence) for e in events]
    assert len(coordinates) == len(set(coordinates))
    calls = [e.data.name for e in events if e.type == "tool.call"]
    assert calls == ["handle_incident", "restart_service"]


connections: dict[str, bool] = {}


@tool(idempotent=False)
async def create_issue(title: str) -> str:
    """Open an issue in the tracker."""
    if not connections.get("tracker"):
        raise AuthorizationRequired(
            "connect the issue tracker", provider="tracker", url="https://tracker.example/oauth"
        )
    effects.append(("issue", title))
    return "issue #1"


async def test_authorization_parks_the_turn_until_the_user_connects(backend: Backend) -> None:
    connections.clear()
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("create_issue", {"title": "api slow"}),)), "filed"]
    )
    host = AgentHost(backend, [Agent(name="ops", model=model, tools=[create_issue])])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="auth")
        await session.send("file it")
        required = await session.wait_for("authorization.required")
        waiting = await session.wait_for("turn.waiting", after=required.index)
        assert waiting.data.on == "input"
        assert required.data.provider == "tracker" and required.data.url.startswith("https")
        assert [r.request_id for r in await session.pending_requests()] == [
            required.data.request.request_id
        ]
        connections["tracker"] = True  # the user completed the flow in a browser
        await session.answer(required.data.request.request_id, {"authorized": True})
        await session.wait_for("turn.completed")
    # The tool had not acted before asking: it runs (once), not "outcome unknown".
    assert effects == [("issue", "api slow")]
    result = next(m for m in model.requests[-1].messages if isinstance(m, ToolResultMessage))
    assert result.content == "issue #1" and not result.is_error


@pytest.mark.parametrize("calls_per_step", [1, 3])
async def test_model_calls_per_step_widens_the_durable_step(
    backend: Backend, calls_per_step: int
) -> None:
    replies: list[Any] = [
        Reply(tool_calls=(tool_call("lookup", {"service": f"s{i}"}),)) for i in range(4)
    ]
    model = ScriptedModel([*replies, "all checked"])
    agent = Agent(name="ops", model=model, tools=TOOLS, model_calls_per_step=calls_per_step)
    host = AgentHost(backend, [agent])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id=f"w{calls_per_step}")
        await session.send("check everything")
        done = await session.wait_for("turn.completed")
        events = await session.read_events()
    # The turn's steps, by the coordinates of its events: counting the run's turn steps
    # would also count an idle one that ran before the message arrived (a race).
    turn_steps = {e.meta.step_index for e in events if e.meta.turn_id == done.meta.turn_id}
    assert model.calls == 5 and [e[1] for e in effects] == ["s0", "s1", "s2", "s3"]
    # Five model calls: five steps of one, or 3 + 2 (two calls per step would make three).
    assert len(turn_steps) == (5 if calls_per_step == 1 else 2)


async def test_a_session_whose_transcript_is_taken_over_fails_terminally(
    backend: Backend,
) -> None:
    model = ScriptedModel(["first reply", "never"])
    host = AgentHost(backend, [Agent(name="ops", model=model, tools=TOOLS)])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="taken")
        await session.send("one")
        first = await session.wait_for("turn.completed")
        # Another producer takes the conversation over: the session is fenced out.
        await backend.stores.conversations.acquire_producer("agents/ops/taken", "intruder")
        await session.send("two")
        failed = await session.wait_for("session.failed", after=first.index)
        turn_failed = [e for e in await session.read_events() if e.type == "turn.failed"]
        handle = await host.client.get(session.run_id)
        with pytest.raises(tether.RunFailedError):
            await handle.result(timeout=10)
    # The new turn could not even record its message: no turn started, the session ended.
    assert "taken over" in failed.data.error
    assert turn_failed == []


@pytest.mark.parametrize("script", [["ok", "ok"]])
@pytest.mark.parametrize("bad", ["m\x001", "m" * 1100, "\ud800"])
async def test_a_client_message_id_no_backend_can_hold_is_refused(
    harness: Harness, backend: Backend, bad: str
) -> None:
    """Refused alike on every backend (SQLite took a NUL that PostgreSQL refused),
    with the argument named, and nothing admitted."""
    session = await harness.session("bad-ids")
    with pytest.raises(InvalidInputError, match="client_message_id"):
        await session.send("hi", client_message_id=bad)
    lanes = [make_session_key("ops", "bad-ids")]
    assert await backend.stores.submissions.list_unsettled_submissions(lanes) == []
    assert await session.send("hi", client_message_id="fine") == "bad-ids:fine"
    await session.wait_for("turn.completed", timeout=10)
    started = [e for e in await session.read_events() if e.type == "turn.started"]
    assert len(started) == 1  # the refused message never made a turn of its own
    assert await backend.stores.submissions.get_submission("bad-ids:fine") is not None
