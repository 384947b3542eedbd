"""SIGKILL during key rotation and during erasure: everything readable or erased."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tether.errors import ContentDeletedError
from tether.stores import (
    EncryptedBackend,
    LocalKeyFile,
    NewRun,
    StreamIdentity,
    data_scope,
    init_key_file,
    open_backend,
    run_scope,
)
from tether.stores._keys import add_key_to_file

pytestmark = pytest.mark.crash
CHILD = str(Path(__file__).with_name("keys_child.py"))


def _spawn(*args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, CHILD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line
    return proc


def _count(keyring: Path, sql: str, *args: object) -> int:
    conn = sqlite3.connect(keyring, timeout=30)
    try:
        return int(conn.execute(sql, args).fetchone()[0])
    finally:
        conn.close()


async def _seed(url: str, key: LocalKeyFile, sessions: int, extra_scopes: int) -> None:
    async with open_backend(url, keys=key) as backend:
        assert isinstance(backend, EncryptedBackend)
        stores = backend.stores
        for i in range(sessions):
            run_id = f"session:s{i}"
            await stores.workflow.create_run(
                NewRun(
                    run_id=run_id,
                    workflow_name="w",
                    input=f"input {i}".encode(),
                    deployment="d",
                    engine_version="e",
                    queue="q",
                )
            )
            path = f"agents/ops/s{i}"
            with data_scope(run_scope(run_id)):
                await stores.conversations.create_stream(
                    path, StreamIdentity(agent_name="ops", instance_id=f"s{i}")
                )
                claim = await stores.conversations.acquire_producer(path, "p")
                await stores.conversations.append(
                    path=path,
                    producer_id="p",
                    producer_epoch=claim.producer_epoch,
                    incarnation=claim.incarnation,
                    producer_sequence=0,
                    records=[{"text": f"secret {i}"}],
                )
        for i in range(extra_scopes):
            await backend.keys.for_write(f"extra:{i}")


async def _state(url: str, key: LocalKeyFile, i: int) -> str:
    """ "readable" or "erased" for session i; anything half-done fails the test."""
    async with open_backend(url, keys=key, migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        stores = backend.stores
        run = await stores.workflow.get_run(f"session:s{i}")
        assert run is not None
        if await backend.keys.erasure(run_scope(f"session:s{i}")) is not None:
            # Erased: nothing of it reads back (unreadable, or purged already).
            assert run.input is None
            try:
                result = await stores.conversations.read(f"agents/ops/s{i}")
            except ContentDeletedError:
                return "erased"
            assert result.batches == ()
            return "erased"
        result = await stores.conversations.read(f"agents/ops/s{i}")
        assert run.input == f"input {i}".encode()
        records = [r for b in result.batches for r in b.records]
        assert records == [{"text": f"secret {i}"}]
        return "readable"


@pytest.mark.slow
async def test_sigkill_during_rotation_leaves_every_key_readable(tmp_path: Path) -> None:
    db, key_file = tmp_path / "t.db", tmp_path / "key"
    url = f"sqlite:///{db}"
    keyring = tmp_path / "t.db.keyring"
    await _seed(url, init_key_file(key_file), sessions=5, extra_scopes=3000)
    old = LocalKeyFile(key_file).current_key_id
    new = add_key_to_file(key_file).current_key_id
    total = _count(keyring, "SELECT count(*) FROM tether_data_keys")
    proc = _spawn("rotate", url, str(key_file), "0")
    moved = 0
    while proc.poll() is None:
        moved = _count(keyring, "SELECT count(*) FROM tether_data_keys WHERE key_id = ?", new)
        if moved >= 50:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.001)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the rotation finished before it could be killed"
    left = _count(keyring, "SELECT count(*) FROM tether_data_keys WHERE key_id = ?", old)
    assert 0 < left < total  # killed half-way: keys under both provider keys
    both = LocalKeyFile(key_file)
    for i in range(5):
        assert await _state(url, both, i) == "readable"
    async with open_backend(url, keys=both, migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        report = await backend.keys.rotate()
        assert report.rewrapped == left and report.remaining_key_ids == {new}


async def test_sigkill_during_erasure_leaves_each_session_readable_or_erased(
    tmp_path: Path,
) -> None:
    db, key_file = tmp_path / "t.db", tmp_path / "key"
    url = f"sqlite:///{db}"
    keyring = tmp_path / "t.db.keyring"
    sessions = 40
    key = init_key_file(key_file)
    await _seed(url, key, sessions=sessions, extra_scopes=0)
    proc = _spawn("erase", url, str(key_file), str(sessions))
    while proc.poll() is None:
        if _count(keyring, "SELECT count(*) FROM tether_erasures WHERE scope LIKE 'run:%'") >= 5:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.001)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the erasure finished before it could be killed"
    states = [await _state(url, key, i) for i in range(sessions)]
    erased = states.count("erased")
    assert 5 <= erased < sessions
    # In order: the erased ones are a prefix (each erasure is one transaction).
    assert states == ["erased"] * erased + ["readable"] * (sessions - erased)
