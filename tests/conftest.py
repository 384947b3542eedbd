from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import tether
from tether.stores import Backend


@pytest.fixture(params=["memory", "sqlite"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path}/tether.db"
    async with tether.open_backend(url) as opened:
        yield opened
