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

__all__ = ["FormatStampAccess", "StoredRowAccess", "requires", "stored_rows_of"]

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


class StoredRowAccess(Protocol):
    """Raw access to a backend's stored rows, to stage what a crash or a disk leaves.

    A backend exposes it as `stored_rows`, operating on the store the backend opened
    (and connected); the contract cases that use it skip on a backend without it.
    """

    async def damage_submission(self, submission_id: str) -> None:
        """Make the stored submission undecodable (its payload no longer parses).

        Its identity columns (id, lane, status, order) stay as they are.
        """
        ...

    async def tear_fold_checkpoint(self, path: str) -> None:
        """Leave the stored fold checkpoint of `path` as a write cut off partway.

        Its header stays; part of its data is missing, as after a crash mid-write on a
        store that does not write a checkpoint in one atomic step.
        """
        ...


def stored_rows_of(backend: Any) -> StoredRowAccess:
    """The backend's `stored_rows`, or skip the test when it has none."""
    access = getattr(backend, "stored_rows", None)
    if access is None:
        pytest.skip("the backend exposes no stored_rows (tether.testing.contract.StoredRowAccess)")
    return access  # type: ignore[no-any-return]


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
