"""On a terminal the CLI draws coloured tables and progress; in a pipe, plain text.

Each command runs as a real process whose standard output and error are a
pseudo-terminal (what a person's shell gives it), or pipes.
"""

from __future__ import annotations

import asyncio
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import tether
from tether.stores import init_key_file

#: An SGR escape that sets a colour (foreground 30-37, 90-97).
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7])(?:;[0-9;]*)?m")

registry = tether.Registry(deployment="terminal")


@registry.workflow(name="two")
async def two(ctx: tether.WorkflowContext) -> str:
    async def one() -> str:
        return "one"

    await ctx.step(one, name="one")
    await ctx.step(one, name="again")
    return "done"


def on_terminal(*args: str, **env: str) -> tuple[int, str]:
    """Run `tether ARGS` with a pseudo-terminal for stdout and stderr; all it wrote."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tether.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=child,
        stderr=child,
        env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "160", **env},
    )
    os.close(child)
    out = bytearray()
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            proc.kill()
            raise AssertionError(f"no output for 60 s: {out.decode(errors='replace')}")
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    return proc.wait(timeout=30), out.decode(errors="replace")


def in_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tether.cli", *args], capture_output=True, text=True, timeout=120
    )


async def _completed_run(url: str) -> None:
    async with tether.open_backend(url) as backend:
        client = tether.Client(backend, registry=registry)
        async with tether.Worker(backend, registry, poll_interval=0.02):
            handle = await client.start(two, run_id="r-\x1b[31mred")
            assert await handle.result(timeout=30) == "done"


async def test_tables_are_coloured_on_a_terminal_and_plain_in_a_pipe(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    await _completed_run(url)
    code, drawn = await asyncio.to_thread(on_terminal, "runs", "list", "--db", url)
    assert code == 0, drawn
    assert COLOUR.search(drawn), drawn  # "completed" in green
    # The run id's own escape is shown escaped, never sent to the terminal.
    assert "r-\\x1b[31mred" in drawn and "\x1b[31mred" not in drawn
    piped = await asyncio.to_thread(in_pipe, "runs", "list", "--db", url)
    assert piped.returncode == 0 and "\x1b" not in piped.stdout
    assert piped.stdout.splitlines()[0].split() == [
        "run",
        "workflow",
        "status",
        "deployment",
        "created",
    ]
    assert "completed" in piped.stdout and "r-\\x1b[31mred" in piped.stdout
    # NO_COLOR: the terminal's layout, no colours.
    code, plain = await asyncio.to_thread(on_terminal, "runs", "list", "--db", url, NO_COLOR="1")
    assert code == 0 and "completed" in plain and not COLOUR.search(plain), plain
    code, steps = await asyncio.to_thread(on_terminal, "runs", "show", "r-\x1b[31mred", "--db", url)
    assert code == 0 and "again" in steps and COLOUR.search(steps), steps


async def test_key_rotation_and_check_deploy_draw_progress_on_a_terminal(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    key_file = tmp_path / "key"
    async with tether.open_backend(url, keys=init_key_file(key_file)) as backend:
        client = tether.Client(backend, registry=registry)
        for n in range(3):
            await client.start(two, run_id=f"waiting-{n}")  # no worker: left unfinished
    rotate = ("keys", "rotate", "--key-file", str(key_file), "--db", url, "--new-key")
    code, drawn = await asyncio.to_thread(on_terminal, *rotate)
    assert code == 0, drawn
    assert "re-wrapping data keys" in drawn and "re-wrapped 3 data key(s)" in drawn, drawn
    piped = await asyncio.to_thread(in_pipe, *rotate)
    assert piped.returncode == 0 and "re-wrapped 3 data key(s)" in piped.stdout
    assert "re-wrapping" not in piped.stdout + piped.stderr
    check = ("check-deploy", "test_terminal:registry", "--db", url)
    env = {"TETHER_KEY_FILE": str(key_file), "PYTHONPATH": str(Path(__file__).parent)}
    code, drawn = await asyncio.to_thread(on_terminal, *check, **env)
    assert code == 0, drawn
    assert "replaying unfinished runs" in drawn and "3/3" in drawn, drawn
    assert "replayed 3 unfinished run(s)" in drawn


async def test_migrate_draws_its_progress_on_a_terminal(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/m.db"
    code, drawn = await asyncio.to_thread(on_terminal, "migrate", url)
    assert code == 0, drawn
    assert f"migrated {url}" in drawn
    assert "session runs checked for labels" in drawn, drawn
    piped = await asyncio.to_thread(in_pipe, "migrate", url)
    assert piped.returncode == 0 and piped.stdout == f"migrated {url}\n"
    assert "checked" not in piped.stderr and "\x1b" not in piped.stderr
