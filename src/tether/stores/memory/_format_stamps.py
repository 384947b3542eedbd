"""Raw access to a memory backend's format stamp (capability FORMAT_STAMP)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from ..kit import (
    Backend,
)

__all__ = ["MemoryFormatStamps"]


class _Stamped(Protocol):
    format_stamp: str | None


class MemoryFormatStamps:
    """Reads and writes the `format_stamp` attribute of a memory backend."""

    def __init__(self, backend: _Stamped, *, new: Callable[[], Backend]) -> None:
        self._backend = backend
        self._new = new

    async def read_stamp(self) -> str | None:
        return self._backend.format_stamp

    async def write_stamp(self, value: str) -> None:
        self._backend.format_stamp = value

    async def delete_stamp(self) -> None:
        self._backend.format_stamp = None

    @contextlib.asynccontextmanager
    async def fresh(self) -> AsyncIterator[Backend]:
        """A new, unmigrated memory backend."""
        fresh = self._new()
        try:
            yield fresh
        finally:
            await fresh.close()
