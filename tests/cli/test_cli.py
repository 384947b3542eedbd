"""The `tether` command, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import tether

registry = tether.Registry(deployment="cli")


@registry.workflow(name="cli.greet")
async def greet(ctx: tether.WorkflowContext, name: str) -> str:
    return await ctx.step(str.upper, name, name="upper")


def tether_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tether.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_demo_agent_survives_a_kill_while_parked() -> None:
    out = tether_cmd("demo")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    lines = text.splitlines()

    def at(fragment: str) -> int:
        return next(i for i, line in enumerate(lines) if fragment in line)

    # Tools ran, then the turn parked on the approval, and only then was the worker killed.
    assert at("tool.call          collect_metrics") < at("approval of restart_service")
    # The workers are `tether worker tether.cli._demo_app:agents` processes.
    assert at("approval of restart_service") < at("killed worker 1")
    assert "with SIGKILL (exit status -9)" in text
    assert at("killed worker 1") < at("started worker 2") < at("approves the restart")
    # The answer after the restart resumed the turn, which completed.
    assert at("approves the restart") < at("input.resolved     approve:")
    assert at("tool.call          restart_service") < at("turn.completed")
    assert "restart_service                    ran 1 time(s), in worker 2" in text
    assert "collect_metrics                    ran 1 time(s), in worker 1 (killed)" in text
    assert "Model calls: 4 for 4 scripted answers" in text and "(none repeated)" in text
    assert "settled, outcome completed" in text
    assert "Turn completed after the restart; restart_service ran once." in text
    # Text deltas are coalesced into one line per model call.
    assert text.count("message.delta x") == 4


def test_engine_demo_kills_and_recovers() -> None:
    out = tether_cmd("demo", "--engine")
    assert out.returncode == 0, out.stderr
    assert "sending SIGKILL" in out.stdout and "the run completed" in out.stdout
    assert "interrupted by the crash; ran again" in out.stdout
    assert out.stdout.count("replayed from the journal, not re-run") == 2


async def test_runs_list_and_show(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/cli.db"
    async with tether.open_backend(url) as backend:
        async with tether.Worker(backend, registry, poll_interval=0.02):
            handle = await tether.Client(backend).start(greet, "ada", run_id="g1")
            assert await handle.result(timeout=10) == "ADA"
    listed = tether_cmd("runs", "list", "--db", url, "--json")
    assert listed.returncode == 0, listed.stderr
    assert [r["run_id"] for r in json.loads(listed.stdout)] == ["g1"]
    shown = tether_cmd("runs", "show", "g1", "--db", url)
    assert "step//tether@0.1.0//upper" in shown.stdout and '"ADA"' in shown.stdout
    as_json = json.loads(tether_cmd("runs", "show", "g1", "--db", url, "--json").stdout)
    assert as_json["steps"][0]["output"] == "ADA" and as_json["run"]["status"] == "completed"
    missing = tether_cmd("runs", "show", "nope", "--db", url)
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_migrate_and_bad_target(tmp_path: Path) -> None:
    out = tether_cmd("migrate", f"sqlite:///{tmp_path}/m.db")
    assert out.returncode == 0 and (tmp_path / "m.db").exists()
    bad = tether_cmd("worker", "no_such_module:registry", "--db", f"sqlite:///{tmp_path}/m.db")
    assert bad.returncode == 2 and "cannot import" in bad.stderr


def test_worker_refuses_a_bad_cache_size(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/c.db"
    bad = tether_cmd("worker", "tether.cli._demo_app:agents", "--db", url, "--cached-runs", "-1")
    assert bad.returncode != 0 and "cached_runs must be an integer of at least 0" in bad.stderr
    assert "Traceback" not in bad.stderr


AGENTS_APP = '''
from tether.agent import Agent, Agents, tool
from tether.testing import Reply, ScriptedModel, tool_call


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return f"{service}: degraded"


ops = Agent(
    name="ops",
    model=ScriptedModel(
        [Reply(tool_calls=(tool_call("lookup", {"service": "api"}),)), "api is degraded"],
        select="transcript",
    ),
    tools=[lookup],
)
agents = Agents([ops], deployment="cli-agents")
'''


async def test_worker_serves_an_agents_object(tmp_path: Path) -> None:
    """`tether worker app:agents --db URL` runs sessions declared without a backend."""
    import asyncio
    import importlib.util
    import os
    import signal

    from tether.agent import AgentHost

    (tmp_path / "agents_app.py").write_text(AGENTS_APP)
    spec = importlib.util.spec_from_file_location("agents_app", tmp_path / "agents_app.py")
    assert spec is not None and spec.loader is not None
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    url = f"sqlite:///{tmp_path}/agents.db"
    worker = subprocess.Popen(
        [sys.executable, "-m", "tether.cli", "worker", "agents_app:agents", "--db", url],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        async with tether.open_backend(url) as backend:
            host = AgentHost(backend, app.agents)
            session = await host.open_session("ops", session_id="cli-1")
            await session.send("how is the api?")
            done = await session.wait_for("turn.completed", timeout=60)
            events = await session.read_events(done.index - 3)
            texts = [e.data.text for e in events if e.type == "message.completed"]
            assert texts == ["api is degraded"]
            assert (await session.state()).status in ("idle", "running")
    finally:
        worker.send_signal(signal.SIGINT)
        out, _ = await asyncio.to_thread(worker.communicate, timeout=30)
    assert "agents ['ops'], deployment 'cli-agents'" in out
