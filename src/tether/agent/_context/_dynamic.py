"""Dynamic instructions: handlers on session events that return instructions.

A `Dynamic` declares an async handler on a session event (``session.started``,
``turn.started``). Each call runs as its own durable step, bounded by its timeout;
what it returns is recorded in the transcript (`InstructionsEntry`), so a replay
never calls it again. Instructions of a ``session.started`` handler are kept for the
rest of the session; those of a ``turn.started`` handler hold for that turn. Both are
added to the agent's own instructions in every model call they hold for.

The history a reset session is given of its predecessor is one such handler
(`PREDECESSOR_HISTORY`), which every agent has unless it declares its own handler
named ``predecessor``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from ...errors import DynamicError

if TYPE_CHECKING:
    from .._records._event_data import SessionStarted, TurnStarted
    from ._values import StateValues

__all__ = [
    "DEFAULT_DYNAMIC_TIMEOUT",
    "DYNAMIC_EVENTS",
    "PREDECESSOR_ENTRIES",
    "PREDECESSOR_HISTORY",
    "PREDECESSOR_TIMEOUT",
    "Dynamic",
    "DynamicContext",
    "DynamicEvent",
    "DynamicResult",
    "Instructions",
    "dynamic",
    "handlers_on",
]

DynamicEvent: TypeAlias = Literal["session.started", "turn.started"]
"""The session events a `Dynamic` handler may run on."""
#: The events a handler may run on, and how long what it returns holds.
DYNAMIC_EVENTS: dict[str, str] = {
    "session.started": "for the rest of the session",
    "turn.started": "for that turn",
}
#: How many of the predecessor's last messages a reset session is given.
PREDECESSOR_ENTRIES = 20
#: Seconds the predecessor's transcript may take to read; past that, no history.
PREDECESSOR_TIMEOUT = 5.0
#: Seconds a handler may run unless it sets its own `Dynamic.timeout`.
DEFAULT_DYNAMIC_TIMEOUT = 10.0
_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$")
#: Sources of transcript context that are not handlers' (`ContextEntry.source`).
_RESERVED = frozenset({"compaction"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Instructions:
    """What a handler returns when it gives more than a system-prompt text.

    Attributes:
        text: Added to the system prompt (after the agent's own instructions).
        history: Given to the model as a user-role message marked as history, not
            instructions (for text the model should know but not obey: an earlier
            conversation, a document). It is recorded once, where the handler ran,
            and stays in the transcript like any message.
    """

    text: str = ""
    history: str = ""


DynamicResult: TypeAlias = str | Instructions | None
"""What a handler returns: a text for the system prompt, `Instructions`, or None."""


class DynamicContext:
    """What a `Dynamic` handler is told of the session and the event it runs on.

    Attributes:
        session_id: The session.
        agent: The agent's name.
        on: The event (``session.started`` or ``turn.started``).
        event: That event's record, as the session's stream has it (`SessionStarted`,
            or `TurnStarted` with the message's text, principal and files).
        owner: The session's owner, if it has one.
        state: The session's declared state as the event finds it (read-only).
        turn_id: For ``turn.started``: the turn (None for ``session.started``).
        turn: For ``turn.started``: the turn's number in the session's current
            transcript (1 first; a clear or a compaction starts a new transcript).
        message: For ``turn.started``: the text of the message that began the turn.
        principal: For ``turn.started``: who the turn serves.
        predecessor: The run of the session this one follows after `Session.reset`
            (None when it follows none).
    """

    __slots__ = (
        "_read_predecessor",
        "agent",
        "event",
        "message",
        "on",
        "owner",
        "predecessor",
        "principal",
        "session_id",
        "state",
        "turn",
        "turn_id",
    )

    def __init__(
        self,
        *,
        session_id: str,
        agent: str,
        on: DynamicEvent,
        event: SessionStarted | TurnStarted,
        owner: str | None,
        state: StateValues,
        turn_id: str | None = None,
        turn: int | None = None,
        message: str | None = None,
        principal: str | None = None,
        predecessor: str | None = None,
        read_predecessor: Callable[[int, float], Awaitable[str]] | None = None,
    ) -> None:
        self.session_id = session_id
        self.agent = agent
        self.on = on
        self.event = event
        self.owner = owner
        self.state = state
        self.turn_id = turn_id
        self.turn = turn
        self.message = message
        self.principal = principal
        self.predecessor = predecessor
        self._read_predecessor = read_predecessor

    async def predecessor_history(
        self, *, last: int = PREDECESSOR_ENTRIES, timeout: float = PREDECESSOR_TIMEOUT
    ) -> str:
        """The predecessor's last `last` messages, ``role: text`` per line.

        Only what people and the model said (tool traffic, state and files are left
        out). Empty when the session follows none, its transcript is gone, or it is not
        read within `timeout` seconds.
        """
        if self.predecessor is None or self._read_predecessor is None:
            return ""
        return await self._read_predecessor(last, timeout)

    def __repr__(self) -> str:
        return (
            f"DynamicContext(session_id={self.session_id!r}, on={self.on!r}, "
            f"turn_id={self.turn_id!r})"
        )


Handler: TypeAlias = Callable[[DynamicContext], Awaitable[DynamicResult]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Dynamic:
    """An async handler on a session event whose result joins the model's instructions.

    Usually made with ``@dynamic(...)``; pass it to ``Agent(dynamic=[...])``.

    Args:
        on: ``"session.started"`` (it runs once as the session opens, also after a
            reset; what it returns holds for the rest of the session) or
            ``"turn.started"`` (once as each turn begins, before its first model call;
            what it returns holds for that turn).
        fn: ``async def handler(ctx: DynamicContext) -> str | Instructions | None``.
        name: Stable name (transcripts and events record it); default the function's
            name. One agent's handlers have distinct names.
        timeout: Seconds a call may run (default `DEFAULT_DYNAMIC_TIMEOUT`). A call
            past it, or one that raises, gives nothing: the session goes on without
            its instructions and emits ``dynamic.failed``.
        after_reset: ``session.started`` only: run just in a session that follows a
            predecessor (`Session.reset`); other sessions take no step for it.

    Raises:
        DynamicError: An event it cannot run on, a handler that is not an async
            function, a bad name or timeout.
    """

    on: DynamicEvent
    fn: Handler
    name: str = ""
    timeout: float = DEFAULT_DYNAMIC_TIMEOUT
    after_reset: bool = False

    def __post_init__(self) -> None:
        name = self.name or getattr(self.fn, "__name__", "") or repr(self.fn)
        if not self.name:
            object.__setattr__(self, "name", name)
        if not _NAME.match(name):
            raise DynamicError(
                name,
                "a name is 1-64 letters, digits, '_', '.' or '-', starting with a letter "
                "or '_' (pass name=...)",
            )
        if name in _RESERVED:
            raise DynamicError(name, f"{name!r} is reserved for tether's own context")
        if self.on not in DYNAMIC_EVENTS:
            raise DynamicError(
                name,
                f"it cannot run on {self.on!r}: handlers run on "
                f"{' or '.join(repr(e) for e in DYNAMIC_EVENTS)}",
            )
        call = type(self.fn).__call__  # an object with an async __call__ is one too
        if not (inspect.iscoroutinefunction(self.fn) or inspect.iscoroutinefunction(call)):
            raise DynamicError(
                name,
                f"its handler must be an async function (async def {name}(ctx)), not {self.fn!r}",
            )
        timeout = self.timeout
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, int | float)
            or not (0 < timeout < float("inf"))
        ):
            raise DynamicError(
                name, f"timeout must be a positive, finite number of seconds, not {timeout!r}"
            )
        object.__setattr__(self, "timeout", float(timeout))
        if self.after_reset and self.on != "session.started":
            raise DynamicError(name, "after_reset applies to 'session.started' handlers only")


def dynamic(
    on: DynamicEvent,
    *,
    name: str | None = None,
    timeout: float = DEFAULT_DYNAMIC_TIMEOUT,
    after_reset: bool = False,
) -> Callable[[Handler], Dynamic]:
    """Declare an async function as a `Dynamic` handler on session event `on`.

    ::

        @dynamic("turn.started", timeout=2.0)
        async def today(ctx: DynamicContext) -> str:
            return f"Today is {date.today()}; the user has {ctx.state[cart].items}."

        agent = Agent(name="shop", model=..., dynamic=[today])

    Raises:
        DynamicError: See `Dynamic`.
    """

    def wrap(fn: Handler) -> Dynamic:
        return Dynamic(on=on, fn=fn, name=name or "", timeout=timeout, after_reset=after_reset)

    return wrap


async def _predecessor(ctx: DynamicContext) -> Instructions | None:
    text = await ctx.predecessor_history()
    return Instructions(history=text) if text else None


#: The handler that gives a reset session its predecessor's last messages as history
#: (named ``predecessor``; an agent's own handler of that name replaces it).
PREDECESSOR_HISTORY = Dynamic(
    on="session.started",
    fn=_predecessor,
    name="predecessor",
    # Its read is bounded by PREDECESSOR_TIMEOUT; the margin lets it give up itself.
    timeout=PREDECESSOR_TIMEOUT + 5.0,
    after_reset=True,
)


def check_dynamic(declared: Sequence[object], agent_name: str) -> tuple[Dynamic, ...]:
    """An agent's `dynamic` declarations, validated.

    Raises:
        DynamicError: One is not a `Dynamic`, or two have one name.
    """
    if isinstance(declared, Dynamic | str) or not isinstance(declared, Sequence):
        raise DynamicError(
            getattr(declared, "name", None) or repr(declared),
            f"agent {agent_name!r}: dynamic takes a list of handlers (dynamic=[handler])",
        )
    out: list[Dynamic] = []
    for each in declared:
        if not isinstance(each, Dynamic):
            label = getattr(each, "__name__", None) or repr(each)
            raise DynamicError(
                str(label),
                f"agent {agent_name!r}: dynamic takes handlers made with "
                f"@dynamic('turn.started') or Dynamic(...), not {each!r}",
            )
        out.append(each)
    names = [d.name for d in out]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise DynamicError(
            duplicates[0], f"agent {agent_name!r} has two handlers of that name (rename one)"
        )
    return tuple(out)


def handlers_on(
    declared: Sequence[Dynamic], on: str, *, after_reset: bool = False
) -> tuple[Dynamic, ...]:
    """The handlers that run on `on`, in order: the built-in ones, then the agent's.

    `after_reset`: the session follows a predecessor (``after_reset`` handlers run).
    """
    own = {d.name for d in declared}
    every = [d for d in (PREDECESSOR_HISTORY,) if d.name not in own] + list(declared)
    return tuple(d for d in every if d.on == on and (after_reset or not d.after_reset))
