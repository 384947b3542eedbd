"""`SessionHost`: what a `Session`, its `Inbox` and a hand-off use of their host.

`AgentHost` is one. They name this, not `AgentHost`, so the host builds sessions and
inboxes while they know nothing of it: the client side's imports point one way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ...durable import Client
    from ...stores import Backend
    from .._records._budget import BudgetScope, BudgetStatus
    from .._registry import Agents

__all__ = ["SessionHost"]


class SessionHost(Protocol):
    """The host of a session, as the session sees it."""

    @property
    def agents(self) -> Agents:
        """The agents it serves."""
        ...

    @property
    def backend(self) -> Backend:
        """The backend the sessions live on."""
        ...

    @property
    def client(self) -> Client:
        """The engine's client, on the agents' registry."""
        ...

    async def budget(self, scope: BudgetScope | str) -> BudgetStatus | None:
        """A budget's limit and what is spent (None: no such budget)."""
        ...

    async def raise_budget(
        self, scope: BudgetScope | str, *, tokens: int | None = None, cost: float | None = None
    ) -> BudgetStatus:
        """Raise a budget's limit; turns parked on it resume."""
        ...
