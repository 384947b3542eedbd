from __future__ import annotations

import base64
import fcntl
import os
import secrets
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

import tether
from tether.stores import Backend, Capability, EnvKeyProvider, Stores


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run a test that restarts Postgres first, then the slow tests, then the crash
    tests, then the rest (a stable sort).

    Under pytest-xdist (`pytest -n 4`) a long test started last is a tail that no
    other worker can share; started first, it overlaps the many short ones. A restart
    holds the server alone (`server_held`): started later, it would wait for every
    Postgres test in flight (a soak, say) with every new one held back behind it.
    """
    items.sort(
        key=lambda item: (
            item.get_closest_marker("restarts_postgres") is None,
            item.get_closest_marker("slow") is None,
            item.get_closest_marker("crash") is None,
        )
    )


#: The key of the `encrypted` backends.
ENCRYPTION_KEYS = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())


async def _open_each(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str | None = None, **options: Any
) -> AsyncIterator[Backend]:
    kind = request.param if kind is None else kind
    if kind == "postgres":
        url = request.getfixturevalue("tether_postgres_url")
        namespace = f"t_{secrets.token_hex(6)}"
        try:
            async with tether.open_backend(
                url, namespace=namespace, pool_size=4, **options
            ) as opened:
                yield opened
        finally:
            drop_namespace(url, namespace)
            drop_namespace(url, f"{namespace}_keyring")  # there with `keys` only
        return
    url = "memory://" if kind == "memory" else f"sqlite:///{tmp_path}/tether.db"
    async with tether.open_backend(url, **options) as opened:
        yield opened


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """Every engine and workflow-store test runs on each backend tether ships."""
    async for opened in _open_each(request, tmp_path):
        yield opened


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def encrypted(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """Each backend with encryption on (`ENCRYPTION_KEYS`)."""
    async for opened in _open_each(request, tmp_path, keys=ENCRYPTION_KEYS):
        yield opened


@pytest.fixture(
    params=[
        *((kind, sealed) for sealed in (False, True) for kind in ("memory", "sqlite")),
        *(pytest.param(("postgres", s), marks=pytest.mark.postgres) for s in (False, True)),
    ],
    ids=lambda p: f"{p[0]}{'-encrypted' if p[1] else ''}",
)
async def any_backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """Each backend, as is and with encryption on (`backend`, then `encrypted`)."""
    kind, sealed = request.param
    options = {"keys": ENCRYPTION_KEYS} if sealed else {}
    async for opened in _open_each(request, tmp_path, kind, **options):
        yield opened


@pytest.fixture
def backend_without_handoff(backend: Backend) -> Backend:
    """The same backend, not declaring the capabilities a hand-off needs."""
    return _NoHandoff(backend)


class _NoHandoff:
    """A real backend that does not declare the hand-off capabilities."""

    def __init__(self, inner: Backend) -> None:
        self._inner = inner

    @property
    def url(self) -> str:
        return self._inner.url

    @property
    def capabilities(self) -> frozenset[Capability]:
        return self._inner.capabilities - {Capability.CONTINUE_AS_NEW, Capability.HOOK_RETENTION}

    @property
    def stores(self) -> Stores:
        return self._inner.stores

    async def migrate(self) -> None:
        await self._inner.migrate()

    async def connect(self) -> Stores:
        return await self._inner.connect()

    async def close(self) -> None:
        await self._inner.close()


def drop_namespace(url: str, namespace: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace)))


@pytest.fixture(name="tether_postgres_url")
def server_held(request: pytest.FixtureRequest, tether_postgres_url: str) -> Iterator[str]:
    """The plugin's Postgres URL, with the server held for the test.

    A test marked ``restarts_postgres`` holds it alone: under pytest-xdist the other
    workers' tests would otherwise lose their connections to its restart. Every other
    test holds it shared, so they run side by side.
    """
    with _server_lock(request.node.get_closest_marker("restarts_postgres") is not None):
        yield tether_postgres_url


@contextmanager
def _server_lock(exclusive: bool) -> Iterator[None]:
    """A shared or exclusive hold of the test server, across processes (flock).

    The gate keeps a waiting exclusive hold from starving: readers pass it one at a
    time on their way in, and the exclusive holder keeps it shut while it waits.
    """
    folder = Path(tempfile.gettempdir())
    with open(folder / "tether-tests-pg.gate", "a") as gate:
        with open(folder / "tether-tests-pg.lock", "a") as lock:
            fcntl.flock(gate, fcntl.LOCK_EX)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            finally:
                if not exclusive:
                    fcntl.flock(gate, fcntl.LOCK_UN)
            yield  # closing the files releases both locks


@pytest.fixture
def pg_url(tether_postgres_url: str) -> str:
    return tether_postgres_url


@pytest.fixture
def pg_namespace(pg_url: str) -> Iterator[str]:
    namespace = f"t_{secrets.token_hex(6)}"
    yield namespace
    drop_namespace(pg_url, namespace)


#: `record_calls(obj, name, what=...)`: see the fixture.
RecordCalls = Callable[..., list[Any]]


@pytest.fixture
def record_calls(monkeypatch: pytest.MonkeyPatch) -> RecordCalls:
    """Record each call of an async method, then make it: ``calls = record_calls(obj, name)``.

    What is recorded is the call's first argument, or ``what(*args, **kwargs)``. The
    method is replaced on `obj` for the rest of the test.
    """

    def install(obj: Any, name: str, what: Callable[..., Any] | None = None) -> list[Any]:
        calls: list[Any] = []
        original = getattr(obj, name)

        async def recorded(*args: Any, **kwargs: Any) -> Any:
            calls.append(what(*args, **kwargs) if what is not None else args[0])
            return await original(*args, **kwargs)

        monkeypatch.setattr(obj, name, recorded)
        return calls

    return install


@pytest.fixture
def count_reads(record_calls: RecordCalls) -> Callable[[Any], list[int]]:
    """Counts a workflow store's stream reads: `reads = count_reads(store)` (their starts)."""
    return lambda store: record_calls(
        store, "read_stream", lambda run_id, name, **kw: kw.get("start", 0)
    )
