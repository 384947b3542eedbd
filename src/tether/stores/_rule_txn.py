"""Rule transactions: the one shape of the rules every backend follows alike.

The backend kit writes each store's rules once, as synchronous functions whose first
argument is a rule transaction: the rows of one store as one of the backend's
transactions sees them. A backend implements the transaction's protocol over its rows
and runs a rule inside one of its transactions (memory between two awaits, SQLite in a
``BEGIN IMMEDIATE`` write, Postgres in one transaction with the locks it takes). A
rule reads and writes through the transaction only and never awaits, so nothing else
of the store runs between its reads and its writes: each rule is one atomic step.

Three families share the shape, each protocol named ``...Txn``:

- `ViewTxn`, under `workflow_rules` (`stores._logic`): a workflow store's runs,
  steps, hooks, waits, queue entries and event log;
- `LedgerTxn`, under the ledger rules (`stores._ledger`), which `LedgerStore` runs:
  the submission ledger's rows;
- `StreamTxn`, under `conversation_rules`, which `ConversationWrites` runs: the
  conversation streams' rows and batches.

A `Runner` is the async side: it runs one rule in one transaction of its backend and
returns what the rule returned.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

__all__ = ["RuleTxn", "Runner"]

T = TypeVar("T")
#: Covariant: a runner of a narrower transaction runs every rule of a wider one.
TxnT_co = TypeVar("TxnT_co", covariant=True)


class RuleTxn(Protocol):
    """A rule transaction: the rows of one store inside one backend transaction.

    The base of `ViewTxn`, `LedgerTxn` and `StreamTxn`, which declare the rows each
    family of rules reads and writes. Every call is synchronous and sees the
    transaction's own writes; the backend commits them once the rule returns.
    """


class Runner(Protocol[TxnT_co]):
    """Runs one rule in one of the backend's transactions; returns (or raises) what it did."""

    def __call__(self, rule: Callable[[TxnT_co], T], /) -> Awaitable[T]: ...
