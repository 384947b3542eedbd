"""SQLite URLs and files: the wrong spelling, foreign databases, read-only places.

Each used to go wrong quietly: ``sqlite://billing.db`` opened ``.tether/tether.db``
(so separate apps shared one store), another application's database got tether's
tables, a read-only file was "not a SQLite database" and a read-only directory a raw
``OSError``, and ``migrate=False`` created the file it then refused.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import tether
from tether.errors import ConfigurationError, FormatVersionError


async def test_two_slashes_and_a_name_is_refused_with_the_right_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigurationError, match=r"sqlite:///billing\.db") as info:
        async with tether.open_backend("sqlite://billing.db"):
            pass
    assert "sqlite:////" in str(info.value)  # the absolute spelling is named too
    assert os.listdir(tmp_path) == []
    # The spellings that name a file keep working.
    async with tether.open_backend("sqlite:///billing.db") as backend:
        assert Path(backend.url.removeprefix("sqlite:///")).name == "billing.db"
    assert (tmp_path / "billing.db").exists()


async def test_unknown_url_parameters_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="adopt"):
        async with tether.open_backend(f"sqlite:///{tmp_path}/a.db?adpot=1"):
            pass
    with pytest.raises(ConfigurationError, match="true or false"):
        async with tether.open_backend(f"sqlite:///{tmp_path}/a.db?adopt=maybe"):
            pass


def foreign_database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, cents INTEGER)")
    conn.execute("INSERT INTO invoices (cents) VALUES (1250)")
    conn.commit()
    conn.close()


def tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


async def test_a_foreign_database_is_refused_unless_adopted(tmp_path: Path) -> None:
    path = tmp_path / "billing.db"
    foreign_database(path)
    with pytest.raises(FormatVersionError, match=r"invoices.*adopt=True") as info:
        async with tether.open_backend(f"sqlite:///{path}"):
            pass
    assert "?adopt=true" in str(info.value)
    assert tables(path) == {"invoices"}
    async with tether.open_backend(f"sqlite:///{path}?adopt=true") as backend:
        assert backend.url.endswith("billing.db")
    assert "invoices" in tables(path) and "tether_runs" in tables(path)
    # Once stamped, it is tether's store (shared on purpose): no option needed again.
    async with tether.open_backend(f"sqlite:///{path}"):
        pass


async def test_adopt_as_an_option(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    foreign_database(path)
    async with tether.open_backend(f"sqlite:///{path}", adopt=True):
        pass
    assert "tether_meta" in tables(path)


async def test_empty_files_and_databases_are_fresh_stores(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    sqlite3.connect(tmp_path / "blank.db").close()
    for path in (empty, tmp_path / "blank.db"):
        async with tether.open_backend(f"sqlite:///{path}"):
            pass
        assert "tether_runs" in tables(path)


async def test_opening_without_migrate_does_not_create_the_file(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "app.db"
    with pytest.raises(FormatVersionError, match=r"does not exist.*tether migrate"):
        async with tether.open_backend(f"sqlite:///{path}", migrate=False):
            pass
    assert not path.parent.exists()


OPEN = """
import asyncio, json, sys
import tether

async def main():
    try:
        async with tether.open_backend(sys.argv[1]) as backend:
            await tether.Client(backend).list_runs()
    except BaseException as exc:
        print(json.dumps({"type": type(exc).__name__, "message": str(exc)}))
        return
    print(json.dumps({"type": None, "message": ""}))

asyncio.run(main())
"""


def open_unprivileged(url: str) -> dict[str, str | None]:
    """Open `url` in a process that file permissions apply to (root's are dropped)."""
    command = [sys.executable, "-c", OPEN, url]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv is not None, "running as root needs setpriv to drop DAC override"
        drop = "-dac_override,-dac_read_search"
        command = [setpriv, "--bounding-set", drop, "--inh-caps", drop, *command]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    result: dict[str, str | None] = json.loads(out.stdout)
    return result


@pytest.fixture
def place(tmp_path: Path) -> Path:
    return tmp_path


def test_read_only_directory_is_reported_as_not_writable(place: Path) -> None:
    ro = place / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    for url in (f"sqlite:///{ro}/app.db", f"sqlite:///{ro}/sub/app.db"):
        result = open_unprivileged(url)
        assert result["type"] == "ConfigurationError", result
        assert "not writable" in str(result["message"]) and str(ro) in str(result["message"])
    assert list(ro.iterdir()) == []


def test_read_only_file_is_reported_as_not_writable(place: Path) -> None:
    path = place / "app.db"
    sqlite3.connect(path).close()
    import asyncio

    async def make() -> None:
        async with tether.open_backend(f"sqlite:///{path}"):
            pass

    asyncio.run(make())
    path.chmod(0o444)
    result = open_unprivileged(f"sqlite:///{path}")
    assert result["type"] == "ConfigurationError", result
    assert "not writable" in str(result["message"]) and "app.db" in str(result["message"])


def test_writable_file_in_read_only_directory_is_reported(place: Path) -> None:
    ro = place / "ro"
    ro.mkdir()
    sqlite3.connect(ro / "app.db").close()
    (ro / "app.db").chmod(0o666)
    ro.chmod(0o555)
    result = open_unprivileged(f"sqlite:///{ro}/app.db")
    assert result["type"] == "ConfigurationError", result
    assert "not writable" in str(result["message"]) and "-wal" in str(result["message"])
