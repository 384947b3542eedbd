"""Contract of chains: continue-as-new (force-claimed hooks) and hook retention.

Part of `WorkflowStoreContract`; the tests skip unless the backend declares
`Capability.CONTINUE_AS_NEW` or `Capability.HOOK_RETENTION`.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from ...errors import ConflictError, HookTokenInUseError, InvalidTransitionError, NotFoundError
from ...stores import (
    Capability,
    Commit,
    Continuation,
    NewEvent,
    NewRun,
    WorkflowStore,
    successor_run_id,
)
from ._markers import requires

__all__ = ["ChainContract"]

#: The hook retention (seconds) of the store `retention_store` provides.
SHORT_RETENTION = 0.3


def _new(run_id: str, **kw: Any) -> NewRun:
    base: dict[str, Any] = dict(
        run_id=run_id, workflow_name="wf", input=b"in", deployment="d", engine_version="e",
        queue="q",
    )  # fmt: skip
    base.update(kw)
    return NewRun(**base)


async def _claim(store: WorkflowStore, run_id: str, owner: str = "w1") -> tuple[int, int]:
    claim = await store.claim_run(run_id, owner=owner, lease_seconds=30)
    assert claim.outcome == "claimed" and claim.run is not None, claim.outcome
    return claim.epoch, claim.run.head


async def _started(store: WorkflowStore, run_id: str) -> tuple[int, int]:
    await store.create_run(_new(run_id))
    return await _claim(store, run_id)


def _hook(hook_id: str, token: str, slot: int = 1) -> NewEvent:
    return NewEvent(
        event_type="hook_created", correlation_id=hook_id, attrs={"slot": slot, "token": token}
    )


def _commit(run_id: str, epoch: int, head: int, *events: NewEvent, **kw: Any) -> Commit:
    return Commit(run_id=run_id, owner="w1", epoch=epoch, expected_head=head, events=events, **kw)


def _continued(
    run_id: str,
    epoch: int,
    head: int,
    *events: NewEvent,
    chain: str | None = None,
    generation: int = 1,
    carried: tuple[tuple[str, bytes], ...] = (),
    successor: str | None = None,
) -> Commit:
    chain = chain or run_id
    new_id = successor or successor_run_id(chain, generation)
    new = _new(new_id, input=b"next", chain_id=chain, generation=generation)
    ending = NewEvent(event_type="run_continued", correlation_id=new_id)
    return _commit(
        run_id, epoch, head, *events, ending, release=True,
        continuation=Continuation(run=new, carried=carried),
    )  # fmt: skip


class ChainContract:
    """Continue-as-new and hook retention; mixed into `WorkflowStoreContract`."""

    @pytest.fixture
    async def retention_store(self) -> WorkflowStore:
        """A connected workflow store whose hook retention is `SHORT_RETENTION` seconds.

        Override it to run `test_retained_tokens_are_free_after_the_window`.
        """
        pytest.skip(f"no `retention_store` fixture (hook retention {SHORT_RETENTION} s)")

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_continuation_starts_the_successor_in_the_same_commit(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        step = NewEvent(
            event_type="step_created", correlation_id="s1", attrs={"slot": 2, "name": "s"}
        )
        head = (await store.commit(_commit("r1", epoch, head, _hook("h1", "t1"), step))).head
        done = NewEvent(event_type="step_completed", correlation_id="s1", payload=b"out")
        await store.commit(_continued("r1", epoch, head, done))
        old = await store.get_run("r1")
        assert old is not None and old.status == "continued" and old.lease_owner is None
        assert (old.chain_id, old.generation) == ("r1", 0)
        # The completion that rode along is committed with the end.
        (s1,) = await store.list_steps("r1")
        assert (s1.status, s1.output) == ("completed", b"out")
        tail = [(e.event_type, e.correlation_id) for e in await store.list_events("r1")][-3:]
        assert tail == [
            ("step_completed", "s1"), ("run_continued", "r1~1"), ("hook_disposed", "h1"),
        ]  # fmt: skip
        new = await store.get_run("r1~1")
        assert new is not None and new.status == "pending" and new.input == b"next"
        assert (new.chain_id, new.generation, new.parent_run_id) == ("r1", 1, None)
        log = await store.list_events("r1~1")
        assert [(e.event_type, e.correlation_id) for e in log] == [
            ("run_created", "r1~1"), ("hook_moved", "h1"),
        ]  # fmt: skip
        assert log[0].attrs.get("chain_id") == "r1" and log[1].attrs.get("token") == "t1"
        hook = await store.get_hook("t1")
        assert hook is not None and (hook.run_id, hook.hook_id) == ("r1~1", "h1")
        assert [h.token for h in await store.list_hooks("r1~1")] == ["t1"]
        assert await store.list_hooks("r1") == []
        latest = await store.latest_run("r1")
        assert latest is not None and latest.run_id == "r1~1"
        # Its wake-up was enqueued with it: the chain has a way back at once.
        ((_, claim),) = await store.claim_next("q", owner="w2", lease_seconds=30, limit=10)
        assert claim.run is not None and claim.run.run_id == "r1~1"

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_successor_may_run_under_another_deployment(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        # A take-over from outside (`Client.take_over`): the holder claimed the parked run
        # without a message, and moves it to newer code: another deployment and queue.
        epoch, head = await _started(store, "r1")
        head = (await store.commit(_commit("r1", epoch, head, _hook("h1", "t1")))).head
        new = _new("r1~1", input=b"next", chain_id="r1", generation=1, deployment="d2", queue="q2")
        ending = NewEvent(event_type="run_continued", correlation_id="r1~1")
        carried = (("h1", b"sent while held"),)
        await store.commit(
            _commit(
                "r1", epoch, head, ending, release=True,
                continuation=Continuation(run=new, carried=carried),
            )
        )  # fmt: skip
        # The old queue's wake-up finds its run ended; the successor's is on its own queue.
        assert await store.claim_next("q", owner="w2", lease_seconds=30, limit=10) == []
        ((_, claim),) = await store.claim_next("q2", owner="w2", lease_seconds=30, limit=10)
        assert claim.run is not None and (claim.run.run_id, claim.run.deployment) == ("r1~1", "d2")
        received = [e.payload for e in claim.events if e.event_type == "hook_received"]
        assert received == [b"sent while held"]
        hook = await store.get_hook("t1")
        assert hook is not None and hook.run_id == "r1~1"

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_moved_hook_is_never_free_and_its_successor_adopts_it(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        head = (await store.commit(_commit("r1", epoch, head, _hook("h1", "t1")))).head
        s_epoch, s_head = await _started(store, "stranger")

        async def stranger(k: int) -> str:
            clash = _hook(f"x{k}", "t1", slot=k + 1)
            try:
                await store.commit(_commit("stranger", s_epoch, s_head, clash))
            except HookTokenInUseError as exc:
                return exc.run_id
            return "taken"

        # Strangers race the move: each one is refused, by the old run or the successor.
        results = await asyncio.gather(
            *(stranger(k) for k in range(5)),
            store.commit(_continued("r1", epoch, head)),
            *(stranger(k) for k in range(5, 10)),
        )
        holders = [r for r in results if isinstance(r, str)]
        assert len(holders) == 10 and set(holders) <= {"r1", "r1~1"}, holders
        assert await store.list_hooks("stranger") == []
        # Bound to the run that held it, a payload is refused once the hook moved on ...
        with pytest.raises(NotFoundError):
            await store.resume_hook("t1", b"p0", run_id="r1")
        # ... and sent after the move it is delivered to the successor, under the moved
        # hook's id.
        await store.resume_hook("t1", b"p1", run_id="r1~1")
        epoch, head = await _claim(store, "r1~1")
        received = [e for e in await store.list_events("r1~1") if e.event_type == "hook_received"]
        assert [(e.correlation_id, e.payload) for e in received] == [("h1", b"p1")]
        # Another hook id for the token is refused; the moved hook's own id adopts it.
        with pytest.raises(HookTokenInUseError):
            await store.commit(_commit("r1~1", epoch, head, _hook("h2", "t1", slot=1)))
        await store.commit(_commit("r1~1", epoch, head, _hook("h1", "t1", slot=1)))
        hook = await store.get_hook("t1")
        assert hook is not None and (hook.run_id, hook.hook_id, hook.slot) == ("r1~1", "h1", 1)

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_payloads_the_run_did_not_take_are_carried_once(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        head = (await store.commit(_commit("r1", epoch, head, _hook("h1", "t1")))).head
        await store.resume_hook("t1", b"p1")
        await store.resume_hook("t1", b"p2")
        head += 2
        await store.commit(_continued("r1", epoch, head, carried=(("h1", b"p2"),)))
        await store.resume_hook("t1", b"p3")
        received = [e for e in await store.list_events("r1~1") if e.event_type == "hook_received"]
        assert [(e.correlation_id, e.payload) for e in received] == [
            ("h1", b"p2"), ("h1", b"p3"),
        ]  # fmt: skip
        # A payload for a hook the run does not hold is refused, and nothing is written.
        epoch, head = await _claim(store, "r1~1")
        with pytest.raises(InvalidTransitionError):
            await store.commit(
                _continued("r1~1", epoch, head, chain="r1", generation=2, carried=(("zz", b"x"),))
            )
        assert await store.get_run("r1~2") is None

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_continuation_is_refused_while_a_child_runs(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        child = _new("c1", parent_run_id="r1", parent_slot=1)
        started = NewEvent(event_type="child_started", correlation_id="c1", attrs={"slot": 1})
        head = (await store.commit(_commit("r1", epoch, head, started, start_runs=(child,)))).head
        with pytest.raises(ConflictError):
            await store.commit(_continued("r1", epoch, head))
        run = await store.get_run("r1")
        assert run is not None and run.status == "running" and run.head == head
        assert await store.get_run("r1~1") is None

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_continuation_is_the_next_generation_of_the_chain(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        with pytest.raises(InvalidTransitionError):
            await store.commit(_continued("r1", epoch, head, generation=2))
        with pytest.raises(InvalidTransitionError):
            await store.commit(_continued("r1", epoch, head, successor="elsewhere"))
        with pytest.raises(InvalidTransitionError):  # no continuation, no run_continued
            ending = NewEvent(event_type="run_continued", correlation_id="r1~1")
            await store.commit(_commit("r1", epoch, head, ending, release=True))
        await store.create_run(_new("r1~1"))  # someone took the successor's id
        with pytest.raises(ConflictError):
            await store.commit(_continued("r1", epoch, head))
        run = await store.get_run("r1")
        assert run is not None and run.status == "running" and run.head == head
        # A successor of a run still going is made by that run's continuation only.
        with pytest.raises(ConflictError):
            await store.create_run(_new("r1~2", chain_id="r1", generation=1))
        with pytest.raises(NotFoundError):
            await store.create_run(_new("r9~1", chain_id="r9", generation=1))

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_cancel_of_a_continued_run_cancels_its_chain(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        await store.commit(_continued("r1", epoch, head))
        epoch, head = await _claim(store, "r1~1")
        await store.commit(_continued("r1~1", epoch, head, chain="r1", generation=2))
        cancelled = await store.request_cancel("r1", reason="stop")
        assert (cancelled.run_id, cancelled.status) == ("r1~2", "cancelled")
        statuses = [(await store.get_run(r)).status for r in ("r1", "r1~1", "r1~2")]  # type: ignore[union-attr]
        assert statuses == ["continued", "continued", "cancelled"]
        # Held by a worker, the current run is asked to stop at its next commit instead.
        epoch, head = await _started(store, "h1")
        await store.commit(_continued("h1", epoch, head))
        epoch, head = await _claim(store, "h1~1")
        asked = await store.request_cancel("h1")
        assert (asked.run_id, asked.status) == ("h1~1", "running")
        tail = await store.list_events("h1~1", after=head)
        assert [e.event_type for e in tail] == ["cancel_requested"]

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_child_chain_ends_under_the_id_its_parent_started(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "p")
        child = _new("c", parent_run_id="p", parent_slot=1)
        started = NewEvent(event_type="child_started", correlation_id="c", attrs={"slot": 1})
        p_head = (await store.commit(_commit("p", epoch, head, started, start_runs=(child,)))).head
        c_epoch, c_head = await _claim(store, "c")
        await store.commit(_continued("c", c_epoch, c_head))
        assert await store.list_events("p", after=p_head) == []  # not the child's end
        successor = await store.get_run("c~1")
        assert successor is not None and (successor.parent_run_id, successor.parent_slot) == (
            "p",
            1,
        )
        c_epoch, c_head = await _claim(store, "c~1")
        done = NewEvent(event_type="run_completed", payload=b"out")
        await store.commit(_commit("c~1", c_epoch, c_head, done))
        tail = await store.list_events("p", after=p_head)
        assert [(e.event_type, e.correlation_id, e.payload) for e in tail] == [
            ("child_completed", "c", b"out")
        ]

    @requires(Capability.HOOK_RETENTION)
    async def test_released_tokens_are_retained_for_their_chain(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        head = (await store.commit(_commit("r1", epoch, head, _hook("h1", "t1")))).head
        before = await store.clock()
        await store.commit(_commit("r1", epoch, head, NewEvent(event_type="run_completed")))
        assert await store.get_hook("t1") is None and await store.list_hooks() == []
        with pytest.raises(NotFoundError):
            await store.resume_hook("t1", b"late")
        s_epoch, s_head = await _started(store, "stranger")
        with pytest.raises(HookTokenInUseError) as refused:
            await store.commit(_commit("stranger", s_epoch, s_head, _hook("x", "t1")))
        assert refused.value.run_id == "r1" and refused.value.retained_until is not None
        assert refused.value.retained_until > before + 3600  # the default is 30 days
        # The chain starts again: its next run may take the token it retains.
        with pytest.raises(ConflictError):  # not the next generation
            await store.create_run(_new("r1~2", chain_id="r1", generation=2))
        await store.create_run(_new("r1~1", chain_id="r1", generation=1))
        with pytest.raises(ConflictError):  # the chain is going again
            await store.create_run(_new("r1~2", chain_id="r1", generation=2))
        epoch, head = await _claim(store, "r1~1")
        await store.commit(_commit("r1~1", epoch, head, _hook("h9", "t1")))
        hook = await store.get_hook("t1")
        assert hook is not None and (hook.run_id, hook.hook_id) == ("r1~1", "h9")
        latest = await store.latest_run("r1")
        assert latest is not None and (latest.run_id, latest.generation) == ("r1~1", 1)

    @requires(Capability.HOOK_RETENTION)
    async def test_retained_tokens_are_free_after_the_window(
        self, backend: Any, retention_store: WorkflowStore
    ) -> None:
        store = retention_store
        epoch, head = await _started(store, "r1")
        head = (await store.commit(_commit("r1", epoch, head, _hook("h1", "t1")))).head
        await store.commit(_commit("r1", epoch, head, NewEvent(event_type="run_failed")))
        s_epoch, s_head = await _started(store, "stranger")
        with pytest.raises(HookTokenInUseError):
            await store.commit(_commit("stranger", s_epoch, s_head, _hook("x", "t1")))
        deadline = time.monotonic() + 10
        while True:
            await asyncio.sleep(SHORT_RETENTION / 2)
            try:
                await store.commit(_commit("stranger", s_epoch, s_head, _hook("x", "t1")))
                break
            except HookTokenInUseError:
                assert time.monotonic() < deadline, "the token was never freed"
        hook = await store.get_hook("t1")
        assert hook is not None and hook.run_id == "stranger"
        await store.resume_hook("t1", b"mine")
        tail = await store.list_events("stranger", after=s_head + 1)
        assert [(e.event_type, e.payload) for e in tail] == [("hook_received", b"mine")]
