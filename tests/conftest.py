from __future__ import annotations

import asyncio
import base64
import compileall
import fcntl
import os
import secrets
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

import tether
from tether.stores import Backend, Capability, EnvKeyProvider, Stores
from tether.stores.postgres import PostgresBackend


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, hand each worker one test at a time, in the order below.

    xdist's default (``--dist load``) first gives each worker a contiguous quarter of
    its share: the first worker would get every slow test, run them one after another,
    and end long after the others. One at a time, a worker takes the next test when it
    is free, so the sort below is the order tests start in (an explicit
    ``--maxschedchunk`` is kept). Before the workers start, tether's modules are
    compiled once (`_compile_tether`).
    """
    if getattr(config.option, "maxschedchunk", 0) is None:
        config.option.maxschedchunk = 1
    if not hasattr(config, "workerinput"):  # once, in the process that starts the workers
        _compile_tether()


def _compile_tether() -> None:
    """Write the bytecode of tether's modules beside them (in ``__pycache__``), once.

    The suite starts hundreds of interpreters that import tether (workers, the CLI,
    servers, the docs' blocks). Under ``PYTHONDONTWRITEBYTECODE`` none of them writes
    the bytecode it compiles, so each compiled every module of tether again: about
    0.35 s of CPU of the 0.85 s an interpreter took to import ``tether.agent`` and
    ``tether.cli``. Bytecode older than its source is never loaded (the stamp in it
    is checked), so a file changed later is compiled again as usual.
    """
    compileall.compile_dir(str(Path(tether.__file__).parent), quiet=1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run a test that restarts Postgres first, then the tests allowed longer than the
    default timeout (longest first), then the rest with the slow and crash tests spread
    through its first two thirds (slow ones first), and the Postgres tests ahead of the
    others.

    Under pytest-xdist (`pytest -n 4`) a long test started last is a tail that no
    other worker can share; started early, it overlaps the many short ones. Spread out,
    the long tests do not all run at once: on a machine of few cores, four of them side
    by side take so long that they run into their timeouts. A restart holds the server
    alone (`server_held`): started later, it would wait for every Postgres test in
    flight (a soak, say) with every new one held back behind it.
    """

    def allowed(item: pytest.Item) -> float:
        marker = item.get_closest_marker("timeout")
        return float(marker.args[0]) if marker is not None and marker.args else 0.0

    def first(item: pytest.Item) -> bool:
        return item.get_closest_marker("restarts_postgres") is not None or allowed(item) > 0

    def long(item: pytest.Item) -> bool:
        return any(item.get_closest_marker(name) for name in ("slow", "crash"))

    items.sort(
        key=lambda item: (
            item.get_closest_marker("restarts_postgres") is None,
            -allowed(item),
            item.get_closest_marker("slow") is None,
            item.get_closest_marker("crash") is None,
            item.get_closest_marker("postgres") is None,
        )
    )
    head = [item for item in items if first(item)]
    longs = [item for item in items if not first(item) and long(item)]
    rest = [item for item in items if not first(item) and not long(item)]
    step = (len(rest) * 2 / 3) / max(len(longs), 1)
    ordered, taken = head, 0
    for index, item in enumerate(rest):
        while taken < len(longs) and taken * step <= index:
            ordered.append(longs[taken])
            taken += 1
        ordered.append(item)
    ordered.extend(longs[taken:])
    items[:] = ordered


#: The key of the `encrypted` backends.
ENCRYPTION_KEYS = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())


async def _open_each(
    request: pytest.FixtureRequest, tmp_path: Path, kind: str | None = None, **options: Any
) -> AsyncIterator[Backend]:
    """Open a new, empty store of the current schema on `kind` for one test.

    A Postgres namespace comes from the worker's `NamespacePool` (emptied after each
    test) and a SQLite file is a copy of a migrated one: both are exactly what migrating
    a new one gives, without paying for the migration each time.
    """
    kind = request.param if kind is None else kind
    if kind == "postgres":
        url = request.getfixturevalue("tether_postgres_url")
        namespace = _NAMESPACES.take(url)
        try:
            async with tether.open_backend(
                url, namespace=namespace, pool_size=4, **options
            ) as opened:
                yield opened
        finally:
            _NAMESPACES.give_back(url, namespace)
        return
    url = "memory://"
    if kind == "sqlite":
        shutil.copyfile(await _sqlite_template(request), tmp_path / "tether.db")
        url = f"sqlite:///{tmp_path}/tether.db"
    async with tether.open_backend(url, **options) as opened:
        yield opened


_SQLITE_TEMPLATES: list[Path] = []


async def _sqlite_template(request: pytest.FixtureRequest) -> Path:
    """A SQLite store just migrated and closed, made once per worker.

    Its copy is byte for byte the file a migration of a new store writes: SQLite keeps
    nothing of a file's path in it, and closing checkpoints the WAL into the file.
    """
    if not _SQLITE_TEMPLATES:
        factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
        path = factory.mktemp("sqlite-template") / "tether.db"
        async with tether.open_backend(f"sqlite:///{path}"):
            pass
        beside = [p.name for p in path.parent.iterdir() if p != path]
        assert not beside, f"a closed SQLite store left {beside} beside its file"
        _SQLITE_TEMPLATES.append(path)
    return _SQLITE_TEMPLATES[0]


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


#: One line per part of a Postgres namespace's state that a new namespace of the current
#: schema fixes, with the namespace's name written ``{ns}``: the schema and its relations,
#: columns, defaults, indexes, constraints, triggers, rules, policies, functions, types
#: and privileges, the sizes and planner statistics of its tables and indexes, its
#: sequences, and the stamps in ``tether_meta``. (Only ``tether_meta`` holds rows when
#: new; its size and statistics are left out, its rows stand for it.) The planner's
#: recorded estimates of an index's size are left out too: a truncated index records
#: 0 pages of unknown tuples where a new one records 1 page of none, a difference in
#: plan costs that changes no query's result.
#: What a namespace holds, found through indexes: the system catalogs of a server that
#: makes and drops many schemas are large, and a scan of `pg_class` by namespace reads
#: all of it. Every table, sequence, view, function and type records a dependency on its
#: schema; indexes are found through their tables.
_MEMBERS = """
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = %(ns)s),
member AS (
  SELECT d.classid, d.objid FROM pg_depend d, ns
  WHERE d.refclassid = 'pg_namespace'::regclass AND d.refobjid = ns.oid
),
tab AS (
  SELECT c.oid, c.relname, c.relkind FROM member m JOIN pg_class c
    ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
),
rel AS (
  SELECT oid, relname, relkind FROM tab
  UNION ALL SELECT c.oid, c.relname, c.relkind FROM tab t
    JOIN pg_index i ON i.indrelid = t.oid JOIN pg_class c ON c.oid = i.indexrelid
)
"""

_NAMESPACE_STATE = (
    _MEMBERS
    + """
SELECT replace(x, %(ns)s, '{{ns}}') AS y FROM (
  SELECT concat_ws(' ', 'schema', n.nspowner::regrole::text, n.nspacl::text)
    FROM pg_namespace n, ns WHERE n.oid = ns.oid
  UNION ALL SELECT concat_ws(' ', 'default acl', d.defaclobjtype, d.defaclacl::text)
    FROM pg_default_acl d, ns WHERE d.defaclnamespace = ns.oid
  UNION ALL SELECT concat_ws(' ', 'relation', c.relname, c.relkind, c.relpersistence,
      c.relowner::regrole::text, c.relacl::text, c.reloptions::text, c.relrowsecurity,
      c.relforcerowsecurity, c.relreplident)
    FROM rel r JOIN pg_class c ON c.oid = r.oid
  UNION ALL SELECT concat_ws(' ', 'size', r.relname, pg_relation_size(r.oid))
    FROM rel r WHERE r.relkind IN ('r', 'p', 'i', 'm')
      AND r.relname NOT IN ('tether_meta', 'tether_meta_pkey')
  UNION ALL SELECT concat_ws(' ', 'estimates', c.relname, c.relpages, c.reltuples,
      c.relallvisible)
    FROM tab r JOIN pg_class c ON c.oid = r.oid
    WHERE r.relkind IN ('r', 'p', 'm') AND r.relname <> 'tether_meta'
  UNION ALL SELECT concat_ws(' ', 'statistics', r.relname, s.staattnum)
    FROM pg_statistic s JOIN rel r ON s.starelid = r.oid
  UNION ALL SELECT concat_ws(' ', 'column', r.relname, a.attnum, a.attname,
      format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attidentity, a.attgenerated,
      a.attisdropped, a.attacl::text, a.attcollation, a.attstorage,
      pg_get_expr(d.adbin, d.adrelid))
    FROM pg_attribute a JOIN rel r ON a.attrelid = r.oid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attnum > 0
  UNION ALL SELECT concat_ws(' ', 'index', pg_get_indexdef(i.indexrelid), i.indisvalid)
    FROM pg_index i JOIN tab r ON i.indrelid = r.oid
  UNION ALL SELECT concat_ws(' ', 'constraint', r.relname, o.conname, pg_get_constraintdef(o.oid))
    FROM pg_constraint o JOIN tab r ON o.conrelid = r.oid
  UNION ALL SELECT concat_ws(' ', 'trigger', pg_get_triggerdef(t.oid), t.tgenabled)
    FROM pg_trigger t JOIN tab r ON t.tgrelid = r.oid
  UNION ALL SELECT concat_ws(' ', 'rule', r.relname, w.rulename, pg_get_ruledef(w.oid))
    FROM pg_rewrite w JOIN tab r ON w.ev_class = r.oid
  UNION ALL SELECT concat_ws(' ', 'policy', r.relname, p.polname, p.polcmd, p.polpermissive,
      p.polroles::text, pg_get_expr(p.polqual, p.polrelid),
      pg_get_expr(p.polwithcheck, p.polrelid))
    FROM pg_policy p JOIN tab r ON p.polrelid = r.oid
  UNION ALL SELECT concat_ws(' ', 'function', p.proname,
      pg_get_function_identity_arguments(p.oid), p.proowner::regrole::text, p.proacl::text,
      p.proconfig::text, pg_get_functiondef(p.oid))
    FROM member m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
  UNION ALL SELECT concat_ws(' ', 'type', t.typname, t.typtype, t.typowner::regrole::text,
      t.typacl::text)
    FROM member m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
  UNION ALL SELECT concat_ws(' ', 'sequence', r.relname, pg_sequence_last_value(r.oid),
      s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcycle)
    FROM tab r JOIN pg_sequence s ON s.seqrelid = r.oid
  UNION ALL SELECT concat_ws(' ', 'other', m.classid::regclass::text)
    FROM member m WHERE m.classid NOT IN
      ('pg_class'::regclass, 'pg_proc'::regclass, 'pg_type'::regclass)
  UNION ALL SELECT concat_ws(' ', 'meta', m.key, m.value) FROM {meta} m
) lines (x) ORDER BY y
"""
)

#: The namespace's tables that were written to (they have pages; `tether_meta` aside),
#: and its sequences that were used.
_WRITTEN = (
    _MEMBERS
    + """
SELECT relkind, relname FROM tab
WHERE (relkind IN ('r', 'p') AND relname <> 'tether_meta' AND pg_relation_size(oid) > 0)
   OR (relkind = 'S' AND pg_sequence_last_value(oid) IS NOT NULL)
"""
)


class NamespacePool:
    """This worker's migrated Postgres namespaces that no test uses, each as new.

    Migrating a namespace is a hundred statements of DDL, and dropping it as many files
    unlinked and catalog rows left dead (a server that does not vacuum its catalogs gets
    slower at both), so each test's namespace is emptied after it and handed to the next.
    Emptied means indistinguishable from new: every table written to (it has pages) is
    truncated, which gives it new files and restarts its identities; a used sequence
    restarts; the keyring schema (there with `keys` only) is dropped, so the next open
    with a key makes a new keyring. Then the namespace's state (`_NAMESPACE_STATE`) is
    compared with that of one just migrated, and a namespace that differs -- a test
    altered its schema, its privileges or its stamps, or autovacuum analyzed a table --
    is dropped instead, and the next test gets a new name to migrate. The comparison is
    made again when a namespace is handed out, which catches rows a process outliving
    its test wrote in between.
    """

    def __init__(self) -> None:
        self._free: list[str] = []
        self._new: list[str] | None = None  # the state of a namespace just migrated

    def take(self, url: str) -> str:
        """A namespace for one test: an emptied one, or a new name (not yet migrated)."""
        while self._free:
            namespace = self._free.pop()
            if self._state(url, namespace) == self._new:
                return namespace
            drop_namespace(url, namespace)
        namespace = f"t_{secrets.token_hex(6)}"
        if self._new is None:
            # The test's event loop may be running: migrate on a thread's own.
            with ThreadPoolExecutor(1) as thread:
                thread.submit(asyncio.run, _migrate(url, namespace)).result()
            self._new = self._state(url, namespace)
        return namespace

    def give_back(self, url: str, namespace: str) -> None:
        """Empty `namespace` after its test and keep it, or drop it if it is not as new."""
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("SET lock_timeout = '10s'")
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                        sql.Identifier(f"{namespace}_keyring")
                    )
                )
                written = conn.execute(_WRITTEN, {"ns": namespace}).fetchall()
                tables = [sql.Identifier(namespace, str(n)) for k, n in written if k != "S"]
                if tables:
                    conn.execute(
                        sql.SQL("TRUNCATE {} RESTART IDENTITY").format(sql.SQL(", ").join(tables))
                    )
                for kind, name in written:
                    if kind == "S":  # as new (RESTART IDENTITY did so for its table's)
                        conn.execute(
                            sql.SQL("ALTER SEQUENCE {} RESTART").format(
                                sql.Identifier(namespace, str(name))
                            )
                        )
                state = self._read_state(conn, namespace)
        except psycopg.Error:
            state = None
        if state is not None and state == self._new:
            self._free.append(namespace)
        else:
            drop_namespace(url, namespace)

    def drop_all(self, url: str) -> None:
        """Drop the namespaces kept (at the end of the worker's session)."""
        if self._free:
            with _server_lock(False):  # held as a test holds it: no restart under way
                while self._free:
                    drop_namespace(url, self._free.pop())

    def _state(self, url: str, namespace: str) -> list[str] | None:
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                return self._read_state(conn, namespace)
        except psycopg.Error:
            return None

    @staticmethod
    def _read_state(conn: psycopg.Connection[Any], namespace: str) -> list[str] | None:
        exists = conn.execute("SELECT to_regclass(%s)", (f'"{namespace}".tether_meta',)).fetchone()
        if exists is None or exists[0] is None:
            return None
        query = sql.SQL(_NAMESPACE_STATE).format(meta=sql.Identifier(namespace, "tether_meta"))
        return [str(line) for (line,) in conn.execute(query, {"ns": namespace}).fetchall()]


async def _migrate(url: str, namespace: str) -> None:
    backend = PostgresBackend(url, namespace=namespace)
    try:
        await backend.migrate()
    finally:
        await backend.close()


_NAMESPACES = NamespacePool()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop this worker's kept namespaces."""
    _NAMESPACES.drop_all(str(session.config.getoption("--tether-postgres-url")))


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
def pg_namespace(request: pytest.FixtureRequest, pg_url: str) -> Iterator[str]:
    """A Postgres namespace of the test's own, dropped after it: a new name.

    A test of ``pg_backend`` (tests/postgres), which migrates its namespace before the
    test sees it, gets an emptied one of the worker's `NamespacePool` instead.
    """
    if "pg_backend" in request.fixturenames:
        namespace = _NAMESPACES.take(pg_url)
        try:
            yield namespace
        finally:
            _NAMESPACES.give_back(pg_url, namespace)
        return
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
