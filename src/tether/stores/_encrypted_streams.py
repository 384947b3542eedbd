"""Where an encrypting store's stream appends land: each chunk is sealed for its index.

A chunk is bound to its index (see `_sealing`'s positioned envelopes), so the index
must be known before the chunk is sealed. The store assigns indexes; the writer states
the one it expects (`AppendStream.at`, ``write_stream(at=)``) and the store refuses
the append anywhere else, writing nothing. `StreamPositions` keeps the next index of
every stream this process appends to: the first append reads the stream's tail, later
ones cost nothing. An append refused because another writer moved the stream on (a
worker that lost its lease still flushing, say) asks the store for the stream's next
index and is sealed again for it; a chunk never lands where it does not open.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

from ..errors import StreamPositionError
from ._protocols import WorkflowStore
from ._records import evolve
from ._writes import AppendStream, StoreWrite

__all__ = ["MAX_PLACINGS", "StreamPositions"]

#: How many times an append is sealed for a newer index before the refusal is raised.
MAX_PLACINGS = 4
_LIMIT = 8192

Key = tuple[str, str]
T = TypeVar("T")


class StreamPositions:
    """The next index of each stream this process appends to.

    Args:
        inner: The store the streams are in (it reads and refuses, not this class).
    """

    def __init__(self, inner: WorkflowStore) -> None:
        self._inner = inner
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
            out.append(write)
        return tuple(out), keys

    def forget(self, keys: Iterable[Key]) -> None:
        """Drop what is known of these streams (an append on them failed)."""
        for key in keys:
            self._next.pop(key, None)

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
                return await send(placed)
            except StreamPositionError:
                self.forget(streams)
                if not streams or placing == MAX_PLACINGS - 1:
                    raise
                await self.refresh(streams)
            except BaseException:
                self.forget(streams)
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def forget_writes(self, writes: Sequence[StoreWrite]) -> None:
        """`forget` the streams `writes` append to."""
        self.forget((w.run_id, w.name) for w in writes if isinstance(w, AppendStream))

    async def refresh(self, keys: Iterable[Key]) -> None:
        """Ask the store for these streams' next indexes (an append was refused).

        An empty append writes nothing and returns the index of the stream's last chunk,
        also when the tail's chunks were purged; a closed stream raises
        `InvalidTransitionError`, which is then the append's answer.
        """
        for run_id, name in keys:
            last = await self._inner.write_stream(run_id, name, [])
            self._next[(run_id, name)] = last + 1
