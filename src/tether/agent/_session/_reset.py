"""Resetting a session: stop its run, then open its id again as a new session.

The new session is the chain's next run, on the resetting client's deployment, with the
next transcript generation; its line names the run it follows (its predecessor). Under
retention ``0`` the session that ended is deleted first, as a close or a failure deletes
it (`purge_session`): its transcripts, message texts, events and step contents go, and
the new session's model is given no history of it.

Until the new run announces itself (``session.started`` naming its predecessor), the
events on the stream are the ended session's: the new session's state is read as
having no turn (`fold_events`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ...durable import Client, RunInfo
from .._records._state import RUN_ENDINGS
from .._registry import SESSION_WORKFLOW
from .._stored._line import Predecessor, SessionLine, predecessor_text
from .._stored._retention import purge_session

if TYPE_CHECKING:
    from ...stores import Stores
    from .._agent import Agent

__all__ = ["open_again", "predecessor_of", "stop_run"]

#: Seconds between two cancels of a run that has not stopped yet.
_CANCEL_EVERY = 0.05


async def stop_run(
    client: Client,
    session_id: str,
    current: Callable[[], Awaitable[tuple[RunInfo, SessionLine]]],
    principal: str | None,
    timeout: float,
) -> tuple[RunInfo, SessionLine]:
    """Cancel the session's current run until it ended; the ended run and its line.

    Raises:
        TimeoutError: It did not end within `timeout` seconds (its cancel stands).
    """
    info, line = await current()
    if info.status in RUN_ENDINGS:
        return info, line
    reason = "session reset" + (f" by {principal}" if principal else "")
    deadline = time.monotonic() + timeout
    while info.status not in RUN_ENDINGS:
        # Again each round: a run whose dead worker's lease was still live is cancelled
        # once that lease lapses.
        await client.cancel(info.run_id, reason)
        if time.monotonic() >= deadline:
            raise TimeoutError(f"session {session_id!r}: its run did not stop within {timeout}s")
        await asyncio.sleep(_CANCEL_EVERY)
        info, line = await current()
    return info, line


async def open_again(
    client: Client,
    stores: Stores,
    agent: Callable[[], Agent],
    session_id: str,
    chain_id: str,
    ended: RunInfo,
    line: SessionLine,
) -> None:
    """Start the session's next run after `ended` (its chain's latest run, `line` its line).

    The new run gets the session's identity (agent, id, owner, retention) from the
    chain's first run. A session under retention ``0`` is purged before: nothing runs
    in its chain now (`ended` ended, the next run does not exist yet), so nothing it
    held is written again after the purge; a reset that stops between the two purges
    again when it is repeated.
    """
    first = await (await client.get(chain_id, follow=False)).input()
    args = list(first.args[:4])
    retention = args[3] if len(args) > 3 else "default"
    if retention == 0:
        await purge_session(stores, client, agent(), session_id, chain_id)
    following = SessionLine(
        generation=line.generation + 1,
        predecessor=ended.run_id,
        predecessor_generation=line.generation,
    )
    await client.restart(chain_id, SESSION_WORKFLOW, *args, following.to_json())


async def predecessor_of(
    stores: Stores, agent_name: str, session_id: str, line: SessionLine, last: int, timeout: float
) -> Predecessor | None:
    """The session a run with `line` follows after a reset (None: it follows none)."""
    if line.predecessor is None:
        return None
    text = await predecessor_text(
        stores, agent_name, session_id, line.predecessor_generation, last=last, timeout=timeout
    )
    return Predecessor(run_id=line.predecessor, text=text)
