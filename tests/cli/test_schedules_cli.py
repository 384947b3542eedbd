"""`tether schedules`: list, pause, resume and trigger, as a real process."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import tether

registry = tether.Registry(deployment="cli-schedules")
ticks: list[str] = []


@registry.workflow(name="beat")
async def beat(ctx: tether.WorkflowContext, *, scheduled_at: str) -> str:
    ticks.append(scheduled_at)
    return scheduled_at


registry.schedule("beat", beat, every="1s")


def tether_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tether.cli", *args], capture_output=True, text=True, timeout=120
    )


async def test_list_pause_trigger_and_resume_from_the_cli(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/cli.db"
    run = asyncio.to_thread
    async with tether.open_backend(url) as backend:
        async with tether.Worker(backend, registry, poll_interval=0.02):
            for _ in range(200):
                if ticks:
                    break
                await asyncio.sleep(0.05)
            listed = await run(tether_cmd, "schedules", "list", "--db", url, "--json")
            assert listed.returncode == 0, listed.stderr
            (beat_info,) = json.loads(listed.stdout)
            assert beat_info["name"] == "beat" and beat_info["every"] == 1.0
            assert beat_info["paused"] is False and beat_info["next_tick"] is not None
            table = await run(tether_cmd, "schedules", "list", "--db", url)
            assert "beat" in table.stdout and "every 1s" in table.stdout

            paused = await run(tether_cmd, "schedules", "pause", "beat", "--db", url)
            assert paused.returncode == 0 and "paused" in paused.stdout, paused.stderr
            for _ in range(200):
                listed = await run(tether_cmd, "schedules", "list", "--db", url, "--json")
                if json.loads(listed.stdout)[0]["paused"]:
                    break
            before = len(ticks)
            await asyncio.sleep(2.2)
            assert len(ticks) == before  # nothing ticks while paused

            started = await run(tether_cmd, "schedules", "trigger", "beat", "--db", url)
            assert started.returncode == 0 and "a run starts now" in started.stdout
            for _ in range(200):
                if len(ticks) > before:
                    break
                await asyncio.sleep(0.05)
            assert len(ticks) == before + 1

            resumed = await run(tether_cmd, "schedules", "resume", "beat", "--db", url)
            assert resumed.returncode == 0 and "resumed" in resumed.stdout
            for _ in range(100):
                if len(ticks) > before + 1:
                    break
                await asyncio.sleep(0.05)
            assert len(ticks) > before + 1
    missing = await run(tether_cmd, "schedules", "pause", "nightly", "--db", url)
    assert missing.returncode == 2 and "no schedule 'nightly' is running" in missing.stderr
