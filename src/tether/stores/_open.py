"""`open_backend(url)`: pick a backend by URL scheme, migrate, connect, close."""

from __future__ import annotations

import contextlib
import os
import urllib.parse
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, EncryptionKeyError
from ._encrypted import EncryptedBackend, read_keyring_marker
from ._keyring import Keyring, MemoryKeyring
from ._keys import KeyProvider, LocalKeyFile, key_provider_from_env
from ._protocols import Backend
from ._retention_period import retention_seconds
from ._sealer import DEFAULT_LARGE_PAYLOAD_THRESHOLD

__all__ = [
    "BACKENDS_ENTRY_POINT_GROUP",
    "DEFAULT_SQLITE_PATH",
    "backend_from_url",
    "keyring_for",
    "open_backend",
    "wrap_encrypted",
]

DEFAULT_SQLITE_PATH = Path(".tether/tether.db")
#: The entry point group naming third-party backends: each entry's name is a URL scheme
#: and its object a callable ``(url, **options) -> Backend`` (a backend class whose
#: constructor takes the URL is one).
BACKENDS_ENTRY_POINT_GROUP = "tether.backends"
_BUILT_IN_SCHEMES = ("memory", "sqlite", "postgresql", "postgres")


def backend_from_url(url: str, *, env: Mapping[str, str] | None = None, **options: Any) -> Backend:
    """Build (not open) the backend a URL names.

    Accepted: ``memory://``; ``sqlite:///relative/path.db`` and
    ``sqlite:////absolute/path.db`` (``sqlite://`` alone means `DEFAULT_SQLITE_PATH`;
    ``?adopt=true`` lets tether add its tables to a database another application made);
    ``postgresql://...`` when the postgres extra is installed (``postgresql://`` alone
    reads ``TETHER_POSTGRES_URL``, then ``DATABASE_URL``, as `PostgresBackend` does);
    and any scheme an installed distribution registers in the ``tether.backends``
    entry point group (`BACKENDS_ENTRY_POINT_GROUP`).

    Args:
        url: The backend's URL.
        env: Where the PostgreSQL backend reads its variables (default `os.environ`).
        **options: The backend's keyword options.

    Raises:
        ConfigurationError: The scheme is unknown or the URL malformed (``sqlite://`` with
            a name but two slashes, an unknown parameter), or a third-party backend
            could not be loaded or built.
    """
    scheme, sep, rest = url.partition("://")
    if not sep and url.rstrip(":/") in (*_BUILT_IN_SCHEMES, *_registered_schemes()):
        # A scheme alone ("postgres") is the likeliest slip: say the URL it meant, which
        # for PostgreSQL reads the same variables as a bare `PostgresBackend()`.
        bare = url.rstrip(":/")
        chain = (
            ", which reads TETHER_POSTGRES_URL, then DATABASE_URL"
            if bare in ("postgres", "postgresql")
            else ""
        )
        raise ConfigurationError(
            f"{url!r} is a backend scheme, not a URL; write {bare + '://'!r}{chain}"
        )
    if not sep:
        raise ConfigurationError(
            f"{url!r} is not a backend URL; use 'memory://', 'sqlite:///path/to/file.db' or "
            "'postgresql://user@host/db'"
        )
    if scheme == "memory":
        from .memory import MemoryBackend

        unknown = sorted(set(options) - {"hook_retention", "retention"})
        if unknown:
            raise ConfigurationError(
                "the memory backend takes only hook_retention and retention as options, "
                f"got {unknown}"
            )
        return MemoryBackend(**options)
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
        # `postgresql://` alone names no server: the backend's own chain of variables
        # decides, so a URL and a bare `PostgresBackend()` agree.
        backend: Backend = PostgresBackend(url if rest else None, env=env, **options)
        return backend
    return _third_party(scheme, url, options)


def _registered_schemes() -> set[str]:
    # Imported here: importlib.metadata (zipfile, csv, email) is a fair part of the
    # start of every process that imports tether, and only another package's scheme
    # needs it.
    import importlib.metadata

    return {e.name for e in importlib.metadata.entry_points(group=BACKENDS_ENTRY_POINT_GROUP)}


def _third_party(scheme: str, url: str, options: dict[str, Any]) -> Backend:
    import importlib.metadata  # see `_registered_schemes`

    found = importlib.metadata.entry_points(group=BACKENDS_ENTRY_POINT_GROUP, name=scheme)
    entry = next(iter(found), None)
    if entry is None:
        installed = sorted(_registered_schemes() - set(_BUILT_IN_SCHEMES))
        also = f", or an installed backend's: {', '.join(installed)}" if installed else ""
        raise ConfigurationError(
            f"unknown backend scheme {scheme!r} in {url!r}; use memory, sqlite or "
            f"postgresql{also}. A backend of another package is named by an entry point "
            f"in the {BACKENDS_ENTRY_POINT_GROUP!r} group: install the package that provides "
            f"{scheme!r}, or register one in a package's pyproject.toml with "
            f'[project.entry-points."{BACKENDS_ENTRY_POINT_GROUP}"] {scheme} = "module:Factory"'
        )
    origin = f"{entry.value!r} (entry point {scheme!r} of {BACKENDS_ENTRY_POINT_GROUP!r}"
    origin += f", distribution {entry.dist.name!r})" if entry.dist is not None else ")"
    try:
        factory = entry.load()
    except Exception as exc:
        raise ConfigurationError(f"the backend {origin} does not load: {exc!r}") from exc
    try:
        backend = factory(url, **options)
    except ConfigurationError:
        raise
    except TypeError as exc:
        raise ConfigurationError(
            f"the backend {origin} refused {url!r} with options {sorted(options)}: {exc}"
        ) from exc
    needed = ("url", "migrate", "connect", "close")
    missing = [name for name in needed if not hasattr(backend, name)]
    if missing:
        raise ConfigurationError(
            f"the backend {origin} built {type(backend).__qualname__}, which is not a "
            f"tether.stores.Backend: it has no {', '.join(missing)}"
        )
    return backend  # type: ignore[no-any-return]


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


def keyring_for(backend: Backend, keyring: Keyring | str | None = None) -> Keyring:
    """The keyring of a backend.

    `keyring` when given (a `Keyring` or a URL), else the default beside the data:
    ``<file>.keyring`` for SQLite, schema ``<namespace>_keyring`` for Postgres, memory
    for ``memory://``.

    Raises:
        ConfigurationError: No default exists for this backend; pass ``keyring=``.
    """
    if keyring is not None and not isinstance(keyring, str):
        return keyring
    target = keyring or backend.url
    scheme, _, rest = target.partition("://")
    if scheme == "memory":
        return MemoryKeyring()
    if scheme == "sqlite":
        from .sqlite import SqliteKeyring, keyring_path_for

        if keyring is not None:
            return SqliteKeyring(Path(rest[1:]) if rest.startswith("/") else Path(rest))
        return SqliteKeyring(keyring_path_for(backend.path))  # type: ignore[attr-defined]
    if scheme in ("postgres", "postgresql"):
        from .postgres import PostgresKeyring, keyring_schema_for

        if keyring is not None:
            return PostgresKeyring(keyring, schema="tether_keyring")
        return PostgresKeyring(
            backend._url,  # type: ignore[attr-defined]  # the unredacted URL
            schema=keyring_schema_for(backend.namespace),  # type: ignore[attr-defined]
        )
    raise ConfigurationError(
        f"no default keyring for {backend.url!r}: pass keyring= (a Keyring, or a "
        "'sqlite:///path' or 'postgresql://...' URL kept apart from the data)"
    )


def wrap_encrypted(
    backend: Backend,
    keys: KeyProvider,
    *,
    keyring: Keyring | str | None = None,
    large_payload_threshold: int = DEFAULT_LARGE_PAYLOAD_THRESHOLD,
    allow_plaintext: bool = False,
) -> EncryptedBackend:
    """Wrap a (not yet connected) backend so its stores encrypt; see `EncryptedBackend`."""
    return EncryptedBackend(
        backend,
        keys=keys,
        keyring=keyring_for(backend, keyring),
        large_payload_threshold=large_payload_threshold,
        allow_plaintext=allow_plaintext,
    )


def _provider(keys: KeyProvider | str | Path | None, env: Mapping[str, str]) -> KeyProvider | None:
    if keys is None:
        return key_provider_from_env(env)
    if isinstance(keys, str | Path):
        return LocalKeyFile(keys)
    return keys


@contextlib.asynccontextmanager
async def open_backend(
    url: str = "sqlite://",
    *,
    migrate: bool = True,
    keys: KeyProvider | str | Path | None = None,
    keyring: Keyring | str | None = None,
    large_payload_threshold: int = DEFAULT_LARGE_PAYLOAD_THRESHOLD,
    allow_plaintext: bool = False,
    env: Mapping[str, str] | None = None,
    **options: Any,
) -> AsyncIterator[Backend]:
    """Open a backend for the duration of an ``async with`` block.

    With a key configured every payload the stores write is encrypted (see the
    documentation's "Encryption and keys").

    Args:
        url: Which backend, e.g. ``"sqlite:///app.db"``, ``"memory://"`` or a scheme an
            installed package registers (see `backend_from_url`).
        migrate: Create or upgrade the schema (and the keyring) first (default). With
            False the store must already be migrated.
        keys: A `KeyProvider`, or the path of a key file. None reads ``TETHER_KEY``
            (base64 keys) or ``TETHER_KEY_FILE`` from `env`; without either the store
            is not encrypted.
        keyring: Where the data keys live (a `Keyring` or a URL); default beside the
            data (see `keyring_for`).
        large_payload_threshold: Payloads over this many bytes go to the attachment
            store once (encrypted) and are referenced where they belong.
        allow_plaintext: Read payloads written before encryption was turned on.
        env: Where to read the variables, the key's and the PostgreSQL backend's
            (default `os.environ`).
        **options: Backend options, e.g. ``synchronous="NORMAL"`` for SQLite, or
            ``retention=timedelta(days=30)``: the retention period of ended runs (None
            by default, or ``TETHER_RETENTION`` from `env`: kept forever).

    Yields:
        The connected backend; its stores are at ``backend.stores``.

    Raises:
        EncryptionKeyError: The store is encrypted and no key, or not its key, is
            configured.
    """
    provider = _provider(keys, os.environ if env is None else env)
    retention = _retention_from(os.environ if env is None else env)
    if "retention" not in options and retention is not None:
        options["retention"] = retention
    backend = backend_from_url(url, env=env, **options)
    if provider is not None:
        backend = wrap_encrypted(
            backend,
            provider,
            keyring=keyring,
            large_payload_threshold=large_payload_threshold,
            allow_plaintext=allow_plaintext,
        )
    try:
        if migrate:
            await backend.migrate()
        stores = await backend.connect()
        if provider is None:
            marker = await read_keyring_marker(stores.attachments)
            if marker is not None:
                raise EncryptionKeyError(
                    f"{backend.url} is encrypted (keyring {marker!r}) and no key is configured: "
                    "set TETHER_KEY_FILE (or TETHER_KEY), or pass keys=... to open_backend",
                    reason="missing",
                )
        yield backend
    finally:
        await backend.close()


def _retention_from(env: Mapping[str, str]) -> float | None:
    raw = env.get("TETHER_RETENTION", "").strip()
    return retention_seconds(raw, what="TETHER_RETENTION") if raw else None
