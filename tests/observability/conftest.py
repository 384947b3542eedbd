"""Fixtures: the SDK's in-memory exporters as the global providers (`_telemetry`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _telemetry import Telemetry, in_memory_telemetry


@pytest.fixture
def telemetry() -> Iterator[Telemetry]:
    with in_memory_telemetry() as found:
        yield found
