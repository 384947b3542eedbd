"""The conversation stream contract: every backend's `ConversationStore` must pass it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from ...errors import (
    ConflictError,
    FencedError,
    InvalidOffsetError,
    InvalidTransitionError,
    NotFoundError,
    NotOwnerError,
    PayloadTooLargeError,
)
from ...stores import (
    MAX_BATCH_BYTES,
    OFFSET_NOW,
    OFFSET_START,
    AttemptRef,
    Capability,
    ConversationStore,
    FoldCheckpoint,
    ProducerClaim,
    SettledRecord,
    StreamIdentity,
    SubmissionClaim,
    SubmissionInput,
    SubmissionStore,
    settlement_entry,
)
from ._markers import requires, stored_rows_of

__all__ = ["ConversationContract"]

PATH = "agents/helper/inst-1"
IDENTITY = StreamIdentity(agent_name="helper", instance_id="inst-1")


def message(n: int, text: str = "hi") -> dict[str, Any]:
    return {"type": "message", "n": n, "text": text}


class ConversationContract:
    """Subclass with an async `backend` fixture yielding a migrated, connected backend.

    Authorization tests use the backend's submission store too.
    """

    @pytest.fixture
    def streams(self, backend: Any) -> ConversationStore:
        return backend.stores.conversations  # type: ignore[no-any-return]

    @pytest.fixture
    def submissions(self, backend: Any) -> SubmissionStore:
        return backend.stores.submissions  # type: ignore[no-any-return]

    @pytest.fixture
    async def producer(self, streams: ConversationStore) -> ProducerClaim:
        await streams.create_stream(PATH, IDENTITY)
        return await streams.acquire_producer(PATH, "producer-1")

    @staticmethod
    async def append(
        streams: ConversationStore,
        claim: ProducerClaim,
        sequence: int,
        records: list[Any],
        submission: AttemptRef | None = None,
    ) -> str:
        return await streams.append(
            path=claim.path,
            producer_id=claim.producer_id,
            producer_epoch=claim.producer_epoch,
            incarnation=claim.incarnation,
            producer_sequence=sequence,
            records=records,
            submission=submission,
        )

    # -- creation ---------------------------------------------------------------------
    async def test_an_exact_identity_create_race_makes_one_stream(
        self, streams: ConversationStore
    ) -> None:
        await asyncio.gather(*(streams.create_stream(PATH, IDENTITY) for _ in range(5)))
        meta = await streams.get_meta(PATH)
        assert meta is not None and meta.identity == IDENTITY
        await streams.create_stream(PATH, IDENTITY)
        again = await streams.get_meta(PATH)
        assert again is not None and again.incarnation == meta.incarnation
        assert meta.head_offset == OFFSET_START and meta.producer_epoch == 0

    async def test_a_conflicting_create_race_keeps_one_identity(
        self, streams: ConversationStore
    ) -> None:
        identities = [StreamIdentity(agent_name=f"agent-{n}", instance_id="x") for n in range(4)]
        results = await asyncio.gather(
            *(streams.create_stream(PATH, i) for i in identities), return_exceptions=True
        )
        assert sum(r is None for r in results) == 1
        assert all(isinstance(r, ConflictError) for r in results if r is not None)
        meta = await streams.get_meta(PATH)
        assert meta is not None
        assert meta.identity == identities[results.index(None)]

    # -- retention --------------------------------------------------------------------
    async def test_purge_deletes_records_and_keeps_the_stream(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        offset = await self.append(streams, producer, 0, [message(0, "private")])
        await streams.purge(PATH)
        await streams.purge(PATH)
        assert (await streams.read(PATH)).batches == ()
        meta = await streams.get_meta(PATH)
        assert meta is not None and meta.identity == IDENTITY and meta.head_offset == offset
        await streams.purge("agents/helper/unknown")

    # -- appends ----------------------------------------------------------------------
    async def test_the_current_producer_appends_in_order(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        offsets = [await self.append(streams, producer, n, [message(n)]) for n in range(5)]
        assert offsets == sorted(offsets) and len(set(offsets)) == 5
        read = await streams.read(PATH)
        assert [b.offset for b in read.batches] == offsets
        assert [b.records[0]["n"] for b in read.batches] == list(range(5))
        assert read.up_to_date and read.next_offset == offsets[-1]

    async def test_a_multi_record_batch_gets_one_offset(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        offset = await self.append(streams, producer, 0, [message(0), message(1), message(2)])
        (batch,) = (await streams.read(PATH)).batches
        assert batch.offset == offset and batch.records == (message(0), message(1), message(2))
        meta = await streams.get_meta(PATH)
        assert meta is not None and meta.head_offset == offset

    async def test_acquiring_production_can_create_the_stream_in_the_same_write(
        self, streams: ConversationStore
    ) -> None:
        other = "agents/helper/inst-2"
        identity = StreamIdentity(agent_name="helper", instance_id="inst-2")
        claim = await streams.acquire_producer(other, "producer-1", create=identity)
        assert claim.producer_epoch == 1 and claim.head_offset == OFFSET_START
        offset = await self.append(streams, claim, 0, [message(0)])
        # On a stream that exists it is a plain acquisition: the producer before is fenced.
        again = await streams.acquire_producer(other, "producer-2", create=identity)
        assert again.producer_epoch == 2 and again.incarnation == claim.incarnation
        assert again.head_offset == offset
        with pytest.raises(FencedError):
            await self.append(streams, claim, 1, [message(1)])
        with pytest.raises(ConflictError):
            await streams.acquire_producer(other, "producer-3", create=IDENTITY)
        meta = await streams.get_meta(other)
        assert meta is not None and meta.identity == identity

    async def test_an_exact_producer_retry_returns_the_original_offset(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        first = await self.append(streams, producer, 0, [message(0)])
        await self.append(streams, producer, 1, [message(1)])
        assert await self.append(streams, producer, 0, [message(0)]) == first
        assert len((await streams.read(PATH)).batches) == 2

    async def test_an_exact_retry_is_rejected_after_reacquisition(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        await self.append(streams, producer, 0, [message(0)])
        await streams.acquire_producer(PATH, "producer-1")
        with pytest.raises(FencedError):
            await self.append(streams, producer, 0, [message(0)])

    async def test_a_conflicting_retry_is_rejected_without_advancing(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        await self.append(streams, producer, 0, [message(0)])
        before = await streams.get_meta(PATH)
        with pytest.raises(ConflictError):
            await self.append(streams, producer, 0, [message(0, "changed")])
        assert await streams.get_meta(PATH) == before
        assert (await streams.read(PATH)).batches[0].records == (message(0),)

    async def test_sequences_may_not_skip_and_batches_may_not_be_empty(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        with pytest.raises(InvalidTransitionError):
            await self.append(streams, producer, 1, [message(1)])
        with pytest.raises(ValueError):
            await self.append(streams, producer, 0, [])
        with pytest.raises(NotFoundError):
            await streams.acquire_producer("agents/none", "p")
        assert (await streams.read(PATH)).batches == ()

    async def test_a_batch_over_a_cell_cap_round_trips(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        big = [{"chunk": n, "text": "x" * 500_000} for n in range(5)]  # about 2.5 MB
        offset = await self.append(streams, producer, 0, big)
        (batch,) = (await streams.read(PATH)).batches
        assert batch.offset == offset and list(batch.records) == big
        assert await self.append(streams, producer, 0, big) == offset  # exact oversized retry
        changed = [*big[:-1], {"chunk": 4, "text": "y" * 500_000}]
        with pytest.raises(ConflictError):  # conflicting oversized retry
            await self.append(streams, producer, 0, changed)
        assert len((await streams.read(PATH)).batches) == 1

    async def test_a_batch_over_the_documented_cap_is_refused(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        with pytest.raises(PayloadTooLargeError):
            await self.append(streams, producer, 0, [{"text": "z" * (MAX_BATCH_BYTES + 1)}])
        meta = await streams.get_meta(PATH)
        assert meta is not None and meta.head_offset == OFFSET_START

    async def test_stale_producers_are_fenced_after_replacement(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        await self.append(streams, producer, 0, [message(0)])
        successor = await streams.acquire_producer(PATH, "producer-2")
        assert successor.producer_epoch == producer.producer_epoch + 1
        assert successor.head_offset != OFFSET_START
        with pytest.raises(FencedError):
            await self.append(streams, producer, 1, [message(1)])
        forged = ProducerClaim(
            path=PATH,
            producer_id="producer-2",
            producer_epoch=successor.producer_epoch,
            incarnation="inc_forged",
            head_offset=successor.head_offset,
        )
        with pytest.raises(FencedError):
            await self.append(streams, forged, 0, [message(1)])
        await self.append(streams, successor, 0, [message(1)])  # sequence restarts at 0
        assert [b.producer_id for b in (await streams.read(PATH)).batches] == [
            "producer-1",
            "producer-2",
        ]

    # -- submission-owned appends -----------------------------------------------------
    @staticmethod
    async def running(
        submissions: SubmissionStore,
        submission_id: str,
        *,
        agent: str = "helper",
        instance: str = "inst-1",
        attempt: str = "att-1",
    ) -> AttemptRef:
        await submissions.admit_direct(
            SubmissionInput(
                submission_id=submission_id,
                agent_name=agent,
                instance_id=instance,
                payload={"text": submission_id},
                canonical_ready=True,
            )
        )
        claimed = await submissions.claim_submission(
            SubmissionClaim(
                submission_id=submission_id,
                attempt_id=attempt,
                owner_id="w",
                lease_expires_at=time.time() + 30,
            )
        )
        assert claimed is not None
        return AttemptRef(submission_id=submission_id, attempt_id=attempt)

    async def test_a_running_attempt_may_append_its_records(
        self, streams: ConversationStore, submissions: SubmissionStore, producer: ProducerClaim
    ) -> None:
        attempt = await self.running(submissions, "s1")
        await self.append(streams, producer, 0, [message(0)], submission=attempt)
        (batch,) = (await streams.read(PATH)).batches
        assert (batch.submission_id, batch.attempt_id) == ("s1", "att-1")

    async def test_other_agent_stale_attempt_and_unknown_submission_are_rejected(
        self, streams: ConversationStore, submissions: SubmissionStore, producer: ProducerClaim
    ) -> None:
        other_agent = await self.running(submissions, "s-other", agent="reviewer")
        await self.running(submissions, "s1", instance="inst-1")
        stale = AttemptRef(submission_id="s1", attempt_id="att-old")
        unknown = AttemptRef(submission_id="nope", attempt_id="att-1")
        for attempt in (other_agent, stale, unknown):
            with pytest.raises(NotOwnerError):
                await self.append(streams, producer, 0, [message(0)], submission=attempt)
        assert (await streams.read(PATH)).batches == ()

    async def test_a_foreign_submission_is_rejected(
        self, streams: ConversationStore, submissions: SubmissionStore, producer: ProducerClaim
    ) -> None:
        foreign = await self.running(submissions, "elsewhere", instance="inst-2")
        with pytest.raises(NotOwnerError):
            await self.append(streams, producer, 0, [message(0)], submission=foreign)

    async def test_the_host_may_append_for_a_claimed_join(
        self, streams: ConversationStore, submissions: SubmissionStore, producer: ProducerClaim
    ) -> None:
        host = await self.running(submissions, "host")
        await submissions.admit_direct(
            SubmissionInput(
                submission_id="late",
                agent_name="helper",
                instance_id="inst-1",
                payload={"text": "late"},
                canonical_ready=True,
            )
        )
        assert [
            s.submission_id for s in await submissions.claim_joinable_submissions(host, "helper")
        ] == ["late"]
        delivered = AttemptRef(submission_id="late", attempt_id=host.attempt_id)
        await self.append(streams, producer, 0, [message(0, "late")], submission=delivered)
        assert await submissions.finalize_joined_submission(host, "late")
        stale = AttemptRef(submission_id="late", attempt_id="att-old")
        with pytest.raises(NotOwnerError):
            await self.append(streams, producer, 1, [message(1)], submission=stale)

    async def test_only_the_exact_reserved_settlement_while_terminalizing(
        self, streams: ConversationStore, submissions: SubmissionStore, producer: ProducerClaim
    ) -> None:
        attempt = await self.running(submissions, "s1")
        record = SettledRecord(outcome="completed", data={"reply": "ok"})
        obligation = await submissions.reserve_settlement(attempt, record_id="r1", record=record)
        assert obligation is not None
        with pytest.raises(NotOwnerError):
            await self.append(streams, producer, 0, [message(0)], submission=attempt)
        wrong = dict(settlement_entry(obligation), outcome="failed")
        with pytest.raises(NotOwnerError):
            await self.append(streams, producer, 0, [wrong], submission=attempt)
        entry = settlement_entry(obligation)
        await self.append(streams, producer, 0, [entry], submission=attempt)
        assert await submissions.finalize_settlement(attempt, "r1")
        assert (await streams.read(PATH)).batches[0].records == (entry,)

    # -- reads ------------------------------------------------------------------------
    async def test_reads_are_strictly_after_an_offset(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        offsets = [await self.append(streams, producer, n, [message(n)]) for n in range(6)]
        page = await streams.read(PATH, offset=offsets[1], limit=2)
        assert [b.offset for b in page.batches] == offsets[2:4]
        assert page.next_offset == offsets[3] and not page.up_to_date
        rest = await streams.read(PATH, offset=page.next_offset)
        assert [b.offset for b in rest.batches] == offsets[4:] and rest.up_to_date
        assert (await streams.read(PATH, offset=offsets[-1])).batches == ()

    async def test_read_limits_default_to_100_and_cap_at_1000(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        # Appends are issued concurrently in sequence order so backends may group them.
        await asyncio.gather(*(self.append(streams, producer, n, [n]) for n in range(1001)))
        assert len((await streams.read(PATH)).batches) == 100
        assert len((await streams.read(PATH, limit=0)).batches) == 100
        page = await streams.read(PATH, limit=5000)
        assert len(page.batches) == 1000 and not page.up_to_date
        assert [b.records[0] for b in page.batches] == list(range(1000))

    async def test_now_unknown_paths_and_bad_offsets(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        head = await self.append(streams, producer, 0, [message(0)])
        now = await streams.read(PATH, offset=OFFSET_NOW)
        assert now.batches == () and now.next_offset == head and now.up_to_date
        empty = await streams.read("agents/unknown")
        assert empty.batches == () and empty.up_to_date
        assert await streams.get_meta("agents/unknown") is None
        past = head[:-1] + str(int(head[-1]) + 1)
        with pytest.raises(InvalidOffsetError, match="head"):
            await streams.read(PATH, offset=past)
        with pytest.raises(InvalidOffsetError):
            await streams.read(PATH, offset="not-an-offset")

    async def test_meta_reports_producer_state(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        offset = await self.append(streams, producer, 0, [message(0)])
        meta = await streams.get_meta(PATH)
        assert meta is not None
        assert (meta.producer_id, meta.producer_epoch) == ("producer-1", producer.producer_epoch)
        assert (meta.next_producer_sequence, meta.head_offset) == (1, offset)
        assert meta.incarnation == producer.incarnation

    async def test_subscribers_hear_commits_until_they_unsubscribe(
        self, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        heard: list[str | None] = []

        def listener() -> None:
            heard.append(None)

        unsubscribe = streams.subscribe(PATH, listener)
        await self.append(streams, producer, 0, [message(0)])
        await self.append(streams, producer, 0, [message(0)])  # replay: nothing new
        assert len(heard) == 1
        unsubscribe()
        await self.append(streams, producer, 1, [message(1)])
        assert len(heard) == 1

    # -- fold checkpoints -------------------------------------------------------------
    @requires(Capability.FOLD_CHECKPOINTS)
    async def test_fold_checkpoints_round_trip_and_supersede(
        self, backend: Any, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        assert await streams.get_fold_checkpoint(PATH) is None
        first_offset = await self.append(streams, producer, 0, [message(0)])
        first = FoldCheckpoint(
            head_offset=first_offset,
            incarnation=producer.incarnation,
            format_version=1,
            data=b"state-1",
        )
        await streams.put_fold_checkpoint(PATH, first)
        assert await streams.get_fold_checkpoint(PATH) == first
        second_offset = await self.append(streams, producer, 1, [message(1)])
        second = FoldCheckpoint(
            head_offset=second_offset,
            incarnation=producer.incarnation,
            format_version=1,
            data=b"\x00" * (3 * 1024 * 1024),
        )
        await streams.put_fold_checkpoint(PATH, second)
        assert await streams.get_fold_checkpoint(PATH) == second

    @requires(Capability.FOLD_CHECKPOINTS)
    async def test_fold_checkpoint_at_or_before_bound(
        self, backend: Any, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        offsets = [await self.append(streams, producer, n, [message(n)]) for n in range(3)]
        checkpoint = FoldCheckpoint(
            head_offset=offsets[1],
            incarnation=producer.incarnation,
            format_version=1,
            data=b"fold",
        )
        await streams.put_fold_checkpoint(PATH, checkpoint)
        assert await streams.get_fold_checkpoint(PATH, at_or_before=offsets[2]) == checkpoint
        assert await streams.get_fold_checkpoint(PATH, at_or_before=offsets[1]) == checkpoint
        assert await streams.get_fold_checkpoint(PATH, at_or_before=offsets[0]) is None

    @requires(Capability.FOLD_CHECKPOINTS)
    async def test_a_checkpoint_is_never_read_half_written(
        self, backend: Any, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        # Multi-megabyte checkpoints written over one another while readers read: a
        # backend that stores one in parts (chunks, pages, objects) must never show a
        # reader the parts of two writes, or the first parts of one, as a checkpoint.
        offsets = [await self.append(streams, producer, n, [message(n)]) for n in range(4)]
        written = [
            FoldCheckpoint(
                head_offset=offsets[n],
                incarnation=producer.incarnation,
                format_version=1,
                data=bytes([n + 1]) * (2 * 1024 * 1024 + 17 * n),
            )
            for n in range(4)
        ]
        seen: list[FoldCheckpoint | None] = []
        writing = True

        async def read() -> None:
            while writing:
                seen.append(await streams.get_fold_checkpoint(PATH))
                await asyncio.sleep(0)

        readers = [asyncio.create_task(read()) for _ in range(2)]
        try:
            for _ in range(3):
                await asyncio.gather(*(streams.put_fold_checkpoint(PATH, c) for c in written))
        finally:
            writing = False
            await asyncio.gather(*readers)
        seen.append(await streams.get_fold_checkpoint(PATH))
        torn = [c for c in seen if c is not None and c not in written]
        assert not torn, f"{len(torn)} of {len(seen)} reads returned no checkpoint written"
        assert seen[-1] in written

    @requires(Capability.FOLD_CHECKPOINTS)
    async def test_a_torn_checkpoint_write_reads_as_absent(
        self, backend: Any, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        # A checkpoint cut off partway (a crash mid-write, a lost page) must read back as
        # absent, never as a shorter blob a fold would trust: the runtime then replays.
        rows = stored_rows_of(backend)
        offsets = [await self.append(streams, producer, n, [message(n)]) for n in range(2)]
        for size in (64, 3 * 1024 * 1024 + 5):  # one piece; several pieces
            checkpoint = FoldCheckpoint(
                head_offset=offsets[1],
                incarnation=producer.incarnation,
                format_version=1,
                data=bytes(range(256)) * (size // 256) + b"\x07" * (size % 256),
            )
            await streams.put_fold_checkpoint(PATH, checkpoint)
            assert await streams.get_fold_checkpoint(PATH) == checkpoint
            await rows.tear_fold_checkpoint(PATH)
            assert await streams.get_fold_checkpoint(PATH) is None
            assert await streams.get_fold_checkpoint(PATH, at_or_before=offsets[1]) is None
            # The next write supersedes the torn one whole.
            await streams.put_fold_checkpoint(PATH, checkpoint)
            assert await streams.get_fold_checkpoint(PATH) == checkpoint

    @requires(Capability.FOLD_CHECKPOINTS)
    async def test_a_fold_from_a_checkpoint_equals_the_fold_from_the_start(
        self, backend: Any, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        # A cold load reads the checkpoint, then the batches after its offset: those must
        # be exactly the batches the whole read holds after it, none left out or repeated,
        # and the checkpoint must come back as written, or the two loads would differ.
        offsets = [
            await self.append(streams, producer, n, [message(2 * n), message(2 * n + 1)])
            for n in range(7)
        ]
        whole = (await streams.read(PATH)).batches
        cut = 4
        folded = [r for b in whole[:cut] for r in b.records]
        checkpoint = FoldCheckpoint(
            head_offset=offsets[cut - 1],
            incarnation=producer.incarnation,
            format_version=1,
            data=repr(folded).encode(),
        )
        await streams.put_fold_checkpoint(PATH, checkpoint)
        meta = await streams.get_meta(PATH)
        assert meta is not None and meta.incarnation == checkpoint.incarnation
        found = await streams.get_fold_checkpoint(PATH, at_or_before=meta.head_offset)
        assert found == checkpoint
        after = (await streams.read(PATH, offset=found.head_offset)).batches
        assert after == whole[cut:]
        resumed = [*folded, *(r for b in after for r in b.records)]
        assert resumed == [r for b in whole for r in b.records]
        assert resumed == [message(n) for n in range(14)]

    @requires(Capability.FOLD_CHECKPOINTS)
    async def test_purge_deletes_the_checkpoint(
        self, backend: Any, streams: ConversationStore, producer: ProducerClaim
    ) -> None:
        # A checkpoint holds the stream's content: retention deletes it with the records.
        offset = await self.append(streams, producer, 0, [message(0, "private")])
        checkpoint = FoldCheckpoint(
            head_offset=offset,
            incarnation=producer.incarnation,
            format_version=1,
            data=b"private",
        )
        await streams.put_fold_checkpoint(PATH, checkpoint)
        await streams.purge(PATH)
        assert await streams.get_fold_checkpoint(PATH) is None
        # A put after the purge (a worker that lost its run) keeps nothing either.
        await streams.put_fold_checkpoint(PATH, checkpoint)
        assert await streams.get_fold_checkpoint(PATH) is None
