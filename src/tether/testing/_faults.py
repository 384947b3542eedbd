"""Fault injection for tests: a TCP proxy that stalls or cuts traffic, a disk that fills up.

Both imitate what real outages do to a worker, rather than mocking the store: a
database failover pauses traffic and then cuts every connection, a network partition
stalls packets for seconds and then delivers them late, a full disk refuses writes
until space is freed. Third-party backends can use them in their own fault tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import ConfigurationError

__all__ = ["FaultProxy", "SmallDisk"]

_CHUNK = 64 * 1024


class FaultProxy:
    """A TCP proxy in a background thread that can stall and cut the traffic it relays.

    Point a client at `port` (or at `url(...)`) instead of the server: bytes are relayed
    both ways until told otherwise.

    - `pause()` holds every byte (both ways) and every new connection until `resume()`,
      which then delivers them, late: a network stall. A statement sent during a pause
      reaches the server only after it.
    - `cut()` resets every connection and refuses new ones until `restore()`: a server
      failover or a partition the client notices.

    Use as a context manager, or call `start()` and `close()`.

    Args:
        target_host: The server's host.
        target_port: The server's port.
    """

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target_host = target_host
        self.target_port = target_port
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        # The listening socket, accepted from a reader callback that takes each
        # connection synchronously. Neither `asyncio.Server` nor a cancelled
        # `sock_accept` is safe to stop on Python 3.11: the one fails a connection's
        # transport half-built, the other accepts a connection for a future already
        # cancelled and drops the socket; both leave it to the garbage collector.
        self._listener: socket.socket | None = None
        # Accepted sockets whose transport is still being set up, and the tasks setting
        # them up.
        self._adopting: set[socket.socket] = set()
        self._adopters: set[asyncio.Task[None]] = set()
        self._flowing = asyncio.Event()
        # Every connection's transport, both sides, from the moment it is made until it
        # is closed: none is ever left to the garbage collector (an unclosed-transport
        # warning in whatever test runs next), whatever a cut or a shutdown interrupts.
        self._open: set[asyncio.Transport] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.connections = 0

    @classmethod
    def for_url(cls, url: str) -> FaultProxy:
        """A proxy in front of the server a ``scheme://user@host:port/db`` URL names."""
        parts = urlsplit(url)
        return cls(parts.hostname or "127.0.0.1", parts.port or 5432)

    def url(self, url: str) -> str:
        """`url` with its host and port replaced by this proxy's."""
        parts = urlsplit(url)
        userinfo = parts.netloc.rpartition("@")[0]
        netloc = f"{userinfo}@127.0.0.1:{self.port}" if userinfo else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- control (any thread) ---------------------------------------------------------
    def start(self) -> FaultProxy:
        """Start relaying; `port` is then the port to connect to."""
        self._thread.start()
        self._call(self._flowing_set)
        self._call(self._listen)
        return self

    def pause(self) -> None:
        """Hold all traffic and new connections until `resume()`."""
        self._call(self._flowing_clear)

    def resume(self) -> None:
        """Deliver what was held and relay again."""
        self._call(self._flowing_set)

    def cut(self) -> None:
        """Reset every connection and refuse new ones until `restore()`."""
        self._call(self._cut)

    def restore(self) -> None:
        """Accept connections again after `cut()` (and end any pause)."""
        self._call(self._listen)
        self._call(self._flowing_set)

    def close(self) -> None:
        """Reset every connection and stop the proxy's thread."""
        if not self._thread.is_alive():
            return
        with contextlib.suppress(RuntimeError):
            self._call(self._shutdown)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    def _call(self, fn: object) -> None:
        assert callable(fn)
        future = asyncio.run_coroutine_threadsafe(_as_coroutine(fn), self._loop)
        future.result(10)

    # -- the proxy's own loop ----------------------------------------------------------
    def _flowing_set(self) -> None:
        self._flowing.set()

    def _flowing_clear(self) -> None:
        self._flowing.clear()

    async def _listen(self) -> None:
        if self._listener is not None:
            return
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        listener.setblocking(False)
        self.port = listener.getsockname()[1]
        self._listener = listener
        asyncio.get_running_loop().add_reader(listener, self._accept_ready, listener)

    def _accept_ready(self, listener: socket.socket) -> None:
        # Runs in the loop, between awaits: a socket accepted here is in `_adopting`
        # before anything can cut, so a cut always finds and closes it.
        while True:
            try:
                conn, _ = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return  # the listener was closed by a cut
            conn.setblocking(False)
            self._adopting.add(conn)
            task = asyncio.ensure_future(self._adopt(conn))
            self._adopters.add(task)
            task.add_done_callback(self._adopters.discard)

    async def _adopt(self, conn: socket.socket) -> None:
        loop = asyncio.get_running_loop()

        def accepted() -> _Tracked:
            reader = asyncio.StreamReader(limit=2 * _CHUNK, loop=loop)
            return _Tracked(self._open, reader, self._accept, loop=loop)

        try:
            await loop.connect_accepted_socket(accepted, sock=conn)
        except (OSError, asyncio.CancelledError):
            # Reset before it was set up: nothing to relay. A transport already made
            # was closed as the call failed, and closes this socket itself too.
            conn.close()
        finally:
            self._adopting.discard(conn)

    async def _upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """`asyncio.open_connection` to the target, its transport tracked from the start."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2 * _CHUNK, loop=loop)
        transport, protocol = await loop.create_connection(
            lambda: _Tracked(self._open, reader, loop=loop), self.target_host, self.target_port
        )
        return reader, asyncio.StreamWriter(transport, protocol, reader, loop)

    def _reset_all(self) -> None:
        # abort, not close: the peer sees a reset, as when a server goes away.
        for transport in list(self._open):
            transport.abort()

    async def _cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            asyncio.get_running_loop().remove_reader(listener)
            listener.close()  # new connections are refused from now on
        adopters = list(self._adopters)
        for task in adopters:
            task.cancel()
        await asyncio.gather(*adopters, return_exceptions=True)
        # A task cancelled before it started never ran its cleanup: nothing was made
        # of its socket yet, so closing the socket is all there is to do.
        for conn in list(self._adopting):
            conn.close()
        self._adopting.clear()
        self._reset_all()
        for task in list(self._tasks):
            task.cancel()

    async def _shutdown(self) -> None:
        await self._cut()
        # Handlers still opening their upstream connection (or unwinding) end here, and
        # whatever they opened meanwhile is reset too.
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        # An aborted transport closes its socket in a callback of the next loop turn,
        # and a connection a cancelled handler was opening is made (then closed) by
        # callbacks still queued: run a few turns after the last transport is gone
        # before `close()` stops the loop and drops the queue.
        quiet = 0
        for _ in range(200):
            self._reset_all()
            quiet = quiet + 1 if not self._open else 0
            if quiet > 5:
                break
            await asyncio.sleep(0)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self._flowing.wait()
            up_reader, up_writer = await self._upstream()
        except (OSError, asyncio.CancelledError):
            writer.transport.abort()
            return
        self.connections += 1
        pumps = [
            asyncio.create_task(self._pump(reader, up_writer)),
            asyncio.create_task(self._pump(up_reader, writer)),
        ]
        self._tasks.update(pumps)
        try:
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in pumps:
                task.cancel()
                self._tasks.discard(task)
            for w in (writer, up_writer):
                w.transport.abort()

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while True:
                data = await source.read(_CHUNK)
                if not data:
                    return
                # Held while paused: the bytes arrive late, in order, as after a stall.
                await self._flowing.wait()
                sink.write(data)
                await sink.drain()


class _Tracked(asyncio.StreamReaderProtocol):
    """A stream protocol that keeps its transport in `open` from made to closed."""

    def __init__(self, open_: set[asyncio.Transport], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open = open_
        self._tracked: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # a TCP connection's
        self._tracked = transport
        self._open.add(transport)
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._tracked is not None:
            self._open.discard(self._tracked)
        super().connection_lost(exc)


async def _as_coroutine(fn: object) -> None:
    assert callable(fn)
    result = fn()
    if asyncio.iscoroutine(result):
        await result


class SmallDisk:
    """A small tmpfs mounted in a temporary directory, which can be filled up and freed.

    Put a SQLite file under `path`, then `fill()` to make every write fail with "disk
    full" until `free()`. Needs root (it mounts); `available()` says whether it can.

    Args:
        size_kib: The filesystem's size.
    """

    def __init__(self, size_kib: int = 4096) -> None:
        self.size_kib = size_kib
        self.path = Path(tempfile.mkdtemp(prefix="tether-disk-"))
        self._filler = self.path / ".filler"
        self._mounted = False

    @staticmethod
    def available() -> bool:
        """Whether this process may mount a tmpfs (root with the mount tool)."""
        return os.geteuid() == 0 and shutil.which("mount") is not None

    def __enter__(self) -> SmallDisk:
        if not self.available():
            raise ConfigurationError("SmallDisk mounts a tmpfs: it needs root and `mount`")
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.size_kib}k", "tmpfs", str(self.path)],
            check=True,
        )
        self._mounted = True
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._mounted:
            subprocess.run(["umount", "-l", str(self.path)], check=False)
            self._mounted = False
        with contextlib.suppress(OSError):
            self.path.rmdir()

    def fill(self) -> None:
        """Take every free byte: writes fail with "database or disk is full"."""
        # The suppression is outermost: closing a file on a full disk fails too.
        with contextlib.suppress(OSError), open(self._filler, "ab") as f:
            block = b"\0" * 65536
            while True:
                f.write(block)
                f.flush()
        # tmpfs may leave a sliver of a page; take it byte by byte.
        with contextlib.suppress(OSError), open(self._filler, "ab", buffering=0) as f:
            while True:
                f.write(b"\0" * 512)

    def free(self) -> None:
        """Give the space back."""
        with contextlib.suppress(FileNotFoundError):
            self._filler.unlink()

    @contextlib.contextmanager
    def full(self) -> Iterator[None]:
        """Full inside the block, freed after it."""
        self.fill()
        try:
            yield
        finally:
            self.free()
