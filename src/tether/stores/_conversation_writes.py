"""`ConversationWrites`: the writes of every backend's `ConversationStore`, written once.

Backends differ only in how they run a rule of `conversation_rules`: memory calls it
on its dicts, SQLite in one write transaction, Postgres in one transaction that locks
the stream's row. Each passes a `Runner` of its `StreamTxn`; every write here maps one
protocol call to one rule, and tells this process's subscribers of a path once a
batch was appended to it. A backend's store extends the class with what it keeps in
its own rows: `read`, `get_meta`, `purge` and the fold checkpoints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import _conversation_rules as rules
from ._agent_records import AttemptRef, JsonValue, ProducerClaim, StreamIdentity
from ._conversation_rules import StreamTxn
from ._rule_txn import Runner

__all__ = ["AppendRule", "ConversationWrites"]

#: An append's rule: the offset of its batch, and whether this call wrote it.
AppendRule = Callable[[StreamTxn], tuple[str, bool]]


class ConversationWrites:
    """The writes and subscriptions of a `ConversationStore`, through a backend's runner.

    Args:
        write: Runs one rule of `conversation_rules` in one of the backend's write
            transactions.
    """

    def __init__(self, write: Runner[StreamTxn]) -> None:
        self._write_rule = write
        self._listeners = rules.ListenerRegistry()

    async def create_stream(self, path: str, identity: StreamIdentity) -> None:
        await self._write_rule(lambda txn: rules.create_stream(txn, path, identity))

    async def acquire_producer(
        self, path: str, producer_id: str, *, create: StreamIdentity | None = None
    ) -> ProducerClaim:
        return await self._write_rule(
            lambda txn: rules.acquire_producer(txn, path, producer_id, create)
        )

    async def append(
        self,
        *,
        path: str,
        producer_id: str,
        producer_epoch: int,
        incarnation: str,
        producer_sequence: int,
        records: Sequence[JsonValue],
        submission: AttemptRef | None = None,
        at: str | None = None,
    ) -> str:
        # Encoded before the transaction, so other writers do not wait on it.
        encoded = rules.encode_batch(path, records)
        offset, wrote = await self._run_append(
            path,
            lambda txn: rules.append(
                txn,
                path=path,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                incarnation=incarnation,
                producer_sequence=producer_sequence,
                records=records,
                submission=submission,
                encoded=encoded,
                at=at,
            ),
        )
        if wrote:
            self._listeners.notify(path)
        return offset

    async def _run_append(self, path: str, rule: AppendRule) -> tuple[str, bool]:
        """Run an append's rule (a backend may order appends to `path`, or announce them)."""
        return await self._write_rule(rule)

    def notify_appended(self, path: str) -> None:
        """Tell this process's subscribers of `path` that a batch was appended."""
        self._listeners.notify(path)

    def subscribe(self, path: str, listener: Callable[[], None]) -> Callable[[], None]:
        return self._listeners.subscribe(path, listener)
