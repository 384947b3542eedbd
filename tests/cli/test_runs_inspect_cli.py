"""`tether runs step`, `tether runs streams` and `tether runs cancel`, run as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tether
from tether.stores import NewRun

sys.path.insert(0, str(Path(__file__).parent))
import fork_cli_app


def tether_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    return subprocess.run(
        [sys.executable, "-m", "tether.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def _idle(run_id: str, workflow: str = "idle", **labels: str) -> NewRun:
    # On a queue no worker serves: it stays pending until cancelled.
    return NewRun(
        run_id=run_id,
        workflow_name=workflow,
        input=b"in",
        deployment="d",
        engine_version="e",
        queue="nobody",
        labels=labels,
    )


async def test_a_step_with_its_events_and_a_runs_streams(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/cli.db"
    async with tether.open_backend(url) as backend:
        client = tether.Client(backend, registry=fork_cli_app.broken)
        async with tether.Worker(backend, fork_cli_app.broken, poll_interval=0.02):
            with pytest.raises(tether.RunFailedError):
                await (await client.start("cli.fork", "ada", run_id="f1")).result(timeout=10)
        upper = next(s for s in await backend.stores.workflow.list_steps("f1"))
        await backend.stores.workflow.write_stream("f1", "notes", [b"a", b"b"])
        await backend.stores.workflow.close_stream("f1", "notes")
    shown = tether_cmd("runs", "step", "f1", upper.step_id, "--db", url, "--json")
    assert shown.returncode == 0, shown.stderr
    out = json.loads(shown.stdout)
    assert out["step"]["name"].endswith("upper") and out["step"]["output"] == "ADA"
    assert out["events"][0]["event_type"] == "step_created"
    assert out["events"][-1]["event_type"] == "step_completed"
    assert {e["correlation_id"] for e in out["events"]} == {upper.step_id}
    table = tether_cmd("runs", "step", "f1", upper.step_id, "--db", url)
    assert table.returncode == 0 and 'output "ADA"' in table.stdout, table.stderr
    assert "step_completed" in table.stdout
    missing = tether_cmd("runs", "step", "f1", "nope", "--db", url)
    assert missing.returncode == 2 and "run 'f1' has no step 'nope'" in missing.stderr

    streams = tether_cmd("runs", "streams", "f1", "--db", url, "--json")
    assert streams.returncode == 0, streams.stderr
    assert json.loads(streams.stdout) == [
        {"run_id": "f1", "name": "notes", "length": 2, "closed": True}
    ]
    none = tether_cmd("runs", "streams", "nope", "--db", url)
    assert none.returncode == 2 and "run 'nope' does not exist" in none.stderr


async def test_cancel_runs_by_id_and_by_filter(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/cli.db"
    async with tether.open_backend(url) as backend:
        store = backend.stores.workflow
        for n in range(3):
            await store.create_run(_idle(f"i{n}"))
        await store.create_run(_idle("team-a", workflow="other", team="a"))
        await store.create_run(_idle("team-b", workflow="other", team="b"))
    refused = tether_cmd("runs", "cancel", "--db", url)
    assert refused.returncode == 2 and "--all for every active run" in refused.stderr
    both = tether_cmd("runs", "cancel", "i0", "--workflow", "idle", "--db", url)
    assert both.returncode == 2 and "not both" in both.stderr

    by_id = tether_cmd("runs", "cancel", "i0", "--reason", "by hand", "--db", url)
    assert by_id.returncode == 0, by_id.stderr
    assert "1 cancelled" in by_id.stdout
    by_label = tether_cmd("runs", "cancel", "--label", "team=a", "--db", url, "--json")
    assert by_label.returncode == 0, by_label.stderr
    assert json.loads(by_label.stdout) == [
        {"run_id": "team-a", "workflow_name": "other", "status": "cancelled"}
    ]
    by_workflow = tether_cmd("runs", "cancel", "--workflow", "idle", "--db", url, "--json")
    assert sorted(r["run_id"] for r in json.loads(by_workflow.stdout)) == ["i1", "i2"]
    async with tether.open_backend(url) as backend:
        store = backend.stores.workflow
        reasons = [e.attrs.get("reason") for e in await store.list_events("i0")]
        assert reasons[-1] == "by hand"
        left = await store.get_run("team-b")
        assert left is not None and left.status == "pending"
    rest = tether_cmd("runs", "cancel", "--all", "--db", url, "--json")
    assert [r["run_id"] for r in json.loads(rest.stdout)] == ["team-b"]
    bad = tether_cmd("runs", "cancel", "--label", "team", "--db", url)
    assert bad.returncode == 2 and "--label 'team' is not KEY=VALUE" in bad.stderr
