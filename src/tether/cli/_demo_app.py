"""The demo's incident agent, declared as `Agents` for `tether worker`.

The demo process (the client) builds `AgentHost(backend, agents)`; each worker process
is ``tether worker tether.cli._demo_app:agents --db URL``. The model is a
`ScriptedModel`: no network, no key. Its script is indexed by the conversation
(``select="transcript"``), so a worker started after a crash picks up at the right
answer; each call is logged to ``$TETHER_DEMO_CALLS`` and each tool execution to
``$TETHER_DEMO_LOG`` (one ``O_APPEND`` line with the process id), which is how the demo
shows what ran where.
"""

from __future__ import annotations

import os
from typing import Any

from ..agent import (
    Agent,
    AgentHost,
    Agents,
    Option,
    ToolContext,
    ToolWorkflowContext,
    approval,
    tool,
    workflow_tool,
)
from ..stores import Backend
from ..testing import Reply, ScriptedModel, ScriptEntry, tool_call

__all__ = ["INCIDENT", "SERVICE", "agents", "build_host"]

INCIDENT, SERVICE = "INC-1042", "api"


def _log(what: str) -> None:
    path = os.environ.get("TETHER_DEMO_LOG")
    if path:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{os.getpid()} {what}\n".encode())
        finally:
            os.close(fd)


@tool
def collect_metrics(service: str) -> dict[str, Any]:
    """Read a service's latency and error metrics."""
    _log("collect_metrics")
    return {"service": service, "p99_ms": 2400, "baseline_p99_ms": 180, "error_rate": 0.031}


def collect_context(incident_id: str, service: str) -> str:
    """A durable step of `handle_incident`: reads external APIs, so it is journaled."""
    _log("handle_incident/collect_context")
    return f"{service} p99 2.4 s (baseline 180 ms) since 14:02; deploy {service}@v418 at 13:58"


def plan_mitigation(service: str, level: str | None) -> dict[str, str]:
    """A durable step of `handle_incident`."""
    _log("handle_incident/plan_mitigation")
    return {"id": f"plan-{service}-{level}", "summary": f"rolling restart of {service}"}


@workflow_tool
async def handle_incident(
    ctx: ToolWorkflowContext, incident_id: str, service: str
) -> dict[str, Any]:
    """Open an incident: context, a human's severity call, settle, plan a mitigation."""
    context = await ctx.step(collect_context, incident_id, service)
    level = await ctx.ask(
        f"Severity of {incident_id}? {context}",
        display="confirmation",
        options=[
            Option(id="p1", label="P1 (revenue impact)", style="primary"),
            Option(id="p2", label="P2 (partly degraded)"),
            Option(id="p3", label="P3 (no user impact)"),
        ],
    )
    if level.status != "answered":
        return {"incident": incident_id, "status": "cancelled"}
    await ctx.sleep("1s")  # a durable timer (10m in production): no worker is held
    plan = await ctx.step(plan_mitigation, service, level.option_id)
    return {"incident": incident_id, "level": level.option_id, "plan": plan}


@tool(approval=approval.always())
async def restart_service(ctx: ToolContext, service: str) -> dict[str, Any]:
    """Restart a service (rolling). A human must approve every call."""
    _log("restart_service")
    return {"service": service, "restarted": True, "idempotency_key": ctx.idempotency_key}


SCRIPT: list[ScriptEntry] = [
    Reply(
        text=f"Let me look at the {SERVICE} metrics first.",
        tool_calls=(tool_call("collect_metrics", {"service": SERVICE}),),
    ),
    Reply(
        text="p99 is 2.4 s against a 180 ms baseline, errors at 3.1 %. Opening an incident.",
        tool_calls=(tool_call("handle_incident", {"incident_id": INCIDENT, "service": SERVICE}),),
    ),
    Reply(
        text=f"Severity set; the plan is a rolling restart of {SERVICE}. It needs your approval.",
        tool_calls=(tool_call("restart_service", {"service": SERVICE}),),
    ),
    f"{SERVICE} restarted and p99 is recovering; I'll keep {INCIDENT} open until it is "
    "back under 200 ms.",
]


def _agents() -> Agents:
    model = ScriptedModel(
        SCRIPT, name="ops-demo", select="transcript", calls_file=os.environ.get("TETHER_DEMO_CALLS")
    )
    agent = Agent(
        name="ops",
        model=model,
        instructions="You are the on-call ops agent. Triage incidents; ask before acting.",
        tools=[collect_metrics, handle_incident, restart_service],
    )
    return Agents([agent], deployment="demo")


#: The demo's agents, declared without a backend: `tether worker
#: tether.cli._demo_app:agents --db URL` serves them (that is how the demo runs its workers).
agents = _agents()


def build_host(backend: Backend) -> AgentHost:
    """The demo's `AgentHost` with the "ops" agent (the client side)."""
    return AgentHost(backend, agents)
