"""`tether serve` and `tether sessions ...` as real processes."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from served_process import HERE, TOKEN, Process, tether_command, tether_serve

EVE = "tok-cli-eve-0123456789abcdef"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def run(
    process: Process, *args: str, via: str = "server", command: str = "sessions", token: str = TOKEN
) -> str:
    where = (
        ["--server", process.url, "--token", token]
        if via == "server"
        else ["--db", process.db, "--app", "server_app:agents"]
    )
    done = subprocess.run(
        [*tether_command(), command, *args, *where],
        cwd=HERE,
        env=process.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def fails(process: Process, *args: str, command: str = "sessions") -> str:
    """Run `tether COMMAND ARGS` through the server, which must fail; its stderr."""
    done = subprocess.run(
        [*tether_command(), command, *args, "--server", process.url, "--token", TOKEN],
        cwd=HERE,
        env=process.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0, done.stdout
    return done.stderr


@pytest.mark.slow
def test_serve_and_the_sessions_client(tmp_path: Path) -> None:
    # eve (of another tenant) operates the server; ada, whose sessions these are, does not.
    with tether_serve(f"sqlite:///{tmp_path}/t.db", "--operator", "eve@evil") as process:
        out = run(process, "send", "s1", "hello \x1b[31mworld", "--follow")
        assert "sent s1:" in out
        assert "You said: hello \\x1b[31mworld" in out and "[turn.completed]" in out
        out = run(process, "send", "s1", "restart api", "--follow")
        assert "? approval" in out and "[turn.waiting input]" in out
        state: dict[str, Any] = json.loads(run(process, "show", "s1", "--json"))
        assert state["status"] == "parked"
        request_id = state["pending"][0]["request_id"]
        assert state["progress"]["state"] == "waiting"
        assert state["progress"]["run"]["hooks"] == 1
        shown = run(process, "show", "s1")
        assert request_id in shown and f"waiting: its turn waits on input ({request_id})" in shown
        assert "waiting: its turn waits on input" in run(process, "show", "s1", via="db")
        # Parked on the approval: the second turn made one model call so far.
        usage = json.loads(run(process, "usage", "s1", "--json"))
        assert usage["total"]["calls"] == 2 and len(usage["by_turn"]) == 2
        assert usage == json.loads(run(process, "usage", "s1", "--json", via="db"))
        shown_usage = run(process, "usage", "s1")
        assert "scripted:model" in shown_usage and "2 turn(s)" in shown_usage
        header = shown_usage.splitlines()[0].split()
        assert header == ["model", "calls", "input", "cached", "output"]
        # Across sessions, an operator's read: eve sees ada's tenant's sums.
        assert "403: only an operator" in fails(process, "--since", "1h", command="usage")
        sums = json.loads(run(process, "--json", "--since", "1h", command="usage", token=EVE))
        assert [(r["tenant"], r["agent"], r["calls"]) for r in sums["rows"]] == [("acme", "ops", 2)]
        assert sums["total"] == usage["total"] and sums["sessions"] == 1
        direct = run(process, "--json", "--since", "1h", command="usage", via="db")
        assert {**json.loads(direct), "since": None} == {**sums, "since": None}
        by_tenant = run(
            process, "--by", "tenant", "--until", "2000-01-01", command="usage", token=EVE
        )
        assert by_tenant.splitlines()[0].split() == [
            "tenant",
            *"calls input cached output cost".split(),
        ]
        assert "0 session(s) with calls in the window" in by_tenant
        assert "answered" in run(process, "answer", "s1", request_id, "approve")
        # The agent declares no budget: none, both ways. Raising one is an operator's
        # (this server names none), and there is none to raise.
        assert run(process, "budget", "s1").strip() == "no budget"
        assert run(process, "budget", "s1", "--json", via="db").strip() == "null"
        assert "403: only an operator" in fails(process, "budget", "s1", "--raise-tokens", "10")
        # The declared state, through the server and from the store.
        assert "Noted." in run(process, "send", "s1", "note buy milk", "--follow")
        values = json.loads(run(process, "state", "s1", "--json"))
        assert values == {"notes": ["buy milk"]}
        assert values == json.loads(run(process, "state", "s1", "--json", via="db"))
        shown_state = run(process, "state", "s1").splitlines()
        assert shown_state[0].split() == ["key", "value"]
        assert shown_state[-1].split(maxsplit=1) == ["notes", '["buy milk"]']
        listed = run(process, "list")
        assert "s1" in listed and "ops" in listed
        history = run(process, "follow", "s1", "--no-follow")
        assert "  <- restart_service" in history
        # The same store, read directly.
        direct = run(process, "list", "--json", via="db")
        assert [i["session_id"] for i in json.loads(direct)] == ["s1"]


@pytest.mark.slow
def test_a_question_from_the_command_line(tmp_path: Path) -> None:
    with tether_serve(f"sqlite:///{tmp_path}/t.db") as process:
        out = run(process, "send", "s1", "ask", "--follow")
        # The ids to answer with, each label beside its id when it differs.
        assert 'Severity of inc-1? [p1 "P1 (revenue)", p2]' in out
        request_id = json.loads(run(process, "show", "s1", "--json"))["pending"][0]["request_id"]
        refused = fails(process, "answer", "s1", request_id, "P1")
        assert "must be one of the option ids ['p1', 'p2']" in refused
        assert "answered" in run(process, "answer", "s1", request_id, '{"cancelled": true}')
        for _ in range(100):  # the worker ends the turn in a moment
            if json.loads(run(process, "show", "s1", "--json"))["status"] == "idle":
                break
            time.sleep(0.1)
        history = run(process, "follow", "s1", "--no-follow")
        assert "  <- triage: inc-1: triage declined" in history


@pytest.mark.slow
def test_send_with_files(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("zwölf")
    image = tmp_path / "dot.bin"
    image.write_bytes(b"\x89PNG\r\n\x1a\n")
    with tether_serve(f"sqlite:///{tmp_path}/t.db", "--operator", "ada@acme") as process:
        # --operator: ada may use the deployment's routes, eve may not.
        schedules = httpx.get(f"{process.url}/v1/schedules", headers=_bearer(TOKEN))
        assert schedules.status_code == 200 and schedules.json() == {"schedules": []}
        eve = httpx.get(f"{process.url}/v1/schedules", headers=_bearer(EVE))
        assert eve.status_code == 403 and eve.json()["code"] == "operator_only"
        args = ["--file", str(notes), "--file", f"{image}:image/png", "--follow"]
        out = run(process, "send", "s1", "read", "--client-message-id", "m1", *args)
        assert "> read [files: notes.md, dot.bin]" in out
        assert "You said: read (files: notes.md:6=zwölf, dot.bin:8)" in out
        # Again with the same message id: the same files, nothing new admitted.
        assert "sent s1:m1" in run(
            process, "send", "s1", "read", "--client-message-id", "m1", *args[:4]
        )
        direct = run(process, "send", "s1", "again", "--file", str(notes), "--follow", via="db")
        assert "You said: again (files: notes.md:6=zwölf)" in direct
        assert "nope" in fails(process, "send", "s1", "x", "--file", str(tmp_path / "nope"))


def test_serve_refuses_a_public_address_without_tokens(tmp_path: Path) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("TETHER_SERVER_TOKENS")}
    done = subprocess.run(
        [
            *tether_command(),
            "serve",
            "server_app:agents",
            "--db",
            f"sqlite:///{tmp_path}/t.db",
            "--host",
            "0.0.0.0",
        ],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "without authentication" in done.stderr


@pytest.mark.slow
def test_fork_a_session_from_the_command_line(tmp_path: Path) -> None:
    with tether_serve(f"sqlite:///{tmp_path}/t.db") as process:
        run(process, "send", "s1", "note buy milk", "--follow")
        shown = run(process, "fork", "s1", "--at", "1", "--session-id", "s1-fork")
        assert "forked s1 as s1-fork" in shown
        state = json.loads(run(process, "fork", "s1", "--session-id", "s1-db", "--json", via="db"))
        assert state["session_id"] == "s1-db" and state["agent_name"] == "ops"
        for fork in ("s1-fork", "s1-db"):
            assert json.loads(run(process, "state", fork, "--json")) == {"notes": ["buy milk"]}
        refused = fails(process, "fork", "s1", "--at", "5")
        assert "409" in refused and "ended turn(s)" in refused
