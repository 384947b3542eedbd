"""The crash kit finds a side effect a retry makes twice, and passes one made once."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import tether
from tether.stores import Backend
from tether.testing import CrashBoundary, kill_at_each_commit

sys.path.insert(0, str(Path(__file__).parent))
import kit_app

pytestmark = pytest.mark.crash


async def _checkout(backend: Backend) -> str:
    handle = await tether.Client(backend).start(kit_app.checkout, "o-1", 1250, run_id="o-1")
    result: str = await handle.result(timeout=30)
    return result


def _env(tmp_path: Path, idempotent: bool) -> dict[str, str]:
    here = str(Path(__file__).parent)
    return {
        "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])),
        "CHARGES": str(tmp_path / "charges.log"),
        "IDEMPOTENT": "1" if idempotent else "0",
    }


def _charged_once(tmp_path: Path) -> object:
    async def check(backend: Backend, boundary: CrashBoundary[str]) -> None:
        ledger = tmp_path / "charges.log"
        lines = ledger.read_text().splitlines()
        ledger.unlink()  # the next boundary starts with no charge
        assert boundary.result == "shipped o-1"
        assert len(lines) == 1, f"the card was charged {len(lines)} times: {lines}"

    return check


async def test_the_kit_finds_a_charge_a_retry_makes_twice(tmp_path: Path) -> None:
    with pytest.raises(AssertionError) as found:
        await kill_at_each_commit(
            "kit_app:registry",
            _checkout,
            directory=tmp_path / "stores",
            check=_charged_once(tmp_path),  # type: ignore[arg-type]
            env=_env(tmp_path, idempotent=False),
        )
    # Killed as `charge` runs (its start, commit 1, just landed: a sync step starts
    # then) or once it ran (the commit of its completion, 2, never sent): the retry
    # charges again.
    said = str(found.value)
    assert "a SIGKILL after commit 1" in said or "a SIGKILL before commit 2" in said, said
    assert "the card was charged 2 times" in str(found.value)


async def test_a_charge_keyed_by_its_idempotency_key_holds_at_every_boundary(
    tmp_path: Path,
) -> None:
    report = await kill_at_each_commit(
        "kit_app:registry",
        _checkout,
        directory=tmp_path / "stores",
        check=_charged_once(tmp_path),  # type: ignore[arg-type]
        env=_env(tmp_path, idempotent=True),
    )
    crashed = [(b.when, b.k) for b in report.boundaries if b.crashed]
    assert crashed[:4] == [("before", 1), ("after", 1), ("before", 2), ("after", 2)]
    assert report.commits >= 2 and not report.boundaries[-1].crashed
    assert all(b.result == "shipped o-1" for b in report.boundaries)
