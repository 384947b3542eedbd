"""`tether serve` in a real subprocess, for the CLI and the AI SDK tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

HERE = Path(__file__).parent
TOKEN = "tok-cli-ada-0123456789abcdef"
TOKENS = f"{TOKEN}=ada@acme,tok-cli-eve-0123456789abcdef=eve@evil"


@dataclass
class Process:
    url: str
    db: str
    env: dict[str, str]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tether_command() -> list[str]:
    return [sys.executable, "-m", "tether.cli"]


@contextmanager
def tether_serve(db: str, *extra: str) -> Iterator[Process]:
    port = free_port()
    env = {**os.environ, "TETHER_SERVER_TOKENS": TOKENS}
    proc = subprocess.Popen(
        [*tether_command(), "serve", "server_app:agents", "--db", db, "--port", str(port), *extra],
        cwd=HERE,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise AssertionError(proc.stdout.read().decode() if proc.stdout else "exited")
            try:
                if httpx.get(url + "/v1/openapi.json", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "tether serve did not come up"
            time.sleep(0.05)
        yield Process(url=url, db=db, env=env)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
