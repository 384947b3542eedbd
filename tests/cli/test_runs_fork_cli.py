"""`tether runs fork` and `tether runs resume`, run as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tether

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


async def test_fork_and_resume_from_the_command_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/cli.db"
    async with tether.open_backend(url) as backend:
        client = tether.Client(backend, registry=fork_cli_app.broken)
        async with tether.Worker(backend, fork_cli_app.broken, poll_interval=0.02):
            with pytest.raises(tether.RunFailedError):
                await (await client.start("cli.fork", "ada", run_id="f1")).result(timeout=10)
    forked = tether_cmd("runs", "fork", "f1", "--from-step", "upper", "--db", url, "--json")
    assert forked.returncode == 0, forked.stderr
    info = json.loads(forked.stdout)
    assert info["labels"]["tether.forked_from"] == "f1" and info["status"] == "pending"
    assert info["labels"]["tether.fork_slot"] == "1" and info["deployment"] == "cli-fork-1"
    bad = tether_cmd("runs", "fork", "f1", "--from-step", "9", "--db", url)
    assert bad.returncode == 2 and "from_step 9 is out of range" in bad.stderr
    resumed = tether_cmd(
        "runs", "resume", "f1", "--app", "fork_cli_app:fixed", "--args", '["bob"]', "--db", url
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("resumed f1 from slot 2 as run f1.resumed-2")
    assert "deployment cli-fork-2" in resumed.stdout
    async with tether.open_backend(url) as backend:
        async with tether.Worker(backend, fork_cli_app.fixed, poll_interval=0.02):
            handle = await tether.Client(backend).get("f1.resumed-2")
            # The replayed step kept its recorded output: ADA, not BOB.
            assert await handle.result(timeout=10) == "ADA!"
    shown = tether_cmd("runs", "show", "f1.resumed-2", "--db", url)
    assert "forked from run f1 at slot 2" in shown.stdout
    again = tether_cmd("runs", "resume", "f1.resumed-2", "--db", url)
    assert again.returncode == 2 and "'completed': only a failed or cancelled" in again.stderr
