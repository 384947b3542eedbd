"""A backend of another package, named by URL through the ``tether.backends`` entry points.

The package is real: a module and its ``.dist-info`` on the path, found by
`importlib.metadata` as an installed distribution is.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tether
from tether.errors import ConfigurationError

MODULE = '''
from tether.stores.memory import MemoryBackend


class LabBackend(MemoryBackend):
    """A memory store under its own scheme: every open is a new store."""

    def __init__(self, url, **options):
        super().__init__(**options)
        self._lab_url = url

    @property
    def url(self):
        return self._lab_url


def not_a_backend(url):
    return object()
'''

ENTRY_POINTS = """
[tether.backends]
lab = lab_backend:LabBackend
broken = lab_backend:missing
nobackend = lab_backend:not_a_backend
"""

APP = """
import asyncio
import tether

registry = tether.Registry()


def double(x: int) -> int:
    return 2 * x


@registry.workflow()
async def twice(ctx: tether.WorkflowContext, x: int) -> int:
    return await ctx.step(double, await ctx.step(double, x))


async def main() -> None:
    async with tether.open_backend("lab://one") as backend:
        print("opened", backend.url)
        async with tether.Worker(backend, registry):
            run = await tether.Client(backend).start(twice, 5)
            print("result", await run.result(timeout=30))


asyncio.run(main())
"""


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The ``lab-backend`` distribution, on this process's path and its children's."""
    root = tmp_path / "site"
    info = root / "lab_backend-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lab-backend\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (root / "lab_backend.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(root))
    for name in ("TETHER_KEY", "TETHER_KEY_FILE", "TETHER_URL"):
        monkeypatch.delenv(name, raising=False)
    return root


def _env(package: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TETHER_")}
    path = [str(package), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**env, "PYTHONPATH": os.pathsep.join(path), **extra}


async def test_open_backend_opens_a_registered_scheme(package: Path) -> None:
    async with tether.open_backend("lab://first") as backend:
        assert type(backend).__name__ == "LabBackend"
        assert backend.url == "lab://first"
        await backend.stores.workflow.write_stream("r", "s", [b"x"])
        chunks, _ = await backend.stores.workflow.read_stream("r", "s")
        assert [c.data for c in chunks] == [b"x"]


def test_a_workflow_runs_on_it(package: Path, tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    done = subprocess.run(
        [sys.executable, "app.py"],
        cwd=tmp_path,
        env=_env(package),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["opened lab://one", "result 20"]


def test_the_cli_takes_it_by_db_and_by_tether_url(package: Path, tmp_path: Path) -> None:
    def cli(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tether.cli", *args],
            cwd=tmp_path,
            env=_env(package, **extra),
            capture_output=True,
            text=True,
            timeout=60,
        )

    migrated = cli("migrate", "lab://x")
    assert (migrated.returncode, migrated.stdout) == (0, "migrated lab://x\n"), migrated.stderr
    # Every open of a lab store is a new one, so the CLI reads one nothing migrated: the
    # refusal comes from the lab backend, reached by `--db` and by `TETHER_URL` alike.
    for done in (cli("runs", "list", "--db", "lab://x"), cli("runs", "list", TETHER_URL="lab://x")):
        assert done.returncode == 2
        assert "the memory store is not migrated" in done.stderr, done.stderr


def test_bad_backends_say_what_is_wrong(package: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"unknown backend scheme 'nodb'.*: broken, lab"):
        tether.stores.backend_from_url("nodb://x")
    with pytest.raises(ConfigurationError, match=r'entry-points."tether.backends"\] nodb = "'):
        tether.stores.backend_from_url("nodb://x")
    with pytest.raises(ConfigurationError, match=r"'lab' is a backend scheme.*write 'lab://'"):
        tether.stores.backend_from_url("lab")
    with pytest.raises(ConfigurationError, match=r"'lab_backend:missing'.*'lab-backend'.*load"):
        tether.stores.backend_from_url("broken://x")
    with pytest.raises(ConfigurationError, match=r"built object, which is not a tether\.stores"):
        tether.stores.backend_from_url("nobackend://x")
    with pytest.raises(ConfigurationError, match=r"refused 'lab://x' with options \['colour'\]"):
        tether.stores.backend_from_url("lab://x", colour="blue")


@pytest.mark.slow
def test_its_contract_suites_run_with_one_command(package: Path, tmp_path: Path) -> None:
    # The command docs/how-to/backend.md gives a backend's author.
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--asyncio-mode=auto",
        "-o",
        "asyncio_default_fixture_loop_scope=function",
        "--pyargs",
        "tether.testing.contract.suite",
        "--tether-backend",
        "lab://{name}",
    ]
    done = subprocess.run(
        command, cwd=tmp_path, env=_env(package), capture_output=True, text=True, timeout=300
    )
    summary = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0, done.stdout[-3000:]
    passed = int(summary.split(" passed")[0].split()[-1])
    assert passed >= 150 and "failed" not in summary, summary


@pytest.mark.slow
def test_the_suite_without_a_backend_says_how_to_name_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TETHER_TEST_BACKEND"}
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"),
            *("--asyncio-mode=auto", "--pyargs", "tether.testing.contract.suite"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "no backend to test: pass --tether-backend URL" in done.stdout
