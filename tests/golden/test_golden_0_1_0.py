"""Journals recorded by tether 0.1.0 open, migrate, replay and finish with today's code.

The fixtures in `v0_1_0/` (see its `make.py`) hold workflow runs and agent sessions as
tether 0.1.0 stored them, in SQLite files and Postgres dumps, encrypted and not, with
what each run and session finished with under 0.1.0 in `manifest.json`. Each test takes
a copy of one fixture (the fixture itself is never opened), migrates it with
``tether migrate``, has ``tether check-deploy`` replay its unfinished runs, reads it
back whole, finishes everything it left open and compares with the manifest: the same
results, and no completed step or tool call executed again.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

import tether
from tether.durable import check_runs
from tether.errors import EncryptionKeyError

FIXTURES = Path(__file__).parent / "v0_1_0"
sys.path.insert(0, str(FIXTURES))
import app_0_1_0 as app  # noqa: E402
import finish_0_1_0 as finish  # noqa: E402

MANIFEST = json.loads((FIXTURES / "manifest.json").read_text())
SECRET = MANIFEST["secret"].encode()


#: Runs ``tether <argv>`` for each argv given, in one process (one import of tether
#: for all), each command's output after a line of its own.
_COMMANDS = """
import json, sys
from tether.cli import main
for argv in json.loads(sys.argv[1]):
    print("--- tether", *argv, flush=True)
    code = main(argv)
    if code:
        sys.exit(code)
"""


def _cli(*commands: list[str], env: dict[str, str]) -> list[str]:
    """What each `tether` command printed, run in a process of their own."""
    done = subprocess.run(
        [sys.executable, "-c", _COMMANDS, json.dumps(commands)],
        env={**os.environ, "PYTHONPATH": str(FIXTURES), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return [out.partition("\n")[2] for out in done.stdout.split("--- tether ")[1:]]


def _key_copy(tmp_path: Path) -> Path:
    key = tmp_path / "key"
    shutil.copy(FIXTURES / "key", key)
    key.chmod(0o600)  # git keeps no file modes but the executable bit
    return key


def _sqlite_copy(name: str, tmp_path: Path) -> Path:
    db = tmp_path / name
    for suffix in ("", ".keyring"):
        if (FIXTURES / f"{name}{suffix}").exists():
            shutil.copy(FIXTURES / f"{name}{suffix}", f"{db}{suffix}")
    return db


@pytest.fixture
def restored(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[str, dict[str, str]]]:
    """A copy of the fixture named by the test's parameter: its URL and environment."""
    name: str = request.param
    entry = MANIFEST["stores"][name]
    encrypted = "encrypted" in name
    env = {"TETHER_KEY_FILE": str(_key_copy(tmp_path))} if encrypted else {}
    if name.endswith(".db"):
        db = _sqlite_copy(name, tmp_path)
        stored = db.read_bytes()
        assert (SECRET in stored) is not encrypted  # in clear unless encrypted
        yield f"sqlite:///{db}", env
        return
    url = request.getfixturevalue("pg_url")
    dump = (FIXTURES / name).read_text()
    assert (SECRET.hex() in dump) is not encrypted  # bytea is dumped in hex
    namespace = f"t_golden_{secrets.token_hex(5)}"
    schemas = (namespace, f"{namespace}_keyring")
    # The dump names its namespace (and `<namespace>_keyring`) everywhere: a new name
    # makes it a fresh namespace, whatever else the database holds.
    with psycopg.connect(url) as conn:
        conn.execute(dump.replace(entry["namespace"], namespace).encode())
    try:
        yield url, {**env, "TETHER_POSTGRES_NAMESPACE": namespace}
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for schema in schemas:
                drop = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE")
                conn.execute(drop.format(sql.Identifier(schema)))


#: Each fixture, and whether the command line (one process for both commands) or the API
#: migrates and checks it (the encrypted copies, to keep the module fast).
STORES = [
    pytest.param("journal.db", True, id="sqlite"),
    pytest.param("encrypted.db", False, id="sqlite-encrypted"),
    pytest.param("postgres.sql", True, id="postgres", marks=pytest.mark.postgres),
    pytest.param(
        "postgres-encrypted.sql", False, id="postgres-encrypted", marks=pytest.mark.postgres
    ),
]


def _unfinished(runs: dict[str, Any]) -> set[str]:
    return {run_id for run_id, run in runs.items() if run["status"] in ("pending", "running")}


def _migrate_and_check(url: str, env: dict[str, str]) -> set[str]:
    """`tether migrate`, then `tether check-deploy`: the unfinished runs it replayed."""
    migrated, checked = _cli(
        ["migrate", url], ["check-deploy", "app_0_1_0:agents", "--db", url, "--json"], env=env
    )
    assert migrated.startswith("migrated ")
    report = json.loads(checked)
    assert report["failing"] == 0 and report["deployment"] == "golden"
    return {r["run_id"] for r in report["runs"]}


@pytest.mark.parametrize(("restored", "cli"), STORES, indirect=["restored"])
async def test_a_store_written_by_0_1_0_migrates_replays_and_finishes(
    restored: tuple[str, dict[str, str]], cli: bool, request: pytest.FixtureRequest
) -> None:
    url, env = restored
    entry = MANIFEST["stores"][request.node.callspec.params["restored"]]
    unfinished = _unfinished(entry["recorded"]["runs"])
    assert len(unfinished) == 9  # what the fixture holds open (see make.py)
    namespace = env.get("TETHER_POSTGRES_NAMESPACE")
    options: dict[str, Any] = {"namespace": namespace} if namespace else {}
    keys = env.get("TETHER_KEY_FILE")
    if cli:
        assert _migrate_and_check(url, env) == unfinished
    else:
        async with tether.open_backend(url, keys=keys, env={}, **options) as backend:
            reports = await check_runs(backend, app.build().registry)
        assert [r for r in reports if not r.ok] == []
        assert {r.run_id for r in reports} == unfinished
    if keys is not None:
        with pytest.raises(EncryptionKeyError):
            async with tether.open_backend(url, migrate=False, env={}, **options):
                pass
    async with tether.open_backend(url, migrate=False, keys=keys, env={}, **options) as backend:
        # Read back whole: every journal, event stream, transcript and state value
        # decodes (and decrypts) to what 0.1.0 read from it.
        assert await finish.snapshot(backend, app.build()) == entry["recorded"]
        finished = await finish.finish_all(backend, app.build())
    # The same results as under 0.1.0; what ran is only what was left open: a
    # completed step or tool call of the fixture never ran again.
    assert finished == entry["finished"]
    assert finished["effects"] == sorted(
        ["add 3", "finish prepared the release", "lookup db", "restart api", "visit"]
    )


def test_the_fixtures_are_small() -> None:
    sizes = {p.name: p.stat().st_size for p in FIXTURES.iterdir() if p.is_file()}
    assert sum(sizes.values()) < 2_500_000, sizes
    assert MANIFEST["tether"] == "0.1.0"
