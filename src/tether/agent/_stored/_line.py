"""A session's line: what one run of a session hands the next.

A session is a chain of runs (one id, one event stream, one inbox): a run moves to a
successor when the session clears its transcript, compacts it, or is taken over by a
newer deployment while idle, and `Session.reset` starts a new session under the same
id after the last one ended. The successor's input carries a `SessionLine` in its
JSON form: which transcript generation it writes, the inbox token it adopts, why it
exists, and for a reset the run it follows.

The JSON form is read by code of another deployment (or tether release) than the one
that wrote it: keys it does not know are dropped, and the drop is logged.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from ..._aio import within
from ..._codec import journaled
from ...errors import SessionFormatError
from ...stores import Stores
from .._context._dynamic import PREDECESSOR_ENTRIES, PREDECESSOR_TIMEOUT
from .._records._attachments import files_note
from .._records._entries import AssistantEntry, UserEntry
from .._records._keys import conversation_path
from ._transcript import Transcript

__all__ = [
    "LINE_FORMAT",
    "OLDEST_LINE_FORMAT",
    "PREDECESSOR_ENTRIES",
    "PREDECESSOR_TIMEOUT",
    "Predecessor",
    "SessionLine",
    "predecessor_text",
    "read_line",
]

log = logging.getLogger("tether.agent")

#: The checkpoint format this release writes (a session's line, its transcript entries).
#: 2: transcripts may hold `InstructionsEntry` records (what `Dynamic` handlers gave).
LINE_FORMAT = 2
#: The oldest checkpoint format this release reads: upgrading tether within the window
#: strands no session written since.
OLDEST_LINE_FORMAT = 1


@journaled("agent.Predecessor")
@dataclass(frozen=True, slots=True, kw_only=True)
class Predecessor:
    """The session a reset session follows (`Session.predecessor`).

    Attributes:
        run_id: Its (ended) run.
        text: Its last messages, ``role: text`` per line (what the new session's model
            was given, marked as history, not instructions).
    """

    run_id: str
    text: str


@journaled("agent.SessionLine")
@dataclass(frozen=True, slots=True, kw_only=True)
class SessionLine:
    """What a session's run received from the run before it (see the module docstring).

    Attributes:
        generation: The transcript generation the run writes (0 first; each clear,
            compaction and reset starts the next).
        inbox: The inbox token to adopt (a move keeps it); None: a new inbox.
        moved: Why this run continues the session: ``clear``, ``compaction`` or
            ``deploy``; None when it opened it (first, or after a reset).
        predecessor: After a reset: the run of the session this one follows.
        predecessor_generation: That run's transcript generation.
        summary: After a compaction: the summary the new transcript opens with.
        deadline: The session's timeout (Unix seconds), if it has one.

    `FORMAT` is the checkpoint format this release writes, `OLDEST_FORMAT` the oldest
    it reads (its compatibility window).
    """

    FORMAT: ClassVar[int] = LINE_FORMAT
    OLDEST_FORMAT: ClassVar[int] = OLDEST_LINE_FORMAT

    generation: int = 0
    inbox: str | None = None
    moved: str | None = None
    predecessor: str | None = None
    predecessor_generation: int = 0
    summary: str | None = None
    deadline: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form a run's input carries (stamped with `LINE_FORMAT`)."""
        out = {k: v for k, v in asdict(self).items() if v is not None}
        out["format"] = LINE_FORMAT
        return out


_KNOWN = frozenset(f.name for f in fields(SessionLine))


def read_line(value: Any) -> SessionLine:
    """The `SessionLine` of a session run's input (None: a session's first run).

    Keys this release does not define (a newer one wrote them) are dropped, and logged
    ``dropping unknown context key during deserialization``.

    Raises:
        SessionFormatError: Its format is outside this release's window.
    """
    if not isinstance(value, dict):
        return SessionLine()
    value = dict(value)
    found = value.pop("format", 1)
    if not isinstance(found, int) or not OLDEST_LINE_FORMAT <= found <= LINE_FORMAT:
        raise SessionFormatError(
            found if isinstance(found, int) else -1, OLDEST_LINE_FORMAT, LINE_FORMAT
        )
    unknown = sorted(k for k in value if k not in _KNOWN)
    for key in unknown:
        log.warning("dropping unknown context key during deserialization: %r", key)
    known = {k: v for k, v in value.items() if k in _KNOWN}
    return SessionLine(**known)


async def predecessor_text(
    stores: Stores,
    agent_name: str,
    session_id: str,
    generation: int,
    *,
    last: int = PREDECESSOR_ENTRIES,
    timeout: float = PREDECESSOR_TIMEOUT,
) -> str:
    """The last `last` messages of a transcript as plain text (``role: text`` lines).

    Only what people and the model said: tool traffic and context are left out. Empty
    when the transcript is gone (deleted, erased) or is not read within `timeout`.
    """
    path = conversation_path(agent_name, session_id, generation)

    async def read() -> list[Any]:
        return await Transcript(stores, path).entries()

    try:
        entries = await within(read(), timeout)
    except Exception as exc:
        log.warning("the predecessor transcript %r was not read: %s", path, exc)
        return ""
    lines: list[str] = []
    for entry in entries:
        if isinstance(entry, UserEntry):
            lines.append(f"user: {entry.text}{files_note(entry.attachments)}")
        elif isinstance(entry, AssistantEntry) and entry.text:
            lines.append(f"assistant: {entry.text}")
    return "\n".join(lines[-last:] if last > 0 else [])
