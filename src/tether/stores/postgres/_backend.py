"""`PostgresBackend`: migrate, connect and close one namespace of a Postgres database."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from ..._validate import check_duration
from ...errors import ConfigurationError, MigrationPrivilegeError
from .._protocols import Capability, Stores
from .._records import DEFAULT_HOOK_RETENTION, hook_retention_seconds
from .._retention_period import retention_seconds
from . import _schema
from ._attachments import PostgresAttachmentStore
from ._budgets import PostgresBudgetStore
from ._conversations import PostgresConversationStore
from ._credentials import PostgresCredentialStore
from ._notify import Notifier
from ._pool import AsyncStoreConnection, CommitLane, StoreConnection, check_idle, check_idle_async
from ._stored_rows import PostgresStoredRows
from ._submissions import Conn, PostgresSubmissionStore, TxRunner
from ._workflow import PostgresWorkflowStore

__all__ = [
    "COMMIT_POOL_SIZE",
    "DEFAULT_NAMESPACE",
    "DEFAULT_POOL_SIZE",
    "DEFAULT_URL",
    "READ_POOL_SIZE",
    "PostgresBackend",
    "PostgresFormatStamps",
]

#: Used when no URL is given and neither TETHER_POSTGRES_URL nor DATABASE_URL is set.
DEFAULT_URL = "postgresql://localhost:5432/tether"
DEFAULT_POOL_SIZE = 10
#: Most connections for the one-round-trip step commits, on top of `pool_size`, opened
#: as concurrent commits need them (one to start). Each holds one for a single round
#: trip, but that round trip waits for the WAL flush: with many runs committing at
#: once (a worker recovering 200 runs) two made commits queue for a connection, and
#: waiting in the pool costs more client CPU than the commit itself.
COMMIT_POOL_SIZE = 8
#: Async connections for the hot one-statement reads on the event loop (run, hooks,
#: stream, a session's lanes and transcript: a turn's step reads the last two at once;
#: more reads at once go to the threads).
READ_POOL_SIZE = 2
DEFAULT_NAMESPACE = "tether"
#: Seconds to wait for the server when opening; a dead server fails fast and clearly.
DEFAULT_CONNECT_TIMEOUT = 5.0
#: Seconds a store call waits for a pooled connection (psycopg_pool's own default).
DEFAULT_CHECKOUT_TIMEOUT = 30.0

T = TypeVar("T")


def _resolve_url(url: str | None, env: Mapping[str, str]) -> tuple[str, str]:
    """The URL the backend uses, and which link of the chain gave it (for errors)."""
    if url:
        return url, "the URL given"
    for name in ("TETHER_POSTGRES_URL", "DATABASE_URL"):
        if env.get(name):
            return env[name], f"the URL of {name}"
    return DEFAULT_URL, (
        f"no URL given and neither TETHER_POSTGRES_URL nor DATABASE_URL set, so the default "
        f"{DEFAULT_URL}: set one of them or pass a URL"
    )


def _env_int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise ConfigurationError(f"{name}={raw!r} is not an integer") from None


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    netloc = f"{parts.username or ''}:***@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _runner(workflow: PostgresWorkflowStore) -> TxRunner:
    """The agent stores' transaction runner: the workflow store's, shared.

    One pool, one thread pool, one error mapping. A unique-key race (two processes
    creating the same row) re-runs the function once; the rules then see the row.
    """

    def run(fn: Callable[[Conn], T]) -> Awaitable[T]:
        return workflow._write(lambda t: fn(t.c), retry_conflict=True)

    return run


class PostgresBackend:
    """Every store in one namespace (a Postgres schema) of a Postgres database.

    Many worker processes on many hosts may share it; they coordinate through row
    locks and wake each other with LISTEN/NOTIFY.

    Args:
        url: A libpq URL or DSN. When None: ``TETHER_POSTGRES_URL``, then
            ``DATABASE_URL``, then `DEFAULT_URL`.
        pool_size: Most connections this process opens for store calls (plus one
            listener, `COMMIT_POOL_SIZE` for step commits and `READ_POOL_SIZE` for
            hot reads, both on the event loop). Default
            ``TETHER_POSTGRES_POOL_SIZE`` or `DEFAULT_POOL_SIZE`.
        namespace: The Postgres schema holding tether's tables, so several apps can
            share one database. Default ``TETHER_POSTGRES_NAMESPACE`` or
            `DEFAULT_NAMESPACE`.
        connect_timeout: Seconds to wait for the server at `migrate()`/`connect()`.
        checkout_timeout: Seconds a store call waits for a connection before it fails
            with `StoreUnavailableError`: an outage shorter than this (a failover, a
            restart) only delays the calls made during it, while the pools reconnect.
            Waiters on runs (`RunHandle.result`, stream followers) ride out longer
            ones. Default 30.
        hook_retention: How long a hook token released by its run's end stays reserved
            for the run's chain (seconds or a timedelta; default 30 days; 0 frees it at
            once).
        retention: The retention period of ended runs (seconds, a timedelta or a
            string such as ``"30d"``): workers' retention sweep deletes the content of
            runs and sessions that ended longer ago (`tether prune` does it at once).
            None (default) keeps them forever.
        env: Where to read the variables above (default `os.environ`).

    Raises:
        ConfigurationError: An option is invalid.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        pool_size: int | None = None,
        namespace: str | None = None,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        checkout_timeout: float = DEFAULT_CHECKOUT_TIMEOUT,
        hook_retention: float | timedelta = DEFAULT_HOOK_RETENTION,
        retention: float | timedelta | str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.hook_retention = hook_retention_seconds(hook_retention)
        self.retention = retention_seconds(retention)
        env = os.environ if env is None else env
        self._url, self._url_source = _resolve_url(url, env)
        size = pool_size if pool_size is not None else _env_int(env, "TETHER_POSTGRES_POOL_SIZE")
        self.pool_size = DEFAULT_POOL_SIZE if size is None else size
        if self.pool_size < 1:
            raise ConfigurationError(f"pool_size must be at least 1, not {self.pool_size}")
        self.namespace = _schema.check_namespace(
            namespace or env.get("TETHER_POSTGRES_NAMESPACE") or DEFAULT_NAMESPACE
        )
        self.connect_timeout = check_duration(
            connect_timeout, what="connect_timeout", positive=True
        )
        self.checkout_timeout = check_duration(
            checkout_timeout, what="checkout_timeout", positive=True
        )
        try:
            self._params = conninfo_to_dict(self._url)
        except psycopg.ProgrammingError as exc:
            raise ConfigurationError(
                f"{_redact(self._url)!r} is not a valid PostgreSQL URL: {exc}"
            ) from exc
        self._pool: psycopg_pool.ConnectionPool[Any] | None = None
        self._commits: CommitLane | None = None
        self._reads: list[CommitLane] = []
        self._executor: ThreadPoolExecutor | None = None
        self._notifier: Notifier | None = None
        self._stores: Stores | None = None

    # -- description -------------------------------------------------------------------
    @property
    def url(self) -> str:
        """The database URL, password redacted."""
        return _redact(self._url)

    @property
    def capabilities(self) -> frozenset[Capability]:
        """Durable, shared across hosts; checkpoints, stamps, continue-as-new, retention."""
        return frozenset(
            {
                Capability.DURABLE,
                Capability.CROSS_PROCESS,
                Capability.FOLD_CHECKPOINTS,
                Capability.FORMAT_STAMP,
                Capability.CONTINUE_AS_NEW,
                Capability.HOOK_RETENTION,
            }
        )

    @property
    def stores(self) -> Stores:
        """The stores; `connect()` first."""
        if self._stores is None:
            raise ConfigurationError(f"{self.url} is not connected; call connect()")
        return self._stores

    @property
    def format_stamps(self) -> PostgresFormatStamps:
        """Raw stamp access (for the contract suites and tools)."""
        return PostgresFormatStamps(self)

    @property
    def stored_rows(self) -> PostgresStoredRows:
        """Raw access to the namespace's rows (`tether.testing.contract.StoredRowAccess`)."""
        return PostgresStoredRows(self)

    def _where(self) -> str:
        return f"Postgres namespace {self.namespace!r} at {self._server()}"

    def _server(self) -> str:
        host = self._params.get("host") or self._params.get("hostaddr") or "localhost"
        port = self._params.get("port") or "5432"
        db = self._params.get("dbname") or "(default database)"
        return f"{host}:{port}/{db}"

    # -- connections -------------------------------------------------------------------
    def _connect_kwargs(self) -> dict[str, Any]:
        return {"connect_timeout": max(2, round(self.connect_timeout))}

    def open_connection(self) -> psycopg.Connection[Any]:
        """A new connection, or a clear `ConfigurationError` naming the server and fix.

        Raises:
            ConfigurationError: The server is unreachable or refuses the credentials.
        """
        try:
            return psycopg.connect(self._url, **self._connect_kwargs())
        except psycopg.OperationalError as exc:
            raise self._explain(exc) from exc

    def _explain(self, exc: BaseException) -> ConfigurationError:
        error = self._explain_text(exc)
        # Which link of the chain named the server: with nothing set, the default was
        # tried, and the fix is to set a variable rather than to repair a URL.
        return ConfigurationError(f"{error} ({self._url_source})")

    def _explain_text(self, exc: BaseException) -> str:
        text = str(exc).strip()
        user = self._params.get("user") or "(default user)"
        lowered = text.lower()
        if "password" in lowered or ("role" in lowered and "does not exist" in lowered):
            return (
                f"PostgreSQL at {self._server()} refused user {user!r}: {text}. Check the user "
                "and password in the URL (argument, TETHER_POSTGRES_URL or DATABASE_URL)"
            )
        if "database" in lowered and "does not exist" in lowered:
            return (
                f"PostgreSQL at {self._server()} has no such database: {text}. Create it "
                "(createdb) or fix the database name in the URL"
            )
        return (
            f"cannot reach PostgreSQL at {self._server()}: {text}. Is the server running and "
            "accepting TCP connections there? Fix the URL (argument, TETHER_POSTGRES_URL or "
            "DATABASE_URL) or start the server"
        )

    async def migrate(self) -> None:
        """Check the stamp, then create or upgrade the schema (safe to run concurrently).

        Raises:
            ConfigurationError: The server is unreachable or refuses the credentials.
            MigrationPrivilegeError: The schema is not current and the user may not
                create or alter it (the runtime role, say).
            FormatVersionError: The namespace holds another format.
        """

        def run() -> None:
            with self.open_connection() as conn:
                with conn.transaction():
                    _schema.migrate(conn, self.namespace, where=self._where())

        try:
            await asyncio.to_thread(run)
        except psycopg.errors.InsufficientPrivilege as exc:
            user = self._params.get("user") or "(default user)"
            raise MigrationPrivilegeError(
                f"user {user!r} may not migrate {self._where()}: {exc}. Run `tether migrate` as "
                "the schema owner; workers and servers run with migrate=False (`tether migrate "
                "URL --runtime-role ROLE` grants a role what they need)",
                user=str(user),
                where=self._where(),
            ) from exc

    async def connect(self) -> Stores:
        """Check the server and the stamp, open the pool and the listener.

        Raises:
            ConfigurationError: The server is unreachable or refuses the credentials.
            FormatVersionError: The namespace is foreign, newer, or not migrated.
        """
        if self._stores is not None:
            return self._stores

        def check() -> None:
            with self.open_connection() as conn:
                _schema.require_migrated(conn, self.namespace, where=self._where())

        await asyncio.to_thread(check)
        # Autocommit: every store call opens its transaction explicitly
        # (`conn.transaction()`), and the one-round-trip commit needs none (`_fast`).
        kwargs = {
            **self._connect_kwargs(),
            "options": f"-c search_path={self.namespace}",
            "autocommit": True,
        }
        pool: psycopg_pool.ConnectionPool[Any] = psycopg_pool.ConnectionPool(
            self._url,
            min_size=min(2, self.pool_size),
            max_size=self.pool_size,
            kwargs=kwargs,
            # Frequent statements are prepared; a failed pipeline forgets them (`_pool`).
            connection_class=StoreConnection,
            open=False,
            name=f"tether-{self.namespace}",
            check=check_idle,
            timeout=self.checkout_timeout,
        )
        try:
            await asyncio.to_thread(pool.open, wait=True, timeout=self.connect_timeout)
        except psycopg_pool.PoolTimeout as exc:
            await asyncio.to_thread(pool.close)
            raise ConfigurationError(
                f"could not open {self.pool_size} connections to PostgreSQL at "
                f"{self._server()} within {self.connect_timeout}s; check max_connections "
                "or lower pool_size"
            ) from exc
        # The one-round-trip step commits run on the event loop (`_fast`): a small
        # async pool of their own, so they never wait behind a thread.
        commits: psycopg_pool.AsyncConnectionPool[Any] = psycopg_pool.AsyncConnectionPool(
            self._url,
            min_size=1,
            max_size=COMMIT_POOL_SIZE + READ_POOL_SIZE,
            kwargs=kwargs,
            connection_class=AsyncStoreConnection,
            open=False,
            name=f"tether-{self.namespace}-commits",
            check=check_idle_async,
            timeout=self.checkout_timeout,
        )
        notifier = Notifier(self._url, self.namespace, self._connect_kwargs())
        try:
            await commits.open(wait=True, timeout=self.connect_timeout)
            await notifier.start()
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            await commits.close()
            await asyncio.to_thread(pool.close)
            if isinstance(exc, psycopg.OperationalError):
                raise self._explain(exc) from exc
            raise ConfigurationError(
                f"could not open a connection to PostgreSQL at {self._server()} within "
                f"{self.connect_timeout}s"
            ) from exc
        self._pool = pool
        self._notifier = notifier
        self._executor = ThreadPoolExecutor(
            max_workers=self.pool_size, thread_name_prefix=f"tether-pg-{self.namespace}"
        )
        self._commits = lane = CommitLane(commits)
        self._reads = reads = [CommitLane(commits) for _ in range(READ_POOL_SIZE)]
        workflow = PostgresWorkflowStore(
            pool,
            self._executor,
            notifier,
            self.namespace,
            lane,
            hook_retention=self.hook_retention,
            reads=reads,
        )
        run = _runner(workflow)
        conversations = PostgresConversationStore(
            run, self.namespace, notifier, read=workflow._sql, query=workflow._query
        )
        workflow.attach_conversations(conversations)
        self._stores = Stores(
            workflow=workflow,
            submissions=PostgresSubmissionStore(
                run, self.namespace, read=workflow._sql, query=workflow._query
            ),
            conversations=conversations,
            attachments=PostgresAttachmentStore(run),
            credentials=PostgresCredentialStore(run),
            budgets=PostgresBudgetStore(run, query=workflow._query),
        )
        return self._stores

    async def close(self) -> None:
        """Stop the listener, close the pool and the threads."""
        self._stores = None
        notifier, self._notifier = self._notifier, None
        if notifier is not None:
            await notifier.close()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True)
        reads, self._reads = self._reads, []
        for read in reads:
            with contextlib.suppress(Exception):
                await read.release()  # the commit lane closes their shared pool
        commits, self._commits = self._commits, None
        if commits is not None:
            with contextlib.suppress(Exception):
                await commits.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(pool.close)

    async def __aenter__(self) -> PostgresBackend:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class PostgresFormatStamps:
    """Reads and writes a namespace's `tether_meta` stamp (capability FORMAT_STAMP)."""

    def __init__(self, backend: PostgresBackend) -> None:
        self._backend = backend

    async def read_stamp(self) -> str | None:
        """The stored stamp, or None."""
        b = self._backend

        def read() -> str | None:
            with b.open_connection() as conn:
                return _schema.read_stamp(conn, b.namespace)

        return await asyncio.to_thread(read)

    async def write_stamp(self, value: str) -> None:
        """Overwrite the stamp (tests stage foreign and legacy stores with it)."""
        b = self._backend

        def write() -> None:
            with b.open_connection() as conn:
                _schema.write_stamp(conn, b.namespace, value)

        await asyncio.to_thread(write)

    async def delete_stamp(self) -> None:
        """Remove the stamp, leaving every table (an unstamped store)."""
        b = self._backend

        def delete() -> None:
            with b.open_connection() as conn:
                _schema.delete_stamp(conn, b.namespace)

        await asyncio.to_thread(delete)

    @contextlib.asynccontextmanager
    async def fresh(self) -> AsyncIterator[PostgresBackend]:
        """A backend on a new, empty namespace of the same database, dropped after."""
        b = self._backend
        namespace = f"{b.namespace[:40]}_fresh_{secrets.token_hex(4)}"
        fresh = PostgresBackend(
            b._url, namespace=namespace, pool_size=2, connect_timeout=b.connect_timeout, env={}
        )
        try:
            yield fresh
        finally:
            await fresh.close()

            def drop() -> None:
                with b.open_connection() as conn:
                    drop_schema = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE")
                    conn.execute(drop_schema.format(sql.Identifier(namespace)))

            await asyncio.to_thread(drop)
