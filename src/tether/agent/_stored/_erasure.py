"""Erasing a session: destroy its data keys (crypto-shredding), then delete its content.

The keys go first, in one keyring transaction: once it commits, everything the session
wrote is unreadable everywhere (backups of the data included; backups that hold the
keyring too once the next key epoch completed, see `stores.new_key_epoch`), so a process killed
while the content is being deleted leaves the session erased, never half readable.
Without encryption only the deletion happens.

A session's sub-agent tasks are child runs of its run: they share its key scope, so
shredding it shreds them too; their content is then deleted with the session's (see
`_retention`).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

import orjson

from ...stores import Stores, lane_scope, run_scope, stream_scope
from .._records._keys import commands_lane, conversation_path, messages_lane

__all__ = [
    "ERASED_OWNER_LABEL",
    "SessionErasure",
    "erased_note",
    "owner_digest",
    "session_scopes",
    "shred_session_keys",
]

#: The label a session's run keeps once its keys are destroyed (its identity with them,
#: owner and labels included): `owner_digest` of who it belonged to, so its owner can
#: still be told it expired while nobody can read whose it was.
ERASED_OWNER_LABEL = "tether.erased_owner"


def owner_digest(session_id: str, owner: str | None) -> str:
    """A one-way digest of a session's owner, salted with the session's id.

    The salt makes the digests of one owner's sessions differ: the store does not tell
    which erased sessions shared an owner.
    """
    return hashlib.sha256(orjson.dumps(["tether.owner", session_id, owner])).hexdigest()


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

    Its run's (its tasks' runs and what its steps and its clients wrote share it), and
    those of writes made outside any run: its ledger lanes' and its transcript's.
    """
    return (
        run_scope(run_id),
        lane_scope(messages_lane(agent_name, session_id)),
        lane_scope(commands_lane(agent_name, session_id)),
        stream_scope(path),
    )


async def shred_session_keys(
    stores: Stores, *, agent_name: str, session_id: str, run_id: str
) -> SessionErasure:
    """Destroy the session's data keys when the store encrypts (else only say when)."""
    path = conversation_path(agent_name, session_id)
    scopes = session_scopes(agent_name, session_id, run_id, path)
    keys = stores.keys
    if keys is None:
        return SessionErasure(
            session_id=session_id, scopes=(), erased_at=time.time(), crypto_shredded=False
        )
    note = f"session {session_id!r} of agent {agent_name!r} (run {run_id!r}, stream {path!r})"
    records = await keys.erase(scopes, note=note)
    return SessionErasure(
        session_id=session_id,
        scopes=scopes,
        erased_at=records[0].erased_at,
        crypto_shredded=True,
    )


async def erased_note(stores: Stores, run_id: str) -> str | None:
    """Why a session's content is unreadable, if its keys were erased; else None."""
    keys = stores.keys
    if keys is None:
        return None
    erasure = await keys.erasure(run_scope(run_id))
    if erasure is None:
        return None
    return f"erased at {erasure.erased_at:.3f} ({erasure.note})"
