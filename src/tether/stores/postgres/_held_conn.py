"""A transaction's connection as the other stores' rows use it (`PostgresWrites`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import psycopg

from ._txn import _Txn

__all__ = ["HeldConn", "Holding"]


class HeldConn:
    """A transaction's connection as the other stores' rows use it (`PostgresWrites`).

    A statement goes out behind the writes buffered so far, in one pipeline; writes
    whose results nobody reads are buffered (`hold`) to go with the next statement,
    or with the COMMIT. Statements still run in the order they are given, so locks
    are taken in the same order as when each went out alone.
    """

    def __init__(self, txn: _Txn) -> None:
        self._txn = txn

    def execute(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
        return self._txn.read(sql, params)

    def hold(self, sql: str, params: Any = None, refusal: Exception | None = None) -> None:
        self._txn.hold(sql, params, refusal)

    def hold_returning(
        self, sql: str, params: Any, refusal: Exception, take: Callable[[Any], None]
    ) -> None:
        self._txn.hold_returning(sql, params, refusal, take)

    def cursor(self) -> psycopg.Cursor[Any]:
        self._txn.flush()
        return self._txn.c.cursor()

    def holding(self) -> Holding:
        """A connection whose every statement is held (a NOTIFY, say)."""
        return Holding(self._txn)

    @contextlib.contextmanager
    def pipeline(self) -> Iterator[None]:
        txn = self._txn
        with txn.c.pipeline():
            stamped = txn.send_held()
            yield
        txn.take_stamps(stamped)


class Holding:
    """A connection whose every statement is held (`HeldConn.hold`): a NOTIFY, say."""

    def __init__(self, txn: _Txn) -> None:
        self._txn = txn

    def execute(self, sql: str, params: Any = None) -> None:
        self._txn.hold(sql, params)
