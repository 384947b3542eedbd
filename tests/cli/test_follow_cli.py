"""`tether sessions follow` run as a real process: on a terminal (a pty), in a pipe, as JSON.

On a terminal it draws a live view of the turn in progress (what it does now, the
reply as it streams) under the lines it prints; in a pipe it prints the same plain
lines as ever, and ``--json`` one event a line.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import tether
from tether.agent import AgentHost

sys.path.insert(0, str(Path(__file__).parent))
import follow_cli_app as app

#: Cursor movements and line erasures: the live view being redrawn.
REDRAW = re.compile(r"\x1b\[(?:\d*A|2K|\?25l)")
PLAIN = [
    "> check the disk",
    '  -> check({"service": "disk"})',
    "  <- check: disk: ok",
    app.ANSWER,
    "[turn.completed]",
]


def _argv(url: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "tether.cli", "sessions", *args, "--db", url]


def _env(**more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    return {**env, "PYTHONPATH": str(Path(__file__).parent), **more}


def _run(url: str, *args: str) -> str:
    done = subprocess.run(
        [*_argv(url, *args), "--app", "follow_cli_app:agents"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


async def test_follow_draws_the_turn_live_on_a_terminal_and_prints_plain_lines_elsewhere(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/follow.db"
    async with tether.open_backend(url) as backend:
        host = AgentHost(backend, app.agents)
        session = await host.open_session("ops", session_id="s1")
        async with host.worker(poll_interval=0.02):
            # The follower, on a terminal of 100 columns: a pty is its stdout and stderr.
            leader, follower = pty.openpty()
            fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
            proc = subprocess.Popen(
                [*_argv(url, "follow", "s1"), "--app", "follow_cli_app:agents"],
                stdin=follower,
                stdout=follower,
                stderr=follower,
                env=_env(TERM="xterm-256color"),
            )
            os.close(follower)
            seen = b""
            try:
                await asyncio.sleep(1.0)  # it reads the (empty) stream, then follows
                await session.send("check the disk")
                deadline = time.monotonic() + 60
                while b"[turn.completed]" not in seen and time.monotonic() < deadline:
                    ready = await asyncio.to_thread(_read, leader)
                    seen += ready
            finally:
                proc.kill()
                proc.wait()
                os.close(leader)
            shown = seen.decode("utf-8", "replace")
            assert "[turn.completed]" in shown, shown
            # The live view: what the turn does now, redrawn while the reply streams...
            assert "the model is writing" in shown and "step 1" in shown, shown
            assert REDRAW.search(shown), shown
            # ...and the lines it leaves, coloured (the turn's end in green).
            for line in PLAIN:
                assert line in _plain(shown), (line, shown)
            assert "\x1b[32m[turn.completed]" in shown or "\x1b[32;" in shown, shown

        # In a pipe: the same lines, plain, nothing drawn.
        piped = _run(url, "follow", "s1", "--no-follow")
        # (The reply that only called a tool ends its empty text with a line break.)
        assert piped.splitlines() == [PLAIN[0], "", *PLAIN[1:]], piped
        assert "\x1b" not in piped and "the model is" not in piped
        # --json: one event a line, the stream as the server sends it.
        lines = _run(url, "follow", "s1", "--no-follow", "--json").splitlines()
        events = [json.loads(line) for line in lines]
        types = [e["type"] for e in events]
        assert types[0] == "session.started" and types[-2:] == ["turn.completed", "session.waiting"]
        assert types.count("message.delta") == len(app.ANSWER.split())
        assert all(e["meta"]["id"].startswith("evt_") for e in events)


def _read(fd: int) -> bytes:
    import select

    ready, _, _ = select.select([fd], [], [], 0.5)
    if not ready:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:  # the process is gone and the pty closed
        return b""


def _plain(text: str) -> str:
    """`text` without escape sequences and carriage returns (what a person reads)."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "")
