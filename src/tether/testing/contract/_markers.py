"""`requires(Capability.X)`: run a contract test only on backends declaring X.

The check happens when the test runs, against the `backend` fixture's
`capabilities`, so it needs no registered pytest marker and works in any subclass.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

import pytest

from ...stores import Capability

__all__ = ["FormatStampAccess", "requires"]

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


class FormatStampAccess(Protocol):
    """Raw access to a backend's persisted format stamp (capability FORMAT_STAMP).

    A backend declaring `Capability.FORMAT_STAMP` exposes this as `format_stamps`,
    operating on the same store the backend opened, so the contract can stage legacy,
    foreign and unstamped stores and then call `backend.migrate()`, and open a fresh,
    unmigrated store of the same kind.
    """

    async def read_stamp(self) -> str | None:
        """The stored stamp, or None when absent."""
        ...

    async def write_stamp(self, value: str) -> None:
        """Store `value` as the stamp, replacing any other."""
        ...

    async def delete_stamp(self) -> None:
        """Remove the stamp and nothing else: the store's tables and data stay."""
        ...

    def fresh(self) -> AbstractAsyncContextManager[Any]:
        """A new backend of the same kind on an empty store, not migrated nor connected.

        The store is removed when the ``async with`` block ends.
        """
        ...


def requires(capability: Capability) -> Callable[[F], F]:
    """Skip the decorated contract test unless `backend.capabilities` has `capability`.

    The test must take the `backend` fixture.

    Args:
        capability: The optional behaviour the test exercises.

    Returns:
        The decorator.
    """

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            backend = kwargs.get("backend")
            if backend is None:
                raise TypeError(f"{fn.__name__} uses requires() and must take `backend`")
            if capability not in backend.capabilities:
                pytest.skip(f"the backend does not declare {capability.value!r}")
            return await fn(*args, **kwargs)

        wrapper.__tether_requires__ = capability  # type: ignore[attr-defined]  # introspection
        return wrapper  # type: ignore[return-value]  # same signature via functools.wraps

    return decorate
