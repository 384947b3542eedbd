"""The agents and workflow of the journal fixture `journal.db` (written by tether 0.1.0).

`make.py` writes the fixture with this code; `test_journal_names.py` opens a copy with
today's code and finishes what it left open. Change neither the names nor the steps here:
the fixture's journal names them.
"""

from __future__ import annotations

import tether
from tether.agent import Agent, Agents, approval, tool
from tether.testing import Reply, ScriptedModel, tool_call

effects: list[str] = []


async def nap(ctx: tether.WorkflowContext, n: int) -> int:
    """Doubles `n` around a durable timer that the fixture leaves running."""
    doubled = await ctx.step(lambda: n * 2, name="double")
    await ctx.sleep("20s")
    return doubled + 1


@tool
async def lookup(service: str) -> str:
    """Look a service up."""
    return f"{service} is up"


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    effects.append(f"restart {service}")
    return f"{service} restarted"


def ops_agent() -> Agent:
    model = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("lookup", {"service": "api"}),)),
            "api is up",
            Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)),
            "api restarted",
        ],
        select="transcript",
    )
    return Agent(name="ops", model=model, tools=[lookup, restart_service])


def build() -> Agents:
    """The fixture's agents, with `nap` on their registry."""
    agents = Agents([ops_agent()], deployment="fixture")
    agents.registry.workflow(name="nap")(nap)
    return agents
