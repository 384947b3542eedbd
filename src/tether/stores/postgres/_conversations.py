"""Conversation streams on Postgres.

An append is one transaction of the backend's runner: it locks the stream row
(``SELECT ... FOR UPDATE``), so the producer check, the replay check, the batch rows
and the new head of one stream serialise across processes, while other streams
append in parallel. An append on behalf of a submission also takes that
submission's session lock (see `_submissions`), so the submission cannot settle
between the authorisation and the commit. Lock order is always stream, then session.

Batches over `BATCH_CHUNK_BYTES` are split into chunk rows and verified against
their SHA-256 when read back. Subscribers in this process are called after the
commit; the append also sends a NOTIFY, so subscribers in other processes hear it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

import orjson

from ..._ids import new_ulid
from ...errors import IntegrityError, InvalidOffsetError
from .. import _conversation_rows as conv_rows
from .. import _conversation_rules as rules
from .._agent_records import (
    OFFSET_NOW,
    OFFSET_START,
    ConversationBatch,
    FoldCheckpoint,
    ReadResult,
    StreamMeta,
    Submission,
    clamp_read_limit,
    format_offset,
    parse_offset,
)
from .._conversation_rules import StreamTxn
from .._conversation_writes import AppendRule, ConversationWrites
from .._shared import purge_stream_rows
from ._notify import Notifier, conversation_channel
from ._submissions import Conn, Hold, TxRunner, lookup_submission

__all__ = ["PostgresConversationStore"]

_SQL = conv_rows.statements("%s")
T = TypeVar("T")
_SEP = "\x1f"
#: NOTIFY payloads must stay under 8000 bytes; a longer path wakes every subscriber.
_MAX_NOTIFY_PATH = 7000


def _get_stream(conn: Conn, path: str, *, lock: bool) -> rules.StreamRow | None:
    row = conn.execute(_SQL.get_stream + (" FOR UPDATE" if lock else ""), (path,)).fetchone()
    return None if row is None else conv_rows.stream_from_row(row)


#: Streams read ahead and locked, in sorted order (see `_Tx`).
LOCK_STREAMS = (
    f"SELECT {conv_rows.STREAM_COLUMNS} FROM tether_conversation_streams "
    "WHERE path = ANY(%s) ORDER BY path FOR UPDATE"
)


def streams_ahead(paths: Sequence[str], found: Sequence[Any]) -> dict[str, rules.StreamRow | None]:
    """The rows `LOCK_STREAMS` returned for `paths` (None: no such stream)."""
    ahead: dict[str, rules.StreamRow | None] = dict.fromkeys(paths)
    for row in found:
        stream = conv_rows.stream_from_row(row)
        ahead[stream.path] = stream
    return ahead


class _Tx:
    """`StreamTxn` over one Postgres transaction; it locks the streams it reads.

    With `ahead`, the streams a transaction appends to were locked and read ahead
    (`LOCK_STREAMS`, in the round trip of its first statements): they are served
    from there, kept current by this transaction's own writes.
    """

    def __init__(
        self,
        conn: Conn,
        namespace: str,
        hold: Hold | None = None,
        ahead: dict[str, rules.StreamRow | None] | None = None,
    ) -> None:
        self.conn = conn
        self._namespace = namespace
        # Buffers a write whose result nobody reads, for the transaction's next statement.
        self._hold = hold
        self._ahead = ahead

    def get_stream(self, path: str) -> rules.StreamRow | None:
        if self._ahead is not None and path in self._ahead:
            return self._ahead[path]
        return _get_stream(self.conn, path, lock=True)

    def put_stream(self, row: rules.StreamRow, *, new: bool) -> None:
        if self._ahead is not None and row.path in self._ahead:
            self._ahead[row.path] = row
        # A concurrent creation of the same path fails on the primary key; the runner
        # retries and the rules then compare identities.
        if new or self._hold is None:
            sql = _SQL.insert_stream if new else _SQL.update_stream
            self.conn.execute(sql, conv_rows.stream_values(row))
        else:
            # The row is locked (read FOR UPDATE by `get_stream`): the update cannot fail.
            self._hold(_SQL.update_stream, conv_rows.stream_values(row))

    def find_batch(
        self, path: str, producer_id: str, producer_epoch: int, producer_sequence: int
    ) -> tuple[int, str, str | None, str | None] | None:
        row = self.conn.execute(
            _SQL.find_batch, (path, producer_id, producer_epoch, producer_sequence)
        ).fetchone()
        return None if row is None else (int(row[0]), row[1], row[2], row[3])

    def insert_batch(self, batch: rules.NewBatch) -> None:
        values, chunks = conv_rows.batch_rows(batch)
        if self._hold is not None:
            self._hold(_SQL.insert_batch, values)
            for chunk in chunks:
                self._hold(_SQL.insert_batch_chunk, chunk)
            return
        self.conn.execute(_SQL.insert_batch, values)
        if chunks:
            with self.conn.cursor() as cur:
                cur.executemany(_SQL.insert_batch_chunk, chunks)

    def get_submission(self, submission_id: str) -> Submission | None:
        return lookup_submission(self.conn, self._namespace, submission_id)


#: Runs one read statement (SQL, parameters) and returns its rows.
Query = Callable[[str, Any], Awaitable[list[tuple[Any, ...]]]]

_BATCH_COLUMNS = (
    "seq, producer_id, producer_epoch, producer_sequence, submission_id, attempt_id, "
    "byte_size, digest, chunk_count, data"
)
_STREAM_WIDTH = len(conv_rows.STREAM_COLUMNS.split(","))
# A stream's row with its batches after `start` up to its head joined on: one statement.
_READ_WITH_HEAD = (
    "SELECT {stream}, b.* FROM tether_conversation_streams AS s LEFT JOIN LATERAL ("
    f"SELECT {_BATCH_COLUMNS} FROM tether_conversation_batches "
    "WHERE path = s.path AND seq > %(start)s AND seq <= s.head ORDER BY seq LIMIT %(limit)s"
    ") AS b ON true WHERE s.path = %(path)s ORDER BY b.seq"
).format(stream=", ".join("s." + c.strip() for c in conv_rows.STREAM_COLUMNS.split(",")))
_SELECT_PIECES = (
    "SELECT seq, data FROM tether_conversation_batch_chunks WHERE path = %s "
    "AND seq = ANY(%s) ORDER BY seq, chunk_index"
)
_NO_BATCHES = 2**62


async def _query_batches(query: Query, path: str, offset: str, limit: int | None) -> ReadResult:
    """`_read_batches` in one statement (two for batches kept in chunk rows)."""
    if offset == OFFSET_NOW:
        after = _NO_BATCHES
    else:
        seq = parse_offset(offset)
        if seq is None:
            raise InvalidOffsetError(path, offset, "not an offset this store issued")
        after = seq
    found = await query(
        _READ_WITH_HEAD, {"path": path, "start": after, "limit": clamp_read_limit(limit)}
    )
    if not found:
        return rules.empty_read(path, offset)
    head = conv_rows.stream_from_row(found[0][:_STREAM_WIDTH]).head
    start = rules.resolve_read_start(path, offset, head)
    if start is None:
        return ReadResult(batches=(), next_offset=format_offset(head), up_to_date=True)
    rows = [r[_STREAM_WIDTH:] for r in found if r[_STREAM_WIDTH] is not None]
    chunked = [int(r[0]) for r in rows if r[8]]
    pieces: dict[int, list[bytes]] = {}
    if chunked:
        for seq, piece in await query(_SELECT_PIECES, (path, chunked)):
            pieces.setdefault(int(seq), []).append(bytes(piece))
    return _batches_read(path, rows, pieces, start, head)


def _read_batches(conn: Conn, path: str, offset: str, limit: int | None) -> ReadResult:
    stream = _get_stream(conn, path, lock=False)
    if stream is None:
        return rules.empty_read(path, offset)
    head = stream.head
    start = rules.resolve_read_start(path, offset, head)
    if start is None:
        return ReadResult(batches=(), next_offset=format_offset(head), up_to_date=True)
    # `seq <= head`: a batch committed after the head was read waits for the next read.
    rows = conn.execute(
        f"SELECT {_BATCH_COLUMNS} FROM tether_conversation_batches "
        "WHERE path = %s AND seq > %s AND seq <= %s ORDER BY seq LIMIT %s",
        (path, start, head, clamp_read_limit(limit)),
    ).fetchall()
    chunked = [int(r[0]) for r in rows if r[8]]
    pieces: dict[int, list[bytes]] = {}
    if chunked:
        for seq, piece in conn.execute(_SELECT_PIECES, (path, chunked)).fetchall():
            pieces.setdefault(int(seq), []).append(bytes(piece))
    return _batches_read(path, rows, pieces, start, head)


def _batches_read(
    path: str,
    rows: Sequence[Any],
    pieces: dict[int, list[bytes]],
    start: int,
    head: int,
) -> ReadResult:
    batches = []
    for seq, producer_id, epoch, sequence, submission_id, attempt_id, size, digest, n, data in rows:
        if n:
            data = b"".join(pieces.get(int(seq), ()))
            if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
                raise IntegrityError(
                    f"batch {format_offset(seq)!r} of stream {path!r} fails its digest"
                )
        batches.append(
            ConversationBatch(
                offset=format_offset(seq),
                records=tuple(orjson.loads(bytes(data))),
                producer_id=producer_id,
                producer_epoch=int(epoch),
                producer_sequence=int(sequence),
                submission_id=submission_id,
                attempt_id=attempt_id,
            )
        )
    last = int(rows[-1][0]) if rows else start
    return ReadResult(
        batches=tuple(batches), next_offset=format_offset(last), up_to_date=last >= head
    )


def _checkpoint_lock(conn: Conn, namespace: str, path: str) -> None:
    # Checkpoints have their own lock: writing one never waits for (or blocks) appends.
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
        (f"tether/{namespace}/checkpoint/{path}",),
    )


def _put_checkpoint(conn: Conn, namespace: str, path: str, checkpoint: FoldCheckpoint) -> None:
    seq = parse_offset(checkpoint.head_offset)
    # FOR SHARE: a purge deleting the batch waits for this put, then deletes what it
    # wrote; one that deleted it first leaves nothing to fold from, and nothing is kept.
    if seq is None or seq >= 2**63:
        return  # no batch is there
    if conn.execute(_SQL.batch_held + " FOR SHARE", (path, seq)).fetchone() is None:
        return
    values, chunks = conv_rows.checkpoint_rows(path, checkpoint)
    _checkpoint_lock(conn, namespace, path)
    conn.execute(_SQL.delete_checkpoint_chunks, (path,))
    conn.execute(_SQL.put_checkpoint, values)
    with conn.cursor() as cur:
        cur.executemany(_SQL.insert_checkpoint_chunk, chunks)


def _get_checkpoint(conn: Conn, path: str) -> FoldCheckpoint | None:
    # One statement, one snapshot: header and chunks of the same put.
    return conv_rows.checkpoint_from_rows(conn.execute(_SQL.get_checkpoint, (path,)).fetchall())


class _PathOrder:
    """Per-path FIFO locks: appends to one path leave this process in call order.

    SQLite's single writer keeps call order for free; here transactions run on a
    thread pool and would race, so a caller issuing sequences 0, 1, 2 concurrently
    could see 1 arrive first and be refused.
    """

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, path: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(path) or (asyncio.Lock(), 0)
        self._locks[path] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[path]
            if users <= 1:
                del self._locks[path]
            else:
                self._locks[path] = (lock, users - 1)


class PostgresConversationStore(ConversationWrites):
    """A `ConversationStore` in a Postgres namespace, shared by any number of processes.

    Args:
        run: The transaction runner of the backend (the workflow store's).
        namespace: The backend's namespace.
        notifier: The backend's listener; subscribers here hear appends made by
            other processes through it.
        read: Runs reads with no transaction around them (fewer round trips); by
            default `run`. A read bounds itself by the head it reads first, so it
            needs no snapshot across its statements.
        query: Runs one read statement on the event loop; when given, `read` reads
            a stream's head and its batches in one statement with it.
    """

    def __init__(
        self,
        run: TxRunner,
        namespace: str,
        notifier: Notifier,
        *,
        read: TxRunner | None = None,
        query: Query | None = None,
    ) -> None:
        self._run_tx = run
        self._read = run if read is None else read
        self._query = query
        self._namespace = namespace
        self._channel = conversation_channel(namespace)
        # Notifications carry their origin, so this store ignores its own echoes.
        self._origin = new_ulid("conv_")
        self._subscribed: Counter[str] = Counter()
        self._order = _PathOrder()
        super().__init__(write=self._run)
        notifier.on_conversation(self._heard)

    def _run(self, rule: Callable[[StreamTxn], T]) -> Awaitable[T]:
        ns = self._namespace
        return self._run_tx(lambda conn: rule(_Tx(conn, ns)))

    async def _run_append(self, path: str, rule: AppendRule) -> tuple[str, bool]:
        ns = self._namespace

        def write(conn: Conn) -> tuple[str, bool]:
            offset, wrote = rule(_Tx(conn, ns))
            if wrote:
                # Delivered only if the transaction commits.
                self._announce(conn, path)
            return offset, wrote

        async with self._order.hold(path):
            return await self._run_tx(write)

    def _heard(self, payload: str | None) -> None:
        if payload is None:
            paths = list(self._subscribed)
        else:
            origin, _, path = payload.partition(_SEP)
            if origin == self._origin:
                return
            paths = [path] if path else list(self._subscribed)
        for path in paths:
            self._listeners.notify(path)

    def announce(self, conn: Conn, path: str) -> None:
        """NOTIFY an append to `path` inside the transaction of `conn`."""
        self._announce(conn, path)

    def _announce(self, conn: Conn, path: str) -> None:
        named = path if len(path.encode()) <= _MAX_NOTIFY_PATH else ""
        conn.execute("SELECT pg_notify(%s, %s)", (self._channel, f"{self._origin}{_SEP}{named}"))

    async def read(
        self, path: str, *, offset: str = OFFSET_START, limit: int | None = None
    ) -> ReadResult:
        if self._query is not None:
            return await _query_batches(self._query, path, offset, limit)
        return await self._read(lambda conn: _read_batches(conn, path, offset, limit))

    async def get_meta(self, path: str) -> StreamMeta | None:
        row = await self._read(lambda conn: _get_stream(conn, path, lock=False))
        return None if row is None else row.meta()

    def subscribe(self, path: str, listener: Callable[[], None]) -> Callable[[], None]:
        unsubscribe = super().subscribe(path, listener)
        self._subscribed[path] += 1
        done = False

        def cancel() -> None:
            nonlocal done
            unsubscribe()
            if not done:
                done = True
                self._subscribed[path] -= 1
                if self._subscribed[path] <= 0:
                    del self._subscribed[path]

        return cancel

    async def purge(self, path: str) -> None:
        await self._run_tx(lambda conn: purge_stream_rows(conn, path, "%s"))

    async def put_fold_checkpoint(self, path: str, checkpoint: FoldCheckpoint) -> None:
        ns = self._namespace
        await self._run_tx(lambda conn: _put_checkpoint(conn, ns, path, checkpoint))

    async def get_fold_checkpoint(
        self, path: str, *, at_or_before: str | None = None
    ) -> FoldCheckpoint | None:
        checkpoint = await self._read(lambda conn: _get_checkpoint(conn, path))
        if checkpoint is None or not rules.within_bound(checkpoint, at_or_before):
            return None
        return checkpoint
