"""Schedules: cron and interval ticks as durable runs, each started exactly once.

This module holds what a schedule is (`Schedule`) and its names; `_scheduler` holds
the workflow that drives it and the client's controls.

A schedule (`Registry.schedule`) names a workflow of its registry and when to run it:
a cron expression in a time zone (read by ``cronsim``, with daylight-saving changes
as Debian's cron takes them: a daily 02:30 on the night the clocks skip from 02:00 to
03:00 runs at 03:00, and on the night 02:30 comes twice it runs once; an hourly job
runs at both 02:00s, an hour apart) or a fixed interval (ticks at whole multiples of it since the
Unix epoch, so every worker computes the same ones).

Each schedule is driven by one durable run of the built-in workflow
``tether.scheduler``, in the chain ``tether.schedule:<name>``. It sleeps on a durable
timer until the next tick (holding no worker), then starts the tick's run with the id
``tether.schedule:<name>:<tick, UTC>`` in a step. Starting a run id twice returns the
first run, so a tick is started once however many workers there are, whatever
crashes: a retried step starts nothing new. Every worker whose registry defines
schedules makes sure their chains exist when it starts (one idempotent write each).

A tick's run is called ``fn(ctx, *args, scheduled_at=ISO-8601, **kwargs)``, with the
tick's time in the schedule's time zone, and carries the labels ``tether.schedule``
(the name) and ``tether.schedule.tick``.

When the scheduler wakes after ticks went by (every worker was down), `missed` says
what runs: ``"run_once"`` (the default) the latest missed tick, once; ``"run_all"``
every one (at most `RUN_ALL_LIMIT` a wake-up; the rest at the next); ``"skip"`` none
that is more than `grace` seconds late.

Pausing, resuming and triggering a tick now are payloads to the scheduler's hook
(``client.schedules``); the scheduler publishes its state (paused, last tick) on its
chain's stream ``schedule``, which listings read. It continues as new every
`TICKS_PER_RUN` ticks, so its history stays short.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import orjson

from .._validate import check_identifier
from ..errors import ConfigurationError
from ._retry import parse_duration

__all__ = [
    "RUN_ALL_LIMIT",
    "SCHEDULER",
    "STATE_STREAM",
    "TICKS_PER_RUN",
    "MissedPolicy",
    "Schedule",
    "chain_id_of",
    "control_token",
    "make_schedule",
    "tick_run_id",
]

MissedPolicy = Literal["skip", "run_once", "run_all"]

#: The built-in workflow that drives a schedule.
SCHEDULER = "tether.scheduler"
#: The stream of a scheduler's chain that carries its state (JSON, one chunk a change).
STATE_STREAM = "schedule"
#: Ticks one scheduler run handles before it continues as new.
TICKS_PER_RUN = 50
#: Ticks one wake-up starts at most under ``missed="run_all"``.
RUN_ALL_LIMIT = 1000

_CHAIN = "tether.schedule:"


def chain_id_of(name: str) -> str:
    """The id of the chain that drives schedule `name`."""
    return f"{_CHAIN}{name}"


def control_token(name: str) -> str:
    """The hook token of schedule `name`'s scheduler (pause, resume, trigger)."""
    return f"{_CHAIN}{name}:control"


def tick_run_id(name: str, tick: float) -> str:
    """The run id of schedule `name`'s tick at `tick` (seconds since the epoch)."""
    stamp = datetime.fromtimestamp(tick, tz=UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    return f"{_CHAIN}{name}:{stamp}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Schedule:
    """When a workflow runs by itself (see `Registry.schedule`).

    Attributes:
        name: The schedule's stable name (its chain is ``tether.schedule:<name>``).
        workflow: The workflow's registered name.
        cron: A five-field cron expression, read in `timezone`; or None.
        every: Seconds between ticks (at whole multiples since the epoch); or None.
        timezone: An IANA time zone name (``"Europe/Paris"``) for `cron`.
        missed: What a late wake-up runs (see the module docstring).
        grace: With ``missed="skip"``, how late (seconds) a tick may still start.
        args: Positional arguments of each tick's run.
        kwargs: Keyword arguments of each tick's run.
    """

    name: str
    workflow: str
    cron: str | None = None
    every: float | None = None
    timezone: str = "UTC"
    missed: MissedPolicy = "run_once"
    grace: float = 60.0
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_identifier(self.name, what="schedule name")
        if (self.cron is None) == (self.every is None):
            raise ConfigurationError(
                f"schedule {self.name!r}: give exactly one of cron='0 3 * * *' or every='5m'"
            )
        if self.missed not in get_args(MissedPolicy):
            raise ConfigurationError(
                f"schedule {self.name!r}: missed must be one of "
                f"{', '.join(get_args(MissedPolicy))}, not {self.missed!r}"
            )
        if self.every is not None and (not math.isfinite(self.every) or self.every <= 0):
            raise ConfigurationError(
                f"schedule {self.name!r}: every must be a positive duration, not {self.every!r}"
            )
        self.zone()  # a bad time zone or cron expression is refused now, not at a tick
        if self.cron is not None:
            self.next_after(time.time())

    def zone(self) -> ZoneInfo:
        """The schedule's time zone.

        Raises:
            ConfigurationError: `timezone` names no zone this machine knows.
        """
        try:
            return ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ConfigurationError(
                f"schedule {self.name!r}: unknown time zone {self.timezone!r}; use an "
                "IANA name such as 'UTC' or 'Europe/Paris'"
            ) from exc

    def next_after(self, after: float) -> float:
        """The first tick strictly after `after` (seconds since the epoch)."""
        if self.every is not None:
            return (math.floor(after / self.every) + 1) * self.every
        cron = _cronsim()
        start = datetime.fromtimestamp(after, tz=self.zone())
        try:
            found: datetime = next(cron.CronSim(str(self.cron), start))
        except cron.CronSimError as exc:
            raise ConfigurationError(
                f"schedule {self.name!r}: {self.cron!r} is not a cron expression ({exc}); "
                "write five fields: minute hour day-of-month month day-of-week"
            ) from exc
        return found.timestamp()

    def due(self, after: float, until: float, limit: int) -> list[float]:
        """The ticks in (`after`, `until`], at most `limit` of the earliest."""
        ticks: list[float] = []
        tick = self.next_after(after)
        while tick <= until and len(ticks) < limit:
            ticks.append(tick)
            tick = self.next_after(tick)
        return ticks

    def to_json(self) -> dict[str, Any]:
        """What a listing shows of the schedule (its arguments left out)."""
        return {
            "workflow": self.workflow,
            "cron": self.cron,
            "every": self.every,
            "timezone": self.timezone,
            "missed": self.missed,
        }

    def iso(self, tick: float) -> str:
        """`tick` as ISO 8601 in the schedule's time zone."""
        return datetime.fromtimestamp(tick, tz=self.zone()).isoformat()


def _cronsim() -> Any:
    try:
        import cronsim
    except ImportError as exc:  # pragma: no cover - the extra is part of the dev install
        raise ConfigurationError(
            "cron schedules need the cronsim package: pip install 'tether[cron]'"
        ) from exc
    return cronsim


def make_schedule(
    name: str,
    workflow: str,
    *,
    cron: str | None,
    every: float | timedelta | str | None,
    timezone: str,
    missed: MissedPolicy,
    grace: float | timedelta | str,
    args: tuple[Any, ...],
    kwargs: Mapping[str, Any],
) -> Schedule:
    """A checked `Schedule` from `Registry.schedule`'s arguments."""
    if cron is not None and not isinstance(cron, str):
        raise ConfigurationError(f"schedule {name!r}: cron must be a string, not {cron!r}")
    try:
        orjson.dumps({"args": list(args), "kwargs": dict(kwargs)})
    except TypeError as exc:
        raise ConfigurationError(
            f"schedule {name!r}: its arguments must be JSON values ({exc})"
        ) from exc
    return Schedule(
        name=name,
        workflow=workflow,
        cron=cron,
        every=None if every is None else parse_duration(every),
        timezone=timezone,
        missed=missed,
        grace=parse_duration(grace),
        args=tuple(args),
        kwargs=dict(kwargs),
    )
