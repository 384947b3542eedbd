"""How the Postgres workflow store's errors become tether's: a refusal, a conflict or an outage."""

from __future__ import annotations

from typing import NoReturn

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from ...errors import (
    ConflictError,
    InvalidInputError,
    StoreError,
    StoreUnavailableError,
    TetherError,
)

# SQLSTATE classes that mean "not now" rather than "not this": connection exceptions,
# transaction rollbacks (serialization failures, deadlocks), insufficient resources
# (disk full, too many connections), operator intervention (shutdown, cancel, restart)
# and system errors. Anything else the server answers is a refusal of the statement.
_UNAVAILABLE_CLASSES = ("08", "40", "53", "55", "57", "58")
#: What a call on a closed backend raises.
CLOSED = "the PostgreSQL backend is closed; open it again to use it"


def _wrap(exc: BaseException) -> BaseException:
    if isinstance(exc, UnicodeEncodeError | psycopg.DataError | pg_errors.ProgramLimitExceeded):
        # A value the server (or the driver) refuses is a refusal, not an outage:
        # retrying it cannot succeed. The shared rules refuse such values first; this
        # covers what reaches the database some other way.
        return InvalidInputError("a value sent to PostgreSQL", None, f"{type(exc).__name__}: {exc}")
    if isinstance(exc, psycopg_pool.PoolClosed):
        # Not an outage: no retry can succeed (a waiter that retried would never end).
        return StoreError(CLOSED)
    if isinstance(exc, TetherError) or not isinstance(
        exc, psycopg.Error | psycopg_pool.PoolTimeout
    ):
        return exc
    if isinstance(exc, pg_errors.UniqueViolation):
        return ConflictError(f"a concurrent write conflicted: {exc}")
    sqlstate = getattr(exc, "sqlstate", None)
    if isinstance(
        exc, psycopg_pool.PoolTimeout | psycopg.OperationalError | psycopg.InterfaceError
    ) or (sqlstate is not None and sqlstate[:2] in _UNAVAILABLE_CLASSES):
        return StoreUnavailableError(f"PostgreSQL is unavailable: {type(exc).__name__}: {exc}")
    return StoreError(f"PostgreSQL refused the write: {type(exc).__name__}: {exc}")


def _raise_wrapped(exc: BaseException) -> NoReturn:
    """Raise `exc` as tether's error (see `_wrap`), or as it is."""
    wrapped = _wrap(exc)
    if wrapped is exc:
        raise exc
    raise wrapped from exc
