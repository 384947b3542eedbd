"""Workflow tools read and change the session's declared state, as plain tools do.

The body starts from the state as the step that parked on it left it (that step's
journaled result carries it, so a replay on another worker starts from the same
values); its changes land with its result, in the next step's commit, and none of them
when it raises. The tools of one park run in order, each seeing the changes before it.
"""

from __future__ import annotations

from _harness import hosted
from pydantic import BaseModel

from tether.agent import (
    Agent,
    Option,
    State,
    StateEntry,
    ToolContext,
    ToolResultEntry,
    ToolWorkflowContext,
    tool,
    workflow_tool,
)
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


class Cart(BaseModel):
    items: list[str] = []
    total: int = 0


visits = State(name="visits", type=int, default=0)
cart = State(name="cart", type=Cart, default_factory=Cart)


@tool(state=[visits])
def visit(ctx: ToolContext) -> str:
    """Count a visit."""
    ctx.state[visits] += 1
    return f"visit {ctx.state[visits]}"


@workflow_tool(state=[visits, cart])
async def checkout(ctx: ToolWorkflowContext) -> str:
    """Price the cart, ask to pay, count the visit."""
    seen = ctx.state[visits]
    price = await ctx.step(lambda: seen * 10, name="price")
    answer = await ctx.ask("Pay?", options=[Option(id="yes", label="Yes"), "no"])
    if answer.option_id != "yes":
        return "not paid"
    ctx.state[visits] = seen + 1
    ctx.state[cart] = Cart(items=["paid"], total=price)
    return f"paid {price}"


@workflow_tool(state=[visits])
async def broken(ctx: ToolWorkflowContext) -> str:
    """Change the state, then fail: nothing of it is kept."""
    ctx.state[visits] = 99
    raise RuntimeError("the register is jammed")


@workflow_tool(state=[visits])
async def recount(ctx: ToolWorkflowContext) -> str:
    """Tell the visits as this tool sees them."""
    return f"saw {ctx.state[visits]}"


def results(request: ModelRequest) -> list[str]:
    return [m.content for m in request.messages if isinstance(m, ToolResultMessage)]


def shop(model: ScriptedModel) -> Agent:
    return Agent(name="shop", model=model, tools=[visit, checkout, broken, recount])


async def test_workflow_tools_read_and_change_the_state(backend: Backend) -> None:
    calls = ("visit", "checkout", "broken", "recount")
    model = ScriptedModel(
        [Reply(tool_calls=tuple(tool_call(name, {}) for name in calls)), "done"],
        select="transcript",
    )
    async with hosted(backend, shop(model)) as host:
        session = await host.open_session("shop", session_id="wf-state")
        await session.send("check out")
        requested = await session.wait_for("input.requested")
    # Answered through another host, whose worker replays the tool from its journal.
    async with hosted(backend, shop(model)) as host:
        session = await host.get_session("wf-state")
        await session.answer(requested.data.request.request_id, "yes")
        await session.wait_for("turn.completed")
        values = await session.state_values()
        transcript = await session.transcript()
        events = await session.read_events()
    assert results(model.requests[-1]) == [
        "visit 1",
        "paid 10",
        "ToolError: RuntimeError: the register is jammed",
        "saw 2",
    ]
    assert values[visits] == 2 and values.get(cart) == Cart(items=["paid"], total=10)
    ids = {e.name: e.call_id for e in transcript if isinstance(e, ToolResultEntry)}
    changes = [e for e in transcript if isinstance(e, StateEntry)]
    assert [(e.call_id, dict(e.values)) for e in changes] == [
        (ids["visit"], {"visits": 1}),
        (ids["checkout"], {"visits": 2, "cart": {"items": ["paid"], "total": 10}}),
    ]
    told = [e for e in events if e.type == "state.changed"]
    assert [e.data.call_id for e in told] == [ids["visit"], ids["checkout"]]
    # The workflow tool's change is told just before its result, in the same step.
    result = next(e for e in events[told[1].index + 1 :] if e.type == "tool.result")
    assert result.data.call_id == ids["checkout"]
    assert result.meta.step_index == told[1].meta.step_index
