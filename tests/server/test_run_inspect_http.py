"""A run's step with its events, a run's streams, and cancelling runs by filter, over HTTP
(SQLite and Postgres): operators only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _served import Served, start_served

from tether.errors import RunCancelledError


@pytest.fixture
async def inspected(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    # ada@acme is an operator; bob@acme is not.
    async for s in start_served(*db, operators=("ada@acme",)):
        yield s


async def _get(served: Served, path: str) -> Any:
    r = await served.client("ada").get(path)
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_step_with_its_events_and_a_runs_streams(inspected: Served) -> None:
    served = inspected
    handle = await served.host.client.start("tally", [1, 2], run_id="t-ok")
    assert await handle.result(timeout=20) == 3
    journal = (await _get(served, "/v1/inspect/runs/t-ok"))["steps"]
    first = journal[0]
    found = await _get(served, f"/v1/inspect/runs/t-ok/steps/{first['step_id']}")
    assert found["step"] == first and found["step"]["output"] == 1
    kinds = [e["event_type"] for e in found["events"]]
    assert kinds[0] == "step_created" and kinds[-1] == "step_completed"
    assert {e["correlation_id"] for e in found["events"]} == {first["step_id"]}
    assert [e["slot"] for e in found["events"]] == sorted(e["slot"] for e in found["events"])
    for path in ("/v1/inspect/runs/t-ok/steps/nope", "/v1/inspect/runs/nope/steps/x"):
        r = await served.client("ada").get(path)
        assert r.status_code == 404 and r.json()["code"] == "not_found", r.text
    r = await served.client("bob").get(f"/v1/inspect/runs/t-ok/steps/{first['step_id']}")
    assert r.status_code == 403 and r.json()["code"] == "operator_only"

    # A session's run writes its events to a stream of that name.
    await served.session("st1")
    await served.send("st1", "note milk")
    await served.events("st1", until="turn.completed")
    streams = (await _get(served, "/v1/inspect/runs/session:st1/streams"))["streams"]
    events = next(s for s in streams if s["name"] == "events")
    assert events["length"] > 0 and events["closed"] is False
    assert (await _get(served, "/v1/inspect/runs/t-ok/streams")) == {"streams": []}
    assert (await served.client("ada").get("/v1/inspect/runs/nope/streams")).status_code == 404
    assert (await served.client("bob").get("/v1/inspect/runs/t-ok/streams")).status_code == 403


async def test_an_operator_cancels_runs_by_filter(inspected: Served) -> None:
    served = inspected
    client = served.host.client
    parked = [await client.start("wait_for_hook", f"tok-{n}", run_id=f"w{n}") for n in range(3)]
    store = served.host.backend.stores.workflow
    for _ in range(400):  # until each has parked on its hook
        if all([await store.list_hooks(h.run_id) for h in parked]):
            break
        await asyncio.sleep(0.05)
    done = await client.start("tally", [1], run_id="t-done")
    assert await done.result(timeout=20) == 1
    ada = served.client("ada")

    r = await ada.post("/v1/inspect/cancel-runs", json={})
    assert r.status_code == 422 and "name a filter" in r.text, r.text
    r = await ada.post("/v1/inspect/cancel-runs", json={"status": "completed", "all": True})
    assert r.status_code == 422, r.text
    r = await served.client("bob").post("/v1/inspect/cancel-runs", json={"all": True})
    assert r.status_code == 403 and r.json()["code"] == "operator_only"

    r = await ada.post(
        "/v1/inspect/cancel-runs", json={"workflow": "wait_for_hook", "limit": 2, "reason": "x"}
    )
    assert r.status_code == 200, r.text
    first = r.json()["cancelled"]
    assert len(first) == 2 and all(c["workflow_name"] == "wait_for_hook" for c in first)
    r = await ada.post("/v1/inspect/cancel-runs", json={"workflow": "wait_for_hook"})
    rest = r.json()["cancelled"]
    assert {c["run_id"] for c in first + rest} == {"w0", "w1", "w2"}
    for h in parked:
        with pytest.raises(RunCancelledError):
            await h.result(timeout=20)
    assert (await (await client.get("t-done")).info()).status == "completed"
    r = await ada.post("/v1/inspect/cancel-runs", json={"workflow": "wait_for_hook"})
    assert r.json() == {"cancelled": []}
