"""`tether schedules list`, `pause`, `resume` and `trigger`."""

from __future__ import annotations

import json

from ..durable import Client, Schedules
from ..stores import Backend
from ._terminal import show_table


def _every(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return f"every {seconds:g}s"


async def list_schedules(backend: Backend, as_json: bool) -> int:
    """Print the store's schedules as their schedulers last published them."""
    found = await Schedules(Client(backend)).list()
    if as_json:
        print(json.dumps([s.to_json() for s in found], indent=2))
        return 0
    rows = [
        [
            s.name,
            s.workflow,
            s.cron or _every(s.every),
            s.timezone if s.cron else "",
            "paused" if s.paused else s.missed,
            "" if s.last_tick is None else s.last_tick.strftime("%Y-%m-%d %H:%M:%S"),
            "" if s.next_tick is None else s.next_tick.strftime("%Y-%m-%d %H:%M:%S"),
            s.deployment,
        ]
        for s in found
    ]
    headers = ["schedule", "workflow", "when", "zone", "missed", "last (UTC)", "next (UTC)", "dep."]
    show_table(headers, rows, status="missed")
    return 0


async def control_schedule(backend: Backend, verb: str, name: str) -> int:
    """Pause, resume or trigger schedule `name`."""
    schedules = Schedules(Client(backend))
    if verb == "pause":
        await schedules.pause(name)
        print(f"schedule {name!r}: paused")
    elif verb == "resume":
        await schedules.resume(name)
        print(f"schedule {name!r}: resumed (its next tick from now)")
    else:
        await schedules.trigger(name)
        print(f"schedule {name!r}: a run starts now")
    return 0
