"""The inspector's JSON routes (SQLite and Postgres): operators only, every tenant, a
session across its runs, a run's journal decoded, answers under the answer route's rules."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _served import Served, start_served

from tether.errors import ConfigurationError, RunFailedError
from tether.server import ServerOptions
from tether.server._inspect_reads import trace_of
from tether.stores import FORK_SLOT_LABEL, FORKED_FROM_LABEL, EnvKeyProvider


@pytest.fixture
async def inspected(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    # ada@acme is an operator and the turns' principal; eve@evil is neither.
    async for s in start_served(*db, operators=("ada@acme", "eve@evil")):
        yield s


async def _get(served: Served, path: str, who: str = "ada", **params: Any) -> Any:
    r = await served.client(who).get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


async def test_sessions_of_every_tenant_filtered_with_their_timeline(inspected: Served) -> None:
    served = inspected
    await served.session("acme-1")
    await served.send("acme-1", "note milk")
    await served.events("acme-1", until="turn.completed")
    await served.session("evil-1", who="eve")
    await served.send("evil-1", "restart api", who="eve")
    parked = await served.events("evil-1", who="eve", until="input.requested")
    request_id = parked[-1]["data"]["request"]["request_id"]

    # Not an operator: bob is of ada's tenant, and still refused.
    r = await served.client("bob").get("/v1/inspect/sessions")
    assert r.status_code == 403 and r.json()["code"] == "operator_only", r.text

    listed = await _get(served, "/v1/inspect/sessions")
    ids = {s["session_id"]: s for s in listed["items"]}
    assert {"acme-1", "evil-1"} <= set(ids)  # both tenants
    assert ids["evil-1"]["owner"] == "evil"
    only = await _get(served, "/v1/inspect/sessions", tenant="evil")
    assert [s["session_id"] for s in only["items"]] == ["evil-1"]
    idle = await _get(served, "/v1/inspect/sessions", state="idle")
    assert "acme-1" in {s["session_id"] for s in idle["items"]}
    assert "evil-1" not in {s["session_id"] for s in idle["items"]}  # its turn runs, parked
    none = await _get(served, "/v1/inspect/sessions", label="team=none")
    assert none["items"] == []
    r = await served.client().get("/v1/inspect/sessions", params={"label": "no-equals"})
    assert r.status_code == 422, r.text

    summary = await _get(served, "/v1/inspect/sessions/evil-1")
    assert summary["owner"] == "evil" and summary["agent"] == "ops"
    assert summary["runs"][0]["run_id"] == "session:evil-1"
    state = await _get(served, "/v1/inspect/sessions/evil-1/state")
    assert state["state"]["status"] == "parked"
    assert state["progress"]["state"] == "waiting"
    (pending,) = state["pending"]
    assert pending["request_id"] == request_id and pending["kind"] == "approval"
    assert pending["age"] is not None and 0 <= pending["age"] < 60
    assert summary["tail"] > parked[-1]["index"]  # turn.waiting follows it

    page = await _get(served, "/v1/inspect/sessions/acme-1/events", start=-3, limit=3)
    assert len(page["events"]) == 3 and page["first"] == page["next_offset"] - 3
    assert "turn.completed" in [e["type"] for e in page["events"]]  # the tail
    whole = await _get(served, "/v1/inspect/sessions/acme-1/events", start=0)
    calls = [e for e in whole["events"] if e["type"] == "tool.call"]
    assert calls[0]["data"]["name"] == "note"
    assert calls[0]["data"]["arguments"] == {"text": "milk"}
    usage = await _get(served, "/v1/inspect/sessions/acme-1/usage")
    assert usage["session_id"] == "acme-1" and usage["total"]["calls"] == 2
    # Summed across sessions: per tenant, agent and model, over a window.
    sums = await _get(served, "/v1/inspect/usage")
    tenants = {t["tenant"]: t["calls"] for t in sums["by_tenant"]}
    assert tenants["acme"] == 2 and tenants["evil"] >= 1  # its reply before the approval
    acme = await _get(served, "/v1/inspect/usage", tenant="acme", agent="ops")
    assert [(r["tenant"], r["agent"], r["calls"]) for r in acme["rows"]] == [("acme", "ops", 2)]
    assert acme["total"] == usage["total"] and acme["sessions"] == 1
    before = await _get(served, "/v1/inspect/usage", until=1.5)
    assert (before["sessions"], before["rows"], before["until"]) == (0, [], 1.5)
    for bad in ({"since": "yesterday"}, {"until": "nan"}, {"agent": "nobody"}):
        r = await served.client().get("/v1/inspect/usage", params=bad)
        assert r.status_code == 422 and r.json()["code"] == "invalid_input", r.text
    r = await served.client("bob").get("/v1/inspect/usage")
    assert r.status_code == 403 and r.json()["code"] == "operator_only", r.text

    # The operator ada is not evil-1's turn's principal nor an approver: refused as the
    # answer route refuses; eve, whose turn it is, answers from the inspector.
    answer = f"/v1/inspect/sessions/evil-1/requests/{request_id}/answer"
    r = await served.client("ada").post(answer, json={"answer": "approve"})
    assert r.status_code == 403 and r.json()["code"] == "forbidden", r.text
    assert "'ada' may not answer" in r.json()["detail"]
    r = await served.client("eve").post(answer, json={"answer": "approve"})
    assert r.status_code == 200 and r.json() == {"request_id": request_id, "answered": True}
    after = parked[-1]["index"]
    done = await served.events("evil-1", who="eve", start=after, until="turn.completed")
    assert any(e["type"] == "input.resolved" and e["data"]["by"] == "eve" for e in done)

    r = await served.client().get("/v1/inspect/sessions/nope")
    assert r.status_code == 404, r.text


async def test_a_run_journal_decoded_and_runs_filtered(inspected: Served) -> None:
    served = inspected
    await served.session("j1")
    await served.send("j1", "note eggs")
    await served.events("j1", until="turn.completed")

    runs = await _get(served, "/v1/inspect/runs", workflow="tether.agent.session")
    assert "session:j1" in {r["run_id"] for r in runs["items"]}
    labelled = await _get(served, "/v1/inspect/runs", label="tether.owner=acme")
    assert "session:j1" in {r["run_id"] for r in labelled["items"]}
    other = await _get(served, "/v1/inspect/runs", label="tether.owner=evil")
    assert "session:j1" not in {r["run_id"] for r in other["items"]}
    r = await served.client().get("/v1/inspect/runs", params={"status": "sleeping"})
    assert r.status_code == 422, r.text

    run = await _get(served, "/v1/inspect/runs/session:j1")
    assert run["run"]["workflow_name"] == "tether.agent.session"
    assert run["session_id"] == "j1" and run["redacted"] == {}
    assert run["input"]["args"][:3] == ["ops", "j1", "acme"]
    steps = run["steps"]
    assert steps and all(s["status"] == "completed" for s in steps if s["completed_at"])
    # Each step's input and output decoded: the session's opening names it.
    opened = next(s for s in steps if s["name"].endswith("open_session"))
    assert opened["output"]["session_id"] == "j1" and opened["output"]["owner"] == "acme"
    assert sum(s["name"].endswith("turn_step") for s in steps) >= 1
    assert all(s["attempt"] >= 1 for s in steps)
    r = await served.client("bob").get("/v1/inspect/runs/session:j1")
    assert r.status_code == 403, r.text
    r = await served.client().get("/v1/inspect/runs/no-such-run")
    assert r.status_code == 404, r.text


@pytest.fixture
async def sealed(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    """An encrypted store whose key this server holds."""
    keys = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    async for s in start_served(*db, operators=("ada@acme",), backend_options={"keys": keys}):
        yield s


@pytest.mark.parametrize("how", ["erased", "retention-0"])
async def test_deleted_content_is_redacted_never_an_error(sealed: Served, how: str) -> None:
    served = sealed
    retention = 0 if how == "retention-0" else "default"
    session = await served.host.open_session(
        "ops", session_id="gone", owner="acme", retention=retention
    )
    await session.send("note secret-plan", principal="ada")
    await session.wait_for("turn.completed")
    # With the key, the encrypted journal reads decoded.
    before = await _get(served, "/v1/inspect/runs/session:gone")
    assert before["input"]["args"][:2] == ["ops", "gone"] and before["redacted"] == {}
    if how == "erased":
        await served.host.erase_session("ops", "gone")
    else:
        await session.close()
        await (await served.host.client.get(session.run_id)).result(timeout=20)

    summary = await _get(served, "/v1/inspect/sessions/gone")
    assert summary["redacted"], summary
    assert summary["runs"][0]["run_id"] == "session:gone"  # ids and statuses remain
    r = await served.client().get("/v1/inspect/sessions/gone/state")
    # Its identity went with its keys: no state to tell (the page shows it redacted).
    assert r.status_code == 410 and r.json()["code"] == "session_expired", r.text
    page = await _get(served, "/v1/inspect/sessions/gone/events")
    assert page["events"] == [] and page["redacted"]
    run = await _get(served, "/v1/inspect/runs/session:gone")
    assert run["redacted"]["input"] == "deleted" and run["input"] is None
    completed = [s for s in run["steps"] if s["status"] == "completed"]
    assert completed and all(s["redacted"].get("input") == "deleted" for s in completed)
    turns = [s for s in completed if s["name"].endswith("turn_step")]
    assert turns and all(s["redacted"]["output"] == "deleted" for s in turns)
    assert "secret-plan" not in json.dumps(run) + json.dumps(summary)
    # A stream of deleted content is refused before it starts.
    r = await served.client().get("/v1/inspect/sessions/gone/events", params={"follow": "true"})
    assert r.status_code in (404, 410), r.text


def test_a_run_links_to_its_trace() -> None:
    info_labels = {"tether.traceparent": f"00-{'a' * 32}-{'b' * 16}-01"}
    trace = trace_of(info_labels, "http://jaeger:16686/trace/{trace_id}?span={span_id}")
    assert trace == {
        "trace_id": "a" * 32,
        "span_id": "b" * 16,
        "url": f"http://jaeger:16686/trace/{'a' * 32}?span={'b' * 16}",
    }
    assert trace_of(info_labels, None) == {"trace_id": "a" * 32, "span_id": "b" * 16, "url": None}
    assert trace_of({}, "http://x/{trace_id}") is None
    with pytest.raises(ConfigurationError, match="trace_id"):
        ServerOptions(trace_url="http://jaeger:16686/trace/")


async def test_a_session_across_the_runs_of_its_chain(inspected: Served) -> None:
    served = inspected
    await served.session("chained")
    await served.send("chained", "note one")
    first = await served.events("chained", until="turn.completed")
    r = await served.client().post("/v1/sessions/chained/clear")
    assert r.status_code == 202, r.text
    moved = await served.events("chained", start=first[-1]["index"], until="session.moved")
    await served.send("chained", "note two")
    await served.events("chained", start=moved[-1]["index"], until="turn.completed")

    summary = await _get(served, "/v1/inspect/sessions/chained")
    runs = summary["runs"]
    assert [r["generation"] for r in runs] == [0, 1]
    assert runs[0]["status"] == "continued" and runs[0]["continued_to"] == runs[1]["run_id"]
    page = await _get(served, "/v1/inspect/sessions/chained/events", start=0)
    hand = [e for e in page["events"] if e["type"] == "session.moved"]
    assert hand and hand[0]["data"]["reason"] == "clear"
    assert hand[0]["data"]["run_id"] == runs[1]["run_id"]
    # One stream across both runs: both turns' tool calls are on it.
    calls = [e["data"]["arguments"]["text"] for e in page["events"] if e["type"] == "tool.call"]
    assert calls == ["one", "two"]
    second = await _get(served, f"/v1/inspect/runs/{runs[1]['run_id']}")
    assert second["run"]["generation"] == 1 and second["session_id"] == "chained"


async def test_an_operator_forks_another_tenants_session_for_its_owner(inspected: Served) -> None:
    served = inspected
    await served.session("evil-f", who="eve")
    await served.send("evil-f", "hello", who="eve")
    ended = await served.events("evil-f", who="eve", until="turn.completed")
    path = "/v1/inspect/sessions/evil-f/fork"
    refused = await served.client("bob").post(path, json={"at_event": ended[-1]["index"]})
    assert refused.status_code == 403 and refused.json()["code"] == "operator_only"
    r = await served.client("ada").post(
        path, json={"at_event": ended[-1]["index"], "session_id": "evil-f2"}
    )
    assert r.status_code == 201, r.text
    assert r.headers["location"] == "/v1/inspect/sessions/evil-f2"
    assert r.json()["owner"] == "evil"  # the original's tenant, not the operator's
    # Its owner reads it through the session API; the operator's tenant does not.
    mine = await served.client("eve").get("/v1/sessions/evil-f2/transcript")
    assert [e["text"] for e in mine.json()["entries"] if e["kind"] == "user"] == ["hello"]
    assert (await served.client("ada").get("/v1/sessions/evil-f2")).status_code == 404
    missing = await served.client("ada").post("/v1/inspect/sessions/nope/fork")
    assert missing.status_code == 404


async def test_an_operator_resumes_and_forks_a_run(inspected: Served) -> None:
    served = inspected
    client = served.host.client
    failed = await client.start("tally", [1, 2, -3], run_id="tally-1")
    with pytest.raises(RunFailedError):
        await failed.result(timeout=20)
    # Its failure reads as the failed step's class and message.
    detail = await _get(served, "/v1/inspect/runs/tally-1")
    assert detail["error"]["type"] == "tether.errors.StepFailedError"
    assert "amounts are not negative" in detail["steps"][2]["error"]["message"]
    ada, bob = served.client("ada"), served.client("bob")
    resume = "/v1/inspect/runs/tally-1/resume"
    refused = await bob.post(resume)
    assert refused.status_code == 403 and refused.json()["code"] == "operator_only"

    # From the failed step (slot 3), with a new input: the two steps before it replay.
    r = await ada.post(resume, json={"args": [[1, 2, 3]]})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["run_id"] == "tally-1.resumed-3" and made["workflow_name"] == "tally"
    assert made["labels"][FORKED_FROM_LABEL] == "tally-1"
    assert r.headers["location"] == "/v1/inspect/runs/tally-1.resumed-3"
    assert await (await client.get(made["run_id"])).result(timeout=20) == 6
    again = await ada.post(resume, json={"args": [[1, 2, 3]]})
    assert again.status_code == 201 and again.json()["run_id"] == made["run_id"]
    other = await ada.post(resume, json={"args": [[1, 2, 4]]})  # that id, another input
    assert other.status_code == 409 and other.json()["code"] == "conflict", other.text
    done = await ada.post(f"/v1/inspect/runs/{made['run_id']}/resume")
    assert done.status_code == 409 and done.json()["code"] == "not_resumable", done.text
    assert done.json()["run_status"] == "completed" and "only a failed" in done.json()["detail"]

    # A fork from slot 2 (the first step's output kept), under an id of the caller's.
    path = "/v1/inspect/runs/tally-1/fork"
    r = await ada.post(path, json={"from_step": 2, "args": [[1, 5]], "run_id": "tally-1-f"})
    assert r.status_code == 201, r.text
    assert r.json()["labels"][FORK_SLOT_LABEL] == "2"
    assert await (await client.get("tally-1-f")).result(timeout=20) == 6
    far = await ada.post(path, json={"from_step": 9})
    assert far.status_code == 409 and far.json()["code"] == "fork_refused", far.text
    assert "out of range" in far.json()["detail"]
    named = await ada.post(path, json={"from_step": "nope"})
    assert named.status_code == 409 and "its steps: add" in named.json()["detail"]
    assert (await ada.post(path, json={})).status_code == 422  # from_step is required
    assert (await ada.post(path, json={"from_step": 0})).status_code == 422
    missing = await ada.post("/v1/inspect/runs/no-such-run/fork", json={"from_step": 1})
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert (await ada.post("/v1/inspect/runs/no-such-run/resume")).status_code == 404
    # A session's run is tether's own: refused, with what to do instead.
    await served.session("not-forked")
    own = await ada.post("/v1/inspect/runs/session:not-forked/fork", json={"from_step": 1})
    assert own.status_code == 409 and "only runs of your workflows" in own.json()["detail"]
