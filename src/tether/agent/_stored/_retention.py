"""Retention ``0``: a session's content is deleted when it ends, and its tasks' with it.

What goes: the transcript's records, the texts (payloads) of its messages and commands
in the ledger, the session run's step inputs, outputs, errors and event payloads, and
the same for every sub-agent task it delegated (found in its transcript), recursively.
Ids, timestamps, statuses, outcomes and step names stay. On an encrypted store the
session's data keys are destroyed first (`_erasure`): what is not deleted, or was
copied elsewhere, cannot be read either.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Protocol

from ...durable import Client
from ...errors import (
    ContentDeletedError,
    IntegrityError,
    InvalidInputError,
    NotFoundError,
    SerializationError,
    WorkflowError,
)
from ...stores import TERMINAL_RUN_STATUSES, successor_run_id
from .._records._attachments import attachments_path
from .._records._entries import AssistantEntry
from .._records._keys import (
    commands_lane,
    conversation_path,
    messages_lane,
    task_run_id,
    task_session_id,
)
from .._records._state import RUN_ENDINGS
from .._tools._oauth import session_owner
from ._erasure import (
    ERASED_OWNER_LABEL,
    SessionErasure,
    erased_note,
    owner_digest,
    shred_session_keys,
)
from ._line import read_line
from ._transcript import Transcript

if TYPE_CHECKING:
    from ...durable import RunHandle, RunInfo
    from ...stores import Stores
    from .._agent import Agent
    from .._tools._tools import Tool

__all__ = ["PRUNED_LABEL", "check_readable", "deletion_of", "erase_session", "purge_session"]

#: The label a session's run gets as the retention sweep deletes it: when (Unix
#: seconds). Its readers say why its content is gone (`deletion_of`).
PRUNED_LABEL = "tether.pruned_at"


class _Purged(Protocol):
    """The agent of the session being purged: its name, and its tools (sub-agents)."""

    @property
    def name(self) -> str: ...

    def tool(self, name: str) -> Tool | None: ...


#: Seconds an erasure waits for the session's run to stop before it purges.
ERASE_WAIT = 30.0


async def erase_session(
    client: Client, stores: Stores, agent: Agent, session_id: str, run_id: str, current: RunInfo
) -> SessionErasure:
    """Erase session `run_id`: stop its run (`current`, its chain's latest), then purge it.

    While a worker holds the run the cancel is a request, obeyed at its next commit:
    the erasure waits for the run to end so nothing a step still running writes lands
    after the purge (and stops its tasks with it).
    """
    if current.status not in TERMINAL_RUN_STATUSES:
        await client.cancel(current.run_id, "session erased")
        with contextlib.suppress(WorkflowError):
            await (await client.get(current.run_id)).result(timeout=ERASE_WAIT)
    erasure = await purge_session(stores, client, agent, session_id, run_id, shred=True)
    assert erasure is not None
    return erasure


async def purge_session(
    stores: Stores,
    client: Client,
    agent: _Purged,
    session_id: str,
    run_id: str,
    *,
    keep_input: bool = True,
    shred: bool = False,
    marked: dict[str, bool] | None = None,
) -> SessionErasure | None:
    """Delete the content of a session (or task) and of the tasks it delegated.

    A session run's input is its identity (agent, id, owner, retention) and stays
    (`keep_input`) unless its keys are shredded; a task run's input holds its task's
    text and goes. With `shred` (a session, not a task: tasks share its keys) the data
    keys are destroyed first, and the erasure is returned. `marked` gets each of the
    session's runs in generation order, with whether this was its first purge.
    """
    # A session is a chain of runs, with a transcript per generation (clear, reset,
    # compaction): every one of them goes.
    runs = [run_id]
    generations = 0
    try:
        latest = await client.latest(run_id)
        runs = [successor_run_id(latest.chain_id, g) for g in range(latest.generation + 1)]
        last = await (await client.get(latest.run_id, follow=False)).input()
        line = last.args[4] if len(last.args) > 4 else None
        generations = read_line(line).generation
    except (NotFoundError, ContentDeletedError):
        pass
    paths = [conversation_path(agent.name, session_id, g) for g in range(generations + 1)]
    entries: list[Any] = []
    for path in paths:
        try:
            entries += await Transcript(stores, path).entries()
        except ContentDeletedError:
            # Shredded by an earlier attempt: its tasks' content went with its keys.
            pass
    for entry in entries:
        if not isinstance(entry, AssistantEntry):
            continue
        for call in entry.tool_calls:
            tool = agent.tool(call.name)
            sub = getattr(tool.fn, "__tether_agent__", None) if tool is not None else None
            if sub is None:
                continue
            task_session = task_session_id(session_id, call.call_id)
            await purge_session(
                stores, client, sub, task_session, task_run_id(task_session), keep_input=False
            )
    # Shredding destroys the owner with the session's identity (an encrypted store).
    crypto = shred and stores.keys is not None
    digest = await _owner_digest(client, session_id, run_id) if crypto else None
    if digest is not None:
        # Before the keys go: a purge cut short and repeated finds it here (unless the
        # run holds as many labels as it may: then only after the purge, below).
        with contextlib.suppress(InvalidInputError):
            await client.label_run(run_id, {ERASED_OWNER_LABEL: digest})
    erasure = (
        await shred_session_keys(
            stores, agent_name=agent.name, session_id=session_id, run_id=run_id
        )
        if shred
        else None
    )
    for path in paths:
        await stores.conversations.purge(path)
    await stores.attachments.purge(attachments_path(agent.name, session_id))
    if stores.credentials is not None:
        # Its OAuth tokens (a principal's stay: they serve the principal's other sessions).
        await stores.credentials.purge_credentials(session_owner(agent.name, session_id))
    await stores.submissions.redact_submissions(
        [messages_lane(agent.name, session_id), commands_lane(agent.name, session_id)]
    )
    for each in runs:
        try:
            handle = await client.get(each, follow=False)
        except NotFoundError:
            continue
        # The first run's input is the session's identity; later ones carry content. Once
        # the keys are shredded the identity is unreadable: it goes too, and with it the
        # run's labels, which name the owner in clear (`purge_content` deletes them with
        # the input, in the same write).
        shredded = erasure is not None and erasure.crypto_shredded
        first = await handle.purge_content(
            keep_input=keep_input and each == run_id and not shredded
        )
        if marked is not None:
            marked[each] = first
    if digest is not None and erasure is not None and erasure.crypto_shredded:
        # The owner went with the identity: the run keeps its digest in place of it.
        await client.label_run(run_id, {ERASED_OWNER_LABEL: digest})
    return erasure


async def deletion_of(handle: RunHandle) -> str | None:
    """Why an ended session's content is gone (`handle`: its first run); None if kept."""
    args = (await handle.input()).args
    if (args[3] if len(args) > 3 else "default") == 0:
        return "ended under retention=0"
    if PRUNED_LABEL in (await handle.info()).labels:
        return "ended longer ago than the store's retention period"
    return None


async def check_readable(
    stores: Stores, session_id: str, run_id: str, handle: RunHandle, info: RunInfo
) -> RunInfo:
    """`info` (the session's current run; `handle`: its first) if its content is readable.

    Raises:
        ContentDeletedError: It was erased, or it ended and retention deleted it.
    """
    erased = await erased_note(stores, run_id)
    if erased is not None:
        raise ContentDeletedError(
            f"session {session_id!r} was {erased}: its content is unreadable, "
            "its ids, timestamps and statuses remain"
        )
    if info.status not in RUN_ENDINGS:
        return info
    why = await deletion_of(handle)
    if why is not None:
        raise ContentDeletedError(
            f"session {session_id!r} {why}: its transcript, "
            "message texts, events and step contents were deleted (ids, timestamps, "
            "statuses and step names remain)"
        )
    return info


async def _owner_digest(client: Client, session_id: str, run_id: str) -> str | None:
    """The digest of the session's owner: from its run's input, or its erased label.

    None when neither tells (not a session run, or both went in a purge cut short).
    """
    try:
        handle = await client.get(run_id, follow=False)
    except NotFoundError:
        return None
    try:
        args = (await handle.input()).args
    except (NotFoundError, IntegrityError, SerializationError):  # erased, or unreadable
        args = ()
    if len(args) >= 2:
        owner = args[2] if len(args) > 2 else None
        return owner_digest(session_id, owner if isinstance(owner, str) else None)
    return (await handle.info()).labels.get(ERASED_OWNER_LABEL)
