"""Forking a session: a new session seeded from another's history up to a turn's end.

A session run's journal cannot be copied (its steps hold the run's transcript producer
and inbox token: a replayed copy would write into the original). A fork is a new
session instead, a fresh run of the session workflow created by one store transaction
(`durable.start_seeded`) together with its copies:

- its transcript (generation 0) holds the original's current transcript records up to
  the end of the fork's last turn, appended by a producer of the fork's own
  (``fork:<id>``) that the new run fences when it takes the transcript over;
- its event stream opens with the original's events up to that turn's end, at the same
  indexes (a prefix: nothing is re-indexed); the fork's own events follow, from its
  ``session.started``;
- its ledger holds a settled receipt for each message of the forked turns, under the
  fork's id with the same client message id, so a retried send of one of them to the
  fork admits nothing new;
- its declared state is what those records say (state lives in the transcript);
- its attachment stream holds a copy of each file the kept messages carry, under the
  same id (sealed under the fork's key on an encrypted store), so the fork reads its
  files as its own and erasing either session leaves the other's whole. The copies are
  written before the transaction (an attachment put is idempotent: a fork asked again
  after a crash puts the same bytes again).

The fork point is always a turn's end, so a tool call and its result are never
separated: `at` counts the turns kept, and an event index (`at_event`) inside a turn
rounds up to the end of that turn. The original is only read.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from ..._ids import new_ulid
from ...durable import RunInfo, start_seeded
from ...errors import (
    ConfigurationError,
    ConflictError,
    ContentDeletedError,
    FencedError,
    NotFoundError,
    SessionForkError,
)
from ...stores import (
    OFFSET_START,
    AdmitSubmission,
    AppendRecords,
    AppendStream,
    ResolveSubmissions,
    StoreWrite,
    StreamIdentity,
    SubmissionInput,
    SubmissionOutcome,
    data_scope,
    run_scope,
)
from .._records._attachments import attachments_path, read_attachment
from .._records._entries import ToolResultEntry, TurnEndEntry, UserEntry, entry_json
from .._records._event_data import (
    SessionMoved,
    SessionStarted,
    TurnCancelled,
    TurnCompleted,
    TurnFailed,
)
from .._records._events import EVENTS_STREAM, decode_events
from .._records._keys import conversation_path, session_run_id
from .._registry import SESSION_WORKFLOW
from .._stored._labels import RESERVED_PREFIX, session_labels
from .._stored._transcript import Transcript

if TYPE_CHECKING:
    from ...durable import Client
    from ...stores import Stores
    from .._stored._line import SessionLine

__all__ = ["FORKED_SESSION_LABEL", "FORK_TURNS_LABEL", "fork_session"]

#: The label of a fork's run naming the session it was forked from.
FORKED_SESSION_LABEL = "tether.forked_session"
#: The label of a fork's run saying how many of the original's turns it holds.
FORK_TURNS_LABEL = "tether.fork_turns"
#: The ledger lane (its `session` part) of a fork's own receipt.
_FORK_LANE = "fork"
#: Transcript records per seeded batch (a batch has a size cap).
_BATCH = 200
#: Attempts of a fork that meets another fork of the same id midway.
_RACES = 5
_TURN_ENDS = (TurnCompleted, TurnFailed, TurnCancelled)


def _check_point(value: int | None, what: str) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ConfigurationError(f"{what} must be an integer of at least 0, not {value!r}")
    return value


async def fork_session(
    client: Client,
    stores: Stores,
    agent_name: str,
    original: str,
    info: RunInfo,
    line: SessionLine,
    *,
    at: int | None,
    at_event: int | None,
    session_id: str | None,
    owner: str | EllipsisType | None,
) -> tuple[str, str | None]:
    """Fork session `original` (its current run `info`, its `line`; see the module).

    Its content must be readable (the caller checked). Returns the fork's id and owner.
    """
    _check_point(at, "at")
    _check_point(at_event, "at_event")
    if at is not None and at_event is not None:
        raise ConfigurationError("give at (a turn count) or at_event (an event index), not both")
    if session_id is not None and (not isinstance(session_id, str) or not session_id):
        raise ConfigurationError(f"session_id must be a non-empty string, not {session_id!r}")
    if session_id == original:
        raise ConfigurationError("a fork needs an id of its own, not the original's")
    chain = session_run_id(original)
    first = (await (await client.get(chain, follow=False)).input()).args
    keep_owner = first[2] if len(first) > 2 else None
    retention = first[3] if len(first) > 3 else "default"
    fork_owner = keep_owner if isinstance(owner, EllipsisType) else owner
    # The transcript first, then the events: a turn's end lands in both in one commit,
    # so the events read after hold every turn end the transcript shows.
    path = conversation_path(agent_name, original, line.generation)
    meta = await stores.conversations.get_meta(path)
    entries = await Transcript(stores, path).entries()
    if not entries and meta is not None and meta.head_offset != OFFSET_START:
        # It held records that are gone: erased or deleted by retention (on a store
        # without keys an erasure deletes the content, and reads find nothing).
        raise ContentDeletedError(
            f"session {original!r}: its transcript was deleted (erasure or retention), "
            "and there is nothing to fork"
        )
    chunks = await client.stream(chain, EVENTS_STREAM).read_all(0)
    events = decode_events(chunks)
    ends = [(i + 1, e.turn_id) for i, e in enumerate(entries) if isinstance(e, TurnEndEntry)]
    turns = _turns_at(original, events, [t for _, t in ends], at, at_event)
    kept = entries[: ends[turns - 1][0] if turns else _opening(entries)]
    last_event = _last_event(original, events, ends[turns - 1][1] if turns else None)
    fork_id = session_id or new_ulid("ses_")
    run_id = session_run_id(fork_id)
    labels = {k: v for k, v in info.labels.items() if not k.startswith(RESERVED_PREFIX)}
    labels |= session_labels(agent_name, fork_owner)
    labels |= {FORKED_SESSION_LABEL: original, FORK_TURNS_LABEL: str(turns)}
    receipts = await _receipts(stores, agent_name, original, fork_id, kept)
    events_copy = tuple(c.data for c in chunks[: last_event + 1])
    for attempt in range(_RACES):
        if await _existing(client, run_id, original, turns) is not None:
            return fork_id, fork_owner
        if attempt == 0:
            await _copy_attachments(stores, agent_name, original, fork_id, kept)
        writes = [_guard(agent_name, fork_id, original, turns), *receipts]
        writes += await _seed_transcript(stores, agent_name, fork_id, kept)
        writes.append(AppendStream(run_id=run_id, name=EVENTS_STREAM, chunks=events_copy))
        try:
            await start_seeded(
                client,
                SESSION_WORKFLOW,
                agent_name,
                fork_id,
                fork_owner,
                retention,
                run_id=run_id,
                source_run_id=info.run_id,
                labels=labels,
                writes=writes,
            )
            break
        except (ConflictError, FencedError):
            # Another fork under this id: it landed (its guard refused this one), or it
            # took the seeding producer over (this one's appends were fenced). Either
            # way nothing of this attempt was written; the same fork is found, or
            # tried again after a pause that parts the two.
            if await _existing(client, run_id, original, turns) is not None:
                return fork_id, fork_owner
            if attempt == _RACES - 1:
                raise
            await asyncio.sleep(random.uniform(0.005, 0.05))
    return fork_id, fork_owner


def _turns_at(
    session_id: str,
    events: Sequence[Any],
    ended: Sequence[str],
    at: int | None,
    at_event: int | None,
) -> int:
    """How many of the transcript's ended turns the fork keeps."""
    if at is not None:
        if at > len(ended):
            raise SessionForkError(
                session_id,
                f"at={at}, but its transcript has {len(ended)} ended turn(s): "
                f"give at from 0 to {len(ended)}",
            )
        return at
    if at_event is None:
        return len(ended)
    if at_event >= len(events):
        raise SessionForkError(
            session_id,
            f"at_event={at_event}, but it has {len(events)} event(s): give an index "
            f"from 0 to {len(events) - 1}",
        )
    event = events[at_event]
    # Where its current transcript began (opened, or moved to a fresh transcript).
    opening = max(
        (
            e.index
            for e in events
            if isinstance(e.data, SessionStarted)
            or (isinstance(e.data, SessionMoved) and e.data.reason != "deploy")
        ),
        default=0,
    )
    if at_event < opening:
        raise SessionForkError(
            session_id,
            f"event {at_event} is before its current transcript began (event {opening}: a "
            "reset, clear or compaction started a fresh one); give a later index",
        )
    turn = event.meta.turn_id
    if turn is not None:
        if turn not in ended:
            raise SessionForkError(
                session_id,
                f"event {at_event} is inside turn {turn!r}, which has not ended: a fork "
                "point is a turn's end; give an earlier index, or fork after the turn ends",
            )
        return ended.index(turn) + 1
    # Between turns: the turns that ended before it.
    done = {e.meta.turn_id for e in events[:at_event] if isinstance(e.data, _TURN_ENDS)}
    return sum(1 for t in ended if t in done)


def _opening(entries: Sequence[Any]) -> int:
    """The records before the first turn (what the session opened with)."""
    for i, entry in enumerate(entries):
        if getattr(entry, "turn_id", None) is not None:
            return i
    return len(entries)


def _last_event(session_id: str, events: Sequence[Any], turn: str | None) -> int:
    """The index of the last event the fork copies: `turn`'s end, or the opening."""
    if turn is None:
        return max(
            (e.index for e in events if isinstance(e.data, SessionStarted | SessionMoved)),
            default=-1,
        )
    for event in reversed(events):
        if event.meta.turn_id == turn and isinstance(event.data, _TURN_ENDS):
            return int(event.index)
    raise SessionForkError(
        session_id, f"no event records the end of turn {turn!r} (its events are incomplete)"
    )


async def _existing(client: Client, run_id: str, original: str, turns: int) -> RunInfo | None:
    """The fork's run if it exists already (this fork made before); a conflict if other."""
    try:
        info = await (await client.get(run_id, follow=False)).info()
    except NotFoundError:
        return None
    if info.labels.get(FORKED_SESSION_LABEL) == original and info.labels.get(
        FORK_TURNS_LABEL
    ) == str(turns):
        return info
    raise ConflictError(
        f"session {run_id.removeprefix('session:')!r} exists and is not the fork of session "
        f"{original!r} at turn {turns}: pick another session_id"
    )


def _guard(agent: str, fork_id: str, original: str, turns: int) -> StoreWrite:
    """The fork's own receipt: a second fork under the same id is refused by it.

    Its payload is new on every call, so a concurrent fork that read "no such run" too
    meets a conflict in its own transaction and writes nothing (its transcript copy would
    otherwise land beside this one's).
    """
    return AdmitSubmission(
        submission=SubmissionInput(
            submission_id=f"{fork_id}:fork",
            agent_name=agent,
            instance_id=fork_id,
            session=_FORK_LANE,
            payload={"forked_from": original, "turns": turns, "attempt": new_ulid("frk_")},
            canonical_ready=True,
        )
    )


async def _receipts(
    stores: Stores, agent_name: str, original: str, fork_id: str, kept: Sequence[Any]
) -> list[StoreWrite]:
    """Settled receipts under the fork's id for the messages of the forked turns."""
    prefix = f"{original}:"
    ledger = stores.submissions
    writes: list[StoreWrite] = []
    by_outcome: dict[SubmissionOutcome, list[str]] = {"completed": [f"{fork_id}:fork"]}
    for entry in kept:
        if not isinstance(entry, UserEntry):
            continue
        sub = await ledger.get_submission(entry.submission_id)
        if sub is None or not entry.submission_id.startswith(prefix):
            continue
        forked = fork_id + entry.submission_id[len(original) :]
        writes.append(
            AdmitSubmission(
                submission=SubmissionInput(
                    submission_id=forked,
                    agent_name=agent_name,
                    instance_id=fork_id,
                    payload=sub.payload,
                    canonical_ready=True,
                )
            )
        )
        by_outcome.setdefault(sub.outcome or "completed", []).append(forked)
    for outcome, ids in by_outcome.items():
        writes.append(ResolveSubmissions(submission_ids=tuple(ids), outcome=outcome))
    return writes


async def _copy_attachments(
    stores: Stores, agent_name: str, original: str, fork_id: str, kept: Sequence[Any]
) -> None:
    """Copy the files of the kept messages into the fork's attachment stream.

    Raises:
        SessionForkError: A file a kept message carries is no longer stored.
    """
    copied: set[str] = set()
    for entry in kept:
        if isinstance(entry, ToolResultEntry) and entry.content_ref is not None:
            # A large result the fork's transcript refers to, by content.
            ids: tuple[tuple[str, str], ...] = ((entry.content_ref, f"call {entry.call_id!r}"),)
        elif isinstance(entry, UserEntry):
            ids = tuple((ref.id, f"message {entry.submission_id!r}") for ref in entry.attachments)
        else:
            continue
        for attachment_id, of in ids:
            if attachment_id in copied:
                continue
            stored = await read_attachment(stores, agent_name, original, attachment_id)
            if stored is None:
                raise SessionForkError(
                    original,
                    f"file {attachment_id!r} of {of} before the fork point is no longer "
                    "stored, so the fork could not read it: fork from an earlier turn",
                )
            # Under the fork's own key, as its own uploads are: erasing the fork erases
            # the copies, erasing the original leaves them.
            with data_scope(run_scope(session_run_id(fork_id))):
                await stores.attachments.put(
                    stream_path=attachments_path(agent_name, fork_id),
                    conversation_id=fork_id,
                    ref=stored.ref,
                    data=stored.data,
                )
            copied.add(attachment_id)


async def _seed_transcript(
    stores: Stores, name: str, fork_id: str, kept: Sequence[Any]
) -> list[StoreWrite]:
    """The appends of the forked records, as the fork's seeding producer.

    The stream and the producer's claim are made before the transaction (both are
    idempotent to do again: a fork that crashes before its commit leaves an empty
    stream, which the same fork asked for again uses). The session's run takes the
    production over when it opens (`open_session`), fencing the seeding producer.
    """
    path = conversation_path(name, fork_id, 0)
    await stores.conversations.create_stream(
        path, StreamIdentity(agent_name=name, instance_id=fork_id)
    )
    meta = await stores.conversations.get_meta(path)
    if meta is not None and meta.producer_id == f"session:{fork_id}":
        raise ConflictError(
            f"session {fork_id!r} opened its transcript meanwhile: pick another session_id"
        )
    claim = await stores.conversations.acquire_producer(path, f"fork:{fork_id}")
    records = [entry_json(e) for e in kept]
    return [
        AppendRecords(
            path=path,
            producer_id=claim.producer_id,
            producer_epoch=claim.producer_epoch,
            incarnation=claim.incarnation,
            producer_sequence=sequence,
            records=tuple(records[start : start + _BATCH]),
        )
        for sequence, start in enumerate(range(0, len(records), _BATCH))
    ]
