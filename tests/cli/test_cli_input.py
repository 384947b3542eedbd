"""The `tether` command given hostile data or bad arguments, run as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tether

registry = tether.Registry(deployment="cli-input")
ESC = "\x1b"
HOSTILE_ID = f"run{ESC}[2J{ESC}]0;pwned\x07\u202e"


def shout(text: str) -> str:
    return text + "\x1b[31m!\r"


@registry.workflow(name=f"cli.hostile{ESC}[1m")
async def hostile(ctx: tether.WorkflowContext, text: str) -> str:
    return await ctx.step(shout, text, name=f"shout{ESC}[5m")


def tether_cmd(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TETHER_URL"}
    return subprocess.run(
        [sys.executable, "-m", "tether.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )


async def test_runs_list_and_show_escape_control_characters(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/cli.db"
    async with tether.open_backend(url) as backend:
        async with tether.Worker(backend, registry, poll_interval=0.02):
            handle = await tether.Client(backend).start(
                hostile, f"{ESC}]52;c;Y2xpcGJvYXJk\x07", run_id=HOSTILE_ID
            )
            await handle.result(timeout=20)
    for args in (("runs", "list"), ("runs", "show", HOSTILE_ID)):
        out = tether_cmd(*args, "--db", url)
        assert out.returncode == 0, out.stderr
        text = out.stdout
        assert ESC not in text and "\x07" not in text and "\r" not in text, text
        assert "\u202e" not in text
        assert "\\x1b[2J" in text  # escaped, still readable
    shown = tether_cmd("runs", "show", HOSTILE_ID, "--db", url).stdout
    assert "\\x1b[5m" in shown and "\\u001b]52;c;" in shown  # payloads are JSON-escaped


def test_status_must_be_a_run_status(tmp_path: Path) -> None:
    out = tether_cmd("runs", "list", "--status", "bogus", "--db", f"sqlite:///{tmp_path}/x.db")
    assert out.returncode == 2
    assert "bogus" in out.stderr
    for status in ("pending", "running", "completed", "failed", "cancelled"):
        assert status in out.stderr
    assert not (tmp_path / "x.db").exists()


def test_runs_list_does_not_create_a_missing_store(tmp_path: Path) -> None:
    out = tether_cmd("runs", "list", cwd=tmp_path)  # the default: sqlite:// = .tether/tether.db
    assert out.returncode == 2
    assert "does not exist" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert os.listdir(tmp_path) == []
    out = tether_cmd("runs", "show", "r1", "--db", f"sqlite:///{tmp_path}/nope.db")
    assert out.returncode == 2 and "does not exist" in out.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import tether\nregistry = tether.Registry()\nundefined_name\n", "NameError"),
        ("def broken(:\n    pass\n", "SyntaxError"),
        ("raise RuntimeError('config missing')\n", "config missing"),
        ("import no_such_dependency_xyz\n", "no_such_dependency_xyz"),
    ],
    ids=["name error", "syntax error", "runtime error", "missing dependency"],
)
def test_a_module_that_fails_to_import_is_a_one_line_error(
    tmp_path: Path, source: str, expected: str
) -> None:
    (tmp_path / "brokenapp.py").write_text(source)
    out = tether_cmd(
        "worker", "brokenapp:registry", "--db", f"sqlite:///{tmp_path}/w.db", cwd=tmp_path
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("tether: error: cannot import 'brokenapp'")
    assert expected in lines[0] and "Traceback" not in out.stderr


def test_a_target_that_is_not_a_registry_says_what_it_is(tmp_path: Path) -> None:
    (tmp_path / "plainapp.py").write_text("registry = 42\n")
    out = tether_cmd(
        "worker", "plainapp:registry", "--db", f"sqlite:///{tmp_path}/w.db", cwd=tmp_path
    )
    assert out.returncode == 2 and "not a tether.Registry" in out.stderr
