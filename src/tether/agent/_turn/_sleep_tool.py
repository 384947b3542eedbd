"""`sleep_tool`: a stock workflow tool that lets the model wait, parked on a durable timer.

The model gives a number of seconds; the schema bounds it (more than 0, at most the
author's maximum), so a value out of range comes back to the model as the tool's
`ToolArgumentsError` and nothing waits. In range, the turn parks on a durable timer
(`ToolWorkflowContext.sleep`): no worker is held meanwhile, a worker killed during the
wait is replaced by whichever worker claims the run when the timer is due, and a
cancel of the turn ends the wait.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from ...durable import parse_duration
from ...errors import ConfigurationError
from .._tools._tools import Tool, workflow_tool
from ._workflow_tools import ToolWorkflowContext

__all__ = ["sleep_tool"]


def sleep_tool(
    *,
    max_seconds: float | timedelta | str,
    name: str = "sleep",
    description: str | None = None,
) -> Tool:
    """A workflow tool that waits the number of seconds the model asks for, durably.

    The turn parks on a durable timer while it waits (no worker held; it survives a
    worker's crash), then the tool returns ``"slept N seconds"``. The argument schema
    says the bounds: ``seconds`` greater than 0 and at most `max_seconds`; a call out of
    range gets a `ToolArgumentsError` as its result, which the model reads and can
    correct.

    Args:
        max_seconds: The longest wait a call may ask for (seconds, a timedelta, or a
            string like ``"10m"``).
        name: The tool's name.
        description: What the model is told; defaults to one naming the maximum.

    Returns:
        The workflow `Tool`.

    Raises:
        ConfigurationError: `max_seconds` is not a positive, finite duration.
    """
    limit = parse_duration(max_seconds)
    if limit <= 0:
        raise ConfigurationError(
            f"sleep_tool(max_seconds={max_seconds!r}): the longest sleep must be a positive "
            "duration, e.g. 60 or '10m'"
        )

    async def sleep(ctx: ToolWorkflowContext, seconds: float) -> str:
        await ctx.sleep(seconds)
        return f"slept {seconds:g} seconds"

    # The bounds go in the schema (the model sees them) and in the validation: set
    # here, since they are the author's, not the function's.
    sleep.__annotations__ = {
        "ctx": ToolWorkflowContext,
        "seconds": Annotated[
            float,
            Field(
                gt=0,
                le=limit,
                allow_inf_nan=False,
                description=f"How long to wait, in seconds (more than 0, at most {limit:g}).",
            ),
        ],
        "return": str,
    }
    sleep.__doc__ = None
    told = description or (
        f"Wait the given number of seconds (at most {limit:g}) before going on; "
        "use it to wait for something that takes time."
    )
    return workflow_tool(name=name, description=told)(sleep)
