"""A memory backend's open state: its stores refuse calls while it is closed.

The data lives in the process and stays (connect again and all of it is there), but a
closed memory backend behaves as a durable one does: each call raises `StoreError`, so
whoever still follows a stream or waits on a run learns at once that no answer will
come, and does not mistake it for an outage to wait through.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from ...errors import StoreError

__all__ = ["CLOSED", "Gate", "gated"]

CLOSED = "the memory backend is closed; connect it again to use it"

C = TypeVar("C", bound=type)


class Gate:
    """Whether the stores of one memory backend take calls."""

    __slots__ = ("closed",)

    def __init__(self) -> None:
        self.closed = False

    def check(self) -> None:
        """Raise `StoreError` while closed."""
        if self.closed:
            raise StoreError(CLOSED)


def gated(cls: C) -> C:
    """`cls` with each of its own public async methods checking its `_gate` first."""
    for name, method in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(method):
            setattr(cls, name, _checked(method))
    return cls


def _checked(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    async def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        self._gate.check()
        return await method(self, *args, **kwargs)

    return checked
