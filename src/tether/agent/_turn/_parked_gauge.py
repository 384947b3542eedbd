"""Parked inputs by age: the session runs' park labels, and the gauge sampled from them.

A turn parked on input requests (approvals, authorizations, a workflow tool's
question) labels its session's run as it parks, in the step that parks it and before
that step commits: ``tether.parked=input``, ``tether.parked_at`` (the time of its
``turn.waiting`` event) and ``tether.parked_inputs`` (how many requests it waits
for). The step that resumes it labels it ``tether.parked=no`` the same way. A step
that fails after labelling is retried, and the retry labels again, so the labels
settle on what the committed step decided; a step replayed from the journal runs no
code and writes no label.

Workers sample them (`sample_parked_inputs`): one label-index listing of the running
runs labelled ``tether.parked=input``, every `PARKED_SAMPLE_INTERVAL` seconds, only
while a meter provider records tether's metrics.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ... import _otel
from ...durable import Client
from ...errors import StoreError
from .._records._cursor import TurnState
from .._stored._labels import AGENT_LABEL

__all__ = [
    "AGE_BUCKETS",
    "PARKED_AT_LABEL",
    "PARKED_INPUTS_LABEL",
    "PARKED_LABEL",
    "PARKED_SAMPLE_INTERVAL",
    "age_bucket",
    "count_parked",
    "label_parked",
    "mark_parked",
    "sample_parked_inputs",
]

log = logging.getLogger("tether.worker")

#: ``input`` while the session's turn waits for input requests, else ``no``.
PARKED_LABEL = "tether.parked"
#: When it parked (Unix seconds, as text).
PARKED_AT_LABEL = "tether.parked_at"
#: How many requests it waits for.
PARKED_INPUTS_LABEL = "tether.parked_inputs"

#: Seconds between two samples of the parked inputs.
PARKED_SAMPLE_INTERVAL = 15.0

#: The age buckets (``tether.input.age``): the upper bound of each in seconds.
AGE_BUCKETS: tuple[tuple[str, float], ...] = (
    ("1m", 60.0),
    ("1h", 3600.0),
    ("1d", 86400.0),
    ("7d", 7 * 86400.0),
    ("older", float("inf")),
)
_PAGE = 500


def age_bucket(age: float) -> str:
    """The bucket of an input parked `age` seconds ago (``1m``: under a minute...)."""
    for name, bound in AGE_BUCKETS:
        if age < bound:
            return name
    return AGE_BUCKETS[-1][0]


def _parked(turn: TurnState | None) -> tuple[int, float | None]:
    if turn is None or turn.parked_at is None or not turn.requests:
        return 0, None
    return len(turn.requests), turn.parked_at


async def mark_parked(
    client: Client, run_id: str, before: TurnState | None, after: TurnState | None
) -> None:
    """Label run `run_id` as parked on input, or no longer, when a turn step changed that."""
    was, now = _parked(before), _parked(after)
    if was != now:
        await label_parked(client, run_id, *now)


async def label_parked(client: Client, run_id: str, inputs: int, at: float | None) -> None:
    """Label run `run_id` parked on `inputs` requests since `at` (0: not parked)."""
    if inputs and at is not None:
        labels = {
            PARKED_LABEL: "input",
            PARKED_AT_LABEL: repr(at),
            PARKED_INPUTS_LABEL: str(inputs),
        }
    else:
        labels = {PARKED_LABEL: "no", PARKED_INPUTS_LABEL: "0"}
    await client.label_run(run_id, labels)


async def count_parked(client: Client, now: float) -> dict[tuple[str, str], int]:
    """Pending input requests of running sessions, by (agent, age bucket)."""
    found: dict[tuple[str, str], int] = {}
    cursor: str | None = None
    while True:
        page = await client.page_runs(
            status="running", labels={PARKED_LABEL: "input"}, limit=_PAGE, cursor=cursor
        )
        for run in page.items:
            try:
                at = float(run.labels[PARKED_AT_LABEL])
                inputs = int(run.labels.get(PARKED_INPUTS_LABEL, "1"))
            except (KeyError, ValueError):
                continue
            key = (run.labels.get(AGENT_LABEL, ""), age_bucket(max(now - at, 0.0)))
            found[key] = found.get(key, 0) + inputs
        cursor = page.next_cursor
        if cursor is None:
            return found


async def sample_parked_inputs(client: Client) -> None:
    """Set ``tether.inputs.parked`` from the park labels now and then, forever.

    Nothing is read while no meter provider records tether's metrics. Every worker
    samples the same store: the gauge is the store's (take the maximum across
    workers, not the sum).
    """
    shown: set[str] = set()
    while True:
        gauges = list(_otel.each("inputs_parked"))
        if gauges:
            try:
                counts = await count_parked(client, time.time())
            except StoreError as exc:
                log.debug("parked inputs not sampled: %s", exc)
            else:
                agents = {agent for agent, _ in counts}
                # An agent whose inputs were all answered shows 0 (a gauge keeps its
                # last value) once.
                for agent in sorted(agents | shown):
                    for bucket, _ in AGE_BUCKETS:
                        attributes = {"gen_ai.agent.name": agent, "tether.input.age": bucket}
                        for gauge in gauges:
                            gauge.set(counts.get((agent, bucket), 0), attributes)
                shown = agents
        await asyncio.sleep(PARKED_SAMPLE_INTERVAL)
