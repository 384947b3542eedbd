"""Values round-trip exactly: NaN and infinities are not turned into None."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pydantic
import pytest

import tether
from tether import _codec
from tether.stores import Backend

registry = tether.Registry(deployment="payload-values")
NAN, INF = float("nan"), float("inf")


@dataclasses.dataclass(frozen=True)
class Reading:
    value: float
    limits: list[float]


class Sample(pydantic.BaseModel):
    value: float


def measure() -> dict[str, Any]:
    return {
        "nan": NAN,
        "inf": INF,
        "-inf": -INF,
        "list": [1.5, NAN, None],
        "reading": Reading(value=NAN, limits=[-INF, INF]),
        "sample": Sample(value=-INF),
        "none": None,
    }


@registry.workflow(name="floats")
async def floats(ctx: tether.WorkflowContext, given: float, more: dict[str, float]) -> Any:
    out = await ctx.step(measure, name="measure")
    return {"step": out, "given": given, "more": more}


def check(out: dict[str, Any]) -> None:
    step = out["step"]
    assert math.isnan(step["nan"]) and step["inf"] == INF and step["-inf"] == -INF
    assert step["list"][0] == 1.5 and math.isnan(step["list"][1]) and step["list"][2] is None
    assert math.isnan(step["reading"].value) and step["reading"].limits == [-INF, INF]
    assert step["sample"] == Sample(value=-INF)
    assert step["none"] is None


async def test_non_finite_floats_round_trip_through_runs(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        client = tether.Client(backend)
        handle = await client.start(floats, NAN, {"a": INF, "b": -INF})
        out = await handle.result(timeout=20)
    check(out)
    assert math.isnan(out["given"]) and out["more"] == {"a": INF, "b": -INF}
    (step,) = await handle.steps()
    assert math.isnan(step.output["nan"])


def same(a: Any, b: Any) -> bool:
    """Equality where NaN equals NaN and tuples equal lists (the codec's tuples are lists)."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, BaseException) and isinstance(b, BaseException):
        return type(a) is type(b) and same(a.args, b.args)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize(
    "value",
    [NAN, INF, -INF, [NAN], {"x": {"y": (INF, None)}}, ValueError(NAN), None, {"a": "null"}],
    ids=repr,
)
def test_codec_keeps_non_finite_floats(value: Any) -> None:
    assert same(_codec.decode(_codec.encode(value)), value)


def test_codec_keeps_non_finite_floats_in_sets() -> None:
    decoded = _codec.decode(_codec.encode({INF, 1.0, -INF}))
    assert decoded == {INF, 1.0, -INF}


def test_plain_values_stay_plain_frames() -> None:
    # Only a payload that held a non-finite float pays for the tag.
    assert _codec.encode({"a": None, "b": "null"})[:4] == b"TJ1\x00"
    assert _codec.encode({"a": 1.0})[:4] == b"TJ1\x00"
    assert _codec.encode({"a": NAN})[:4] == b"TJ1\x01"


def test_large_bytes_are_written_raw_beside_the_json() -> None:
    import os

    from tether._codec import SEGMENT_THRESHOLD, decode, encode

    noise = os.urandom(SEGMENT_THRESHOLD * 4)
    text = b"tool output line\n" * (SEGMENT_THRESHOLD // 4)
    value = {"raw": noise, "text": text, "small": b"abc", "nan": float("nan"), "n": [1, 2]}
    frame = encode(value)
    # Raw, not base64: barely larger than the bytes themselves (the text compressed).
    assert frame[:4] == b"TS1\x00" and len(frame) < len(noise) + len(text) // 2
    back = decode(frame)
    assert back["raw"] == noise and back["text"] == text and back["small"] == b"abc"
    assert back["n"] == [1, 2] and back["nan"] != back["nan"]
    assert decode(encode(noise)) == noise


def test_a_cut_segmented_frame_is_a_serialization_error() -> None:
    import os

    from tether._codec import SEGMENT_THRESHOLD, decode, encode
    from tether.errors import SerializationError

    frame = encode({"raw": os.urandom(SEGMENT_THRESHOLD)})
    with pytest.raises(SerializationError, match="segment"):
        decode(frame[:-10])
