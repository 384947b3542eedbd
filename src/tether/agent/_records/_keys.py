"""The names a session's records go by: runs, transcript, ledger lanes, submissions, turns."""

from __future__ import annotations

from ...stores import make_session_key

__all__ = [
    "COMMANDS_LANE",
    "SESSION_WORKFLOW",
    "TASK_WORKFLOW",
    "answer_id",
    "cancel_id",
    "clear_id",
    "close_id",
    "commands_lane",
    "conversation_path",
    "messages_lane",
    "session_run_id",
    "task_run_id",
    "task_session_id",
    "task_submission_id",
    "turn_id_of",
]

#: The workflow name every session run records.
SESSION_WORKFLOW = "tether.agent.session"
#: The workflow name of a sub-agent task (a child run of the calling session).
TASK_WORKFLOW = "tether.agent.task"

#: The ledger lane (its `session` part) of a session's commands: answers, cancel, close.
COMMANDS_LANE = "commands"


def session_run_id(session_id: str) -> str:
    """The run id of a session's run."""
    return f"session:{session_id}"


def task_session_id(parent_session_id: str, call_id: str) -> str:
    """The session a sub-agent runs one delegated task in."""
    return f"{parent_session_id}.{call_id}"


def task_run_id(task_session: str) -> str:
    """The run id of a sub-agent task (a child run of the calling session)."""
    return f"task:{task_session}"


def task_submission_id(task_session: str) -> str:
    """The submission carrying a sub-agent task's text."""
    return f"{task_session}:task"


def conversation_path(agent_name: str, session_id: str, generation: int = 0) -> str:
    """The conversation stream holding a session's transcript.

    `generation` counts the fresh transcripts the session started (`Session.clear`,
    `Session.reset`, a compaction): 0 is the first.
    """
    base = f"agents/{agent_name}/{session_id}"
    return base if generation == 0 else f"{base}~{generation}"


def messages_lane(agent_name: str, session_id: str) -> str:
    """The ledger lane of a session's messages (one turn at a time, in order)."""
    return make_session_key(agent_name, session_id)


def commands_lane(agent_name: str, session_id: str) -> str:
    """The ledger lane of a session's commands (consumed in any order)."""
    return make_session_key(agent_name, session_id, session=COMMANDS_LANE)


def answer_id(session_id: str, request_id: str) -> str:
    """The submission of the answer to one input request (one answer each, ever)."""
    return f"{session_id}:answer:{request_id}"


def cancel_id(session_id: str, turn_id: str) -> str:
    """The submission asking to cancel one turn."""
    return f"{session_id}:cancel:{turn_id}"


def close_id(session_id: str, generation: int = 0) -> str:
    """The submission asking to close the session (one per transcript generation)."""
    return f"{session_id}:close" if generation == 0 else f"{session_id}:close~{generation}"


def clear_id(session_id: str, generation: int) -> str:
    """The submission asking to clear transcript generation `generation`."""
    return f"{session_id}:clear~{generation}"


def turn_id_of(submission_id: str) -> str:
    """The turn a message begins (also its ledger attempt: one per turn)."""
    return f"turn_{submission_id}"
