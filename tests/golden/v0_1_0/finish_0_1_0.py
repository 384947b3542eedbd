"""How the golden fixtures of tether 0.1.0 are read and finished, with the code of today.

`snapshot` reads what a store holds (runs, their journals, sessions, transcripts, state)
as plain JSON; `finish_all` finishes every run and session the fixtures leave open
(approves, resumes the hook, lets timers fire and children end, sends one more
message to every idle session) and returns what they finished with.

`make.py` used both, under 0.1.0, to write the fixtures' manifest (`snapshot` of the
fixture as recorded, `finish_all` on a copy of it). The tests use them, under today's
code, and compare with the manifest. Unlike the fixtures, this module follows the API
of today: a release that changes the API changes this module, never the fixtures nor
the manifest's values.
"""

from __future__ import annotations

import asyncio
from typing import Any

import app_0_1_0 as app

import tether
from tether.agent import AgentHost, Session

#: The workflow runs the fixtures hold, and the chains among them.
WORKFLOW_RUNS = ("orders-1", "nap-1", "hooked-1", "family-1", "chain-1")
#: The sessions the fixtures hold.
SESSIONS = ("ops-done", "ops-parked", "lead-1", "notes-1")
#: The one more message each session gets once its open work is done.
NEXT_MESSAGES = {
    "ops-done": "visit",
    "ops-parked": "lookup db",
    "lead-1": "delegate cache health",
    "notes-1": "m3",
}
#: The workflows of the app (their step outputs are plain JSON).
_APP_WORKFLOWS = {"orders", "nap", "hooked", "leaf", "family", "counter"}


def _text(entry: Any) -> str:
    for field in ("text", "content", "name", "outcome"):
        value = getattr(entry, field, None)
        if isinstance(value, str):
            return value
    return ""


async def session_snapshot(session: Session) -> dict[str, Any]:
    """A session as plain JSON: status, event types, transcript, state, pending requests."""
    events = await session.read_events()
    assert [e.index for e in events] == list(range(len(events))), "event stream has holes"
    return {
        "status": (await session.state()).status,
        "events": [e.type for e in events],
        "replies": [e.data.text for e in events if e.type == "message.completed"],
        "transcript": [[type(e).__name__, _text(e)] for e in await session.transcript()],
        "state": (await session.state_values()).to_json(),
        "pending": [r.tool_name for r in await session.pending_requests()],
    }


async def snapshot(backend: tether.Backend, agents: Any) -> dict[str, Any]:
    """What `backend` holds, as plain JSON (no ids made at random, no times)."""
    host = AgentHost(backend, agents)
    runs: dict[str, Any] = {}
    for info in await host.client.list_runs(limit=1000):
        handle = await host.client.get(info.run_id, follow=False)
        plain = info.workflow_name in _APP_WORKFLOWS
        runs[info.run_id] = {
            "workflow": info.workflow_name,
            "status": info.status,
            "steps": [
                [s.name, s.status, s.attempt, *([s.output] if plain else [])]
                for s in await handle.steps()
            ],
        }
    sessions = {sid: await session_snapshot(await host.get_session(sid)) for sid in SESSIONS}
    return {"runs": dict(sorted(runs.items())), "sessions": sessions}


async def _next_turn(session: Session, text: str) -> None:
    last = (await session.read_events())[-1].index
    await session.send(text, principal="ada")
    await session.wait_for("turn.completed", after=last)


async def finish_all(backend: tether.Backend, agents: Any) -> dict[str, Any]:
    """Finish everything the fixture left open; what it finished with, as plain JSON.

    ``effects`` lists (sorted) the side effects that ran meanwhile: completed steps and
    tool calls of the fixture are not among them.
    """
    app.effects.clear()
    host = AgentHost(backend, agents)
    async with host.worker(poll_interval=0.02):
        parked = await host.get_session("ops-parked")
        (request,) = await parked.pending_requests()
        last = (await parked.read_events())[-1].index
        await parked.answer(request.request_id, "approve", principal="ada")
        await parked.wait_for("turn.completed", after=last)
        await host.client.resume_hook(app.HOOK_TOKEN, {"by": "ada"})
        results = {}
        for run_id in WORKFLOW_RUNS:
            handle = await host.client.get(run_id)
            results[run_id] = await handle.result(timeout=30)
        sessions = [await host.get_session(sid) for sid in NEXT_MESSAGES]
        await asyncio.gather(*(_next_turn(s, NEXT_MESSAGES[s.session_id]) for s in sessions))
        effects = sorted(app.effects)
    after = await snapshot(backend, agents)
    return {"results": results, "effects": effects, **after}
