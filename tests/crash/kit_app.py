"""An app for the crash kit's test: a checkout that charges a card, then ships.

`charge` appends a line to ``$CHARGES`` each time it runs: with ``IDEMPOTENT=1`` only
when no line for that idempotency key is there yet (what passing the key to a payment
provider does), else every time (a charge made again on a retry).
"""

from __future__ import annotations

import os
from pathlib import Path

import tether

registry = tether.Registry(deployment="kit")


def charge(order: str, cents: int) -> str:
    key = tether.step_info().idempotency_key
    ledger = Path(os.environ["CHARGES"])
    seen = ledger.read_text().splitlines() if ledger.exists() else []
    if os.environ.get("IDEMPOTENT") == "1" and any(line.startswith(key) for line in seen):
        return key
    with ledger.open("a") as f:
        f.write(f"{key} {order} {cents}\n")
    return key


def ship(order: str) -> str:
    return f"shipped {order}"


@registry.workflow(name="checkout")
async def checkout(ctx: tether.WorkflowContext, order: str, cents: int) -> str:
    await ctx.step(charge, order, cents, name="charge")
    return await ctx.step(ship, order, name="ship")
