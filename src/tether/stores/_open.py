"""`open_backend(url)`: pick a backend by URL scheme, migrate, connect, close."""

from __future__ import annotations

import contextlib
import urllib.parse
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError
from ._protocols import Backend

__all__ = ["DEFAULT_SQLITE_PATH", "backend_from_url", "open_backend"]

DEFAULT_SQLITE_PATH = Path(".tether/tether.db")


def backend_from_url(url: str, **options: Any) -> Backend:
    """Build (not open) the backend a URL names.

    Accepted: ``memory://``; ``sqlite:///relative/path.db`` and
    ``sqlite:////absolute/path.db`` (``sqlite://`` alone means `DEFAULT_SQLITE_PATH`;
    ``?adopt=true`` lets tether add its tables to a database another application made);
    ``postgresql://...`` when the postgres extra is installed.

    Raises:
        ConfigurationError: The scheme is unknown or the URL malformed (``sqlite://`` with
            a name but two slashes, an unknown parameter).
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ConfigurationError(
            f"{url!r} is not a backend URL; use 'memory://', 'sqlite:///path/to/file.db' or "
            "'postgresql://user@host/db'"
        )
    if scheme == "memory":
        from .memory import MemoryBackend

        if options:
            raise ConfigurationError(f"the memory backend takes no options, got {sorted(options)}")
        return MemoryBackend()
    if scheme == "sqlite":
        from .sqlite import SqliteBackend

        location, _, query = rest.partition("?")
        options = {**_sqlite_parameters(url, query), **options}
        return SqliteBackend(_sqlite_path(url, location), **options)
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


def _sqlite_path(url: str, location: str) -> Path:
    if location in ("", "/"):
        return DEFAULT_SQLITE_PATH
    if not location.startswith("/"):
        # `sqlite://name.db` reads `name.db` as the URL's host, which SQLite URLs do not
        # have. Opening the default file instead made separate apps share one store;
        # guessing the file would differ from every other tool's reading of the URL.
        raise ConfigurationError(
            f"{url!r} does not name a file: after 'sqlite://' comes a host, and SQLite "
            f"URLs have none. Write 'sqlite:///{location}' for a path relative to the "
            f"working directory, 'sqlite:////absolute/path/{Path(location).name}' for an "
            "absolute one, or 'sqlite://' alone for .tether/tether.db"
        )
    return Path(location[1:])


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _sqlite_parameters(url: str, query: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for key, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
        if key != "adopt":
            raise ConfigurationError(
                f"{url!r}: unknown parameter {key!r}; SQLite URLs take 'adopt' only "
                "(pass other options to open_backend as keyword arguments)"
            )
        if value.lower() not in _TRUE + _FALSE:
            raise ConfigurationError(f"{url!r}: adopt must be true or false, not {value!r}")
        options["adopt"] = value.lower() in _TRUE
    return options


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
