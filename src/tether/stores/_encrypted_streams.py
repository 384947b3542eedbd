"""Where an encrypting store's stream appends land: each chunk is sealed for its index.

A chunk is bound to its index (see `_sealing`'s positioned envelopes), so the index
must be known before the chunk is sealed. The store assigns indexes; the writer states
the one it expects (`AppendStream.at`, ``write_stream(at=)``) and the store refuses
the append anywhere else, writing nothing. `StreamPositions` keeps the next index of
every stream this process appends to: the first append reads the stream's tail, later
ones cost nothing. An append refused because another writer moved the stream on (a
worker that lost its lease still flushing, say) asks the store for the stream's next
index and is sealed again for it; a chunk never lands where it does not open.

Conversation batches are bound to their offsets the same way (`BatchPositions`): the
writer states the offset (`AppendRecords.at`, ``ConversationStore.append(at=)``) and
the store refuses any other (`BatchPositionError`, which names where the batch would
land: the stream's next offset, or the offset a replayed producer sequence was appended
at). The refused batch is sealed again for that offset: a replay then matches its
first append byte for byte, as the store's replay rule needs.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

from ..errors import BatchPositionError, StreamPositionError
from ._agent_protocols import ConversationStore
from ._agent_records import format_offset, parse_offset
from ._protocols import WorkflowStore
from ._records import evolve
from ._writes import AppendRecords, AppendStream, StoreWrite

__all__ = ["MAX_PLACINGS", "BatchPositions", "StreamPositions"]

#: How many times an append is sealed for a newer index before the refusal is raised.
MAX_PLACINGS = 4
_LIMIT = 8192

#: A run's stream (run id, name), or a conversation stream (its path alone).
Key = tuple[str, ...]
T = TypeVar("T")


class BatchPositions:
    """The next offset of each conversation stream this process appends to.

    Args:
        conversations: The store the streams are in (it reads and refuses).
    """

    def __init__(self, conversations: ConversationStore) -> None:
        self._inner = conversations
        self._next: OrderedDict[str, int] = OrderedDict()
        self._loading: dict[str, asyncio.Future[int | None]] = {}
        # Producer sequences refused as replays: the offset they were appended at.
        self._replays: OrderedDict[tuple[str, str, int, int], str] = OrderedDict()

    async def reserve(self, path: str, producer: tuple[str, int, int]) -> str:
        """The offset a batch of `producer` (id, epoch, sequence) appended now lands at.

        Optimistic, like `StreamPositions.reserve`: a failed append must `forget` it.
        """
        replayed = self._replays.get((path, *producer))
        if replayed is not None:
            return replayed
        at = self._next.get(path)
        if at is None:
            at = await self._tail(path)
            at = self._next.get(path, at)  # an append meanwhile reserved first
        self._next[path] = at + 1
        self._next.move_to_end(path)
        if len(self._next) > _LIMIT:
            self._next.popitem(last=False)
        return format_offset(at)

    async def _tail(self, path: str) -> int:
        """The stream's next offset, read once for all the appends waiting on it.

        Appends issued together keep their order into the store (which takes a
        producer's sequences only in order): the first reads, the others wait on its
        read and go on in the order they came, each reserving after the one before.
        """
        loading = self._loading.get(path)
        if loading is not None:
            waited = await asyncio.shield(loading)
            return waited if waited is not None else await self._tail(path)
        loading = asyncio.get_running_loop().create_future()
        self._loading[path] = loading
        start: int | None = None
        try:
            meta = await self._inner.get_meta(path)
            head = parse_offset(meta.head_offset) if meta is not None else None
            start = (head or 0) + 1
            return start
        finally:
            del self._loading[path]
            loading.set_result(start)  # None: the read failed; a waiter reads again

    def landed(self, path: str, producer: tuple[str, int, int], offset: str) -> None:
        """An append of `producer`'s batch returned `offset`."""
        self._replays.pop((path, *producer), None)
        seq = parse_offset(offset)
        if seq is not None and seq + 1 > self._next.get(path, 0):
            self._next[path] = seq + 1

    def refused(self, error: BatchPositionError, producer: tuple[str, int, int]) -> None:
        """Learn where a refused append lands (see `BatchPositionError`)."""
        if error.replay:
            self._replays[(error.path, *producer)] = error.offset
            if len(self._replays) > _LIMIT:
                self._replays.popitem(last=False)
            return
        seq = parse_offset(error.offset)
        if seq is None:  # pragma: no cover - the store names offsets it issued
            self._next.pop(error.path, None)
        else:
            self._next[error.path] = seq

    def forget(self, path: str) -> None:
        """Drop what is known of a stream (an append to it failed)."""
        self._next.pop(path, None)

    async def placed(
        self,
        path: str,
        producer: tuple[str, int, int],
        send: Callable[[str], Awaitable[str]],
    ) -> str:
        """`send(offset)` at the offset the batch lands at, learned again if refused."""
        for placing in range(MAX_PLACINGS):
            at = await self.reserve(path, producer)
            try:
                offset = await send(at)
            except BatchPositionError as exc:
                self.forget(path)
                self.refused(exc, producer)
                if placing == MAX_PLACINGS - 1:
                    raise
                continue
            except BaseException:
                self.forget(path)
                raise
            self.landed(path, producer, offset)
            return offset
        raise AssertionError("unreachable")  # pragma: no cover


def _producer(write: AppendRecords) -> tuple[str, int, int]:
    return (write.producer_id, write.producer_epoch, write.producer_sequence)


class StreamPositions:
    """The next index of each stream this process appends to.

    Args:
        inner: The store the streams are in (it reads and refuses, not this class).
    """

    def __init__(self, inner: WorkflowStore, batches: BatchPositions | None = None) -> None:
        self._inner = inner
        self._batches = batches
        self._next: OrderedDict[Key, int] = OrderedDict()

    async def reserve(self, run_id: str, name: str, count: int) -> int:
        """The index `count` chunks appended now start at; later appends go after them.

        The reservation is optimistic: an append that then fails must `forget` it.
        """
        key = (run_id, name)
        at = self._next.get(key)
        if at is None:
            chunks, _ = await self._inner.read_stream(run_id, name, start=-1, limit=1)
            tail = chunks[-1].index + 1 if chunks else 0
            at = self._next.get(key, tail)  # an append meanwhile reserved first
        self._next[key] = at + count
        self._next.move_to_end(key)
        if len(self._next) > _LIMIT:
            self._next.popitem(last=False)
        return at

    async def place(self, writes: Sequence[StoreWrite]) -> tuple[tuple[StoreWrite, ...], set[Key]]:
        """`writes` with each stream append's index stated; the streams they reserve on."""
        out: list[StoreWrite] = []
        keys: set[Key] = set()
        for write in writes:
            if isinstance(write, AppendStream) and write.chunks and write.at is None:
                at = await self.reserve(write.run_id, write.name, len(write.chunks))
                keys.add((write.run_id, write.name))
                write = evolve(write, at=at)
            elif (
                isinstance(write, AppendRecords) and write.at is None and self._batches is not None
            ):
                offset = await self._batches.reserve(write.path, _producer(write))
                keys.add((write.path,))
                write = evolve(write, at=offset)
            out.append(write)
        return tuple(out), keys

    def forget(self, keys: Iterable[Key]) -> None:
        """Drop what is known of these streams (an append on them failed)."""
        for key in keys:
            if len(key) == 1 and self._batches is not None:
                self._batches.forget(key[0])
            else:
                self._next.pop(key, None)

    def landed(self, writes: Sequence[StoreWrite]) -> None:
        """The placed `writes` were applied: their batches are where they were placed."""
        if self._batches is None:
            return
        for write in writes:
            if isinstance(write, AppendRecords) and write.at is not None:
                self._batches.landed(write.path, _producer(write), write.at)

    def refused(self, error: BatchPositionError, writes: Sequence[StoreWrite]) -> None:
        """Learn where the batch a commit was refused for lands (`BatchPositionError`)."""
        if self._batches is None:
            return
        for write in writes:
            if isinstance(write, AppendRecords) and write.path == error.path:
                if write.at == error.at:
                    self._batches.refused(error, _producer(write))
                    return

    async def placed(
        self,
        writes: Sequence[StoreWrite],
        send: Callable[[tuple[StoreWrite, ...]], Awaitable[T]],
    ) -> T:
        """`send(writes)` with each stream append's index stated (`place`).

        A refusal (`StreamPositionError`: the append wrote nothing) asks the store for
        the streams' next indexes and sends again, `MAX_PLACINGS` times at most; an
        append whose caller stated its index is never moved.
        """
        for placing in range(MAX_PLACINGS):
            placed, streams = await self.place(writes)
            try:
                result = await send(placed)
            except StreamPositionError:
                self.forget(streams)
                if not streams or placing == MAX_PLACINGS - 1:
                    raise
                await self.refresh(k for k in streams if len(k) == 2)
                continue
            except BatchPositionError as exc:
                self.forget(streams)
                self.refused(exc, placed)
                if placing == MAX_PLACINGS - 1:
                    raise
                continue
            except BaseException:
                self.forget(streams)
                raise
            self.landed(placed)
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    def forget_writes(self, writes: Sequence[StoreWrite]) -> None:
        """`forget` the streams `writes` append to."""
        self.forget((w.run_id, w.name) for w in writes if isinstance(w, AppendStream))
        self.forget((w.path,) for w in writes if isinstance(w, AppendRecords))

    async def refresh(self, keys: Iterable[Key]) -> None:
        """Ask the store for these streams' next indexes (an append was refused).

        An empty append writes nothing and returns the index of the stream's last chunk,
        also when the tail's chunks were purged; a closed stream raises
        `InvalidTransitionError`, which is then the append's answer.
        """
        for run_id, name in keys:
            last = await self._inner.write_stream(run_id, name, [])
            self._next[(run_id, name)] = last + 1
