"""Deploy hand-off: an idle session moves to the newest deployment on its next message.

A session's run stays with the deployment (and tether version) that built it while it
has work in flight. When it is idle and a newer deployment serves the agents, the
client that brings the next message takes the run over (`Client.take_over`: no worker
can run it meanwhile), checks under that hold that nothing is in flight, and moves it
(`Takeover.continue_as_new`): the successor runs under the client's deployment with
the same session id, transcript, event stream, inbox token and ledger lanes.

What blocks a move (the session stays where it is): a turn running or parked (on an
approval, a question, an authorization or its sub-agents), a step left unfinished by
a dead worker, a cancel under way, and a new deployment whose agent declares a state
key twice, differently (`StateConflictError`). Messages that merely wait for a turn move with it
and run on the new deployment, in the order they arrived.

Messages are admitted to the ledger under the hold, before the move commits, so they
run exactly once, in arrival order, whichever run (old or new) picks them up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from ..._version import ENGINE_VERSION
from ...durable import TAKEOVER_LEASE, RunInfo, Takeover
from ...errors import ContinueAsNewError, StoreError
from ...stores import TERMINAL_RUN_STATUSES
from .._context._values import declared_state
from .._records._events import EVENTS_STREAM, decode_events
from .._records._keys import messages_lane
from .._records._state import RUN_ENDINGS, fold_events
from .._stored._line import SessionLine, read_line

if TYPE_CHECKING:
    from ._session_host import SessionHost

__all__ = ["blocked_reason", "deliver_moving", "hand_off", "move_under_hold", "wants_move"]

log = logging.getLogger("tether.agent")


class _MovingSession(Protocol):
    """What a hand-off reads of the session it moves (`tether.agent.Session` is one)."""

    host: SessionHost
    agent_name: str
    session_id: str
    run_id: str


#: Seconds a message waits for a hand-off under way elsewhere (another client's, or
#: one whose client died: its hold lapses after `TAKEOVER_LEASE`).
HANDOFF_WAIT = TAKEOVER_LEASE + 1.0


async def wants_move(session: _MovingSession, info: RunInfo) -> bool:
    """Whether the session's run should move to this host's deployment.

    Only forward: the host's versions must be served by a live worker, and either no
    live worker serves the run's versions, or the host's came up after them (the
    newest deployment). An old client never pulls a session back.
    """
    mine = (ENGINE_VERSION, session.host.agents.deployment)
    if (info.engine_version, info.deployment) == mine:
        return False
    conflict = declared_state(session.host.agents.get(session.agent_name)).conflict
    if conflict is not None:
        # Which declaration owns the stored value cannot be told: it stays where it is.
        log.warning("session handoff failed: session %r: %s", session.session_id, conflict)
        return False
    live = await session.host.client.live_deployments()
    if not live or (live[0].engine_version, live[0].deployment) != mine:
        served = {(d.engine_version, d.deployment) for d in live}
        return mine in served and (info.engine_version, info.deployment) not in served
    return True


async def blocked_reason(session: _MovingSession, held: Takeover) -> str | None:
    """Why the held session cannot move now (None: it is idle)."""
    stores = session.host.backend.stores
    rows = await stores.submissions.list_unsettled_submissions(
        [messages_lane(session.agent_name, session.session_id)]
    )
    if any(r.status != "queued" for r in rows):
        return "a turn is in progress"
    chunks = await session.host.client.stream(held.chain_id, EVENTS_STREAM).read_all(0)
    fold = fold_events(decode_events(chunks))
    if fold.pending:
        return "a turn waits for input"
    if fold.turn_id is not None:
        return "a turn is in progress"
    return None


async def move_under_hold(
    session: _MovingSession,
    held: Takeover,
    reason: str,
    before: Callable[[], Awaitable[None]] | None = None,
) -> str | None:
    """Move the held run to a successor on this host's deployment; its run id, or None.

    `before` runs once the session is known idle, just before the move commits (a
    message admitted there runs on the successor, after those admitted earlier). None
    when something blocks the move (the run is handed back as it was); a failure is
    logged ``session handoff failed`` and leaves the session where it was.
    """
    try:
        blocked = await blocked_reason(session, held)
        if blocked is not None:
            await held.release()
            return None
        if before is not None:
            await before()
        hooks = await (await session.host.client.get(held.run_id, follow=False)).hooks()
        inbox = min(hooks, key=lambda h: h.slot).token if hooks else None
        first = await (await session.host.client.get(held.chain_id, follow=False)).input()
        current = await (await session.host.client.get(held.run_id, follow=False)).input()
        line = read_line(current.args[4] if len(current.args) > 4 else None)
        following = SessionLine(
            generation=line.generation,
            inbox=inbox,
            moved=reason,
            # The message that moves it re-arms the idle timeout.
        )
        args = list(first.args[:4])
        return await held.continue_as_new(*args, following.to_json())
    except (ContinueAsNewError, StoreError) as exc:
        log.warning("session handoff failed: session %r: %s", session.session_id, exc)
        await held.release()
        return None
    except BaseException:
        await held.release()  # e.g. a checkpoint this release cannot read: left as it was
        raise


async def deliver_moving(
    session: _MovingSession, info: RunInfo, admit: Callable[[], Awaitable[None]]
) -> bool:
    """Move the session's run to this host's deployment and admit a message with it.

    Returns whether the message was admitted (it runs on the new run, after every
    message admitted before it). False: the caller reads the session again and
    admits the message there (another client moved it meanwhile, or a worker of its
    deployment runs it: the next message moves it).

    A run held by a take-over that does not end (its client died mid-way) is free
    again once that lease lapses: a session no worker of its own serves waits for
    that (a few seconds) rather than strand the message.
    """
    client = session.host.client
    if not client.can_take_over:
        return False
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HANDOFF_WAIT
    while True:
        held = await client.take_over(info.run_id)
        if held is not None and held.run_id != info.run_id:
            await held.release()  # it moved meanwhile: the caller admits it there
            return False
        if held is not None:
            admitted = False

            async def admit_once() -> None:
                nonlocal admitted
                await admit()
                admitted = True

            moved = await move_under_hold(session, held, "deploy", admit_once)
            return moved is not None or admitted
        latest = await client.latest(session.run_id)
        if latest.run_id != info.run_id or latest.status in TERMINAL_RUN_STATUSES:
            return False  # moved (or ended) meanwhile
        if not latest.stranded or loop.time() >= deadline:
            # A worker of its own deployment runs it; or it stays held: the caller
            # admits the message there, or refuses it (stranded).
            return False
        await asyncio.sleep(0.05)


async def hand_off(session: _MovingSession, info: RunInfo) -> bool:
    """`Session.hand_off`: move the session (its current run `info`) now, if it is idle."""
    if info.status in RUN_ENDINGS:
        return False
    if (info.engine_version, info.deployment) == (
        ENGINE_VERSION,
        session.host.agents.deployment,
    ):
        return False
    declared_state(session.host.agents.get(session.agent_name)).require()
    held = await session.host.client.take_over(info.run_id)
    if held is None:
        return False
    if held.run_id != info.run_id:
        await held.release()  # moved meanwhile
        return False
    return await move_under_hold(session, held, "deploy") is not None
