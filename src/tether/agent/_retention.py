"""Retention ``0``: a session's content is deleted when it ends, and its tasks' with it.

What goes: the transcript's records, the texts (payloads) of its messages and commands
in the ledger, the session run's step inputs, outputs, errors and event payloads, and
the same for every sub-agent task it delegated (found in its transcript), recursively.
Ids, timestamps, statuses, outcomes and step names stay. On an encrypted store the
session's data keys are destroyed first (`_erasure`): what is not deleted, or was
copied elsewhere, cannot be read either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..durable import Client
from ..errors import ContentDeletedError, NotFoundError
from ._entries import AssistantEntry
from ._erasure import SessionErasure, shred_session_keys
from ._keys import (
    commands_lane,
    conversation_path,
    messages_lane,
    task_run_id,
    task_session_id,
)
from ._transcript import Transcript

if TYPE_CHECKING:
    from ..stores import Stores
    from ._agent import Agent

__all__ = ["purge_session"]


async def purge_session(
    stores: Stores,
    client: Client,
    agent: Agent,
    session_id: str,
    run_id: str,
    *,
    keep_input: bool = True,
    shred: bool = False,
) -> SessionErasure | None:
    """Delete the content of a session (or task) and of the tasks it delegated.

    A session run's input is its identity (agent, id, owner, retention) and stays
    (`keep_input`) unless its keys are shredded; a task run's input holds its task's
    text and goes. With `shred` (a session, not a task: tasks share its keys) the data
    keys are destroyed first, and the erasure is returned.
    """
    path = conversation_path(agent.name, session_id)
    try:
        entries: list[Any] = await Transcript(stores, path).entries()
    except ContentDeletedError:
        # Shredded by an earlier attempt: its tasks' content went with its keys.
        entries = []
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
    erasure = (
        await shred_session_keys(
            stores, agent_name=agent.name, session_id=session_id, run_id=run_id
        )
        if shred
        else None
    )
    await stores.conversations.purge(path)
    await stores.submissions.redact_submissions(
        [messages_lane(agent.name, session_id), commands_lane(agent.name, session_id)]
    )
    try:
        handle = await client.get(run_id)
    except NotFoundError:
        return erasure
    await handle.purge_content(keep_input=keep_input)
    return erasure
