"""The inbox sweep: admitted messages that nothing would take are found, said and rung.

A message is admitted and its session's inbox rung in one transaction, or, before the
session's run opened its inbox, admitted first and rung right after: either way the
run is woken to read its ledger. Should a message still wait with nothing that will
wake its run (`SessionProgress` ``stuck``), the sweep of every agent host's worker
finds it among the sessions' oldest waiting messages, logs it (``tether.agent``,
warning: the session, the message, its age, why) and rings the inbox again. A ring
carries nothing the run trusts (it reads the ledger), so a ring too many costs a look
at the ledger and nothing else, and several workers sweeping at once are harmless.

A session whose run ended with messages waiting (one admitted as the run failed, say:
`Session.send` reads the run, then admits), or held by a turn that the run's end left
unsettled, can take them no more: the sweep settles
them ``failed``, with the reason, and logs it. Settling is idempotent, so two sweeps
at once settle each message once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Collection
from typing import Protocol

from ...errors import NotFoundError, StoreError
from ...stores import Stores
from ._mail import settle_lanes
from ._progress import SessionProgress

__all__ = ["DEFAULT_SWEEP_INTERVAL", "InboxSweep"]

log = logging.getLogger("tether.agent")

#: Seconds between two sweeps of a worker (`AgentHost.worker(inbox_sweep=...)`).
DEFAULT_SWEEP_INTERVAL = 30.0
#: Seconds between two warnings about the same session.
_REPEAT_AFTER = 600.0


class _Progress(Protocol):
    def __call__(self, session_id: str, *, stuck_after: float) -> Awaitable[SessionProgress]: ...


class _Ring(Protocol):
    def __call__(self, agent_name: str, session_id: str) -> Awaitable[None]: ...


class InboxSweep:
    """Finds sessions whose admitted messages nothing will take, says so, rings them.

    Args:
        stores: The host's stores.
        agents: The names of the agents whose sessions this sweep looks after.
        progress: A session's `SessionProgress` by id (`AgentHost.session_progress`).
        ring: Rings a session's inbox (agent name, session id).
        interval: Seconds between sweeps; a message is looked at once it has waited
            that long.
    """

    def __init__(
        self,
        stores: Stores,
        agents: Collection[str],
        progress: _Progress,
        ring: _Ring,
        *,
        interval: float = DEFAULT_SWEEP_INTERVAL,
    ) -> None:
        self._stores = stores
        self._agents = frozenset(agents)
        self._progress = progress
        self._ring = ring
        self.interval = interval
        self._said: dict[str, float] = {}

    async def sweep(self) -> list[str]:
        """Look once; returns the sessions whose inbox was rung."""
        now = time.time()
        submissions = self._stores.submissions
        # The queued heads, and the messages a turn took (``running``): a run that ended
        # while its turn held one settles it no more.
        heads = await submissions.list_runnable_submissions()
        queued = {h.instance_id for h in heads}
        heads += [
            r for r in await submissions.list_running_submissions() if r.instance_id not in queued
        ]
        rung: list[str] = []
        for head in heads:
            if head.agent_name not in self._agents or now - head.accepted_at < self.interval:
                continue
            session_id = head.instance_id
            try:
                # It waited `interval` already: no grace for a ring on its way.
                progress = await self._progress(session_id, stuck_after=0.0)
            except NotFoundError:
                continue  # not a session of this host (or erased meanwhile)
            if progress.state != "stuck":
                continue
            if self._say(session_id, now):
                log.warning(
                    "session %r: message %r has waited %.0f s and nothing would take it (%s)%s",
                    session_id,
                    head.submission_id,
                    now - head.accepted_at,
                    progress.reason,
                    "; settling it failed" if progress.run.ended else "; ringing its inbox",
                )
            if progress.run.ended:
                reason = (
                    f"the session's run ended ({progress.run.status}) before it took the "
                    "message; reset the session and send it again"
                )
                await settle_lanes(self._stores, head.agent_name, session_id, reason)
            elif progress.run.hooks:
                await self._ring(head.agent_name, session_id)
                rung.append(session_id)
        return rung

    def _say(self, session_id: str, now: float) -> bool:
        last = self._said.get(session_id)
        if last is not None and now - last < _REPEAT_AFTER:
            return False
        if len(self._said) > 10_000:
            self._said.clear()
        self._said[session_id] = now
        return True

    async def run(self) -> None:
        """Sweep every `interval` seconds until cancelled (a worker's background task)."""
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except StoreError as exc:
                # An outage or a closed store: the next sweep looks again.
                log.debug("inbox sweep skipped: %s", exc)
