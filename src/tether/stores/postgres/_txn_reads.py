"""The statements `_Txn` reads runs, hooks and logs with (and its held enqueue)."""

from __future__ import annotations

from .. import _rows as rows
from ._functions import SERVER_NOW

__all__ = [
    "_ENQUEUE",
    "_EVENT_SELECT",
    "_HOOK_BY_TOKEN",
    "_KNOWN_LOGS",
    "_LOGS",
    "_LOGS_OF_CLAIMABLE",
    "_LOG_OF_TOKEN",
    "_MANY_RUNS_WITH_ACTIVE_STEPS",
    "_REPLAY_SELECT",
    "_RUNS_WITH_ACTIVE_STEPS",
    "_RUN_OF_TOKEN",
    "_RUN_WITH_ACTIVE_STEPS",
]

_RUNS_WITH_ACTIVE_STEPS = (
    "SELECT "
    + ", ".join("r." + c for c in rows.RUN_COLS.split(", "))
    + ", NOT EXISTS (SELECT 1 FROM tether_hooks h WHERE h.run_id = r.run_id "
    + f"AND h.{rows.HOOK_ACTIVE}), "
    + ", ".join("s." + c for c in rows.STEP_COLS.split(", "))
    + " FROM tether_runs r LEFT JOIN tether_steps s ON s.run_id = r.run_id "
    "AND s.status IN ('running', 'retrying') WHERE r.run_id {} FOR UPDATE OF r"
)
_RUN_WITH_ACTIVE_STEPS = _RUNS_WITH_ACTIVE_STEPS.format("= %s")
# One statement, race-free: an undelivered message with the same key absorbs a new one
# (the unique partial index `tether_queue_pending_key` arbitrates).
_ENQUEUE = (
    "INSERT INTO tether_queue (message_id, queue, payload, available_at, "
    "idempotency_key, created_at) VALUES (%s, %s, %s, %s, %s, %s) "
    "ON CONFLICT (queue, idempotency_key) "
    "WHERE idempotency_key IS NOT NULL AND lease_owner IS NULL "
    "DO UPDATE SET available_at = LEAST(tether_queue.available_at, excluded.available_at)"
)
# Several at once (a batch of claims), locked in one order so claimers cannot deadlock.
_MANY_RUNS_WITH_ACTIVE_STEPS = _RUNS_WITH_ACTIVE_STEPS.format("= ANY(%s)").replace(
    " FOR UPDATE", " ORDER BY r.run_id FOR UPDATE"
)
# A hook payload's reads, sent ahead with the transaction's first statements (see
# `_Txn.hook_ahead`): the hook, its run locked, the hook again under that lock, and the
# run's log (for an eager claim).
_HOOK_BY_TOKEN = f"SELECT {rows.HOOK_COLS} FROM tether_hooks WHERE token = %s"
_RUN_OF_TOKEN = _RUNS_WITH_ACTIVE_STEPS.format(
    "= (SELECT run_id FROM tether_hooks WHERE token = %s)"
)
# attrs is JSONB: read it back as text so the shared mapper parses it with orjson.
_EVENT_SELECT = rows.EVENT_COLS.replace("attrs", "attrs::text")
# A claim's log, for its replay: without the payloads no replay reads.
_REPLAY_SELECT = rows.REPLAY_EVENT_COLS.replace("attrs", "attrs::text")
# Logs, each from after the slot its claimer holds (`_Txn.held_logs`; 0: whole), the
# bound on the (run_id, slot) key, so what it holds is not even read.
_KNOWN_LOGS = (
    f"SELECT {_REPLAY_SELECT} FROM unnest(%s::text[], %s::bigint[]) AS k(known_run, known_head) "
    "JOIN tether_events ON run_id = known_run AND slot > known_head"
)
# The logs of the runs a claim will take (not ended, no live lease), read right after
# `_MANY_RUNS_WITH_ACTIVE_STEPS` locked them, in the same round trip (see `prefetch`).
_LOGS_OF_CLAIMABLE = (
    f"{_KNOWN_LOGS} WHERE known_run IN ("
    "SELECT run_id FROM tether_runs WHERE run_id = ANY(%s) AND status <> ALL(%s) "
    "AND (lease_owner IS NULL OR lease_expires_at <= %s)) ORDER BY run_id, slot"
)
_LOGS = f"{_KNOWN_LOGS} ORDER BY run_id, slot"
# The hook's run's log for an eager claim, only if the run can be claimed (not ended, no
# live lease; read under its lock): a message to a running session (a turn holds the
# lease) does not carry its whole history back. The first column says whether it was
# claimable; an unclaimable run gives one row of NULLs, a claimable one with nothing
# new one row with NULL events.
_LOG_OF_TOKEN = (
    "SELECT c.claimable, e.* FROM (SELECT EXISTS (SELECT 1 FROM tether_runs WHERE run_id = "
    "(SELECT run_id FROM tether_hooks WHERE token = %(t)s) AND status <> ALL(%(ended)s) AND "
    f"(lease_owner IS NULL OR lease_expires_at <= {SERVER_NOW})) AS claimable) AS c "
    f"LEFT JOIN LATERAL (SELECT {_REPLAY_SELECT} FROM tether_events "
    "WHERE c.claimable AND run_id = (SELECT run_id FROM tether_hooks WHERE token = %(t)s) "
    "AND slot > COALESCE((%(k)s::jsonb ->> (SELECT run_id FROM tether_hooks WHERE token = "
    "%(t)s))::bigint, 0)) AS e ON true ORDER BY e.slot"
)
