"""The retention sweep of sessions, and the retention a session gets when nobody set one.

A session that ended longer ago than the store's retention period goes whole, as
retention 0 deletes it: transcript, message texts, events, step contents and its
sub-agent tasks'; ids, statuses and timestamps stay. A session still open, however old,
is not touched. The default retention is decided at open by audience and environment.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
from _harness import hosted

import tether
from tether.agent import Agent, AgentHost, default_retention, tool
from tether.durable import prune
from tether.errors import ConfigurationError, ContentDeletedError
from tether.stores import Backend, EnvKeyProvider
from tether.stores.memory import MemoryBackend
from tether.testing import Reply, ScriptedModel, tool_call

SECRET = "the-kept-secret-2718"


@pytest.fixture
async def memory() -> AsyncIterator[Backend]:
    """The retention choice is the host's, whatever the store: memory is enough."""
    async with tether.open_backend("memory://") as opened:
        yield opened


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return f"{service}: ok"


async def _content(backend: Backend, host: AgentHost, run_ids: list[str]) -> bytes:
    """Every byte of content the stores still hold for these runs and their ledger."""
    out: list[bytes] = []
    for run_id in run_ids:
        handle = await host.client.get(run_id)
        out.extend(orjson.dumps([s.input, s.output, s.error]) for s in await handle.steps())
        out.extend(c.data for c in await handle.stream("events").read_all())
        out.append(orjson.dumps(await handle.output(), default=str))
    return b"\n".join(out)


async def test_an_ended_session_past_the_period_goes_whole(backend: Backend) -> None:
    researcher = Agent(name="researcher", model=ScriptedModel([f"found {SECRET}"]))
    script = [Reply(tool_calls=(tool_call("researcher", {"task": f"check {SECRET}"}),)), SECRET]
    agent = Agent(name="ops", model=ScriptedModel(script), tools=[lookup, researcher.as_tool()])
    async with hosted(backend, agent) as host:
        ended = await host.open_session("ops", session_id="gone")
        sub = await ended.send(f"look at {SECRET}")
        await ended.wait_for("turn.completed")
        await ended.close()
        await (await host.client.get(ended.run_id)).result(timeout=10)
        kept = await host.open_session("ops", session_id="open")
        pruner = host.registry.pruner
        dry = await prune(backend, older_than=1e-6, pruner=pruner, dry_run=True)
        task_runs = [r for r in dry.runs if r.startswith("task:gone.")]
        assert dry.sessions == ("gone",) and len(task_runs) == 1
        assert SECRET in [getattr(r, "text", None) for r in await ended.transcript()]
        # Two sweeps at once, in batches of one: between them each goes once.
        reports = await asyncio.gather(
            *(prune(backend, older_than=1e-6, pruner=pruner, batch_size=1) for _ in range(2))
        )
        assert sorted(s for r in reports for s in r.sessions) == list(dry.sessions)
        assert sorted(run for r in reports for run in r.runs) == sorted(dry.runs)
        # A second sweep finds nothing left; the open session is untouched.
        again = await prune(backend, older_than=1e-6, pruner=pruner)
        assert (again.sessions, again.runs) == ((), ())
        assert (await kept.state()).status == "idle"
    content = await _content(backend, host, [ended.run_id, *task_runs])
    assert SECRET.encode() not in content
    submission = await backend.stores.submissions.get_submission(sub)
    assert submission is not None and submission.outcome == "completed"
    assert SECRET not in orjson.dumps(submission.payload).decode()
    with pytest.raises(ContentDeletedError, match="retention period"):
        await ended.transcript()
    # Its id, status and times stay.
    assert (await (await host.get_session("gone")).state()).status == "closed"
    for path in ("agents/ops/gone", "agents/researcher/" + task_runs[0].removeprefix("task:")):
        batch = await backend.stores.conversations.read(path)
        assert SECRET not in orjson.dumps([b.records for b in batch.batches], default=str).decode()


def test_the_default_retention_table() -> None:
    table = {
        (audience, environment): default_retention(audience, environment)
        for audience in ("public", "private", "unknown")
        for environment in ("development", "production")
    }
    assert table == {
        ("public", "development"): "default",
        ("private", "development"): "default",
        ("unknown", "development"): "default",
        ("public", "production"): "default",
        ("private", "production"): 0,
        ("unknown", "production"): 0,
    }


async def _retention_of(host: AgentHost, session_id: str, **options: Any) -> Any:
    session = await host.open_session(host.agents.names()[0], session_id=session_id, **options)
    return (await (await host.client.get(session.run_id)).input()).args[3]


async def test_audience_and_environment_decide_at_open(memory: Backend) -> None:
    unset = Agent(name="unset", model=ScriptedModel(["hi"]))
    production = AgentHost(memory, [unset], environment="production")
    assert await _retention_of(production, "p-unknown") == 0
    assert await _retention_of(production, "p-private", audience="private") == 0
    assert await _retention_of(production, "p-public", audience="public") == "default"
    # An explicit choice wins, the session's over the agent's.
    assert await _retention_of(production, "p-kept", retention="default") == "default"
    kept = Agent(name="kept", model=ScriptedModel(["hi"]), retention="default")
    assert await _retention_of(AgentHost(memory, [kept], environment="production"), "k") == (
        "default"
    )
    # Decided once: opening the session again (another audience) changes nothing.
    assert await _retention_of(production, "p-unknown", audience="public") == 0
    # TETHER_ENV names the environment; unset it is development.
    assert AgentHost(memory, [unset], env={"TETHER_ENV": "production"}).environment == (
        "production"
    )
    development = AgentHost(memory, [unset], env={})
    assert development.environment == "development"
    assert await _retention_of(development, "d-unknown") == "default"


async def test_a_private_session_in_production_is_deleted_when_it_ends(memory: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel([SECRET]))
    async with hosted(memory, agent, environment="production") as host:
        session = await host.open_session("ops", session_id="private", audience="private")
        await session.send("a private question")
        await session.wait_for("turn.completed")
        await session.close()
        ended = await (await host.client.get(session.run_id)).result(timeout=10)
    assert ended["retention"] == "deleted"
    with pytest.raises(ContentDeletedError, match="retention=0"):
        await session.transcript()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"environment": "staging"}, "environment must be"),
        ({"env": {"TETHER_ENV": "prod"}}, "TETHER_ENV"),
    ],
)
def test_a_bad_environment_is_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        AgentHost(MemoryBackend(), [Agent(name="ops", model=ScriptedModel([]))], **options)


async def test_a_bad_audience_is_refused(memory: Backend) -> None:
    host = AgentHost(memory, [Agent(name="ops", model=ScriptedModel([]))])
    with pytest.raises(ConfigurationError, match="audience must be"):
        await host.open_session("ops", audience="everyone")  # type: ignore[arg-type]


async def test_on_an_encrypted_store_the_sweep_erases_the_session_keys(
    encrypted: Backend,
) -> None:
    agent = Agent(name="ops", model=ScriptedModel([SECRET]))
    async with hosted(encrypted, agent) as host:
        session = await host.open_session("ops", session_id="sealed")
        await session.send("a private question")
        await session.wait_for("turn.completed")
        await session.close()
        await (await host.client.get(session.run_id)).result(timeout=10)
        report = await prune(encrypted, older_than=1e-6, pruner=host.registry.pruner)
    assert report.sessions == ("sealed",)
    # The erasure is recorded as an erasure of the session is: its keys are gone.
    keys = encrypted.stores.keys
    assert keys is not None and await keys.erasure("run:session:sealed") is not None
    with pytest.raises(ContentDeletedError, match="erased"):
        await session.transcript()


async def test_the_decision_goes_with_the_session_to_its_next_run(memory: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]))
    async with hosted(memory, agent, environment="production") as host:
        session = await host.open_session("ops", session_id="kept-on", audience="private")
        await session.send("first")
        await session.wait_for("turn.completed")
        fresh = await session.reset()
        latest = await host.client.latest(session.run_id)
        assert latest.generation == 1
        args = (await (await host.client.get(latest.run_id, follow=False)).input()).args
        assert args[3] == 0
        await fresh.close()


async def test_a_sweep_goes_on_after_one_cut_short_past_the_keys() -> None:
    from tether.agent._stored._erasure import shred_session_keys

    key = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    async with tether.open_backend("memory://", keys=key) as encrypted:
        await _cut_short(encrypted, shred_session_keys)


async def _cut_short(encrypted: Backend, shred_session_keys: Any) -> None:
    agent = Agent(name="ops", model=ScriptedModel([SECRET]))
    async with hosted(encrypted, agent) as host:
        session = await host.open_session("ops", session_id="cut")
        await session.send("a private question")
        await session.wait_for("turn.completed")
        await session.close()
        await (await host.client.get(session.run_id)).result(timeout=10)
    # An earlier sweep destroyed the keys and was killed before it deleted anything.
    await shred_session_keys(
        encrypted.stores, agent_name="ops", session_id="cut", run_id=session.run_id
    )
    report = await prune(encrypted, older_than=1e-6, pruner=host.registry.pruner)
    assert report.sessions == ("cut",)
    assert await encrypted.stores.workflow.list_prunable_runs(1e12, limit=10) == []
    run = await encrypted.stores.workflow.get_run(session.run_id)
    assert run is not None and run.output is None
