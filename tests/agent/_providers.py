"""A real local HTTP/1.1 server that replays scripted provider answers.

Each queued answer is a status, headers and a list of body chunks sent with chunked
transfer encoding; the sentinel ``STALL`` makes the server go silent mid-stream. (In a
module of its own, not in ``conftest``: tests import it by a name no other directory's
module has.)
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

STALL = object()


@dataclass
class Answer:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    chunks: list[Any] = field(default_factory=list)


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class ProviderServer:
    """Serves queued answers in order on 127.0.0.1; records every request."""

    STALL = STALL

    def __init__(self) -> None:
        self.answers: list[Answer] = []
        self.requests: list[Received] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def answer(self, status: int = 200, chunks: list[Any] | None = None, **headers: str) -> None:
        normalized = {k.replace("_", "-"): v for k, v in headers.items()}
        self.answers.append(Answer(status=status, headers=normalized, chunks=chunks or []))

    def sse(self, chunks: list[Any], status: int = 200) -> None:
        self.answer(status, chunks, content_type="text/event-stream")

    def json_error(self, status: int, payload: Any, **headers: str) -> None:
        self.answer(
            status, [json.dumps(payload).encode()], content_type="application/json", **headers
        )

    def hang(self) -> None:
        """Read the next request and never answer it, not even with headers."""
        self.answers.append(Answer(status=0))

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if line:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            self.requests.append(Received(method, path, headers, body))
            answer = self.answers.pop(0) if self.answers else Answer(status=500)
            if answer.status == 0:
                await asyncio.Event().wait()
            out = [f"HTTP/1.1 {answer.status} X".encode()]
            for name, value in {
                **answer.headers,
                "transfer-encoding": "chunked",
                "connection": "close",
            }.items():
                out.append(f"{name}: {value}".encode())
            writer.write(b"\r\n".join(out) + b"\r\n\r\n")
            await writer.drain()
            for chunk in answer.chunks:
                if chunk is STALL:
                    await asyncio.Event().wait()
                data = chunk.encode() if isinstance(chunk, str) else chunk
                writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                await writer.drain()
            writer.write(b"0\r\n\r\n")
            await writer.drain()
        except (asyncio.CancelledError, ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            self._tasks.discard(task)
