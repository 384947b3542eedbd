"""Transcript checkpoints: a cold load starts from a stored fold, not from batch one.

A transcript is an append-only stream of batches, and loading it folds every batch
into the list of entries (`Transcript.entries`). A worker keeps the folds it made
(`TranscriptCache`), but one that holds none (just started, or another host's) would
fold a long session's whole stream to run its next turn, and so would every read of
the session's history (`Session.transcript`, the inspector). On a backend that
declares `Capability.FOLD_CHECKPOINTS`, the session's producer stores its fold now and
then (`TranscriptFold`, on the cadence `checkpoint_due` sets) with
`ConversationStore.put_fold_checkpoint`; a cold load reads that checkpoint and only
the batches after it.

A checkpoint is a cache, never the truth: `load_fold` ignores one that is absent,
torn, of another format, of another incarnation of the stream (stale), past the
stream's head, or whose digest or contents do not match, and the load folds every
batch instead, as it would without one. What a checkpoint holds is exactly what the
full fold gives at its offset: the entries in their stored form (a result stored by
content stays a reference) and each producer's next sequence.

Only the session's own steps write checkpoints: an erasure waits for the session's run
to end before it purges, so no checkpoint lands after the purge that deletes it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from ...stores import FoldCheckpoint, Stores
from .._records._entries import TranscriptEntry, entry_json
from .._records._json import adapter

__all__ = [
    "CHECKPOINT_GROWTH",
    "CHECKPOINT_MIN_BATCHES",
    "FOLD_FORMAT",
    "TranscriptFold",
    "checkpoint_due",
    "load_fold",
    "save_fold",
]

log = logging.getLogger("tether.agent")

#: The format of the checkpoints this release writes and reads (others are ignored).
FOLD_FORMAT = 1
#: Batches a transcript gains past its checkpoint before the next is written (at least).
CHECKPOINT_MIN_BATCHES = 200
#: ...and at least this fraction of the batches the checkpoint covers (1/4): a cold load
#: folds at most a quarter more than the checkpoint holds, and the bytes the checkpoints
#: of a session write stay within a few times the transcript's own.
CHECKPOINT_GROWTH = 4

_DIGEST = hashlib.sha256().digest_size


@dataclass(frozen=True, slots=True, kw_only=True)
class TranscriptFold:
    """A transcript's fold at `offset`: what a checkpoint stores.

    Attributes:
        offset: The stream offset folded up to (the last batch's).
        batches: How many batches it folded.
        entries: Every entry of the batches up to it, in order (typed, results stored by
            content resolved or not: they are stored as references either way).
        sequences: (producer id, epoch) -> the producer's next sequence.
    """

    offset: str
    batches: int
    entries: Sequence[Any]
    sequences: Mapping[tuple[str, int], int]


def checkpoint_due(covered: int, held: int) -> bool:
    """Whether a fold holding `held` batches should replace a checkpoint of `covered`."""
    return held - covered >= max(CHECKPOINT_MIN_BATCHES, covered // CHECKPOINT_GROWTH)


def _body(path: str, incarnation: str, fold: TranscriptFold) -> bytes:
    # A header line, then the entries as one JSON array, read back in one validation
    # rather than one per entry. JSON text holds no raw newline, so the first newline
    # ends the header.
    header = {
        "path": path,
        "incarnation": incarnation,
        "offset": fold.offset,
        "batches": fold.batches,
        "sequences": [[p, e, n] for (p, e), n in sorted(fold.sequences.items())],
    }
    return orjson.dumps(header) + b"\n" + orjson.dumps([entry_json(e) for e in fold.entries])


async def save_fold(stores: Stores, path: str, incarnation: str, fold: TranscriptFold) -> bool:
    """Store `fold` as the checkpoint of transcript `path`; whether it was stored.

    A failure is logged ``transcript checkpoint not written`` and changes nothing: the
    next cold load folds from the checkpoint before, or from the start.
    """
    body = _body(path, incarnation, fold)
    checkpoint = FoldCheckpoint(
        head_offset=fold.offset,
        incarnation=incarnation,
        format_version=FOLD_FORMAT,
        data=hashlib.sha256(body).digest() + body,
    )
    try:
        await stores.conversations.put_fold_checkpoint(path, checkpoint)
    except Exception as exc:
        log.warning("transcript checkpoint not written for %r: %s", path, exc)
        return False
    return True


async def load_fold(stores: Stores, path: str) -> TranscriptFold | None:
    """The fold the checkpoint of transcript `path` holds, or None to fold from the start.

    None also for a checkpoint that does not verify (see the module docstring): the
    reason is logged at debug level, and reading the batches tells what is wrong, if
    anything is.
    """
    try:
        meta = await stores.conversations.get_meta(path)
        if meta is None:
            return None
        checkpoint = await stores.conversations.get_fold_checkpoint(
            path, at_or_before=meta.head_offset
        )
        if checkpoint is None:
            return None
        fold = _verified(path, meta.incarnation, checkpoint)
    except Exception as exc:
        # A cache that cannot be read is no cache: the full fold reads the truth (and
        # raises what reading it raises, a deleted session's content included).
        log.debug("transcript checkpoint of %r ignored: %s", path, exc)
        return None
    if isinstance(fold, str):
        log.debug("transcript checkpoint of %r ignored: %s", path, fold)
        return None
    return fold


def _verified(path: str, incarnation: str, checkpoint: FoldCheckpoint) -> TranscriptFold | str:
    """The fold `checkpoint` holds, or why it is ignored."""
    if checkpoint.format_version != FOLD_FORMAT:
        return f"format {checkpoint.format_version}, not {FOLD_FORMAT}"
    if checkpoint.incarnation != incarnation:
        return "written for another incarnation of the stream"
    data = bytes(checkpoint.data)
    digest, body = data[:_DIGEST], data[_DIGEST:]
    if len(digest) != _DIGEST or hashlib.sha256(body).digest() != digest:
        return "its digest does not match its contents"
    head, newline, listed = body.partition(b"\n")
    if not newline:
        return "it holds no entries"
    value = orjson.loads(head)
    # The header and the body must agree: a body moved under another stream's or
    # another offset's header is not this stream's fold there.
    if (value.get("path"), value.get("incarnation"), value.get("offset")) != (
        path,
        incarnation,
        checkpoint.head_offset,
    ):
        return "its contents name another stream or offset"
    batches = value.get("batches")
    if not isinstance(batches, int) or batches < 0:
        return "it does not say how many batches it covers"
    sequences = {(str(p), int(e)): int(n) for p, e, n in value["sequences"]}
    try:
        entries = adapter(list[TranscriptEntry]).validate_json(listed)
    except ValidationError as exc:
        return f"its entries do not read: {exc}"
    return TranscriptFold(
        offset=checkpoint.head_offset, batches=batches, entries=entries, sequences=sequences
    )
