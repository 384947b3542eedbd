"""An agent whose model writes slowly, for `tether sessions follow` run as a process."""

from __future__ import annotations

from tether.agent import Agent, Agents, tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.testing import Reply, ScriptedModel, tool_call

#: The final reply, streamed a word every `DELAY` seconds.
ANSWER = "the disk is fine and the backups ran last night"
DELAY = 0.15


@tool
def check(service: str) -> str:
    """Check a service."""
    return f"{service}: ok"


def answer(request: ModelRequest) -> Reply:
    if isinstance(request.messages[-1], ToolResultMessage):
        return Reply(text=ANSWER)
    return Reply(tool_calls=(tool_call("check", {"service": "disk"}, call_id="c1"),))


agents = Agents(
    [Agent(name="ops", model=ScriptedModel(answer, delta_delay=DELAY), tools=[check])],
    deployment="cli-follow",
)
