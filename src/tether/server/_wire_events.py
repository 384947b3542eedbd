"""Session events read back from their wire form, for the UI adapters' pure projections.

The live routes project the typed events their feed decoded (skipping, with
`UnknownTypes`, those of a type this version does not define); `ui_parts` and
`agui_events` take the wire form (``SessionEvent.to_json()``), as a client or a test
holds it, and read it here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..agent import EVENT_DATA, SessionEvent

__all__ = ["UnknownTypes", "known_events"]

log = logging.getLogger("tether.server")


class UnknownTypes:
    """The event types one projection skipped as unknown, each warned about once.

    Args:
        front_end: Who projects the events, for the warning (``"AI SDK"``, ``"AG-UI"``).
    """

    def __init__(self, front_end: str) -> None:
        self.front_end = front_end
        self.seen: set[str] = set()

    def skip(self, kind: object) -> None:
        """Skip an event of type `kind`: a warning names it, the first time."""
        name = repr(kind)
        if name not in self.seen:
            self.seen.add(name)
            log.warning(
                "the %s adapter skips session events of type %s: this version of tether "
                "does not define that type",
                self.front_end,
                name,
            )


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
    unknown = UnknownTypes(front_end)
    for value in values:
        kind = value.get("type")
        if isinstance(kind, str) and kind in EVENT_DATA:
            yield SessionEvent.from_json(value)
        else:
            unknown.skip(kind)
