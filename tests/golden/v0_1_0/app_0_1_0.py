"""The workflows and agents whose journals the golden fixtures of tether 0.1.0 hold.

`make.py` records the fixtures with this code under tether 0.1.0; the tests replay and
finish them with today's code. The fixtures' journals name these workflows, steps,
tools and agents, so change none of them: a name or a step order changed here is a
non-determinism error against the fixture, which is what the fixture is for.

Every side effect appends a line to `effects`, so a test can tell a completed step
(replayed from the journal, not executed) from one that ran.
"""

from __future__ import annotations

import tether
from tether.agent import (
    Agent,
    Agents,
    Compaction,
    KeepLast,
    State,
    ToolContext,
    approval,
    tool,
)
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.errors import RetryableError
from tether.testing import Reply, ScriptedModel, tool_call

#: What ran, in order: one line per executed step body or tool call.
effects: list[str] = []
#: Attempts of the `charge` step per order (its first attempt fails, retryably).
_charge_attempts: dict[str, int] = {}

#: A secret the encrypted fixtures must never hold in clear.
SECRET = "the vault code is 7301"


# -- workflows ---------------------------------------------------------------------------


def reserve(order: str) -> str:
    effects.append(f"reserve {order}")
    return f"reserved {order}"


def charge(order: str) -> str:
    _charge_attempts[order] = _charge_attempts.get(order, 0) + 1
    effects.append(f"charge {order} attempt {_charge_attempts[order]}")
    if _charge_attempts[order] == 1:
        raise RetryableError("the card processor timed out", retry_after=0.05)
    return f"charged {order}"


def ship(order: str, note: str) -> str:
    effects.append(f"ship {order}")
    return f"shipped {order} ({note})"


async def orders(ctx: tether.WorkflowContext, order: str, note: str) -> dict[str, str]:
    """Three steps, the second retried once; completed in every fixture."""
    reserved = await ctx.step(reserve, order)
    charged = await ctx.step(charge, order)
    shipped = await ctx.step(ship, order, note)
    return {"reserved": reserved, "charged": charged, "shipped": shipped}


def double(n: int) -> int:
    effects.append(f"double {n}")
    return n * 2


async def nap(ctx: tether.WorkflowContext, n: int) -> int:
    """A step, then a durable timer that the fixtures leave running."""
    doubled = await ctx.step(double, n)
    await ctx.sleep(SLEEP)
    return doubled + 1


#: How long the fixtures' timers run: long enough for `make.py` to stop its worker first.
SLEEP = "4s"


def prepare(what: str) -> str:
    effects.append(f"prepare {what}")
    return f"prepared {what}"


def finish(prepared: str, payload: dict[str, str]) -> str:
    effects.append(f"finish {prepared}")
    return f"{prepared}, approved by {payload['by']}"


#: The token of the hook `hooked` parks on (fixed, so the test can resume it).
HOOK_TOKEN = "golden-hook-0-1-0"


async def hooked(ctx: tether.WorkflowContext, what: str) -> str:
    """Parks on a hook with a known token; resumed by the test."""
    prepared = await ctx.step(prepare, what)
    payload = await ctx.create_hook(token=HOOK_TOKEN)
    return await ctx.step(finish, prepared, payload)


def leaf_work(n: int) -> int:
    effects.append(f"leaf {n}")
    return n * 10


async def leaf(ctx: tether.WorkflowContext, n: int) -> int:
    """A child that completes at once."""
    return await ctx.step(leaf_work, n)


async def family(ctx: tether.WorkflowContext, n: int) -> list[int]:
    """A parent of two children: one completes, one sleeps; it waits for both."""
    quick = await ctx.start_child(leaf, n, run_id=f"{ctx.run_id}.leaf")
    slow = await ctx.start_child(nap, n, run_id=f"{ctx.run_id}.nap")
    return [await quick.result(), await slow.result()]


def add(total: int, i: int) -> int:
    effects.append(f"add {i}")
    return total + i


async def counter(ctx: tether.WorkflowContext, i: int, total: int) -> int:
    """A continue-as-new chain of four runs; the third sleeps in the fixtures."""
    total = await ctx.step(add, total, i)
    if i == 2:
        await ctx.sleep(SLEEP)
    if i < 3:
        await ctx.continue_as_new(i + 1, total)
    return total


# -- agents ------------------------------------------------------------------------------

visits = State(name="visits", type=int, default=0, description="Times the user came by.")


@tool
async def lookup(service: str) -> str:
    """Look a service up."""
    effects.append(f"lookup {service}")
    return f"{service} is up"


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    effects.append(f"restart {service}")
    return f"{service} restarted"


@tool(state=[visits])
def visit(ctx: ToolContext) -> str:
    """Count a visit."""
    effects.append("visit")
    ctx.state[visits] += 1
    return f"visit {ctx.state[visits]}"


#: The tool each first word of a user message calls, and its argument's name.
_COMMANDS = {
    "lookup": ("lookup", "service"),
    "restart": ("restart_service", "service"),
    "visit": ("visit", None),
    "delegate": ("researcher", "task"),
}


def _answer(request: ModelRequest) -> str | Reply:
    """The scripted models' one rule: a command calls its tool, a tool result is reported."""
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return f"done: {last.content}"
    text = last.text if isinstance(last, UserMessage) else ""
    verb, _, rest = text.partition(" ")
    if verb in _COMMANDS:
        name, argument = _COMMANDS[verb]
        return Reply(tool_calls=(tool_call(name, {argument: rest} if argument else {}),))
    return f"re: {text}"


def _research(request: ModelRequest) -> str:
    last = request.messages[-1]
    return f"found: {last.text if isinstance(last, UserMessage) else '?'}"


def build() -> Agents:
    """The fixtures' agents, with the workflows on their registry."""
    researcher = Agent(name="researcher", model=ScriptedModel(_research, name="researcher"))
    agents = Agents(
        [
            Agent(name="ops", model=ScriptedModel(_answer), tools=[lookup, restart_service, visit]),
            Agent(name="lead", model=ScriptedModel(_answer), tools=[researcher.as_tool()]),
            researcher,
            Agent(
                name="notes",
                model=ScriptedModel(_answer),
                compaction=Compaction(max_turns=2, compactor=KeepLast(4)),
            ),
        ],
        deployment="golden",
    )
    for fn in (orders, nap, hooked, leaf, family, counter):
        agents.registry.workflow(name=fn.__name__)(fn)
    return agents


#: For ``tether check-deploy app_0_1_0:agents``.
agents = build()
