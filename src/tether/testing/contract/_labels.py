"""Contract of run labels: clear-text metadata set at creation, filtered on by the store.

Part of `WorkflowStoreContract`. Every backend keeps the same rules: labels are checked
alike (`InvalidInputError`, nothing written), `list_runs(labels=...)` returns the runs
carrying every given label, newest first, paged like any listing; a chain's later runs
keep its labels, a child run does not inherit them; purging a run's content deletes
its labels.
"""

from __future__ import annotations

from typing import Any

import pytest

from ...errors import InvalidInputError, NotFoundError
from ...stores import (
    Capability,
    Commit,
    Continuation,
    NewEvent,
    RunRecord,
    WorkflowStore,
)
from ._chains import _new
from ._markers import requires

__all__ = ["LabelContract"]


async def _all(store: WorkflowStore, limit: int, **filters: Any) -> list[str]:
    """Every page of a listing, in order, as run ids."""
    ids: list[str] = []
    cursor: str | None = None
    while True:
        page = await store.list_runs(limit=limit, cursor=cursor, **filters)
        assert len(page.items) <= limit
        ids += [r.run_id for r in page.items]
        cursor = page.next_cursor
        if cursor is None:
            return ids


class LabelContract:
    """Run labels; mixed into `WorkflowStoreContract`."""

    async def test_labels_are_kept_with_the_run(self, store: WorkflowStore) -> None:
        created, _ = await store.create_run(_new("r1", labels={"tenant": "acme", "kind": "a"}))
        assert dict(created.labels) == {"tenant": "acme", "kind": "a"}
        read = await store.get_run("r1")
        assert read is not None and dict(read.labels) == {"tenant": "acme", "kind": "a"}
        (listed,) = (await store.list_runs()).items
        assert dict(listed.labels) == {"tenant": "acme", "kind": "a"}
        bare, _ = await store.create_run(_new("r2"))
        assert dict(bare.labels) == {}

    async def test_list_by_one_label_and_by_two_newest_first(self, store: WorkflowStore) -> None:
        # Ids rise with creation: ties of the creation time order the same way.
        plan = [
            ("r01", {"tenant": "acme", "kind": "a"}),
            ("r02", {"tenant": "other", "kind": "a"}),
            ("r03", {"tenant": "acme"}),
            ("r04", {}),
            ("r05", {"tenant": "acme", "kind": "b"}),
            ("r06", {"tenant": "acme", "kind": "a"}),
            ("r07", {"kind": "a"}),
        ]
        for run_id, labels in plan:
            await store.create_run(_new(run_id, labels=labels))
        acme = await store.list_runs(labels={"tenant": "acme"})
        assert [r.run_id for r in acme.items] == ["r06", "r05", "r03", "r01"]
        assert acme.next_cursor is None
        both = await store.list_runs(labels={"tenant": "acme", "kind": "a"})
        assert [r.run_id for r in both.items] == ["r06", "r01"]
        # The key must match with its value, not any label's value.
        assert (await store.list_runs(labels={"tenant": "a"})).items == ()
        assert [r.run_id for r in (await store.list_runs(labels={})).items] == [
            r for r, _ in reversed(plan)
        ]

    async def test_label_filters_combine_with_status_and_workflow(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("r1", labels={"t": "x"}))
        await store.create_run(_new("r2", workflow_name="other", labels={"t": "x"}))
        await store.create_run(_new("r3", labels={"t": "x"}))
        claim = await store.claim_run("r3", owner="w1", lease_seconds=30)
        assert claim.outcome == "claimed"
        by_workflow = await store.list_runs(labels={"t": "x"}, workflow_name="wf")
        assert [r.run_id for r in by_workflow.items] == ["r3", "r1"]
        pending = await store.list_runs(labels={"t": "x"}, status="pending")
        assert [r.run_id for r in pending.items] == ["r2", "r1"]
        running = await store.list_runs(labels={"t": "x"}, status="running", workflow_name="wf")
        assert [r.run_id for r in running.items] == ["r3"]

    async def test_labeled_listings_page_with_a_cursor(self, store: WorkflowStore) -> None:
        wanted: list[str] = []
        for n in range(12):
            run_id = f"r{n:02d}"
            labels = {"tenant": "acme"} if n % 3 != 1 else {"tenant": "other"}
            if n % 3 != 1:
                wanted.append(run_id)
            await store.create_run(_new(run_id, labels=labels))
        wanted.reverse()
        for limit in (1, 3, 8, 100):
            assert await _all(store, limit, labels={"tenant": "acme"}) == wanted
        first = await store.list_runs(labels={"tenant": "acme"}, limit=len(wanted))
        assert first.next_cursor is None and len(first.items) == len(wanted)

    async def test_no_run_matches(self, store: WorkflowStore) -> None:
        await store.create_run(_new("r1", labels={"tenant": "acme"}))
        page = await store.list_runs(labels={"tenant": "nobody"})
        assert page.items == () and page.next_cursor is None
        assert (await store.list_runs(labels={"absent": "acme"})).items == ()

    @pytest.mark.parametrize(
        "labels",
        [
            {"": "v"},
            {"k": ""},
            {"k\x00": "v"},
            {"k": "v\x00"},
            {"k": "x" * 600},
            {"k" * 200: "v"},
            {"k": 1},
            {1: "v"},
            {f"k{n}": "v" for n in range(40)},
        ],
    )
    async def test_invalid_labels_are_refused_alike(
        self, store: WorkflowStore, labels: Any
    ) -> None:
        with pytest.raises(InvalidInputError):
            await store.create_run(_new("r1", labels=labels))
        assert await store.get_run("r1") is None
        with pytest.raises(InvalidInputError):
            await store.list_runs(labels=labels)
        await store.create_run(_new("r2"))
        with pytest.raises(InvalidInputError):
            await store.label_run("r2", labels)
        r2 = await store.get_run("r2")
        assert r2 is not None and dict(r2.labels) == {}

    async def test_label_run_adds_labels_idempotently(self, store: WorkflowStore) -> None:
        await store.create_run(_new("r1", labels={"a": "1"}))
        await store.create_run(_new("r2"))
        labeled = await store.label_run("r2", {"tenant": "acme"})
        assert dict(labeled.labels) == {"tenant": "acme"}
        again = await store.label_run("r2", {"tenant": "acme"})
        assert dict(again.labels) == {"tenant": "acme"}
        merged = await store.label_run("r1", {"a": "2", "tenant": "acme"})
        assert dict(merged.labels) == {"a": "2", "tenant": "acme"}
        found = await store.list_runs(labels={"tenant": "acme"})
        assert [r.run_id for r in found.items] == ["r2", "r1"]
        # The replaced value no longer matches.
        assert (await store.list_runs(labels={"a": "1"})).items == ()
        assert [r.run_id for r in (await store.list_runs(labels={"a": "2"})).items] == ["r1"]
        with pytest.raises(NotFoundError):
            await store.label_run("missing", {"a": "1"})

    async def test_purging_content_deletes_labels(self, store: WorkflowStore) -> None:
        await store.create_run(_new("r1", labels={"owner": "ada"}))
        await store.create_run(_new("r2", labels={"owner": "ada"}))
        await store.create_run(_new("r3", labels={"owner": "ada"}))
        await store.purge_run_content("r1")
        r1 = await store.get_run("r1")
        assert r1 is not None and dict(r1.labels) == {} and r1.input is None
        # Keeping the input (the run's identity) keeps the labels that describe it.
        await store.purge_run_content("r2", keep_input=True)
        r2 = await store.get_run("r2")
        assert r2 is not None and dict(r2.labels) == {"owner": "ada"} and r2.input == b"in"
        found = await store.list_runs(labels={"owner": "ada"})
        assert [r.run_id for r in found.items] == ["r3", "r2"]
        await store.purge_run_content("r2")
        found = await store.list_runs(labels={"owner": "ada"})
        assert [r.run_id for r in found.items] == ["r3"]

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_chain_keeps_its_labels_and_children_do_not_inherit(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("r1", labels={"tenant": "acme"}))
        claim = await store.claim_run("r1", owner="w1", lease_seconds=30)
        assert claim.outcome == "claimed" and claim.run is not None
        head = claim.run.head
        child = _new("c1", parent_run_id="r1", parent_slot=1)
        started = NewEvent(event_type="child_started", correlation_id="c1", attrs={"slot": 1})
        commit = Commit(
            run_id="r1", owner="w1", epoch=claim.epoch, expected_head=head,
            events=(started,), start_runs=(child,),
        )  # fmt: skip
        await store.commit(commit)
        await store.request_cancel("c1")
        c1 = await store.get_run("c1")
        assert c1 is not None and dict(c1.labels) == {}
        parent = await store.get_run("r1")  # the child's end was appended to its log
        assert parent is not None
        head = parent.head
        # The successor keeps the chain's labels and adds its own.
        successor = _new("r1~1", chain_id="r1", generation=1, labels={"step": "2"})
        ending = NewEvent(event_type="run_continued", correlation_id="r1~1")
        end = Commit(
            run_id="r1", owner="w1", epoch=claim.epoch, expected_head=head,
            events=(ending,), release=True, continuation=Continuation(run=successor),
        )  # fmt: skip
        await store.commit(end)
        new = await store.get_run("r1~1")
        assert new is not None and dict(new.labels) == {"tenant": "acme", "step": "2"}
        found = await store.list_runs(labels={"tenant": "acme"})
        assert [r.run_id for r in found.items] == ["r1~1", "r1"]
        # A chain started again after its end keeps them too.
        await store.request_cancel("r1~1")
        restarted, _ = await store.create_run(_new("r1~2", chain_id="r1", generation=2))
        assert dict(restarted.labels) == {"tenant": "acme", "step": "2"}
        latest: RunRecord | None = await store.latest_run("r1")
        assert latest is not None and latest.run_id == "r1~2"
