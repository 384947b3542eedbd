"""Raw access to a memory backend's format stamp (capability FORMAT_STAMP)."""

from __future__ import annotations

from typing import Protocol

__all__ = ["MemoryFormatStamps"]


class _Stamped(Protocol):
    format_stamp: str | None


class MemoryFormatStamps:
    """Reads and writes the `format_stamp` attribute of a memory backend."""

    def __init__(self, backend: _Stamped) -> None:
        self._backend = backend

    async def read_stamp(self) -> str | None:
        return self._backend.format_stamp

    async def write_stamp(self, value: str) -> None:
        self._backend.format_stamp = value
