"""`tether check-deploy`, run as a real process against runs a real worker parked."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import tether

registry = tether.Registry(deployment="shop")


def price(n: int) -> int:
    return n * 10


@registry.workflow(name="order")
async def order(ctx: tether.WorkflowContext, n: int) -> int:
    cents = await ctx.step(price, n, name="price")
    await ctx.create_hook(token=f"ok-{ctx.run_id}")
    return cents


V2 = """
import tether

registry = tether.Registry(deployment="shop")


def price(n: int) -> int:
    return n * 12


@registry.workflow(name="order")
async def order(ctx: tether.WorkflowContext, n: int) -> int:
    cents = await ctx.step(price, n, name={name!r})
    await ctx.create_hook(token=f"ok-{{ctx.run_id}}")
    return cents
"""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """A store URL and the environment that names its namespace, for the process too."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/shop.db", {}
        return
    namespace = request.getfixturevalue("pg_namespace")
    yield request.getfixturevalue("pg_url"), {"TETHER_POSTGRES_NAMESPACE": namespace}


async def park_two(url: str, env: dict[str, str]) -> None:
    options = {"namespace": env["TETHER_POSTGRES_NAMESPACE"]} if env else {}
    async with tether.open_backend(url, **options) as backend:
        client = tether.Client(backend, registry=registry)
        async with tether.Worker(backend, registry, poll_interval=0.02):
            for run_id in ("a", "b"):
                await client.start(order, 1, run_id=run_id)
            for _ in range(500):
                if all([await backend.stores.workflow.get_hook(f"ok-{r}") for r in "ab"]):
                    break
                await asyncio.sleep(0.02)


def check(
    tmp_path: Path, url: str, env: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tether.cli", "check-deploy", "app:registry", "--db", url, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, **env},
    )


async def test_check_deploy_passes_a_compatible_change_and_reports_a_renamed_step(
    tmp_path: Path, store: tuple[str, dict[str, str]]
) -> None:
    url, env = store
    await park_two(url, env)
    (tmp_path / "app.py").write_text(textwrap.dedent(V2.format(name="price")))
    ok = check(tmp_path, url, env)
    assert ok.returncode == 0, ok.stderr
    assert "replayed 2 unfinished run(s) against deployment 'shop'" in ok.stdout
    assert "0 would fail" in ok.stdout

    (tmp_path / "app.py").write_text(textwrap.dedent(V2.format(name="quote")))
    bad = check(tmp_path, url, env)
    assert bad.returncode == 1, bad.stderr
    assert "2 would fail" in bad.stdout
    lines = [line for line in bad.stdout.splitlines() if line.startswith(("a ", "b "))]
    assert len(lines) == 2
    assert all(
        "nondeterministic" in line and "slot 1: expected 'price', found 'quote'" in line
        for line in lines
    )
    as_json = json.loads(check(tmp_path, url, env, "--json").stdout)
    assert (as_json["checked"], as_json["failing"]) == (2, 2)
    run = as_json["runs"][0]
    assert (run["outcome"], run["slot"], run["expected"], run["found"], run["ok"]) == (
        "nondeterministic",
        1,
        "price",
        "quote",
        False,
    )
    # Nothing was written: the runs still wait, parked, for their hooks.
    options = {"namespace": env["TETHER_POSTGRES_NAMESPACE"]} if env else {}
    async with tether.open_backend(url, **options) as backend:
        for run_id in "ab":
            record = await backend.stores.workflow.get_run(run_id)
            assert record is not None and record.status == "running"
            assert [e.event_type for e in await backend.stores.workflow.list_events(run_id)][
                -1
            ] != "run_failed"
    other = check(tmp_path, url, env, "--deployment", "elsewhere")
    assert other.returncode == 0 and "replayed 0 unfinished run(s)" in other.stdout


def test_check_deploy_needs_an_existing_store_and_a_registry(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("registry = 3\n")
    missing = check(tmp_path, f"sqlite:///{tmp_path}/none.db", {})
    assert missing.returncode == 2 and "not a tether.Registry" in missing.stderr
