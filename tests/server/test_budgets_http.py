"""Budgets over HTTP: whoever reads a session reads its budget; operators set and raise.

An agent budget set over HTTP with no room parks the session's turn on a ``budget``
request (listed with the pending requests); the operator's raise resumes it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from _served import Served, start_served


@pytest.fixture
async def operated(tmp_path: object) -> AsyncIterator[Served]:
    # lead@acme is an operator; ada (same tenant) and eve are not.
    async for s in start_served(f"sqlite:///{tmp_path}/tether.db", None, operators=("lead@acme",)):
        yield s


async def test_an_operator_sets_and_raises_budgets_and_a_parked_turn_resumes(
    operated: Served,
) -> None:
    lead, ada, eve = operated.client("lead"), operated.client("ada"), operated.client("eve")
    # Changing budgets is an operator's; reading an agent's too.
    r = await ada.put("/v1/budgets/agent/ops", json={"tokens": 0})
    assert r.status_code == 403 and r.json()["code"] == "operator_only"
    assert (await ada.get("/v1/budgets/agent/ops")).status_code == 403
    assert (await lead.get("/v1/budgets/agent/ops")).status_code == 404
    r = await lead.put("/v1/budgets/agent/ops", json={"tokens": 0, "on_exceeded": "ask"})
    assert r.status_code == 200, r.text
    assert r.json()["scope"] == "agent:ops" and r.json()["remaining_tokens"] == 0

    await operated.session("b1")
    await operated.send("b1", "hello")
    events = await operated.events("b1", until="turn.waiting")
    requested = [e for e in events if e["type"] == "input.requested"]
    assert requested[-1]["data"]["request"]["kind"] == "budget"
    pending = (await ada.get("/v1/sessions/b1/requests")).json()["items"]
    assert [p["kind"] for p in pending] == ["budget"]
    assert pending[0]["data"]["scope"] == "agent:ops"
    # The session has no budget of its own.
    r = await ada.get("/v1/sessions/b1/budget")
    assert r.status_code == 404
    # Another tenant does not see the session; a raise lowering a limit is refused.
    assert (await eve.get("/v1/sessions/b1/budget")).status_code == 404
    r = await lead.post("/v1/budgets/agent/ops/raise", json={})
    assert r.status_code == 422
    r = await lead.post("/v1/budgets/tenant/nobody/raise", json={"tokens": 5})
    assert r.status_code == 404
    assert (await ada.post("/v1/budgets/agent/ops/raise", json={"tokens": 10})).status_code == 403

    r = await lead.post("/v1/budgets/agent/ops/raise", json={"tokens": 1_000_000})
    assert r.status_code == 200, r.text
    assert r.json()["tokens"] == 1_000_000
    events = await operated.events("b1", until="turn.completed")
    assert events[-1]["type"] == "turn.completed"
    status = (await lead.get("/v1/budgets/agent/ops")).json()
    assert status["used_tokens"] > 0 and status["reserved_tokens"] == 0
    # The inspector's list: the budgets the session counts against (an operator's).
    listed = (await lead.get("/v1/inspect/sessions/b1/budgets")).json()["budgets"]
    assert [b["scope"] for b in listed] == ["agent:ops"] and listed[0] == status
    assert (await ada.get("/v1/inspect/sessions/b1/budgets")).status_code == 403
    r = await lead.post("/v1/budgets/agent/ops/raise", json={"tokens": 10})
    assert r.status_code == 409 and r.json()["code"] == "budget_conflict"
    # A session's own budget: raised by an operator, read by whoever reads the session.
    r = await lead.post("/v1/sessions/b1/budget/raise", json={"tokens": 10})
    assert r.status_code == 404  # the agent declares none, and none was set for it
    r = await ada.post("/v1/sessions/b1/budget/raise", json={"tokens": 10})
    assert r.status_code == 403
