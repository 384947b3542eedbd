"""Test helpers shipped with tether: a scripted model, fault injection, round-trip counts."""

from __future__ import annotations

from ..agent.models import forbid_network_models as forbid_network_models
from ._crash_kit import CrashBoundary as CrashBoundary
from ._crash_kit import CrashReport as CrashReport
from ._crash_kit import kill_at_each_commit as kill_at_each_commit
from ._faults import FaultProxy as FaultProxy
from ._faults import SmallDisk as SmallDisk
from ._roundtrips import PostgresRoundTrips as PostgresRoundTrips
from ._roundtrips import RoundTrip as RoundTrip
from ._roundtrips import WatchedCall as WatchedCall
from ._scripted import Reply as Reply
from ._scripted import ScriptedModel as ScriptedModel
from ._scripted import ScriptEntry as ScriptEntry
from ._scripted import tool_call as tool_call

__all__ = [
    "CrashBoundary",
    "CrashReport",
    "FaultProxy",
    "PostgresRoundTrips",
    "Reply",
    "RoundTrip",
    "ScriptEntry",
    "ScriptedModel",
    "SmallDisk",
    "WatchedCall",
    "forbid_network_models",
    "kill_at_each_commit",
    "tool_call",
]
