"""The labels of session runs: who a session belongs to, in clear, for listings.

A session's run carries ``tether.agent`` (the agent's name) and, when it has one,
``tether.owner`` (the owner, a tenant on the server): `AgentHost.list_sessions` asks
the store for the runs carrying them, so listing one owner's sessions reads those
sessions only, never another owner's. A chain's later runs (a hand-off, a compaction,
a reset) keep them. Keys starting ``tether.`` are tether's: users' own session labels
may not use that prefix.

Sessions opened before labels existed have none: `label_sessions` (which ``tether
migrate`` runs) reads their inputs and labels them, once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..._validate import check_labels
from ...durable import Client
from ...errors import IntegrityError, InvalidInputError, NotFoundError, SerializationError
from ...stores import Backend
from .._records._keys import SESSION_WORKFLOW

__all__ = [
    "AGENT_LABEL",
    "OWNER_LABEL",
    "RESERVED_PREFIX",
    "label_sessions",
    "session_labels",
    "user_labels",
]

#: The prefix of tether's own labels.
RESERVED_PREFIX = "tether."
#: The label naming a session's agent.
AGENT_LABEL = "tether.agent"
#: The label naming a session's owner (absent when it has none).
OWNER_LABEL = "tether.owner"


def user_labels(labels: Mapping[str, str] | None) -> dict[str, str]:
    """A user's session labels, checked, none of them under the reserved prefix.

    Raises:
        InvalidInputError: An invalid label, or a key starting ``tether.``.
    """
    checked = check_labels(labels, what="session labels")
    for key in checked:
        if key.startswith(RESERVED_PREFIX):
            raise InvalidInputError(
                "label key",
                key,
                f"keys starting {RESERVED_PREFIX!r} are tether's own",
                hint="pick another prefix",
            )
    return checked


def session_labels(agent: str | None = None, owner: str | None = None) -> dict[str, str]:
    """The labels of a session of `agent` and `owner` (or the filter for them).

    Raises:
        InvalidInputError: The owner cannot be a label value (empty, a NUL character,
            over 512 UTF-8 bytes).
    """
    # The owner first: a listing's first label drives its index scan (`list_runs`), and
    # an owner has far fewer sessions than an agent.
    labels: dict[str, str] = {}
    if owner is not None:
        labels[OWNER_LABEL] = owner
    if agent is not None:
        labels[AGENT_LABEL] = agent
    return check_labels(labels, what="session")


async def label_sessions(
    backend: Backend, *, on_progress: Callable[[int], None] | None = None
) -> int:
    """Label the session runs that have no labels yet (opened before labels existed).

    Reads each unlabeled session run's input (with the backend's keys when it
    encrypts) and gives the run its ``tether.agent`` and ``tether.owner`` labels.
    Idempotent: labeled runs are left as they are, and running it again labels
    nothing new. Runs whose input is unreadable (erased, or its content deleted) are
    left unlabeled: who they belonged to is not known any more.

    Args:
        backend: The open backend.
        on_progress: Called with how many session runs it has looked at so far, after
            each page of them (``tether migrate`` draws it on a terminal).

    Returns:
        How many runs it labeled.
    """
    client = Client(backend)
    labeled = seen = 0
    cursor: str | None = None
    while True:
        page = await client.page_runs(workflow=SESSION_WORKFLOW, limit=200, cursor=cursor)
        for run in page.items:
            if AGENT_LABEL in run.labels:
                continue
            labels = await _labels_of(client, run.run_id)
            if labels is not None:
                await client.label_run(run.run_id, labels)
                labeled += 1
        seen += len(page.items)
        if on_progress is not None:
            on_progress(seen)
        cursor = page.next_cursor
        if cursor is None:
            return labeled


async def _labels_of(client: Client, run_id: str) -> dict[str, str] | None:
    try:
        args: tuple[Any, ...] = (await (await client.get(run_id, follow=False)).input()).args
    except (IntegrityError, NotFoundError, SerializationError):  # erased, or unreadable
        return None
    if len(args) < 2 or not isinstance(args[0], str):
        return None
    owner = args[2] if len(args) > 2 else None
    if owner is not None and not isinstance(owner, str):
        return None
    try:
        return session_labels(args[0], owner)
    except InvalidInputError:
        return None
