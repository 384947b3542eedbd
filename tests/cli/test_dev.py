"""`tether dev`, run as a real process on a real project directory.

The app's step returns the code's VERSION, so a run's result says which generation's
code ran it. The supervisor is killed with SIGKILL for the restarts (its workers die
with it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import tether
from tether.agent import Agent, AgentHost, Agents, Session
from tether.cli._snapshots import list_snapshots, mark_superseded, prune_snapshots, take_snapshot
from tether.durable._hosts import pid_is_dead
from tether.errors import RunCancelledError, RunDormantError
from tether.stores import Backend
from tether.testing import ScriptedModel

APP = """
import tether

registry = tether.Registry(deployment="shop")
VERSION = {version!r}


def version() -> str:
    return VERSION


@registry.workflow(name="job")
async def job(ctx: tether.WorkflowContext, n: int) -> str:
    await ctx.create_hook(token=f"go-{{ctx.chain_id}}")
    return await ctx.step(version, name="version")
"""

# What clients use: the app's own deployment; `tether dev` moves new runs to a generation.
client_registry = tether.Registry(deployment="shop")


@client_registry.workflow(name="job")
async def job(ctx: tether.WorkflowContext, n: int) -> str:
    raise AssertionError("clients never run it")


def write_app(project: Path, version: str) -> None:
    (project / "app.py").write_text(APP.format(version=version))


POLL = ("--poll", "0.05")


class Dev:
    """One `tether dev` process; its output goes to a file the test reads."""

    def __init__(
        self, project: Path, url: str, env: dict[str, str], *args: str, target: str = "app:registry"
    ) -> None:
        self.out = project.parent / f"dev-{time.monotonic_ns()}.log"
        self._file = self.out.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tether.cli", "dev", target, "--db", url, *POLL, *args],
            cwd=project,
            stdout=self._file,
            stderr=subprocess.STDOUT,
            env={**os.environ, **env},
        )

    def text(self) -> str:
        return self.out.read_text(errors="replace")

    async def line(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.text())
            if found:
                return found
            if self.process.poll() is not None:
                break
            await asyncio.sleep(0.02)
        raise AssertionError(f"no line matching {pattern!r} in:\n{self.text()}")

    async def serving(self, after: int = 0) -> str:
        """The digest of the generation serving new runs (the `after`-th announcement)."""
        pattern = r"generation (\w+) \(\S+\) serving new runs"
        # A deadline as `line`'s: on a loaded machine a new supervisor and its first
        # worker take well over the few seconds they take alone to import and start.
        deadline = time.monotonic() + 60.0
        while time.monotonic() < deadline:
            ended = self.process.poll() is not None  # before reading: its last words count
            found = re.findall(pattern, self.text())
            if len(found) > after:
                return str(found[after])
            if ended:
                break
            await asyncio.sleep(0.05)
        raise AssertionError(f"no generation #{after} in:\n{self.text()}")

    def kill(self) -> None:
        """SIGKILL the supervisor; its workers die with it (parent-death signal)."""
        pids = [int(p) for p in re.findall(r"worker pid (\d+)", self.text())]
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        for pid in pids:
            for _ in range(500):
                if pid_is_dead(pid):  # gone, or a zombie nobody reaped yet
                    break
                time.sleep(0.01)
            else:
                raise AssertionError(f"worker {pid} outlived its supervisor")
        self._file.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # stops it like Ctrl-C
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self._file.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/dev.db", {}
        return
    namespace = request.getfixturevalue("pg_namespace")
    yield request.getfixturevalue("pg_url"), {"TETHER_POSTGRES_NAMESPACE": namespace}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    write_app(path, "v1")
    return path


@pytest.fixture
async def backend(store: tuple[str, dict[str, str]]) -> AsyncIterator[Backend]:
    url, env = store
    options = {"namespace": env["TETHER_POSTGRES_NAMESPACE"]} if env else {}
    async with tether.open_backend(url, **options) as opened:
        yield opened


async def start_parked(backend: Backend, run_id: str) -> str:
    """Start `run_id` as a client does; return the deployment of the run that parked."""
    client = tether.Client(backend, registry=client_registry)
    handle = await client.start("job", 1, run_id=run_id)
    store = backend.stores.workflow
    for _ in range(1000):
        # Parked: the hook is there and the lease released. (The hook is durable a few
        # loop turns before the park: a worker killed in between leaves the run held by
        # a live-looking lease, which a send then rightly treats as held, not dormant.)
        run = await store.get_run(run_id)
        if (
            await store.get_hook(f"go-{run_id}") is not None
            and run is not None
            and run.lease_owner is None
        ):
            return (await handle.info()).deployment
        await asyncio.sleep(0.02)
    raise AssertionError(f"{run_id} never parked")


async def finish(backend: Backend, run_id: str) -> str:
    client = tether.Client(backend)
    await client.resume_hook(f"go-{run_id}", "go")
    return str(await (await client.get(run_id)).result(timeout=20))


@pytest.mark.slow
async def test_a_run_in_flight_keeps_its_code_and_new_runs_get_the_new_code(
    project: Path, tmp_path: Path
) -> None:
    # SQLite only: the restart test below runs the same process work on Postgres too.
    url, env = f"sqlite:///{tmp_path}/dev.db", {}
    async with tether.open_backend(url) as backend:
        await in_flight_keeps_its_code(project, url, env, backend)


async def in_flight_keeps_its_code(
    project: Path, url: str, env: dict[str, str], backend: Backend
) -> None:
    # No grace at all: only being active keeps a superseded snapshot.
    dev = Dev(project, url, env, "--keep-minutes", "0", "--keep-last", "0")
    try:
        first = await dev.serving()
        assert await start_parked(backend, "r1") == f"shop+dev.{first}"
        write_app(project, "v2")
        second = await dev.serving(after=1)
        assert second != first
        assert await start_parked(backend, "r2") == f"shop+dev.{second}"
        # Changed back while generation 1 still runs r1: its worker takes new runs again.
        write_app(project, "v1")
        assert await dev.serving(after=2) == first
        assert await start_parked(backend, "back") == f"shop+dev.{first}"
        write_app(project, "v2")
        assert await dev.serving(after=3) == second
        assert len(re.findall(r"tether worker: ", dev.text())) == 2  # no worker started
        await asyncio.sleep(1.5)  # housekeeping ran: r1 is unfinished, its snapshot stays
        assert (project / ".tether" / "dev" / first).is_dir()
        assert f"generation {first} retired" not in dev.text()
        assert await finish(backend, "r1") == "v1"  # the old code, in the old worker
        assert await finish(backend, "back") == "v1"
        assert await finish(backend, "r2") == "v2"
        await dev.line(f"generation {first} retired \\(no unfinished runs\\)")
        await dev.line(f"removed snapshot {first}")
        assert not (project / ".tether" / "dev" / first).exists()
        assert (project / ".tether" / "dev" / second).is_dir()  # current: never removed
        # A generation's worker killed is started again, and serves its runs.
        pid = int(re.findall(r"worker pid (\d+)", dev.text())[-1])
        os.kill(pid, signal.SIGKILL)
        await dev.line(f"the worker of generation {second} exited \\(-9\\); restarting it")
        await start_parked(backend, "r3")
        assert await finish(backend, "r3") == "v2"
    finally:
        dev.stop()
    assert dev.process.returncode == 143  # SIGTERM: a clean stop
    assert all(pid_is_dead(int(p)) for p in re.findall(r"worker pid (\d+)", dev.text()))


@pytest.mark.slow
async def test_restart_dormant_then_resume_recovers_or_cancels(
    project: Path, store: tuple[str, dict[str, str]], backend: Backend
) -> None:
    """Killed; restarted on new code without --resume, then again with it.

    r1 is left by generation 1, whose snapshot stays: resumed, it finishes on its own
    code. r2 is left by generation 2, whose snapshot is removed: resumed, it is
    cancelled, and says why.
    """
    url, env = store
    dev = Dev(project, url, env)
    first = await dev.serving()
    await start_parked(backend, "r1")
    dev.kill()

    write_app(project, "v2")
    dormant = Dev(project, url, env)
    try:
        await dormant.line(
            f"1 unfinished run\\(s\\) of generation {first} left dormant .* --resume"
        )
        second = await dormant.serving()
        client = tether.Client(backend)
        with pytest.raises(RunDormantError, match="--resume"):
            await client.resume_hook("go-r1", "lost?")
        with pytest.raises(RunDormantError):
            await (await client.get("r1")).result(timeout=5)
        # New runs are served meanwhile, by the current code.
        await start_parked(backend, "r2")
        await start_parked(backend, "r3")
        assert await finish(backend, "r3") == "v2"
    finally:
        dormant.kill()

    write_app(project, "v3")
    shutil.rmtree(project / ".tether" / "dev" / second)
    resumed = Dev(project, url, env, "--resume")
    try:
        await resumed.line(f"resumed generation {first}: 1 unfinished run\\(s\\)")
        await resumed.line(f"cancelled 1 run\\(s\\) of generation {second}: its snapshot is gone")
        await resumed.serving()
        assert await finish(backend, "r1") == "v1"
        handle = await tether.Client(backend).get("r2")
        with pytest.raises(RunCancelledError):
            await handle.result(timeout=10)
        info = await handle.info()
        events = await backend.stores.workflow.list_events(info.run_id)
        reasons = [str(e.attrs.get("reason")) for e in events if "reason" in e.attrs]
        assert any(f"snapshot of generation {second} is gone" in r for r in reasons), reasons
    finally:
        resumed.stop()
    # The payload refused while r1 was dormant was never delivered.
    events = await backend.stores.workflow.list_events("r1~1")
    assert [e.event_type for e in events].count("hook_received") == 1


# -- agents ----------------------------------------------------------------------------

BOT = """
from tether.agent import Agent, Agents, approval, tool
from tether.agent.models import ToolResultMessage, UserMessage
from tether.testing import Reply, ScriptedModel, tool_call

VERSION = {version!r}


@tool(approval=approval.always())
def restart() -> str:
    \"\"\"Restart the service.\"\"\"
    return "restarted"


def answer(request):
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return f"{{VERSION}}: done"
    if isinstance(last, UserMessage) and last.text == "restart":
        return Reply(tool_calls=(tool_call("restart"),))
    return f"{{VERSION}}: hello"


agents = Agents(
    [Agent(name="ops", model=ScriptedModel(answer), instructions="Be brief.", tools=[restart])],
    deployment="bot",
)
"""

# The client side: the same agent names and deployment; its model never runs here.
client_agents = Agents([Agent(name="ops", model=ScriptedModel([]))], deployment="bot")


def write_bot(project: Path, version: str) -> None:
    (project / "bot.py").write_text(BOT.format(version=version))


async def replies(session: Session, count: int) -> list[Any]:
    for _ in range(1000):
        events = await session.read_events()
        texts = [e.data.text for e in events if e.type == "message.completed"]
        if len([e for e in events if e.type == "turn.completed"]) >= count:
            return texts
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {count} turns: {[e.type for e in await session.read_events()]}")


@pytest.mark.slow
async def test_idle_sessions_move_to_the_new_code_busy_ones_once_idle(
    tmp_path: Path,
) -> None:
    """With agents: an idle session of a superseded generation moves to the current one at
    once, a session with a turn in flight once the turn is over; then the old one retires."""
    project = tmp_path / "bot"
    project.mkdir()
    write_bot(project, "v1")
    url = f"sqlite:///{tmp_path}/bot.db"
    dev = Dev(project, url, {}, target="bot:agents")
    try:
        first = await dev.serving()
        async with tether.open_backend(url) as backend:
            host = AgentHost(backend, client_agents)
            old = await host.open_session("ops", session_id="old")
            await old.send("hi", client_message_id="m1")
            assert await replies(old, 1) == ["v1: hello"]
            # A turn in flight (parked on an approval) keeps its session where it is.
            busy = await host.open_session("ops", session_id="busy")
            await busy.send("restart", client_message_id="m2")
            requested = await busy.wait_for("input.requested", timeout=20)
            write_bot(project, "v2")
            await dev.line(f"session 'old' moved from generation {first} to \\w+ \\(idle\\)")
            await asyncio.sleep(1.2)  # housekeeping looked again, and left it
            assert "session 'busy' moved" not in dev.text()
            assert f"generation {first} retired" not in dev.text()
            new = await host.open_session("ops", session_id="new")
            await new.send("hi", client_message_id="m3")
            assert await replies(new, 1) == ["v2: hello"]
            # The moved session keeps its transcript and answers with the new code.
            await old.send("again", client_message_id="m4")
            assert await replies(old, 2) == ["v1: hello", "v2: hello"]
            # The busy one ends its turn on its own code, then moves; its generation retires.
            await busy.answer(requested.data.request.request_id, "approve")
            assert (await replies(busy, 1))[-1] == "v1: done"
            await dev.line(f"session 'busy' moved from generation {first}")
            await dev.line(f"generation {first} retired")
            second = await dev.serving(after=1)
            # Killed, restarted on new code without --resume: generation 2 is dormant,
            # and an idle session of it moves to the current code on its next message.
            dev.kill()
            write_bot(project, "v3")
            dev = Dev(project, url, {}, target="bot:agents")
            await dev.line(f"run\\(s\\) of generation {second} left dormant")
            await dev.serving()
            # (A client that saw generation 2 live within 2 s still believes it is: a
            # new one, as after a restart, sees it is not.)
            later = await AgentHost(backend, client_agents).get_session("old")
            await later.send("third", client_message_id="m5")
            assert await replies(later, 3) == ["v1: hello", "v2: hello", "v3: hello"]
    finally:
        dev.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _http_replies(http: httpx.AsyncClient, session_id: str, count: int) -> list[str]:
    """The session's replies over HTTP, once `count` turns completed."""
    for _ in range(1500):
        r = await http.get(
            f"/v1/sessions/{session_id}/events", params={"follow": "false", "format": "ndjson"}
        )
        assert r.status_code == 200, r.text
        events = [json.loads(line) for line in r.text.splitlines() if line.strip()]
        if [e["type"] for e in events].count("turn.completed") >= count:
            return [e["data"]["text"] for e in events if e["type"] == "message.completed"]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {count} turns of {session_id!r}")


SERVE = (sys.executable, "-m", "tether.cli", "serve", "bot:agents", "--no-worker")


async def _announced(dev: Dev, after: int) -> str:
    """The `after`-th generation's digest, read as soon as it is announced."""
    pattern = r"generation (\w+) \(\S+\) serving new runs"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.findall(pattern, dev.text())
        if len(found) > after:
            return str(found[after])
        await asyncio.sleep(0.002)
    raise AssertionError(f"no generation #{after} in:\n{dev.text()}")


@pytest.mark.slow
async def test_the_first_message_after_a_reload_runs_the_new_code(tmp_path: Path) -> None:
    """`tether dev` and `tether serve --no-worker` on one store: once the reload is
    announced, the next message sent over HTTP to an idle session is answered by the
    new code."""
    project = tmp_path / "bot"
    project.mkdir()
    write_bot(project, "v1")
    url = f"sqlite:///{tmp_path}/bot.db"
    dev = Dev(project, url, {}, target="bot:agents")
    port = _free_port()
    server_log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [*SERVE, "--db", url, "--port", str(port)],
        cwd=project,
        stdout=server_log,
        stderr=subprocess.STDOUT,
    )
    try:
        await dev.serving()
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=20) as http:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/v1/health")).status_code == 200:
                        break
                assert server.poll() is None, (tmp_path / "serve.log").read_text()
                await asyncio.sleep(0.05)
            r = await http.post("/v1/sessions", json={"session_id": "s"})
            assert r.status_code in (200, 201), r.text
            r = await http.post("/v1/sessions/s/messages", json={"text": "hi"})
            assert r.status_code == 202, r.text
            assert await _http_replies(http, "s", 1) == ["v1: hello"]
            for round in range(2, 6):
                write_bot(project, f"v{round}")
                digest = await _announced(dev, round - 1)
                # The reload is announced: the session is on the new generation already,
                # and the very next message runs the new code.
                state = (await http.get("/v1/sessions/s")).json()
                assert state["deployment"] == f"bot+dev.{digest}", dev.text()
                r = await http.post("/v1/sessions/s/messages", json={"text": "hi"})
                assert r.status_code == 202, r.text
                replies = await _http_replies(http, "s", round)
                assert replies == [f"v{i}: hello" for i in range(1, round + 1)], dev.text()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server_log.close()
        dev.stop()


def test_snapshot_retention(tmp_path: Path) -> None:
    """Superseded snapshots: kept 30 minutes, and the newest 5 whatever their age."""
    root, dev_dir = tmp_path / "app", tmp_path / "app" / ".tether" / "dev"
    root.mkdir()
    snapshots = []
    for i in range(9):
        (root / "app.py").write_text(f"VERSION = {i}\n")
        snapshots.append(take_snapshot(root, dev_dir))
    again = take_snapshot(root, dev_dir)  # the same code is the same generation
    assert again.digest == snapshots[-1].digest and len(list_snapshots(dev_dir)) == 9
    assert (again.path / "app.py").read_text() == "VERSION = 8\n"
    now = time.time()
    # 0-6 superseded an hour ago, 7 ten minutes ago; 8 is current (never superseded).
    for s in snapshots[:7]:
        mark_superseded(s, at=now - 3600)
    mark_superseded(snapshots[7], at=now - 600)
    removed = prune_snapshots(dev_dir, active={snapshots[0].digest}, now=now)
    # Kept: 0 (active), the newest five superseded (3-7), 8 (current). Removed: 1, 2.
    assert sorted(removed) == sorted(s.digest for s in snapshots[1:3])
    left = {s.digest for s in list_snapshots(dev_dir)}
    assert left == {s.digest for s in [snapshots[0], *snapshots[3:]]}
    # Within 30 minutes a snapshot stays even beyond the newest five.
    assert prune_snapshots(dev_dir, active=set(), now=now, keep_last=0) == [
        s.digest for s in [snapshots[0], *snapshots[3:7]]
    ]
    assert {s.digest for s in list_snapshots(dev_dir)} == {
        snapshots[7].digest,
        snapshots[8].digest,
    }
