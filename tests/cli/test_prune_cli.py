"""`tether prune`: one retention sweep now; ``--dry-run`` lists, ``--json`` for scripts."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tether
from tether.agent import Agent, AgentHost
from tether.cli import main
from tether.testing import ScriptedModel

registry = tether.Registry(deployment="prune-cli")


@registry.workflow(name="cli.prune.note")
async def note(ctx: tether.WorkflowContext, text: str) -> str:
    return await ctx.step(str.upper, text, name="upper")


async def _store(url: str) -> None:
    """Two ended runs, one ended session, one run that never ended."""
    async with tether.open_backend(url) as backend:
        client = tether.Client(backend, registry=registry)
        async with tether.Worker(backend, registry, poll_interval=0.02):
            for run_id in ("n1", "n2"):
                await (await client.start(note, "secret", run_id=run_id)).result(timeout=10)
        host = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(["hi"]))])
        async with host.worker(poll_interval=0.02):
            session = await host.open_session("ops", session_id="s1")
            await session.send("hello")
            await session.wait_for("turn.completed")
            await session.close()
            await (await host.client.get(session.run_id)).result(timeout=10)
        await client.start(note, "pending", run_id="later")  # no worker runs it


def test_prune_deletes_what_ended_before_the_period(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/prune.db"
    asyncio.run(_store(url))
    # A period longer than the runs' age: nothing to do.
    assert main(["prune", "--db", url, "--older-than", "1h"]) == 0
    assert "deleted the content of 0 sessions and 0 runs" in capsys.readouterr().out
    assert main(["prune", "--db", url, "--older-than", "0.001", "--dry-run", "--json"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["dry_run"] and dry["sessions"] == ["s1"] and dry["runs"] == ["n1", "n2"]
    args = ["prune", "--db", url, "--older-than", "0.001", "--batch-size", "1"]
    # Bounded: one batch of one run (the oldest end first), and it says more is left.
    assert main([*args, "--max-batches", "1"]) == 0
    out = capsys.readouterr().out
    assert "deleted the content of 0 sessions and 1 run" in out and "  run n1" in out
    assert "stopped after 1 batches" in out
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "deleted the content of 1 session and 1 run" in out
    assert "  session s1" in out and "  run n2" in out and "later" not in out
    assert main(["prune", "--db", url, "--older-than", "0.001", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["sessions"], again["runs"], again["complete"]) == ([], [], True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "has no retention period: pass --older-than"),
        (["--older-than", "soon"], "--older-than: 'soon' is not a duration"),
        (["--older-than", "0"], "--older-than must be longer than 0"),
        (["--older-than", "1d", "--batch-size", "0"], "--batch-size must be at least 1"),
    ],
)
def test_prune_refuses_bad_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["prune", "--db", f"sqlite:///{tmp_path}/bad.db", *args]) == 2
    assert message in capsys.readouterr().err


def test_prune_as_a_process_reads_the_period_from_the_environment(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/env.db"
    asyncio.run(_store(url))
    out = subprocess.run(
        [sys.executable, "-m", "tether.cli", "prune", "--db", url, "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, "TETHER_RETENTION": "1ms"},
    )
    assert out.returncode == 0, out.stderr
    assert "would delete the content of 1 session and 2 runs" in out.stdout
