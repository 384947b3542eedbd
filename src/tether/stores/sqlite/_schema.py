"""SQLite schema: the format-version stamp and the ordered list of migrations.

The stamp is checked before anything else is read or written, and written before any
other schema change, so a crash mid-migration leaves a stamped store that the next
`migrate()` completes. Migrations are idempotent DDL applied in order; `schema_version`
records the last one applied.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ...errors import FormatVersionError
from .._shared import FORMAT_VERSION, LEGACY_FORMAT_STAMPS
from ._agent_schema import AGENT_MIGRATIONS
from ._workflow_schema import WORKFLOW_MIGRATIONS

__all__ = [
    "FORMAT_VERSION",
    "LEGACY_FORMAT_STAMPS",
    "MIGRATIONS",
    "Migration",
    "check_stamp",
    "delete_stamp",
    "migrate",
    "read_stamp",
    "write_stamp",
]

_META = "tether_meta"


@dataclass(frozen=True, slots=True, kw_only=True)
class Migration:
    """One step of schema: applied in `version` order, exactly once per store."""

    version: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = tuple(
    sorted(
        (
            *(Migration(version=v, name=n, statements=s) for v, n, s in WORKFLOW_MIGRATIONS),
            *(Migration(version=v, name=n, statements=s) for v, n, s in AGENT_MIGRATIONS),
        ),
        key=lambda m: m.version,
    )
)


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return row is not None


def _product_tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tether_%' "
        "AND name != ?",
        (_META,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def read_stamp(conn: sqlite3.Connection) -> str | None:
    """The stored format stamp, or None when the store carries none."""
    if not _has_table(conn, _META):
        return None
    row = conn.execute(f"SELECT value FROM {_META} WHERE key = 'format_version'").fetchone()
    return None if row is None else str(row[0])


def write_stamp(conn: sqlite3.Connection, value: str) -> None:
    """Write a format stamp (tests use it to stage legacy and foreign stores)."""
    conn.execute(f"CREATE TABLE IF NOT EXISTS {_META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute(
        f"INSERT INTO {_META} (key, value) VALUES ('format_version', ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (value,),
    )


def delete_stamp(conn: sqlite3.Connection) -> None:
    """Remove the format stamp (tests use it to stage an unstamped store)."""
    if _has_table(conn, _META):
        conn.execute(f"DELETE FROM {_META} WHERE key = 'format_version'")


def check_stamp(conn: sqlite3.Connection, *, where: str) -> str | None:
    """Refuse a store this code cannot use; return its stamp (None when fresh).

    Raises:
        FormatVersionError: The stamp is unknown or newer, or product tables exist
            without a stamp.
    """
    stamp = read_stamp(conn)
    if stamp is None:
        if _product_tables(conn):
            raise FormatVersionError(
                f"{where} holds tether tables but no format stamp; it was not made by a "
                "released tether and cannot be used safely: point tether at a new file"
            )
        return None
    if stamp == str(FORMAT_VERSION) or stamp in LEGACY_FORMAT_STAMPS:
        return stamp
    raise FormatVersionError(
        f"{where} is stamped with format {stamp!r}; this tether reads and writes format "
        f"{FORMAT_VERSION!r} only (a newer tether made it, or it is not a tether store): "
        "upgrade tether or use another file"
    )


def _schema_version(conn: sqlite3.Connection) -> int:
    row = conn.execute(f"SELECT value FROM {_META} WHERE key = 'schema_version'").fetchone()
    return 0 if row is None else int(row[0])


def _foreign_objects(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
        "AND name NOT LIKE 'tether\\_%' ESCAPE '\\' ORDER BY type DESC, name"
    ).fetchall()
    return [str(r[0]) for r in rows]


def migrate(conn: sqlite3.Connection, *, where: str, adopt: bool = False) -> None:
    """Stamp (if fresh), then apply every migration not yet applied, in one transaction.

    Raises:
        FormatVersionError: The stamp is unknown or newer, or the file is fresh to tether
            but holds another application's tables and `adopt` is off.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        stamp = check_stamp(conn, where=where)
        foreign = _foreign_objects(conn) if stamp is None else []
        if foreign and not adopt:
            shown = ", ".join(repr(n) for n in foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise FormatVersionError(
                f"{where} holds another application's data ({len(foreign)} tables or "
                f"indexes: {shown}) and no tether stamp; tether does not add its tables to "
                "a database it did not create. Point tether at a file of its own, or, to "
                "share this file on purpose, open it with adopt=True (in a URL: "
                "sqlite:///path/to/file.db?adopt=true)"
            )
        if stamp != str(FORMAT_VERSION):
            # The stamp goes first: whatever happens next, this store is tether's.
            write_stamp(conn, str(FORMAT_VERSION))
        current = _schema_version(conn)
        for migration in MIGRATIONS:
            if migration.version <= current:
                continue
            for statement in migration.statements:
                conn.execute(statement)
            conn.execute(
                f"INSERT INTO {_META} (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(migration.version),),
            )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def require_migrated(conn: sqlite3.Connection, *, where: str) -> None:
    """Refuse to connect to a store that is foreign, newer, or not fully migrated."""
    stamp = check_stamp(conn, where=where)
    latest = MIGRATIONS[-1].version if MIGRATIONS else 0
    if stamp is None or _schema_version(conn) < latest:
        raise FormatVersionError(
            f"{where} is not migrated to this tether's schema; run `tether migrate` or "
            "open it with migrate=True"
        )
