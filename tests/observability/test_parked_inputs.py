"""``tether.inputs.parked``: a worker samples the inputs parked turns wait for, by age."""

from __future__ import annotations

import asyncio
import time

import pytest
import wait_app
from _telemetry import Telemetry

import tether
from tether.agent._turn import _parked_gauge


def _parked(telemetry: Telemetry) -> dict[str, int]:
    return {
        p.attributes["tether.input.age"]: p.value
        for p in telemetry.points("tether.inputs.parked")
        if p.attributes["gen_ai.agent.name"] == "ops"
    }


async def _until(telemetry: Telemetry, bucket: str, value: int) -> dict[str, int]:
    for _ in range(250):
        found = _parked(telemetry)
        if found.get(bucket) == value:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"{bucket} never held {value}: {_parked(telemetry)}")


async def test_a_parked_approval_is_counted_in_its_age_bucket(
    telemetry: Telemetry, db: tuple[str, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_parked_gauge, "PARKED_SAMPLE_INTERVAL", 0.05)
    url, namespace = db
    options = {} if namespace is None else {"namespace": namespace}
    async with tether.open_backend(url, **options) as backend:
        host = wait_app.build_host(backend)
        async with host.worker(poll_interval=0.01):
            session = await host.open_session("ops", session_id="p1")
            await session.send("restart api", principal="ada")
            requested = await session.wait_for("input.requested")
            found = await _until(telemetry, "1m", 1)
            assert sum(found.values()) == 1
            assert set(found) == {"1m", "1h", "1d", "7d", "older"}
            # Parked an hour and a half ago (as another worker labelled it then).
            run = await backend.stores.workflow.get_run(session.run_id)
            assert run is not None and run.labels[_parked_gauge.PARKED_LABEL] == "input"
            parked_at = float(run.labels[_parked_gauge.PARKED_AT_LABEL])
            waiting = await session.wait_for("turn.waiting")
            assert parked_at == waiting.meta.at
            older = {_parked_gauge.PARKED_AT_LABEL: repr(time.time() - 5400)}
            await backend.stores.workflow.label_run(session.run_id, older)
            found = await _until(telemetry, "1d", 1)
            assert found["1m"] == 0 and sum(found.values()) == 1
            # Answered: nothing is parked any more, and the gauge says so.
            await session.answer(requested.data.request.request_id, "approve", principal="ada")
            await session.wait_for("turn.completed")
            found = await _until(telemetry, "1d", 0)
            assert sum(found.values()) == 0
            run = await backend.stores.workflow.get_run(session.run_id)
            assert run is not None and run.labels[_parked_gauge.PARKED_LABEL] == "no"


def test_age_buckets() -> None:
    assert [_parked_gauge.age_bucket(a) for a in (0, 59.9, 60, 3599, 3600, 86400, 9e6)] == [
        "1m",
        "1m",
        "1h",
        "1h",
        "1d",
        "7d",
        "older",
    ]
