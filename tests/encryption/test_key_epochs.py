"""Erasure against backups that hold the keyring: key epochs destroy the old KEK."""

from __future__ import annotations

import asyncio
import base64
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import orjson
import psycopg
import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from psycopg import sql

from tether.agent import Agent, AgentHost
from tether.cli import main
from tether.errors import ContentDeletedError, EncryptionKeyError
from tether.stores import (
    Backend,
    DataKeys,
    EncryptedBackend,
    EnvKeyProvider,
    LocalKeyFile,
    MemoryKeyring,
    generate_key,
    init_key_file,
    new_key_epoch,
    open_backend,
)
from tether.stores._keyring import REVALIDATE_SECONDS, _context
from tether.testing import ScriptedModel

ERASED, KEPT = "run:session:gone", "run:session:kept"


def _host(backend: Backend) -> AgentHost:
    return AgentHost(backend, [Agent(name="ops", model=ScriptedModel(lambda r: "noted"))])


async def _sessions(backend: Backend, *ids: str) -> None:
    host = _host(backend)
    async with host.worker(poll_interval=0.02):
        for sid in ids:
            session = await host.open_session("ops", session_id=sid)
            await session.send(f"secret of {sid}")
            await session.wait_for("turn.completed", timeout=30)


def _online_backup(src: Path, dst: Path) -> None:
    """SQLite's online backup, of the data file and of its keyring file."""
    for suffix in ("", ".keyring"):
        source = sqlite3.connect(f"{src}{suffix}")
        target = sqlite3.connect(f"{dst}{suffix}")
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()


def _wrapped(rows: list[tuple[object, ...]]) -> list[tuple[str, int, str, bytes]]:
    return [(str(s), int(g), str(k), bytes(w)) for s, g, k, w in rows]  # type: ignore[call-overload]


def _key_file_keys(path: Path) -> list[bytes]:
    return [base64.b64decode(k) for k in orjson.loads(path.read_bytes())["keys"]]


def _any_key_unwraps(path: Path, keyring_id: str, key: tuple[str, int, str, bytes]) -> bool:
    """Whether any key the key file holds opens a wrapped data key (not by id: every one)."""
    scope, generation, _, wrapped = key
    context = _context(keyring_id, scope, generation)
    for kek in _key_file_keys(path):
        try:
            AESGCM(kek).decrypt(wrapped[:12], wrapped[12:], context)
        except InvalidTag:
            continue
        return True
    return False


async def _transcript(backend: Backend, sid: str) -> str:
    return " ".join(str(r) for r in await _host(backend).session("ops", sid).transcript())


async def test_a_keyring_backup_taken_before_an_erasure_is_unreadable_after_the_epoch(
    tmp_path: Path,
) -> None:
    db, key_file = tmp_path / "t.db", tmp_path / "key"
    init_key_file(key_file)
    (tmp_path / "backup").mkdir()
    backup = tmp_path / "backup" / "t.db"
    async with open_backend(f"sqlite:///{db}", keys=LocalKeyFile(key_file)) as backend:
        assert isinstance(backend, EncryptedBackend)
        await _sessions(backend, "gone", "kept")
        keyring_id = backend.keys.keyring_id
        _online_backup(db, backup)  # data and keyring, taken while the store is open
        await _host(backend).erase_session("ops", "gone")
        assert (await backend.keys.epoch()).pending_erasures == 4  # the session's scopes
    # What held before key epochs: the backup and the key file still read the session.
    control = tmp_path / "control"
    control.mkdir()
    for p in (tmp_path / "backup").iterdir():
        shutil.copy(p, control / p.name)
    async with open_backend(f"sqlite:///{control / 't.db'}", keys=LocalKeyFile(key_file)) as b:
        assert "secret of gone" in await _transcript(b, "gone")

    url = f"sqlite:///{db}"
    argv = ["keys", "rotate", "--after-erasures", "--key-file", str(key_file), "--db", url]
    assert await asyncio.to_thread(main, argv) == 0
    assert len(_key_file_keys(key_file)) == 1  # the old KEK is destroyed

    # The backup with the current key file: refused at open, and no key of the file
    # opens the erased session's wrapped data key either (nor any other of the backup's).
    with pytest.raises(EncryptionKeyError, match="not the key the store was encrypted with"):
        async with open_backend(f"sqlite:///{backup}", keys=LocalKeyFile(key_file)):
            pass
    conn = sqlite3.connect(f"{backup}.keyring")
    rows = _wrapped(conn.execute("SELECT scope, generation, key_id, wrapped FROM tether_data_keys"))
    conn.close()
    erased = [r for r in rows if r[0] == ERASED]
    assert erased and not any(_any_key_unwraps(key_file, keyring_id, r) for r in rows)
    with pytest.raises(EncryptionKeyError, match="does not hold key"):
        await LocalKeyFile(key_file).unwrap(
            erased[0][3], key_id=erased[0][2], context=_context(keyring_id, ERASED, erased[0][1])
        )

    # The live store: the other session reads, the erased one stays erased, and a
    # second run has nothing to do.
    async with open_backend(url, keys=LocalKeyFile(key_file), migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        assert "secret of kept" in await _transcript(backend, "kept")
        with pytest.raises(ContentDeletedError):
            await _transcript(backend, "gone")
        epoch = await backend.keys.epoch()
        assert epoch.pending_erasures == 0 and epoch.number == 1 and epoch.covered == 4
    assert await asyncio.to_thread(main, argv) == 0
    assert len(_key_file_keys(key_file)) == 1


async def test_a_running_process_follows_the_epoch_another_one_ran(tmp_path: Path) -> None:
    """A worker started with the old key file: refused its old KEK, it reads the file again."""
    db, key_file = tmp_path / "t.db", tmp_path / "key"
    init_key_file(key_file)
    old = LocalKeyFile(key_file).current_key_id
    url = f"sqlite:///{db}"
    async with open_backend(url, keys=LocalKeyFile(key_file)) as worker:
        assert isinstance(worker, EncryptedBackend)
        await _sessions(worker, "a")
        async with open_backend(url, keys=LocalKeyFile(key_file), migrate=False) as operator:
            assert isinstance(operator, EncryptedBackend)
            report = await new_key_epoch(operator.keys)
        assert report.key_id != old and report.epoch is not None
        assert report.epoch.beginning_key_id is None  # complete
        # The worker still holds only the old KEK in memory: a new scope's key is
        # refused under it, so it reads the key file again and wraps under the new one.
        await _sessions(worker, "b")
        assert await worker.keys.keyring.key_ids_in_use() == {report.key_id}
        await asyncio.sleep(REVALIDATE_SECONDS)  # its cached keys are checked again
        assert "secret of a" in await _transcript(worker, "a")


@pytest.mark.postgres
async def test_postgres_keyring_rows_copied_before_an_erasure_cannot_be_unwrapped(
    tether_postgres_url: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "key"
    init_key_file(key_file)
    namespace = f"t_{secrets.token_hex(6)}"
    copy = f"{namespace}_copy"
    schemas = (namespace, f"{namespace}_keyring", copy)
    url = tether_postgres_url

    def rows(schema: str) -> list[tuple[str, int, str, bytes]]:
        with psycopg.connect(url, autocommit=True) as conn:
            query = sql.SQL("SELECT scope, generation, key_id, wrapped FROM {}.data_keys").format(
                sql.Identifier(schema)
            )
            return _wrapped(conn.execute(query).fetchall())

    try:
        async with open_backend(url, namespace=namespace, keys=LocalKeyFile(key_file)) as backend:
            assert isinstance(backend, EncryptedBackend)
            await _sessions(backend, "gone", "kept")
            keyring_id = backend.keys.keyring_id
            with psycopg.connect(url, autocommit=True) as conn:  # the backup: a copy by SQL
                conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(copy)))
                for table in ("keyring_meta", "data_keys", "erasures"):
                    conn.execute(
                        sql.SQL("CREATE TABLE {}.{} AS TABLE {}.{}").format(
                            sql.Identifier(copy),
                            sql.Identifier(table),
                            sql.Identifier(f"{namespace}_keyring"),
                            sql.Identifier(table),
                        )
                    )
            await _host(backend).erase_session("ops", "gone")
            erased = [r for r in rows(copy) if r[0] == ERASED]
            assert erased and _any_key_unwraps(key_file, keyring_id, erased[0])  # the control
            (old,) = _key_file_keys(key_file)
            report = await new_key_epoch(backend.keys)
            assert report.epoch is not None and report.epoch.pending_erasures == 0
            assert len(_key_file_keys(key_file)) == 1
            assert not any(_any_key_unwraps(key_file, keyring_id, r) for r in rows(copy))
            assert all(_any_key_unwraps(key_file, keyring_id, r) for r in rows(schemas[1]))
            assert "secret of kept" in await _transcript(backend, "kept")
            # A process still holding the destroyed KEK in memory is refused new keys.
            stale = EnvKeyProvider(base64.b64encode(old).decode())
            with pytest.raises(EncryptionKeyError, match="since a rotation began"):
                await DataKeys(backend.keys.keyring, stale, keyring_id).for_write("late")
        async with open_backend(
            url, namespace=namespace, keys=LocalKeyFile(key_file), migrate=False
        ) as backend:
            assert "secret of kept" in await _transcript(backend, "kept")
            with pytest.raises(ContentDeletedError):
                await _transcript(backend, "gone")
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for schema in schemas:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )


CHILD = str(Path(__file__).with_name("keys_child.py"))


@pytest.mark.crash
async def test_sigkill_during_the_epoch_rewrap_leaves_everything_readable(tmp_path: Path) -> None:
    db, key_file = tmp_path / "t.db", tmp_path / "key"
    url, keyring = f"sqlite:///{db}", tmp_path / "t.db.keyring"
    init_key_file(key_file)
    old = LocalKeyFile(key_file).current_key_id
    async with open_backend(url, keys=LocalKeyFile(key_file)) as backend:
        assert isinstance(backend, EncryptedBackend)
        await _sessions(backend, "gone", "kept")
        await _host(backend).erase_session("ops", "gone")
        for i in range(300):
            await backend.keys.for_write(f"extra:{i}")
    proc = subprocess.Popen(
        [sys.executable, CHILD, "epoch", url, str(key_file), "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    moved = 0
    while proc.poll() is None:
        conn = sqlite3.connect(keyring, timeout=30)
        try:
            (moved,) = conn.execute(
                "SELECT count(*) FROM tether_data_keys WHERE key_id <> ?", (old,)
            ).fetchone()
        finally:
            conn.close()
        if moved >= 20:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.001)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the epoch finished before it could be killed"
    both = LocalKeyFile(key_file)
    new = both.current_key_id
    assert new != old and both.key_ids == {new, old}  # both kept until the re-wrap is done
    async with open_backend(url, keys=both, migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        in_use = await backend.keys.keyring.key_ids_in_use()
        assert in_use == {new, old}  # killed half-way
        assert "secret of kept" in await _transcript(backend, "kept")
        assert (await backend.keys.epoch()).beginning_key_id == new
        report = await new_key_epoch(backend.keys)  # run again: it finishes this epoch
        assert report.key_id == new and report.remaining_key_ids == {new}
        assert report.epoch is not None and report.epoch.pending_erasures == 0
    assert LocalKeyFile(key_file).key_ids == {new}
    async with open_backend(url, keys=LocalKeyFile(key_file), migrate=False) as backend:
        assert "secret of kept" in await _transcript(backend, "kept")
        with pytest.raises(ContentDeletedError):
            await _transcript(backend, "gone")


async def test_an_epoch_covers_only_erasures_made_before_its_key_existed() -> None:
    """A KEK that wrapped an erased key never completes an epoch covering that erasure."""
    k1, k2 = generate_key(), generate_key()
    keyring = MemoryKeyring()
    kid = await keyring.open(create=True)
    first = DataKeys(keyring, EnvKeyProvider(k1), kid)
    for scope in ("a", "b", "c"):
        await first.for_write(scope)
    await first.erase(["a"], note="a")
    # Rotating under the same, only KEK: it wrapped a's key, so nothing is covered.
    report = await first.rotate()
    assert report.epoch is not None and report.epoch.pending_erasures == 1
    assert report.epoch.number == 0 and report.epoch.beginning_key_id is None
    # A new KEK first in TETHER_KEY: the epoch begins; an erasure meanwhile is pending.
    both = DataKeys(keyring, EnvKeyProvider(f"{k2},{k1}"), kid)
    begun = (await both.rotate()).epoch
    assert begun is not None and begun.beginning_key_id == both.provider.current_key_id
    await both.erase(["b"], note="b")
    # A process still on the old KEK alone is refused a new data key (it cannot reload).
    with pytest.raises(EncryptionKeyError, match="since a rotation began") as refused:
        await first.for_write("d")
    assert refused.value.reason == "rotated"
    # The old KEK dropped from TETHER_KEY: the next rotation completes the epoch.
    done = (await DataKeys(keyring, EnvKeyProvider(k2), kid).rotate()).epoch
    assert done is not None and done.number == 1 and done.beginning_key_id is None
    assert (done.erasures, done.covered, done.pending_erasures) == (2, 1, 1)
