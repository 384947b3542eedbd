"""The statements that stage damaged rows in a SQL store, for the contract suites.

`tether.testing.contract.StoredRowAccess` on SQLite and Postgres runs them: a
submission whose payload no longer parses, and a checkpoint cut off halfway through
its last piece, as a crash or a failing disk leaves them.
"""

from __future__ import annotations

__all__ = ["UNPARSEABLE_PAYLOAD", "damage_submission_statement", "tear_checkpoint_statement"]

#: Bytes no JSON reader accepts, stored in place of a submission's payload.
UNPARSEABLE_PAYLOAD = b"\xff{damaged"


def damage_submission_statement(mark: str) -> str:
    """The update storing `UNPARSEABLE_PAYLOAD` (values: payload, submission id)."""
    return f"UPDATE tether_agent_submissions SET payload = {mark} WHERE submission_id = {mark}"


def tear_checkpoint_statement(mark: str) -> str:
    """The update keeping the first half of a checkpoint's last piece (values: path twice)."""
    return (
        "UPDATE tether_conversation_checkpoint_chunks SET data = substr(data, 1, "
        f"length(data) / 2) WHERE path = {mark} AND chunk_index = (SELECT max(chunk_index) "
        f"FROM tether_conversation_checkpoint_chunks WHERE path = {mark})"
    )
