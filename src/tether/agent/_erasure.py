"""Erasing a session: destroy its data keys (crypto-shredding), then delete its content.

The keys go first, in one keyring transaction: once it commits, everything the session
wrote is unreadable everywhere (backups of the data included), so a process killed
while the content is being deleted leaves the session erased, never half readable.
Without encryption only the deletion happens.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..stores import Stores, lane_scope, make_session_key, run_scope, stream_scope

__all__ = ["SessionErasure", "erase_session_content", "session_scopes"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionErasure:
    """What erasing a session did.

    Attributes:
        session_id: The session.
        scopes: The key scopes whose data keys were destroyed (empty without encryption).
        erased_at: When (Unix seconds).
        crypto_shredded: Whether data keys were destroyed (the store is encrypted).
    """

    session_id: str
    scopes: tuple[str, ...]
    erased_at: float
    crypto_shredded: bool


def session_scopes(agent_name: str, session_id: str, run_id: str, path: str) -> tuple[str, ...]:
    """The scopes a session's content can be under.

    Its run's (sub-agent runs and what its steps wrote share it), and those of writes
    made outside any run.
    """
    return (
        run_scope(run_id),
        lane_scope(make_session_key(agent_name, session_id)),
        stream_scope(path),
    )


async def erase_session_content(
    stores: Stores, *, agent_name: str, session_id: str, run_id: str, path: str
) -> SessionErasure:
    """Destroy the session's data keys (when encrypted), then purge its content."""
    scopes = session_scopes(agent_name, session_id, run_id, path)
    keys = stores.keys
    at = time.time()
    if keys is not None:
        note = f"session {session_id!r} of agent {agent_name!r} (run {run_id!r}, stream {path!r})"
        records = await keys.erase(scopes, note=note)
        at = records[0].erased_at
    await stores.conversations.purge(path)
    await stores.workflow.purge_run_content(run_id)
    return SessionErasure(
        session_id=session_id,
        scopes=scopes if keys is not None else (),
        erased_at=at,
        crypto_shredded=keys is not None,
    )
