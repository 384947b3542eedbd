"""Bad input gets a clear, typed error and loses nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import tether
from tether import _codec
from tether.errors import FormatVersionError
from tether.stores.sqlite._schema import write_stamp

registry = tether.Registry(deployment="bad")


@registry.workflow(name="echo")
async def echo(ctx: tether.WorkflowContext, x: int) -> int:
    return x


async def test_file_of_another_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database")
    with pytest.raises(FormatVersionError, match="not a SQLite database"):
        async with tether.open_backend(f"sqlite:///{path}"):
            pass
    assert path.read_text() == "these are my notes, not a database"


async def test_newer_stamp_is_refused_before_any_write(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    write_stamp(conn, "99")
    conn.commit()
    conn.close()
    with pytest.raises(FormatVersionError, match="'99'"):
        async with tether.open_backend(f"sqlite:///{path}"):
            pass
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert tables == {"tether_meta"}


async def test_unmigrated_store_is_refused_without_migrate(tmp_path: Path) -> None:
    with pytest.raises(FormatVersionError, match="tether migrate"):
        async with tether.open_backend(f"sqlite:///{tmp_path}/new.db", migrate=False):
            pass


async def test_corrupt_payloads_are_typed_errors() -> None:
    with pytest.raises(tether.SerializationError, match="not a tether payload"):
        _codec.decode(b"garbage")
    with pytest.raises(tether.SerializationError, match="corrupt"):
        _codec.decode(b"TZ1\x00not zstd")
    with pytest.raises(tether.SerializationError, match=r"dict keys|cannot be serialized"):
        _codec.encode({1: "int key"})


async def test_corrupt_stored_input_fails_the_run_not_the_worker(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.db"
    async with tether.open_backend(f"sqlite:///{path}") as backend:
        client = tether.Client(backend)
        bad = await client.start(echo, 1, run_id="bad")
        conn = sqlite3.connect(path)
        conn.execute("UPDATE tether_runs SET input = ? WHERE run_id = 'bad'", (b"\x00junk",))
        conn.commit()
        conn.close()
        good = await client.start(echo, 2, run_id="good")
        async with tether.Worker(backend, registry, poll_interval=0.02):
            assert await good.result(timeout=10) == 2
            with pytest.raises(tether.RunFailedError) as info:
                await bad.result(timeout=10)
    assert isinstance(info.value.cause, tether.SerializationError)


async def test_bad_configuration_is_explained() -> None:
    with pytest.raises(tether.ConfigurationError, match="unknown backend scheme"):
        async with tether.open_backend("mysql://x"):
            pass
    with pytest.raises(tether.ConfigurationError, match="max_attempts"):
        tether.RetryPolicy(max_attempts=0)
    with pytest.raises(tether.ConfigurationError, match="not a registered workflow"):
        async with tether.open_backend("memory://") as backend:
            await tether.Client(backend).start(lambda ctx: None)


async def test_worker_concurrency_comes_from_the_argument_or_the_environment() -> None:
    async with tether.open_backend("memory://") as backend:
        assert tether.Worker(backend, registry, env={}).concurrency == 16
        env = {"TETHER_WORKER_CONCURRENCY": "4"}
        assert tether.Worker(backend, registry, env=env).concurrency == 4
        assert tether.Worker(backend, registry, concurrency=2, env=env).concurrency == 2
        with pytest.raises(tether.ConfigurationError, match="TETHER_WORKER_CONCURRENCY='many'"):
            tether.Worker(backend, registry, env={"TETHER_WORKER_CONCURRENCY": "many"})
        with pytest.raises(tether.ConfigurationError, match="at least 1, not 0"):
            tether.Worker(backend, registry, env={"TETHER_WORKER_CONCURRENCY": "0"})
