"""`open_backend(url)`: pick a backend by URL scheme, migrate, connect, close."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError
from ._protocols import Backend

__all__ = ["DEFAULT_SQLITE_PATH", "backend_from_url", "open_backend"]

DEFAULT_SQLITE_PATH = Path(".tether/tether.db")


def backend_from_url(url: str, **options: Any) -> Backend:
    """Build (not open) the backend a URL names.

    Accepted: ``memory://``; ``sqlite:///relative/or/absolute/path.db`` (``sqlite://``
    alone means `DEFAULT_SQLITE_PATH`); ``postgresql://...`` when the postgres extra is
    installed.

    Raises:
        ConfigurationError: The scheme is unknown or the URL malformed.
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ConfigurationError(
            f"{url!r} is not a backend URL; use 'memory://', 'sqlite:///path/to/file.db' or "
            "'postgresql://user@host/db'"
        )
    if scheme == "memory":
        from .memory import MemoryBackend

        unknown = sorted(set(options) - {"hook_retention"})
        if unknown:
            raise ConfigurationError(
                f"the memory backend takes only hook_retention as an option, got {unknown}"
            )
        return MemoryBackend(**options)
    if scheme == "sqlite":
        from .sqlite import SqliteBackend

        path = Path(rest[1:]) if rest.startswith("/") and len(rest) > 1 else DEFAULT_SQLITE_PATH
        if rest.startswith("//"):
            path = Path(rest[1:])
        return SqliteBackend(path, **options)
    if scheme in ("postgres", "postgresql"):
        try:
            from .postgres import PostgresBackend
        except ImportError as exc:
            raise ConfigurationError(
                f"the postgres backend is not available: {exc}; "
                "install it with: pip install 'tether[postgres]'"
            ) from exc
        backend: Backend = PostgresBackend(url, **options)
        return backend
    raise ConfigurationError(
        f"unknown backend scheme {scheme!r} in {url!r}; use memory, sqlite or postgresql"
    )


@contextlib.asynccontextmanager
async def open_backend(
    url: str = "sqlite://", *, migrate: bool = True, **options: Any
) -> AsyncIterator[Backend]:
    """Open a backend for the duration of an ``async with`` block.

    Args:
        url: Which backend, e.g. ``"sqlite:///app.db"`` or ``"memory://"``.
        migrate: Create or upgrade the schema first (default). With False the store must
            already be migrated.
        **options: Backend options, e.g. ``synchronous="NORMAL"`` for SQLite.

    Yields:
        The connected backend; its stores are at ``backend.stores``.
    """
    backend = backend_from_url(url, **options)
    try:
        if migrate:
            await backend.migrate()
        await backend.connect()
        yield backend
    finally:
        await backend.close()
