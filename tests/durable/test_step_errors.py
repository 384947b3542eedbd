"""Every step failure reaches the workflow as StepFailedError, whatever was raised.

An exception whose class cannot be rebuilt from its stored form (pydantic's
ValidationError, a class defined inside a function, one whose ``__str__`` raises) used
to skip ``except StepFailedError`` and fail the run with ``SerializationError``.
"""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

import tether
from tether import _codec
from tether.errors import RecordedError
from tether.stores import Backend

registry = tether.Registry(deployment="step-errors")
ONCE = tether.RetryPolicy(max_attempts=1)


class Order(pydantic.BaseModel):
    qty: int


def validate_order(raw: dict[str, Any]) -> Order:
    return Order.model_validate(raw)


def raise_local() -> None:
    class LocalError(Exception):
        pass

    raise LocalError("made inside a function")


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("__str__ is broken")


def raise_unprintable() -> None:
    raise Unprintable("hidden")


def raise_runtime() -> None:
    raise RuntimeError("plain")


STEPS = {"validate": validate_order, "local": raise_local, "unprintable": raise_unprintable}


@registry.workflow(name="catches")
async def catches(ctx: tether.WorkflowContext, which: str) -> dict[str, Any]:
    args = ({"qty": "many"},) if which == "validate" else ()
    try:
        await ctx.step(STEPS[which], *args, name=which, retry=ONCE)
    except tether.StepFailedError as exc:
        return {
            "type": exc.error_type,
            "message": exc.error_message,
            "traceback": exc.error_traceback,
            "cause": type(exc.__cause__).__name__,
            "cause_type": getattr(exc.__cause__, "error_type", None),
            "text": str(exc),
        }
    return {"type": None}


@registry.workflow(name="catches_plain")
async def catches_plain(ctx: tether.WorkflowContext) -> dict[str, Any]:
    try:
        await ctx.step(raise_runtime, name="plain", retry=ONCE)
    except tether.StepFailedError as exc:
        # A class that can be rebuilt still is; the facts ride along.
        assert isinstance(exc.__cause__, RuntimeError)
        return {"type": exc.error_type, "message": exc.error_message, "tb": exc.error_traceback}
    return {}


@registry.workflow(name="body_raises")
async def body_raises(ctx: tether.WorkflowContext, which: str) -> None:
    if which == "validate":
        Order.model_validate({"qty": "many"})
    if which == "unprintable":
        raise Unprintable("hidden")


@pytest.fixture
async def client(backend: Backend) -> Any:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        yield tether.Client(backend)


async def test_validation_error_in_a_step_is_a_step_failure(client: tether.Client) -> None:
    handle = await client.start(catches, "validate")
    out = await handle.result(timeout=20)
    assert out["type"] == "pydantic_core._pydantic_core.ValidationError"
    assert "qty" in out["message"] and "valid integer" in out["message"]
    assert "Traceback" in out["traceback"] and "validate_order" in out["traceback"]
    assert out["cause"] == "RecordedError"
    assert out["cause_type"] == out["type"]
    assert "ValidationError" in out["text"] and "qty" in out["text"]


async def test_class_defined_in_a_function_is_a_step_failure(client: tether.Client) -> None:
    out = await (await client.start(catches, "local")).result(timeout=20)
    assert out["type"].endswith("raise_local.<locals>.LocalError")
    assert out["message"] == "made inside a function"
    assert "raise_local" in out["traceback"]


async def test_unprintable_error_in_a_step_is_a_step_failure(client: tether.Client) -> None:
    out = await (await client.start(catches, "unprintable")).result(timeout=20)
    assert out["type"].endswith("Unprintable")
    assert "unprintable" in out["message"] and "__str__" in out["message"]
    assert "raise_unprintable" in out["traceback"]


async def test_rebuildable_errors_carry_the_same_facts(client: tether.Client) -> None:
    out = await (await client.start(catches_plain)).result(timeout=20)
    assert out["type"] == "builtins.RuntimeError" and out["message"] == "plain"
    assert "raise_runtime" in out["tb"]


async def test_run_failing_with_a_validation_error_is_run_failed(client: tether.Client) -> None:
    handle = await client.start(body_raises, "validate")
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=20)
    cause = info.value.cause
    assert isinstance(cause, RecordedError)
    assert cause.error_type == "pydantic_core._pydantic_core.ValidationError"
    assert "valid integer" in cause.error_message
    assert cause.error_traceback is not None and "body_raises" in cause.error_traceback
    assert "ValidationError" in str(info.value)
    # The journal view decodes the same error without raising.
    info_view = await handle.info()
    assert info_view.status == "failed"


async def test_run_failing_with_an_unprintable_error_ends(client: tether.Client) -> None:
    handle = await client.start(body_raises, "unprintable")
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=20)
    cause = info.value.cause
    assert cause is not None and type(cause).__name__ in ("Unprintable", "RecordedError")
    assert info.value.error_traceback is not None
    assert "body_raises" in info.value.error_traceback


def test_encoding_an_exception_never_raises() -> None:
    class Hostile(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no str")

        def __repr__(self) -> str:
            raise RuntimeError("no repr")

        @property
        def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
            raise RuntimeError("no dict")

    class BadArg:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    for exc in (Hostile("x"), RuntimeError(BadArg()), Unprintable()):
        decoded = _codec.decode(_codec.encode(exc))
        assert isinstance(decoded, BaseException)


def test_corrupt_error_payload_decodes_to_a_recorded_error() -> None:
    frame = _codec.encode(RuntimeError("x"))
    broken = frame.replace(b"builtins:RuntimeError", b"builtins:len")
    decoded = _codec.decode(broken)
    assert isinstance(decoded, RecordedError) and decoded.error_type == "builtins.len"
    assert decoded.error_message == "x" and "not an exception type" in decoded.reason
