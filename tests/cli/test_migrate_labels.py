"""`tether migrate` labels the sessions opened before run labels, once (a real process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tether
from tether.agent import Agent, AgentHost
from tether.agent._agent import check_retention
from tether.agent._registry import SESSION_WORKFLOW
from tether.agent._session._session import session_run_id
from tether.testing import ScriptedModel


def tether_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tether.cli", *args], capture_output=True, text=True, timeout=120
    )


async def test_migrate_labels_sessions_opened_before_labels(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/old.db"
    async with tether.open_backend(url) as backend:
        host = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(["ok"]))])
        for session_id, owner in (("old1", "acme"), ("old2", "evil"), ("old3", None)):
            # As releases before run labels started a session's run: without labels.
            await host.client.start(
                SESSION_WORKFLOW, "ops", session_id, owner, check_retention(None),
                run_id=session_run_id(session_id),
            )  # fmt: skip
        await host.open_session("ops", session_id="new", owner="acme")
        assert [i.session_id for i in (await host.list_sessions(owner="acme")).items] == ["new"]
    out = tether_cmd("migrate", url)
    assert out.returncode == 0, out.stderr
    assert "labeled 3 session run(s)" in out.stdout
    again = tether_cmd("migrate", url)
    assert again.returncode == 0 and "labeled" not in again.stdout
    async with tether.open_backend(url) as backend:
        host = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(["ok"]))])
        acme = await host.list_sessions(owner="acme")
        assert [i.session_id for i in acme.items] == ["new", "old1"]
        evil = await host.list_sessions(owner="evil")
        assert [i.session_id for i in evil.items] == ["old2"]
        assert len((await host.list_sessions(agent="ops")).items) == 4
