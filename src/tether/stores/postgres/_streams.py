"""Postgres run streams: appends, reads, and what this process's followers are handed.

A `write_stream` append is one statement on the event loop's commit lane: it locks the
stream's row, reserves the chunks' indexes, inserts them and sends the stream's
NOTIFY. Once it has committed, this process's followers get the chunks on their taps
(`StreamTaps`) and go on without reading them back; the NOTIFY, heard back by the
listener, is that append's echo and is dropped (`Echoes`). Anything else (another
process's appends, a commit's, a close, a notification that may have been lost) is
announced on the taps and the followers read the store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ...errors import InvalidTransitionError
from .._records import StreamChunk
from .._streams import StreamTaps, misplaced, resolve_start
from .._writes import AppendStream, StoreWrite
from ._errors import _raise_wrapped
from ._notify import Echoes, channels, stream_key, stream_of_key
from ._pool import CommitLane
from ._statements import _COMMIT_STREAM, _READ_STREAM, _WRITE_STREAM
from ._transactions import StreamAppend
from ._txn import _Txn

__all__ = ["PostgresStreams"]


class PostgresStreams:
    """The stream half of `PostgresWorkflowStore` (which delegates to it).

    Args:
        namespace: The store's namespace (its notification channels).
        commits: The event loop's lane for one-statement writes.
        query: The store's one-statement read on the event loop (`_query`).
        write: The store's transaction runner (`_write`).
    """

    def __init__(
        self,
        *,
        namespace: str,
        commits: CommitLane,
        query: Callable[[str, Any], Awaitable[list[tuple[Any, ...]]]],
        write: Callable[[Callable[[_Txn], None]], Awaitable[None]],
    ) -> None:
        _, _, self._channel = channels(namespace)
        self._commits = commits
        self._query = query
        self._write = write
        #: What this process appends, handed to its followers (`follow` takes them).
        self.taps = StreamTaps()
        self._echoes = Echoes()

    async def write(
        self, run_id: str, name: str, chunks: Sequence[bytes], at: int | None = None
    ) -> int:
        """Append `chunks`; the index of the last (see `WorkflowStore.write_stream`)."""
        params = self._append_params(run_id, name, chunks, at)
        data, key = params["d"], params["key"]
        if data:
            # Counted before it is sent: its echo may be heard before the write returns.
            self._echoes.expect(key)
        try:
            # One statement, so one round trip on the event loop: the upsert locks the
            # stream row and reserves the chunks' indexes (unless the stream is closed,
            # which returns no row and writes nothing), then the chunks go in.
            async with self._commits.connection() as conn:
                row = await (await conn.execute(_WRITE_STREAM, params)).fetchone()
        except BaseException as exc:
            if data:
                self._echoes.cancel(key)
            _raise_wrapped(exc)
        if row is None:
            if data:
                self._echoes.cancel(key)  # nothing written, nothing announced
            if at is not None:
                raise misplaced(run_id, name, at, None)
            raise InvalidTransitionError(f"stream {name!r} of run {run_id!r} is closed")
        first = int(row[0])
        if data:
            self.taps.appended(run_id, name, first, data)
        return first + len(data) - 1

    async def close(self, run_id: str, name: str) -> None:
        """Close the stream (its NOTIFY goes with the transaction's COMMIT)."""

        def close(t: _Txn) -> None:
            t.c.execute(
                "INSERT INTO tether_streams (run_id, name, closed) VALUES (%s, %s, TRUE) "
                "ON CONFLICT (run_id, name) DO UPDATE SET closed = TRUE",
                (run_id, name),
            )
            t.streams.add(stream_key(run_id, name))

        await self._write(close)

    async def read(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]:
        """Chunks from `start`, and whether the stream is closed with nothing after them."""
        # One statement: the stream's length and closed flag on every row, its chunks
        # from `start` (resolved against that length, as `resolve_start` does) joined on.
        found = await self._query(
            _READ_STREAM, {"r": run_id, "n": name, "s": start, "limit": limit}
        )
        if not found:
            return [], False
        length, closed = int(found[0][0]), bool(found[0][1])
        begin = resolve_start(start, length)
        chunks = [StreamChunk(index=r[2], data=bytes(r[3])) for r in found if r[2] is not None]
        return chunks, closed and begin + len(chunks) >= length

    def riding(self, writes: Sequence[StoreWrite]) -> tuple[tuple[str, dict[str, Any]], ...] | None:
        """`writes` as statements to ride in a one-round-trip commit (`FastCommit.extra`).

        None unless every write is an append of chunks to a stream: other writes need
        their rules' reads, in a transaction of their own.
        """
        out = []
        for w in writes:
            if not isinstance(w, AppendStream) or not w.chunks:
                return None
            out.append((_COMMIT_STREAM, self._append_params(w.run_id, w.name, w.chunks, w.at)))
        return tuple(out)

    def _append_params(
        self, run_id: str, name: str, chunks: Sequence[bytes], at: int | None = None
    ) -> dict[str, Any]:
        """The parameters of an append's statement (`_WRITE_STREAM`, `_COMMIT_STREAM`)."""
        data = [bytes(chunk) for chunk in chunks]
        key = stream_key(run_id, name)
        return {
            "r": run_id,
            "n": name,
            "k": len(data),
            "d": data,
            "at": at,
            "ch": self._channel,
            "key": key,
        }

    @staticmethod
    def rode(writes: Sequence[StoreWrite], firsts: Sequence[Any]) -> list[StreamAppend]:
        """The appends `riding` statements made, given the first index each returned."""
        return [
            (w.run_id, w.name, int(first), [bytes(c) for c in w.chunks])
            for w, first in zip(writes, firsts, strict=True)
            if isinstance(w, AppendStream)
        ]

    def expect(self, writes: Sequence[StoreWrite]) -> list[str]:
        """Count the echoes a transaction carrying `writes` will send (before it is sent)."""
        keys = sorted(
            {
                stream_key(w.run_id, w.name)
                for w in writes
                if isinstance(w, AppendStream) and w.chunks
            }
        )
        for key in keys:
            self._echoes.expect(key)
        return keys

    def cancel(self, keys: Sequence[str]) -> None:
        """The transaction `expect` counted for failed (or may have): uncount its echoes."""
        for key in keys:
            self._echoes.cancel(key)

    def committed(self, appends: Sequence[StreamAppend], expected: Sequence[str]) -> set[str]:
        """Hand a committed transaction's appends to the taps; the streams handed."""
        for run_id, name, first, chunks in appends:
            self.taps.appended(run_id, name, first, chunks)
        tapped = {stream_key(run_id, name) for run_id, name, _, _ in appends}
        for key in expected:
            stream = stream_of_key(key)
            if key not in tapped and stream is not None:
                self.taps.changed(*stream)  # counted, not handed: read it (never happens)
        return tapped

    def noted(self, payload: str | None, heard: bool) -> None:
        """A stream notification (`Notifier.on_stream`): tell the followers to read."""
        if payload is None:
            # Notifications may have been lost, echoes among them.
            self._echoes.clear()
            self.taps.changed_anywhere()
            return
        if heard and self._echoes.heard(payload):
            return  # this process's own `write`: on the taps already
        stream = stream_of_key(payload)
        if stream is None:
            self.taps.changed_anywhere()
        else:
            self.taps.changed(*stream)
