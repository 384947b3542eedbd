"""NaN and infinite durations are refused where they are given, with what was wrong.

They used to be accepted (only negatives were checked): the park then failed inside
the store and the run wedged.
"""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.durable import parse_duration
from tether.stores import Backend

registry = tether.Registry(deployment="durations")
NAN, INF = math.nan, math.inf
BAD = [NAN, INF, -INF]


@registry.workflow(name="sleeps")
async def sleeps(ctx: tether.WorkflowContext, seconds: float) -> str:
    try:
        await ctx.sleep(seconds)
    except tether.ConfigurationError as exc:
        return f"refused: {exc}"
    return "slept"


def retry_later(seconds: float) -> None:
    raise tether.RetryableError("later", retry_after=seconds)


@registry.workflow(name="retries")
async def retries(ctx: tether.WorkflowContext, seconds: float) -> str:
    try:
        await ctx.step(retry_later, seconds, retry=tether.RetryPolicy(max_attempts=1))
    except tether.StepFailedError as exc:
        return exc.error_message or ""
    return "no error"


@pytest.mark.parametrize("seconds", BAD, ids=repr)
async def test_sleep_refuses_nan_and_infinity_in_the_workflow(
    backend: Backend, seconds: float
) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await tether.Client(backend).start(sleeps, seconds)
        out = await handle.result(timeout=20)
    assert out.startswith("refused: ") and ("NaN" in out or "infinite" in out)


async def test_retryable_error_with_nan_delay_fails_the_step_not_the_run(
    backend: Backend,
) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await tether.Client(backend).start(retries, NAN)
        out = await handle.result(timeout=20)
    assert "retry_after" in out and "NaN" in out


@pytest.mark.parametrize("value", [*BAD, "9" * 400 + "s"], ids=repr)
def test_parse_duration(value: Any) -> None:
    with pytest.raises(tether.ConfigurationError, match=r"NaN|infinite"):
        parse_duration(value)


@pytest.mark.parametrize("value", BAD, ids=repr)
def test_retryable_error(value: float) -> None:
    with pytest.raises(tether.ConfigurationError, match=r"retry_after.*(NaN|infinite)"):
        tether.RetryableError("x", retry_after=value)
    with pytest.raises(tether.ConfigurationError, match="retry_after"):
        tether.RetryableError("x", retry_after=timedelta(days=-1))
    assert tether.RetryableError("x", retry_after=timedelta(seconds=2)).retry_after == 2.0


@pytest.mark.parametrize("field", ["initial_delay", "max_delay", "backoff"])
@pytest.mark.parametrize("value", BAD, ids=repr)
def test_retry_policy(field: str, value: float) -> None:
    with pytest.raises(tether.ConfigurationError, match=rf"{field}.*(NaN|infinite)"):
        tether.RetryPolicy(**{field: value})


@pytest.mark.parametrize("value", [NAN, 2.5, "3", None])
def test_retry_policy_attempts_must_be_an_integer(value: Any) -> None:
    with pytest.raises(tether.ConfigurationError, match="max_attempts"):
        tether.RetryPolicy(max_attempts=value)


@pytest.mark.parametrize(
    "option",
    ["lease_seconds", "poll_interval", "heartbeat_interval", "dead_after", "shutdown_grace"],
)
@pytest.mark.parametrize("value", BAD, ids=repr)
async def test_worker_options(option: str, value: float) -> None:
    async with tether.open_backend("memory://") as backend:
        with pytest.raises(tether.ConfigurationError, match=rf"{option}.*(NaN|infinite)"):
            tether.Worker(backend, registry, **{option: value})


async def test_worker_options_must_be_numbers() -> None:
    async with tether.open_backend("memory://") as backend:
        with pytest.raises(tether.ConfigurationError, match="shutdown_grace"):
            tether.Worker(backend, registry, shutdown_grace=-1)
        with pytest.raises(tether.ConfigurationError, match="poll_interval"):
            tether.Worker(backend, registry, poll_interval="fast")  # type: ignore[arg-type]
        with pytest.raises(tether.ConfigurationError, match="concurrency"):
            tether.Worker(backend, registry, concurrency=2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [*BAD, -1.0], ids=repr)
async def test_result_timeout(value: float) -> None:
    async with tether.open_backend("memory://") as backend:
        handle = await tether.Client(backend).start(sleeps, 1.0)
        with pytest.raises(tether.ConfigurationError, match="timeout"):
            await handle.result(timeout=value)


async def test_backend_timeouts(tmp_path: Path) -> None:
    with pytest.raises(tether.ConfigurationError, match=r"busy_timeout_ms.*NaN"):
        async with tether.open_backend(f"sqlite:///{tmp_path}/x.db", busy_timeout_ms=NAN):
            pass
    assert not (tmp_path / "x.db").exists()
    with pytest.raises(tether.ConfigurationError, match=r"connect_timeout.*infinite"):
        async with tether.open_backend("postgresql://localhost/x", connect_timeout=INF):
            pass
    for bad in (NAN, 0.0, -1.0):
        with pytest.raises(tether.ConfigurationError, match=r"checkout_timeout"):
            async with tether.open_backend("postgresql://localhost/x", checkout_timeout=bad):
                pass


def test_retry_after_header_that_is_not_finite_is_ignored() -> None:
    from tether.agent.models._http import parse_retry_after

    assert parse_retry_after({"retry-after": "inf"}) is None
    assert parse_retry_after({"retry-after": "nan"}) is None
    assert parse_retry_after({"retry-after-ms": "inf", "retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after": "1.5"}) == 1.5
