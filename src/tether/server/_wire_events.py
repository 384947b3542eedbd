"""Session events read back from their wire form, for the UI adapters' pure projections.

The live routes project the typed events their feed decoded; `ui_parts` and
`agui_events` take the wire form (``SessionEvent.to_json()``), as a client or a test
holds it, and read it here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..agent import EVENT_DATA, SessionEvent

__all__ = ["known_events"]

log = logging.getLogger("tether.server")


def known_events(values: Iterable[Mapping[str, Any]], front_end: str) -> Iterator[SessionEvent]:
    """The session events of wire-form `values`, in order, each validated into its record.

    An event of a type this version of tether does not define (one a newer version
    wrote) is skipped with a warning naming its type, once per type per call: the
    front end goes on with the events it can show.

    Args:
        values: Events in their wire form.
        front_end: Who projects them, for the warning (``"AI SDK"``, ``"AG-UI"``).

    Raises:
        SerializationError: An event of a known type does not fit its record.
    """
    unknown: set[str] = set()
    for value in values:
        kind = value.get("type")
        if isinstance(kind, str) and kind in EVENT_DATA:
            yield SessionEvent.from_json(value)
            continue
        name = repr(kind)
        if name not in unknown:
            unknown.add(name)
            log.warning(
                "the %s adapter skips session events of type %s: this version of tether "
                "does not define that type",
                front_end,
                name,
            )
