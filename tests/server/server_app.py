"""The agents the server tests serve: `ops`, a scripted model and three tools.

The script answers from the request, so any process (the test's server, a worker
subprocess, `tether serve`) gives the same answers:

- "restart X" -> calls `restart_service` (needs approval), then "Restarted.";
- "check X" -> calls `slow_check` (sleeps SLOW_CHECK seconds; on its first attempt in a
  worker that has ``SERVER_TEST_HANG=1``, hangs until killed), then "Checked.";
- "note X" -> calls `note`, which appends X to the session's `notes` state, then
  "Noted.";
- "ask" -> calls the workflow tool `triage` (asks a question: options "p1", labelled
  "P1 (revenue)" and styled primary, and "p2"; a confirmation), then "Triaged.";
- anything else -> "You said: <text>" streamed word by word, followed by
  " (files: NAME:SIZE, ...)" when the message carries files (a text file's content
  after "=").
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import tether
from tether.agent import (
    Agent,
    Agents,
    Option,
    State,
    ToolContext,
    ToolWorkflowContext,
    approval,
    tool,
    workflow_tool,
)
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.testing import Reply, ScriptedModel, tool_call

SLOW_CHECK = 0.4


@tool(approval=approval.always())
async def restart_service(service: str) -> dict[str, str]:
    """Restart a service (needs approval)."""
    return {"restarted": service}


@tool
async def slow_check(ctx: ToolContext, service: str) -> str:
    """Check a service slowly."""
    if os.environ.get("SERVER_TEST_HANG") == "1" and ctx.attempt == 1:
        await asyncio.sleep(3600)
    await asyncio.sleep(SLOW_CHECK)
    return f"{service}: healthy"


notes = State(name="notes", type=list[str], default_factory=list)


@tool
def report(size: int) -> str:
    """A report of `size` characters (large ones are stored once, by content)."""
    return "".join(chr(65 + (i * 7919) % 26) for i in range(size))


@tool(state=[notes])
def note(ctx: ToolContext, text: str) -> str:
    """Keep a note in the session's state."""
    ctx.state[notes] = [*ctx.state[notes], text]
    return f"{len(ctx.state[notes])} notes"


@workflow_tool
async def triage(ctx: ToolWorkflowContext, incident: str) -> str:
    """Triage an incident (asks for its severity)."""
    level = await ctx.ask(
        f"Severity of {incident}?",
        display="confirmation",
        options=[Option(id="p1", label="P1 (revenue)", style="primary"), "p2"],
    )
    if level.status != "answered":
        return f"{incident}: triage declined"
    return f"{incident} is {level.option_id}"


def answer(request: ModelRequest) -> Any:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return {
            "restart_service": "Restarted.",
            "slow_check": "Checked.",
            "note": "Noted.",
            "report": "Reported.",
        }.get(last.name, "Triaged.")
    text = last.text if isinstance(last, UserMessage) else ""
    words = str(text).split()
    if words and words[0] == "restart":
        return Reply(
            text="Restarting.",
            tool_calls=(tool_call("restart_service", {"service": words[-1]}),),
        )
    if words and words[0] == "check":
        return Reply(text="Checking.", tool_calls=(tool_call("slow_check", {"service": "db"}),))
    if words and words[0] == "report":
        return Reply(tool_calls=(tool_call("report", {"size": int(words[1])}),))
    if words and words[0] == "note":
        return Reply(tool_calls=(tool_call("note", {"text": " ".join(words[1:])}),))
    if words and words[0] == "ask":
        return Reply(tool_calls=(tool_call("triage", {"incident": "inc-1"}),))
    files = last.attachments if isinstance(last, UserMessage) else ()
    if files:
        seen = ", ".join(
            f"{f.filename or f.mime_type}:{len(f.data)}"
            + (f"={f.data.decode()}" if f.mime_type.startswith("text/") else "")
            for f in files
        )
        return f"You said: {text} (files: {seen})"
    return f"You said: {text}"


ops = Agent(
    name="ops",
    model=ScriptedModel(answer),
    instructions="You run ops.",
    tools=[restart_service, slow_check, note, triage, report],
    approvers=["lead"],
)
agents = Agents([ops], deployment="server-test")


@agents.registry.workflow(name="wait_for_hook")
async def wait_for_hook(ctx: Any, token: str) -> Any:
    """A workflow parked on a webhook (resumed over POST /v1/hooks/{token})."""
    return await ctx.create_hook(token=token)


def _add(total: int, amount: int) -> int:
    if amount < 0:
        raise tether.FatalError(f"cannot add {amount}: amounts are not negative")
    return total + amount


@agents.registry.workflow(name="tally")
async def tally(ctx: Any, amounts: list[int]) -> int:
    """A step per amount (a negative one fails its step, and the run): runs to fork."""
    total = 0
    for amount in amounts:
        total = await ctx.step(_add, total, amount, name="add")
    return total
