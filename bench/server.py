"""The HTTP server under load: first-event latency, reconnects, 1,000 followers.

    python bench/server.py [--pg URL | --no-pg] [--turns N] [--followers N --sessions N]

For each store (a SQLite file, a Postgres namespace) this starts `tether serve`'s app
in a subprocess (uvicorn plus an in-process worker, a scripted model that answers at
once) and measures from this process, over real local HTTP:

1. **POST -> first event**: a follower holds an SSE connection to a session; the clock
   runs from the POST of a message to the first event of its turn reaching the
   follower. Compared with the sum of the medians of one durable commit (one write
   transaction on the same store, from this process) and one local HTTP round trip
   (GET /v1/health on the same server, same client). Target <= 3x. Measured in two
   ways: back to back (``first_event_ratio``: each POST as soon as the turn before
   announced its end, the yardstick measured before the turns, in a tight loop), and
   ``from_quiet`` (each POST, yardstick commit and round trip after the same short
   quiet, the yardstick taken between the turns: what a message to an idle server
   meets). On a VM whose idle vCPUs sleep, every wake-up from quiet costs a lot: each
   of the yardstick's two operations pays it, the turn mostly once, so the second
   ratio is the kinder one; the first is the target's.
2. **Reconnect**: a new connection with ``Last-Event-ID`` (mid-history, follow=true) to
   the first replayed event's frame, to a session whose shared listener is up (a client
   that dropped a moment ago) and "cold" (a session no follower of this server follows:
   every check and read runs). Target <= 5 ms.
3. **Fan-out**: N followers (default 1,000) over M sessions (default 100), raw SSE
   connections; one message to every session; every follower must get every event of
   its session exactly once, in order (indexes contiguous from where it started, up to
   ``turn.completed``). Reported: the wall time, the server process's CPU seconds and
   its resident memory per follower (RSS with the followers connected minus before).

Medians; the machine may be shared, so compare ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
TOKEN = "bench-token-0123456789abcdef"


# -- the server process ---------------------------------------------------------------------
def _agents() -> Any:
    from tether.agent import Agent, Agents
    from tether.testing import ScriptedModel

    agent = Agent(name="bench", model=ScriptedModel(lambda request: "ok, done"), instructions="")
    return Agents([agent], deployment="bench-server")


async def _serve(url: str, namespace: str | None, port: int) -> None:
    import uvicorn

    import tether
    from tether.agent import AgentHost
    from tether.server import BearerTokens, Principal, create_app

    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(url, **options) as backend:
        host = AgentHost(backend, _agents())
        app = create_app(
            host, authenticator=BearerTokens({TOKEN: Principal(id="ada", tenant="acme")})
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", backlog=4096)
        async with host.worker(concurrency=64):
            await uvicorn.Server(config).serve()


# -- raw SSE client (cheap enough for 1,000 connections in one process) ----------------------
class SseConnection:
    """One HTTP/1.1 GET of an event stream, read frame by frame (chunked encoding)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.buffer = b""

    @classmethod
    async def open(cls, port: int, path: str, last_event_id: int | None = None) -> SseConnection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id is not None else ""
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {TOKEN}\r\n"
                f"Accept: text/event-stream\r\n{extra}\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        return cls(reader, writer)

    async def _chunk(self) -> bytes:
        size_line = await self.reader.readuntil(b"\r\n")
        size = int(size_line.strip(), 16)
        if size == 0:
            raise EOFError
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    async def frame(self) -> dict[str, str]:
        """The next event frame (comments and retry lines skipped)."""
        while True:
            while b"\n\n" not in self.buffer:
                self.buffer += await self._chunk()
            raw, self.buffer = self.buffer.split(b"\n\n", 1)
            fields: dict[str, str] = {}
            for line in raw.decode().split("\n"):
                if line.startswith(":") or not line:
                    continue
                key, _, value = line.partition(": ")
                fields[key] = value
            if "id" in fields:
                return fields

    def close(self) -> None:
        self.writer.close()


# -- measurements ---------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


#: Seconds of quiet before each yardstick measurement and each POST (`_first_event`).
QUIET = 0.01


class _Yardstick:
    """One durable write transaction on the store (a one-chunk stream append), from here."""

    def __init__(self, url: str, namespace: str | None) -> None:
        self.url, self.namespace = url, namespace
        self.samples: list[float] = []

    async def __aenter__(self) -> _Yardstick:
        import tether

        options = {"namespace": self.namespace} if self.namespace else {}
        self._open = tether.open_backend(self.url, migrate=False, **options)
        self._store = (await self._open.__aenter__()).stores.workflow
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._open.__aexit__(*exc)

    async def commit(self) -> None:
        t0 = time.perf_counter()
        await self._store.write_stream("bench-commit", "x", [b"%d" % len(self.samples)])
        self.samples.append(time.perf_counter() - t0)


async def _rtt(http: httpx.AsyncClient, samples: list[float]) -> None:
    t0 = time.perf_counter()
    await http.get("/v1/health")
    samples.append(time.perf_counter() - t0)


async def _first_event(
    http: httpx.AsyncClient,
    port: int,
    turns: int,
    session_id: str,
    yardstick: _Yardstick | None = None,
    rtt: list[float] | None = None,
) -> tuple[list[float], list[float]]:
    """POST -> first event at a follower, `turns` times, in a session of its own.

    Without `yardstick`, back to back: each POST as soon as the turn before has
    announced its end. With it, the machine is shared: one yardstick commit and one
    round trip (into `rtt`) are taken between the turns, so they see the load the
    turns see, and each commit, round trip and POST comes after the same short quiet
    (`QUIET`; the turn before has parked by then): none meets the server still busy,
    none one that the measurement before it warmed up.
    """
    await http.post("/v1/sessions", json={"session_id": session_id})
    conn = await SseConnection.open(port, f"/v1/sessions/{session_id}/events")
    await conn.frame()  # session.started
    samples = []
    posts = []
    try:
        for i in range(turns):
            if yardstick is not None and rtt is not None:
                await asyncio.sleep(QUIET)
                await yardstick.commit()
                await asyncio.sleep(QUIET)
                await _rtt(http, rtt)
                await asyncio.sleep(QUIET)
            t0 = time.perf_counter()
            r = await http.post(f"/v1/sessions/{session_id}/messages", json={"text": f"hi {i}"})
            posts.append(time.perf_counter() - t0)
            assert r.status_code == 202, r.text
            frame = await conn.frame()
            samples.append(time.perf_counter() - t0)
            assert frame["event"] == "turn.started", frame
            while frame["event"] != "session.waiting":
                frame = await conn.frame()
    finally:
        conn.close()
    return samples, posts


async def _reconnects(port: int, n: int) -> list[float]:
    samples = []
    for i in range(n):
        last = 5 + (i % 20)
        t0 = time.perf_counter()
        conn = await SseConnection.open(port, "/v1/sessions/lat/events", last_event_id=last)
        frame = await conn.frame()
        samples.append(time.perf_counter() - t0)
        assert int(frame["id"]) == last + 1
        conn.close()
    return samples


async def _cold_reconnects(http: httpx.AsyncClient, port: int, n: int) -> list[float]:
    """Reconnects to sessions no follower of this server has followed yet."""
    ids = [f"cold{i}" for i in range(n)]
    for sid in ids:
        await http.post("/v1/sessions", json={"session_id": sid})
        await http.post(f"/v1/sessions/{sid}/messages", json={"text": "hello"})
    for sid in ids:
        for _ in range(500):
            page = (await http.get(f"/v1/sessions/{sid}/history")).json()
            if any(e["type"] == "session.waiting" for e in page["events"]):
                break
            await asyncio.sleep(0.01)
    samples = []
    for sid in ids:
        t0 = time.perf_counter()
        conn = await SseConnection.open(port, f"/v1/sessions/{sid}/events", last_event_id=1)
        frame = await conn.frame()
        samples.append(time.perf_counter() - t0)
        assert int(frame["id"]) == 2
        conn.close()
    return samples


def _proc_stats(pid: int) -> tuple[float, int]:
    """CPU seconds (user + system) and resident bytes of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


async def _fan_out(
    http: httpx.AsyncClient, port: int, pid: int, followers: int, sessions: int
) -> dict[str, Any]:
    ids = [f"fan{i}" for i in range(sessions)]
    for sid in ids:
        r = await http.post("/v1/sessions", json={"session_id": sid})
        assert r.status_code in (200, 201), r.text
    await asyncio.sleep(0.5)
    cpu0, rss0 = _proc_stats(pid)
    conns: list[tuple[str, SseConnection]] = []
    for i in range(followers):
        sid = ids[i % sessions]
        conns.append((sid, await SseConnection.open(port, f"/v1/sessions/{sid}/events")))
    # Every follower has its session.started: all are live.
    for _, conn in conns:
        assert (await conn.frame())["event"] == "session.started"
    await asyncio.sleep(0.5)
    _, rss1 = _proc_stats(pid)

    progress: dict[int, list[str]] = {}

    async def drain(i: int, conn: SseConnection) -> list[int]:
        seen = [0]
        progress[i] = []
        while True:
            frame = await conn.frame()
            seen.append(int(frame["id"]))
            progress[i].append(f"{frame['id']}:{frame['event']}")
            if frame["event"] == "turn.completed":
                return seen

    t0 = time.perf_counter()
    readers = [asyncio.create_task(drain(i, conn)) for i, (_, conn) in enumerate(conns)]
    sent = await asyncio.gather(
        *(http.post(f"/v1/sessions/{sid}/messages", json={"text": "go"}) for sid in ids)
    )
    refused = [(sid, r.status_code, r.text) for sid, r in zip(ids, sent, strict=True)]
    refused = [r for r in refused if r[1] != 202]
    if refused:
        raise RuntimeError(f"fan-out: {len(refused)} messages refused, the first: {refused[0]}")
    _, pending = await asyncio.wait(readers, timeout=300)
    if pending:
        # Say what never arrived, and where each stuck session stands, before failing.
        stuck = sorted({conns[readers.index(t)][0] for t in pending})
        for sid in stuck:
            followers_of = [i for i, (s, _) in enumerate(conns) if s == sid]
            state = (await http.get(f"/v1/sessions/{sid}")).text
            print(f"fan-out: {sid} never completed its turn; session: {state}", file=sys.stderr)
            print(f"  its first follower saw: {progress.get(followers_of[0])}", file=sys.stderr)
        raise TimeoutError(f"{len(pending)} followers of {len(stuck)} sessions waited 300 s")
    results = [t.result() for t in readers]
    wall = time.perf_counter() - t0
    cpu1, _ = _proc_stats(pid)
    for _, conn in conns:
        conn.close()
    exact = all(seen == list(range(len(seen))) for seen in results)
    delivered = sum(len(seen) for seen in results)
    return {
        "followers": followers,
        "sessions": sessions,
        "exactly_once_in_order": exact,
        "events_delivered": delivered,
        "wall_s": round(wall, 3),
        "server_cpu_s": round(cpu1 - cpu0, 3),
        "rss_per_follower_kib": round((rss1 - rss0) / followers / 1024, 1),
    }


async def _bench(
    name: str, url: str, namespace: str | None, args: argparse.Namespace
) -> dict[str, Any]:
    port = _free_port()
    env = {**os.environ}
    cmd = [sys.executable, __file__, "--serve", url, str(port), namespace or ""]
    proc = subprocess.Popen(cmd, env=env)
    try:
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}",
            headers={"Authorization": f"Bearer {TOKEN}"},
            timeout=60,
            limits=httpx.Limits(max_connections=200),
        ) as http:
            for _ in range(300):
                try:
                    if (await http.get("/v1/openapi.json")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            rtt_before: list[float] = []
            for _ in range(200):
                await _rtt(http, rtt_before)
            async with _Yardstick(url, namespace) as yardstick:
                for _ in range(100):
                    await yardstick.commit()
                commit_before = _median_ms(yardstick.samples)
                yardstick.samples.clear()
                first, posts = await _first_event(http, port, args.turns, "lat")
                rtt: list[float] = []
                quiet, _ = await _first_event(http, port, args.turns, "quiet", yardstick, rtt)
                commit_quiet = _median_ms(yardstick.samples)
            reconnect = await _reconnects(port, 60)
            cold = await _cold_reconnects(http, port, 30)
            fan = await _fan_out(http, port, proc.pid, args.followers, args.sessions)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    first_ms, quiet_ms = _median_ms(first), _median_ms(quiet)
    return {
        "store": name,
        "commit_ms": round(commit_before, 3),
        "http_rtt_ms": round(_median_ms(rtt_before), 3),
        "post_response_ms": round(_median_ms(posts), 3),
        "post_to_first_event_ms": round(first_ms, 3),
        "first_event_ratio": round(first_ms / (commit_before + _median_ms(rtt_before)), 2),
        "from_quiet": {
            "commit_ms": round(commit_quiet, 3),
            "http_rtt_ms": round(_median_ms(rtt), 3),
            "post_to_first_event_ms": round(quiet_ms, 3),
            "first_event_ratio": round(quiet_ms / (commit_quiet + _median_ms(rtt)), 2),
        },
        "reconnect_to_first_replayed_ms": round(_median_ms(reconnect), 3),
        "cold_reconnect_ms": round(_median_ms(cold), 3),
        **fan,
    }


async def _main(args: argparse.Namespace) -> None:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        import tether

        async with tether.open_backend(url):
            pass
        results.append(await _bench("sqlite", url, None, args))
    if not args.no_pg:
        import psycopg

        import tether

        namespace = f"bench_{secrets.token_hex(4)}"
        async with tether.open_backend(args.pg, namespace=namespace):
            pass
        try:
            results.append(await _bench("postgres", args.pg, namespace, args))
        finally:
            with psycopg.connect(args.pg, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{namespace}" CASCADE')
    for result in results:
        print(json.dumps(result))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        url, port, namespace = sys.argv[2], int(sys.argv[3]), sys.argv[4] or None
        try:
            asyncio.run(_serve(url, namespace, port))
        except KeyboardInterrupt:
            pass
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=DEFAULT_PG)
    parser.add_argument("--no-pg", action="store_true")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=100)
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
