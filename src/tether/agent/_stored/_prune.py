"""The retention sweep of sessions: a session past the retention period goes whole.

The durable sweep (`tether.durable.prune`) lists ended runs; a session is a chain of
runs, and what it wrote lives beside them too (transcripts, message texts in the ledger,
attachments). `SessionPruner` is an agent host's `Registry.pruner`: a listed session run
deletes its session as retention ``0`` does when the session ends (`purge_session`,
the data keys shredded first on an encrypted store, the erasure recorded); a listed
sub-agent task deletes its task. Ids, statuses, timestamps and the ledger's retained
receipts stay.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...durable import Client, Pruned, PrunedKind
from ...errors import (
    ContentDeletedError,
    IntegrityError,
    InvalidInputError,
    NotFoundError,
    SerializationError,
)
from ...stores import Backend, RunRecord, chain_of, successor_run_id
from .._records._keys import SESSION_WORKFLOW, TASK_WORKFLOW
from ._retention import PRUNED_LABEL, purge_session

if TYPE_CHECKING:
    from .._agent import Agent
    from .._tools._tools import Tool

__all__ = ["SessionPruner"]


_SESSION_RUN = "session:"
_TASK_RUN = "task:"


class _Unserved:
    """An agent no longer served (or a sweep without agents, `tether prune`).

    Its sub-agents' tasks are not found through its tools: each task is a child run
    of its session's run, listed by the sweep and deleted on its own.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def tool(self, name: str) -> Tool | None:
        return None


class SessionPruner:
    """Deletes ended sessions and sub-agent tasks whole for the retention sweep.

    Args:
        agents: The served agent of a name, or None (then its tasks are deleted as the
            sweep lists them).
    """

    def __init__(self, agents: Callable[[str], Agent | None] = lambda name: None) -> None:
        self._agents = agents

    async def __call__(self, backend: Backend, run: RunRecord, *, dry_run: bool) -> Pruned | None:
        """Delete `run`'s session (or task), or leave a run of another workflow (None)."""
        chain = chain_of(run)
        kind: PrunedKind
        if run.workflow_name == SESSION_WORKFLOW and chain.startswith(_SESSION_RUN):
            session_id, kind = chain.removeprefix(_SESSION_RUN), "session"
        elif run.workflow_name == TASK_WORKFLOW and chain.startswith(_TASK_RUN):
            session_id, kind = chain.removeprefix(_TASK_RUN), "run"
        else:
            return None
        ident = session_id if kind == "session" else chain
        if dry_run:
            return Pruned(kind=kind, id=ident)
        client = Client(backend)
        name = await _agent_name(client, chain)
        marked: dict[str, bool] = {}
        if name is None:
            # Its identity is gone: an encrypted session whose keys an earlier sweep cut
            # short shredded (or a task its session's purge took). What is left of it is
            # its runs' own content, the latest last.
            latest = await client.latest(chain)
            first = False
            for generation in range(latest.generation + 1):
                handle = await client.get(successor_run_id(chain, generation), follow=False)
                first = await handle.purge_content()
            return Pruned(kind=kind, id=ident, first=first)
        agent = self._agents(name) or _Unserved(name)
        if kind == "session":
            # Before the deletion: a session read while it goes is told why.
            with contextlib.suppress(InvalidInputError):
                await client.label_run(chain, {PRUNED_LABEL: f"{time.time():.3f}"})
        # A session keeps its first run's input (its identity) unless its keys go; a
        # task's input is its task's text. Tasks share their session's keys.
        session = kind == "session"
        await purge_session(
            backend.stores, client, agent, session_id, chain,
            keep_input=session, shred=session, marked=marked,
        )  # fmt: skip
        # The chain's latest run is purged last: of sweeps at once (or a sweep going on
        # from one killed midway), the one that purged it first counts the session.
        last = list(marked.values())[-1] if marked else False
        return Pruned(kind=kind, id=ident, first=last)


async def _agent_name(client: Client, run_id: str) -> str | None:
    """The agent of a session or task run, from its first run's input (None: gone)."""
    try:
        args = (await (await client.get(run_id, follow=False)).input()).args
    except (NotFoundError, ContentDeletedError, IntegrityError, SerializationError):
        return None
    return args[0] if args and isinstance(args[0], str) else None
