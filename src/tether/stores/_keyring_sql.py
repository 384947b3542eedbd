"""A keyring in SQL tables, written once for SQLite and Postgres.

Each backend package gives it a connection factory and its dialect (placeholders, the
statement that opens a write transaction, type names). Calls run in a thread on one
connection, one at a time: the keyring is read when a process first meets a scope
and written when a scope gets a key, is erased or is re-wrapped, never per step.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ._keyring import ErasureRecord, KeyEpoch, WrappedKey, check_current, epoch_step

__all__ = ["SqlDialect", "SqlKeyring"]

T = TypeVar("T")

# The key-epoch rows of the keyring's meta table (see `_keyring`'s module docstring).
_CURRENT = "epoch_current_key_id"
_BEGUN = "epoch_beginning_key_id"
_BASELINE = "epoch_beginning_erasures"
_COVERED = "epoch_covered_erasures"
_NUMBER = "epoch_number"
_AT = "epoch_completed_at"


@dataclass(frozen=True, slots=True, kw_only=True)
class SqlDialect:
    """How one database spells the keyring's statements."""

    prefix: str  # prepended to table names (a schema, or a name prefix)
    placeholder: str  # "?" or "%s"
    begin: str  # opens a write transaction
    blob: str  # the binary column type
    real: str  # the float column type
    create_prelude: tuple[str, ...] = ()
    after_erase: tuple[str, ...] = ()
    # A query whose one value is true when every keyring table and index exists; then
    # opening with create=True runs no DDL (a role without DDL rights may open it).
    complete: str | None = None
    # Taken first by an insert, and by `begin_epoch`, which conflicts with it: a key
    # inserted under an old KEK either commits before the epoch begins (and the re-wrap
    # sees it) or waits and then reads the new current KEK. Unset where write
    # transactions are serialised anyway (SQLite).
    lock_for_insert: str | None = None
    lock_for_epoch: str | None = None


class SqlKeyring:
    """A `Keyring` over a DB-API connection.

    Args:
        connect: Opens the connection (autocommit; transactions are explicit).
        dialect: The database's spelling.
        description: Where the keyring is, for messages.
    """

    def __init__(
        self, connect: Callable[[], Any], dialect: SqlDialect, *, description: str
    ) -> None:
        self._connect = connect
        self._d = dialect
        self._description = description
        self._conn: Any = None
        self._lock = threading.Lock()

    @property
    def description(self) -> str:
        return self._description

    def _sql(self, text: str) -> str:
        return text.replace("{p}", self._d.prefix).replace("?", self._d.placeholder)

    async def _call(self, fn: Callable[[Any], T], *, write: bool = False) -> T:
        def run() -> T:
            with self._lock:
                if self._conn is None:
                    self._conn = self._connect()
                conn = self._conn
                if not write:
                    return fn(conn)
                conn.execute(self._d.begin)
                try:
                    out = fn(conn)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
                return out

        return await asyncio.to_thread(run)

    async def open(self, *, create: bool) -> str:
        d = self._d

        def run(conn: Any) -> str:
            if create and not (
                d.complete is not None and bool(conn.execute(d.complete).fetchone()[0])
            ):
                for statement in d.create_prelude:
                    conn.execute(statement)
                for statement in (
                    "CREATE TABLE IF NOT EXISTS {p}keyring_meta "
                    "(name TEXT PRIMARY KEY, value TEXT NOT NULL)",
                    f"CREATE TABLE IF NOT EXISTS {{p}}data_keys (scope TEXT NOT NULL, "
                    "generation INTEGER NOT NULL, key_id TEXT NOT NULL, "
                    f"wrapped {d.blob} NOT NULL, created_at {d.real} NOT NULL, "
                    "PRIMARY KEY (scope, generation))",
                    "CREATE INDEX IF NOT EXISTS data_keys_by_key_id "
                    "ON {p}data_keys (key_id, scope, generation)",
                    f"CREATE TABLE IF NOT EXISTS {{p}}erasures (scope TEXT NOT NULL, "
                    f"through_generation INTEGER NOT NULL, erased_at {d.real} NOT NULL, "
                    "note TEXT NOT NULL, PRIMARY KEY (scope, through_generation))",
                ):
                    conn.execute(self._sql(statement))
                conn.execute(
                    self._sql(
                        "INSERT INTO {p}keyring_meta (name, value) VALUES ('keyring_id', ?) "
                        "ON CONFLICT (name) DO NOTHING"
                    ),
                    ("kr_" + os.urandom(8).hex(),),
                )
            row = conn.execute(
                self._sql("SELECT value FROM {p}keyring_meta WHERE name = 'keyring_id'")
            ).fetchone()
            if row is None:
                raise LookupError("keyring tables exist but hold no keyring id")
            return str(row[0])

        return await self._call(run, write=create)

    async def close(self) -> None:
        def run() -> None:
            with self._lock:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None

        await asyncio.to_thread(run)

    @staticmethod
    def _key(row: Sequence[Any]) -> WrappedKey:
        return WrappedKey(
            scope=row[0],
            generation=int(row[1]),
            key_id=row[2],
            wrapped=bytes(row[3]),
            created_at=float(row[4]),
        )

    _COLUMNS = "scope, generation, key_id, wrapped, created_at"

    async def latest(self, scope: str) -> tuple[WrappedKey | None, int]:
        def run(conn: Any) -> tuple[WrappedKey | None, int]:
            row = conn.execute(
                self._sql(
                    f"SELECT {self._COLUMNS} FROM {{p}}data_keys WHERE scope = ? "
                    "ORDER BY generation DESC LIMIT 1"
                ),
                (scope,),
            ).fetchone()
            erased = conn.execute(
                self._sql("SELECT MAX(through_generation) FROM {p}erasures WHERE scope = ?"),
                (scope,),
            ).fetchone()
            return (None if row is None else self._key(row)), int(erased[0] or 0)

        return await self._call(run)

    async def get(self, scope: str, generation: int) -> WrappedKey | None:
        def run(conn: Any) -> WrappedKey | None:
            row = conn.execute(
                self._sql(
                    f"SELECT {self._COLUMNS} FROM {{p}}data_keys WHERE scope = ? AND generation = ?"
                ),
                (scope, generation),
            ).fetchone()
            return None if row is None else self._key(row)

        return await self._call(run)

    async def erasure(self, scope: str, generation: int | None = None) -> ErasureRecord | None:
        def run(conn: Any) -> ErasureRecord | None:
            row = conn.execute(
                self._sql(
                    "SELECT scope, through_generation, erased_at, note FROM {p}erasures "
                    "WHERE scope = ? AND through_generation >= ? "
                    "ORDER BY through_generation DESC LIMIT 1"
                ),
                (scope, generation or 0),
            ).fetchone()
            if row is None:
                return None
            return ErasureRecord(
                scope=row[0],
                through_generation=int(row[1]),
                erased_at=float(row[2]),
                note=row[3],
            )

        return await self._call(run)

    async def insert(self, key: WrappedKey) -> WrappedKey | None:
        def run(conn: Any) -> WrappedKey | None:
            if self._d.lock_for_insert is not None:
                conn.execute(self._sql(self._d.lock_for_insert))
            check_current(self._description, self._meta(conn).get(_CURRENT), key.key_id)
            erased = conn.execute(
                self._sql("SELECT MAX(through_generation) FROM {p}erasures WHERE scope = ?"),
                (key.scope,),
            ).fetchone()
            if key.generation <= int(erased[0] or 0):
                return None
            conn.execute(
                self._sql(
                    f"INSERT INTO {{p}}data_keys ({self._COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (scope, generation) DO NOTHING"
                ),
                (key.scope, key.generation, key.key_id, key.wrapped, key.created_at),
            )
            row = conn.execute(
                self._sql(
                    f"SELECT {self._COLUMNS} FROM {{p}}data_keys WHERE scope = ? AND generation = ?"
                ),
                (key.scope, key.generation),
            ).fetchone()
            return self._key(row)

        return await self._call(run, write=True)

    async def rewrap(self, key: WrappedKey, *, old_key_id: str) -> bool:
        def run(conn: Any) -> bool:
            cur = conn.execute(
                self._sql(
                    "UPDATE {p}data_keys SET key_id = ?, wrapped = ? "
                    "WHERE scope = ? AND generation = ? AND key_id = ?"
                ),
                (key.key_id, key.wrapped, key.scope, key.generation, old_key_id),
            )
            return bool(cur.rowcount == 1)

        return await self._call(run, write=True)

    async def erase(self, scopes: Sequence[str], *, note: str, at: float) -> list[ErasureRecord]:
        def run(conn: Any) -> list[ErasureRecord]:
            out = []
            for scope in scopes:
                row = conn.execute(
                    self._sql(
                        "SELECT MAX(g) FROM (SELECT MAX(generation) AS g FROM {p}data_keys "
                        "WHERE scope = ? UNION ALL SELECT MAX(through_generation) AS g "
                        "FROM {p}erasures WHERE scope = ?) AS both_tables"
                    ),
                    (scope, scope),
                ).fetchone()
                through = int(row[0] or 0)
                conn.execute(self._sql("DELETE FROM {p}data_keys WHERE scope = ?"), (scope,))
                conn.execute(
                    self._sql(
                        "INSERT INTO {p}erasures (scope, through_generation, erased_at, note) "
                        "VALUES (?, ?, ?, ?) ON CONFLICT (scope, through_generation) "
                        "DO UPDATE SET erased_at = excluded.erased_at, note = excluded.note"
                    ),
                    (scope, through, at, note),
                )
                out.append(
                    ErasureRecord(scope=scope, through_generation=through, erased_at=at, note=note)
                )
            return out

        records = await self._call(run, write=True)
        if self._d.after_erase:

            def tidy(conn: Any) -> None:
                for statement in self._d.after_erase:
                    conn.execute(statement)

            await self._call(tidy)
        return records

    async def keys_not_under(
        self, key_id: str, *, after: tuple[str, int] | None, limit: int
    ) -> list[WrappedKey]:
        scope, generation = after if after is not None else ("", -1)

        def run(conn: Any) -> list[WrappedKey]:
            rows = conn.execute(
                self._sql(
                    f"SELECT {self._COLUMNS} FROM {{p}}data_keys WHERE key_id <> ? "
                    "AND (scope > ? OR (scope = ? AND generation > ?)) "
                    "ORDER BY scope, generation LIMIT ?"
                ),
                (key_id, scope, scope, generation, limit),
            ).fetchall()
            return [self._key(r) for r in rows]

        return await self._call(run)

    def _meta(self, conn: Any) -> dict[str, str]:
        rows = conn.execute(
            self._sql("SELECT name, value FROM {p}keyring_meta WHERE name LIKE 'epoch%'")
        ).fetchall()
        return {str(r[0]): str(r[1]) for r in rows}

    def _set_meta(self, conn: Any, values: dict[str, str]) -> None:
        for name, value in values.items():
            conn.execute(
                self._sql(
                    "INSERT INTO {p}keyring_meta (name, value) VALUES (?, ?) "
                    "ON CONFLICT (name) DO UPDATE SET value = excluded.value"
                ),
                (name, value),
            )

    def _epoch(self, conn: Any) -> KeyEpoch:
        meta = self._meta(conn)
        (erasures,) = conn.execute(self._sql("SELECT count(*) FROM {p}erasures")).fetchone()
        completed = meta.get(_AT)
        return KeyEpoch(
            current_key_id=meta.get(_CURRENT),
            beginning_key_id=meta.get(_BEGUN),
            number=int(meta.get(_NUMBER, 0)),
            completed_at=None if completed is None else float(completed),
            erasures=int(erasures),
            covered=int(meta.get(_COVERED, 0)),
        )

    async def epoch(self) -> KeyEpoch:
        return await self._call(self._epoch)

    async def begin_epoch(self, key_id: str, *, erasures: int | None = None) -> KeyEpoch:
        def run(conn: Any) -> KeyEpoch:
            if self._d.lock_for_epoch is not None:
                conn.execute(self._sql(self._d.lock_for_epoch))
            state = self._epoch(conn)
            used = conn.execute(
                self._sql("SELECT 1 FROM {p}data_keys WHERE key_id = ? LIMIT 1"), (key_id,)
            ).fetchone()
            baseline = self._meta(conn).get(_BASELINE)
            step = epoch_step(
                state,
                key_id,
                erasures,
                used is not None,
                None if baseline is None else int(baseline),
            )
            self._set_meta(conn, {_CURRENT: key_id})
            if step is not None:
                count, begun = step
                if begun is None:
                    conn.execute(
                        self._sql("DELETE FROM {p}keyring_meta WHERE name IN (?, ?)"),
                        (_BEGUN, _BASELINE),
                    )
                else:
                    self._set_meta(conn, {_BEGUN: begun, _BASELINE: str(count)})
            return self._epoch(conn)

        return await self._call(run, write=True)

    async def end_epoch(self, key_id: str, *, at: float) -> KeyEpoch:
        def run(conn: Any) -> KeyEpoch:
            state = self._epoch(conn)
            if state.beginning_key_id != key_id:
                return state
            baseline = self._meta(conn).get(_BASELINE, "0")
            self._set_meta(
                conn, {_COVERED: baseline, _NUMBER: str(state.number + 1), _AT: repr(at)}
            )
            conn.execute(
                self._sql("DELETE FROM {p}keyring_meta WHERE name IN (?, ?)"), (_BEGUN, _BASELINE)
            )
            return self._epoch(conn)

        return await self._call(run, write=True)

    async def key_ids_in_use(self) -> frozenset[str]:
        def run(conn: Any) -> frozenset[str]:
            rows = conn.execute(self._sql("SELECT DISTINCT key_id FROM {p}data_keys")).fetchall()
            return frozenset(str(r[0]) for r in rows)

        return await self._call(run)
