"""Journaled records go by stable names, so journals outlive the modules that wrote them.

A step's result is stored with the type of each record in it. tether's own records are
written by a stable name (``agent.Cursor``), not their module path, so moving a module
keeps replay, ``check-deploy`` and fork reading every journal. Journals written before
stable names hold module paths; the codec maps those to today's types.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
import zstandard

import tether
from tether import _codec, _names
from tether.agent import AgentHost, Option
from tether.durable import replay_run

FIXTURE = Path(__file__).parent / "journal_0_1"
sys.path.insert(0, str(FIXTURE))
import app  # noqa: E402

#: Every record a session's journal holds, by the name it is written under.
JOURNALED = {
    "agent.Producer",
    "agent.TurnState",
    "agent.Cursor",
    "agent.ParkedCall",
    "agent.ParkedResult",
    "agent.StepResult",
    "agent.Question",
    "agent.Deadline",
    "agent.Task",
    "agent.Verdict",
    "agent.InputRequest",
    "agent.TaskRef",
    "agent.Option",
    "agent.Answer",
    "agent.Predecessor",
    "agent.SessionLine",
}
#: A tether type named by its module path in a payload (errors keep `tether.errors:`).
_MODULE_PATH = re.compile(rb'"cls":"tether\.(?!errors:)[a-z_.]+:')


def test_every_journaled_record_has_its_stable_name() -> None:
    named = {name: _names.named_type(name) for name in JOURNALED}
    assert {name: cls.__name__ for name, cls in named.items()} == {
        name: name.partition(".")[2] for name in JOURNALED
    }
    # Every path a 0.1.0 journal holds reads as today's type.
    for former, name in _names.FORMER_PATHS.items():
        assert _codec._import(former) is _codec._import(name), former


def test_a_record_is_written_by_its_name_and_read_back() -> None:
    option = Option(id="yes", label="Yes")
    payload = _codec.encode({"choice": option})
    assert b'"cls":"agent.Option"' in payload and b"_questions" not in payload
    assert _codec.decode(payload) == {"choice": option}


def test_a_journal_naming_a_type_nobody_defines_fails_clearly() -> None:
    forged = _codec.encode(Option(id="yes", label="Yes")).replace(b"agent.Option", b"agent.Gone")
    with pytest.raises(tether.errors.SerializationError, match=r"'agent\.Gone'.*does not define"):
        _codec.decode(forged)


def _payloads(db: Path) -> list[bytes]:
    out = []
    with sqlite3.connect(db) as conn:
        for (raw,) in conn.execute(
            # Steps' outputs, in their events (the steps' rows held copies before format 2).
            "SELECT payload FROM tether_events WHERE event_type = 'step_completed'"
            " AND payload IS NOT NULL"
            " UNION ALL SELECT input FROM tether_runs"
        ):
            data = bytes(raw)
            if data[:4] == b"TZ1\x00":
                data = zstandard.ZstdDecompressor().decompress(data[4:], max_output_size=1 << 26)
            out.append(data)
    return out


async def test_a_journal_written_by_0_1_0_replays_and_finishes(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    shutil.copy(FIXTURE / "journal.db", db)
    written_then = _payloads(db)
    assert sum(bool(_MODULE_PATH.search(p)) for p in written_then) >= 4  # paths, as then
    app.effects.clear()
    agents = app.build()
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        # What check-deploy does: today's code replays each run's journal as it stands.
        for run_id in ("session:ticket-1", "nap-1"):
            report = await replay_run(backend, agents.registry, run_id)
            assert report.ok, report
        host = AgentHost(backend, agents)
        async with host.worker(poll_interval=0.02):
            session = await host.get_session("ticket-1")
            (request,) = await session.pending_requests()
            assert request.tool_name == "restart_service"
            last = (await session.read_events())[-1].index
            await session.answer(request.request_id, "approve", principal="ada")
            await session.wait_for("turn.completed", after=last)
            nap = await host.client.get("nap-1")
            assert await nap.result(timeout=20) == 41
        replies = [
            e.data.text for e in await session.read_events() if e.type == "message.completed"
        ]
    assert replies[-1] == "api restarted"
    assert app.effects == ["restart api"]
    # What today's code wrote names tether's records by their stable names only.
    written_now = [p for p in _payloads(db) if p not in written_then]
    assert written_now and not any(_MODULE_PATH.search(p) for p in written_now)
    assert any(b'"cls":"agent.StepResult"' in p for p in written_now)
