"""Two versions of one workflow for `tether runs fork` and `tether runs resume` tests."""

from __future__ import annotations

import tether


def _build(deployment: str, fixed: bool) -> tether.Registry:
    registry = tether.Registry(deployment=deployment)

    def check(text: str) -> str:
        if not fixed:
            raise tether.FatalError("check broke")
        return text + "!"

    @registry.workflow(name="cli.fork")
    async def flow(ctx: tether.WorkflowContext, name: str) -> str:
        upper = await ctx.step(str.upper, name, name="upper")
        return await ctx.step(check, upper, name="check")

    return registry


broken = _build("cli-fork-1", fixed=False)
fixed = _build("cli-fork-2", fixed=True)
