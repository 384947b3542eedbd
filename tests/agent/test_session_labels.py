"""Sessions carry run labels (``tether.agent``, ``tether.owner``): listing one owner's
sessions reads that owner's sessions only, on every backend; sessions opened before
labels existed are labeled by `label_sessions` (``tether migrate``); erasure deletes
a session's labels with its content."""

from __future__ import annotations

from typing import Any

import pytest
from _harness import hosted

import tether
from tether.agent import AGENT_LABEL, OWNER_LABEL, Agent, AgentHost, label_sessions
from tether.agent._agent import check_retention
from tether.agent._registry import SESSION_WORKFLOW
from tether.agent._session._session import session_run_id
from tether.errors import InvalidInputError
from tether.stores import Backend, Page, RunRecord
from tether.testing import ScriptedModel


def _agent(name: str = "ops") -> Agent:
    return Agent(name=name, model=ScriptedModel(["ok"] * 50))


class _Reads:
    """Which runs the workflow store handed out: by id (`get_run`) or in a listing."""

    def __init__(self, backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs: set[str] = set()
        store = backend.stores.workflow
        get_run, list_runs = store.get_run, store.list_runs

        async def counted_get(run_id: str) -> RunRecord | None:
            self.runs.add(run_id)
            return await get_run(run_id)

        async def counted_list(**kw: Any) -> Page[RunRecord]:
            page = await list_runs(**kw)
            self.runs.update(r.run_id for r in page.items)
            return page

        monkeypatch.setattr(store, "get_run", counted_get)
        monkeypatch.setattr(store, "list_runs", counted_list)


async def test_listing_an_owners_sessions_reads_no_other_owners_session(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = AgentHost(backend, [_agent(), _agent("helper")])
    mine: list[str] = []
    others: set[str] = set()
    # Ada's five sessions among sixty of other owners (and of another agent).
    for n in range(65):
        owner = "ada" if n % 13 == 0 else f"tenant-{n % 4}"
        agent = "helper" if n % 5 == 4 else "ops"
        session = await host.open_session(agent, session_id=f"s{n:03d}", owner=owner)
        if owner == "ada":
            mine.append(session.session_id)
        else:
            others.add(session.run_id)
    assert len(mine) == 5
    reads = _Reads(backend, monkeypatch)
    listed: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = await host.list_sessions(owner="ada", limit=2, cursor=cursor)
        listed += [i.session_id for i in page.items]
        assert all(i.owner == "ada" for i in page.items)
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            break
    assert listed == list(reversed(mine)) and pages == 3
    # Not one run of another owner's session was read, listed or decoded.
    assert reads.runs & others == set()
    assert reads.runs <= {session_run_id(s) for s in mine}
    # By agent and owner together: the one of ada's sessions that is the helper's.
    helper = await host.list_sessions(owner="ada", agent="helper")
    assert [i.session_id for i in helper.items] == ["s039"]
    assert reads.runs & others == set()
    # Unfiltered still lists every session.
    everyone = await host.list_sessions(limit=500)
    assert len(everyone.items) == 65


async def test_session_runs_carry_their_labels(backend: Backend) -> None:
    host = AgentHost(backend, [_agent()])
    session = await host.open_session("ops", session_id="s1", owner="ada", labels={"team": "x"})
    info = await (await host.client.get(session.run_id)).info()
    assert dict(info.labels) == {AGENT_LABEL: "ops", OWNER_LABEL: "ada", "team": "x"}
    found = await host.client.page_runs(labels={"team": "x"})
    assert [r.run_id for r in found.items] == [session.run_id]
    nobody = await host.open_session("ops", session_id="s2")
    info = await (await host.client.get(nobody.run_id)).info()
    assert dict(info.labels) == {AGENT_LABEL: "ops"}
    assert [i.session_id for i in (await host.list_sessions(agent="ops")).items] == ["s2", "s1"]
    for bad in ({"tether.owner": "eve"}, {"tether.x": "1"}, {"k": "v\x00"}):
        with pytest.raises(InvalidInputError):
            await host.open_session("ops", session_id="s3", owner="ada", labels=bad)
    with pytest.raises(InvalidInputError):
        await host.open_session("ops", session_id="s3", owner="a\x00b")
    assert [i.session_id for i in (await host.list_sessions()).items] == ["s2", "s1"]


async def test_a_moved_session_keeps_its_labels(backend: Backend) -> None:
    async with hosted(backend, _agent()) as host:
        session = await host.open_session("ops", session_id="s1", owner="ada")
        await session.send("hi")
        await session.wait_for("turn.completed")
        reset = await session.reset()
        latest = await host.client.latest(session.run_id)
        assert latest.generation == 1 and reset.session_id == session.session_id
        assert dict(latest.labels) == {AGENT_LABEL: "ops", OWNER_LABEL: "ada"}
        listed = await host.list_sessions(owner="ada")
        assert [i.session_id for i in listed.items] == ["s1"]


async def _legacy(host: AgentHost, session_id: str, owner: str | None) -> str:
    """A session run as releases before labels opened it: no labels."""
    handle = await host.client.start(
        SESSION_WORKFLOW, "ops", session_id, owner, check_retention(None),
        run_id=session_run_id(session_id),
    )  # fmt: skip
    return handle.run_id


async def test_sessions_opened_before_labels_are_labeled_once(backend: Backend) -> None:
    host = AgentHost(backend, [_agent()])
    await _legacy(host, "old1", "ada")
    await _legacy(host, "old2", None)
    await host.open_session("ops", session_id="new", owner="ada")
    before = await host.list_sessions(owner="ada")
    assert [i.session_id for i in before.items] == ["new"]
    assert await host.label_sessions() == 2
    after = await host.list_sessions(owner="ada")
    assert [i.session_id for i in after.items] == ["new", "old1"]
    agents = await host.list_sessions(agent="ops")
    assert [i.session_id for i in agents.items] == ["new", "old2", "old1"]
    # Idempotent: nothing is left to label; each page's progress is the runs looked at.
    seen: list[int] = []
    assert await label_sessions(backend, on_progress=seen.append) == 0
    assert seen == [3]


async def test_erasure_deletes_labels_and_the_backfill_leaves_erased_sessions(
    encrypted: Backend,
) -> None:
    async with hosted(encrypted, _agent()) as host:
        kept = await host.open_session("ops", session_id="kept", owner="ada")
        gone = await host.open_session("ops", session_id="gone", owner="ada")
        await _legacy(host, "old-gone", "ada")
        await _legacy(host, "old-kept", "ada")
        await host.erase_session("ops", "gone")
        await host.erase_session("ops", "old-gone")
        run = await encrypted.stores.workflow.get_run(gone.run_id)
        # The owner was in clear in the labels: it goes with the content, and only its
        # salted digest stays (its owner can learn that it expired).
        assert run is not None and list(run.labels) == ["tether.erased_owner"]
        assert "ada" not in run.labels["tether.erased_owner"]
        assert await host.erased_session_owned_by("gone", "ada")
        assert not await host.erased_session_owned_by("gone", "bob")
        assert not await host.erased_session_owned_by("kept", "ada")
        listed = await host.list_sessions(owner="ada")
        assert [i.session_id for i in listed.items] == ["kept"]
        # The backfill can read only the legacy session that was not erased.
        assert await host.label_sessions() == 1
        listed = await host.list_sessions(owner="ada")
        assert [i.session_id for i in listed.items] == ["old-kept", "kept"]
        assert kept.session_id == "kept"


async def test_a_session_with_every_label_it_may_have_is_erased_with_its_digest(
    encrypted: Backend,
) -> None:
    async with hosted(encrypted, _agent()) as host:
        # 30 of its own and tether's two: no room for one more before the purge.
        labels = {f"k{i}": "v" for i in range(30)}
        await host.open_session("ops", session_id="full", owner="ada", labels=labels)
        await host.erase_session("ops", "full")
        assert await host.erased_session_owned_by("full", "ada")


async def test_a_retention_0_session_keeps_its_owner_label_on_a_plain_store(
    backend: Backend,
) -> None:
    async with hosted(backend, _agent()) as host:
        session = await host.open_session("ops", session_id="brief", owner="ada", retention=0)
        await session.send("hi")
        await session.wait_for("turn.completed")
        await session.close()
        # Its events went with its content: wait for the session's run to end instead.
        await (await host.client.get(session.run_id)).result(timeout=30)
        # Its content went; its identity (agent, owner) stays readable, and so do the
        # labels that describe it: it is still listed as the owner's.
        listed = await host.list_sessions(owner="ada")
        assert [(i.session_id, i.status) for i in listed.items] == [("brief", "closed")]
        with pytest.raises(tether.errors.ContentDeletedError):
            await session.transcript()


async def test_sessions_listed_by_their_labels_and_their_status(backend: Backend) -> None:
    host = AgentHost(backend, [_agent()])
    for n in range(7):
        team = "red" if n % 3 == 0 else "blue"
        await host.open_session("ops", session_id=f"lab{n}", owner="acme", labels={"team": team})
    closed = await host.open_session("ops", session_id="lab-closed", owner="acme")
    await closed.close()
    async with host.worker(poll_interval=0.02):
        await (await host.client.get(closed.run_id)).result(timeout=20)

    red = await host.list_sessions(labels={"team": "red"})
    assert sorted(i.session_id for i in red.items) == ["lab0", "lab3", "lab6"]
    # Filtered on the status after the store's page: pages are read until this one is full.
    page = await host.list_sessions(status="closed", limit=1)
    assert [i.session_id for i in page.items] == ["lab-closed"]
    idle = await host.list_sessions(owner="acme", status="idle", labels={"team": "blue"})
    assert sorted(i.session_id for i in idle.items) == ["lab1", "lab2", "lab4", "lab5"]
    with pytest.raises(InvalidInputError):
        await host.list_sessions(labels={"team": ""})
