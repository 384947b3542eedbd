"""Contract of run listings: keyset pages, chains with their current run, hooks by run.

Part of `WorkflowStoreContract`. Every backend pages `list_runs` and `list_chains` by
the key of the last row listed: runs created between two pages land before the
first page, never inside a later one, and a run that drops out of a listing (its
labels purged) shifts nothing. A row count (an earlier release's cursor) still reads
as an offset; any other cursor is an `InvalidInputError`. `list_chains` lists first
runs only, each with the current run of its chain. `list_hooks(run_id)` returns that
run's active hooks only.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from ...errors import InvalidInputError
from ...stores import Capability, Page, WorkflowStore
from ._chains import _commit, _continued, _hook, _new, _started
from ._markers import requires

__all__ = ["ListingContract"]

#: Filters of `list_runs` each paging test runs under (runs are made to match them).
_FILTERS: list[dict[str, Any]] = [
    {},
    {"labels": {"tenant": "acme"}},
    {"labels": {"tenant": "acme", "kind": "a"}},
    {"workflow_name": "wf"},
    {"status": "pending", "workflow_name": "wf", "labels": {"tenant": "acme"}},
]


async def _runs(store: WorkflowStore, first: int, count: int) -> None:
    for n in range(first, first + count):
        # Ids rise with creation: ties of the creation time order the same way.
        await store.create_run(_new(f"r{n:03d}", labels={"tenant": "acme", "kind": "a"}))


def _ids(page: Page[Any]) -> list[str]:
    return [getattr(item, "first", item).run_id for item in page.items]


class ListingContract:
    """Keyset pages of runs and chains, hooks of one run; mixed into `WorkflowStoreContract`."""

    @pytest.mark.parametrize("filters", _FILTERS, ids=lambda f: "-".join(f) or "all")
    async def test_runs_created_between_pages_never_shift_a_later_page(
        self, store: WorkflowStore, filters: dict[str, Any]
    ) -> None:
        await _runs(store, 0, 10)
        first = await store.list_runs(limit=4, **filters)
        assert _ids(first) == ["r009", "r008", "r007", "r006"] and first.next_cursor
        await _runs(store, 10, 5)  # newer than every run listed so far
        second = await store.list_runs(limit=4, cursor=first.next_cursor, **filters)
        assert _ids(second) == ["r005", "r004", "r003", "r002"]
        await _runs(store, 15, 3)
        last = await store.list_runs(limit=4, cursor=second.next_cursor, **filters)
        assert _ids(last) == ["r001", "r000"] and last.next_cursor is None
        # The new runs are on a first page read now, newest first.
        fresh = await store.list_runs(limit=8, **filters)
        assert _ids(fresh) == [f"r{n:03d}" for n in range(17, 9, -1)]

    async def test_a_page_ends_exactly_at_the_last_run_without_a_cursor(
        self, store: WorkflowStore
    ) -> None:
        await _runs(store, 0, 6)
        for filters in _FILTERS:
            page = await store.list_runs(limit=3, **filters)
            rest = await store.list_runs(limit=3, cursor=page.next_cursor, **filters)
            assert _ids(rest) == ["r002", "r001", "r000"] and rest.next_cursor is None
            assert (await store.list_runs(limit=6, **filters)).next_cursor is None

    async def test_a_run_leaving_a_listing_between_pages_shifts_nothing(
        self, store: WorkflowStore
    ) -> None:
        await _runs(store, 0, 8)
        labels = {"tenant": "acme"}
        first = await store.list_runs(limit=3, labels=labels)
        assert _ids(first) == ["r007", "r006", "r005"]
        # The last run listed and the first one of the next page lose their labels.
        await store.purge_run_content("r005")
        await store.purge_run_content("r004")
        second = await store.list_runs(limit=3, labels=labels, cursor=first.next_cursor)
        assert _ids(second) == ["r003", "r002", "r001"]

    async def test_a_row_count_cursor_of_earlier_releases_is_an_offset(
        self, store: WorkflowStore
    ) -> None:
        await _runs(store, 0, 7)
        for filters in _FILTERS:
            page = await store.list_runs(limit=2, cursor="3", **filters)
            assert _ids(page) == ["r003", "r002"]
            # Its next page is by key again.
            assert page.next_cursor is not None and not page.next_cursor.isdigit()
            rest = await store.list_runs(limit=5, cursor=page.next_cursor, **filters)
            assert _ids(rest) == ["r001", "r000"] and rest.next_cursor is None
        chains = await store.list_chains(limit=2, cursor="5")
        assert _ids(chains) == ["r001", "r000"] and chains.next_cursor is None

    @pytest.mark.parametrize(
        "cursor",
        [
            "next",
            "-3",
            "2.5",
            "k1.",
            "k1.%%%",
            "k1." + base64.urlsafe_b64encode(b"[1.5]").decode(),
            "k1." + base64.urlsafe_b64encode(b'["x", "r1"]').decode(),
            "k1." + base64.urlsafe_b64encode(b'[1.5, ""]').decode(),
            "k1." + base64.urlsafe_b64encode(b"not json").decode(),
        ],
    )
    async def test_a_cursor_no_listing_returned_is_refused(
        self, store: WorkflowStore, cursor: str
    ) -> None:
        await _runs(store, 0, 2)
        with pytest.raises(InvalidInputError, match="cursor"):
            await store.list_runs(cursor=cursor)
        with pytest.raises(InvalidInputError, match="cursor"):
            await store.list_runs(cursor=cursor, labels={"tenant": "acme"})
        with pytest.raises(InvalidInputError, match="cursor"):
            await store.list_chains(cursor=cursor)

    async def test_chains_are_listed_by_their_first_run_with_their_current_run(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("a", labels={"tenant": "acme"}))
        await store.create_run(_new("b"))
        await store.create_run(_new("c", workflow_name="other", labels={"tenant": "acme"}))
        await store.create_run(_new("d", labels={"tenant": "acme"}))
        page = await store.list_chains()
        assert _ids(page) == ["d", "c", "b", "a"] and page.next_cursor is None
        for chain in page.items:  # none continued: each is its own current run
            assert chain.current.run_id == chain.first.run_id
            assert chain.first.input == b"in" and chain.first.generation == 0
        acme = await store.list_chains(labels={"tenant": "acme"})
        assert _ids(acme) == ["d", "c", "a"]
        wf = await store.list_chains(labels={"tenant": "acme"}, workflow_name="wf")
        assert _ids(wf) == ["d", "a"]
        assert _ids(await store.list_chains(workflow_name="other")) == ["c"]
        assert (await store.list_chains(labels={"tenant": "nobody"})).items == ()

    async def test_chains_page_by_key_with_chains_created_between_pages(
        self, store: WorkflowStore
    ) -> None:
        await _runs(store, 0, 7)
        first = await store.list_chains(limit=3, labels={"tenant": "acme"})
        assert _ids(first) == ["r006", "r005", "r004"]
        await _runs(store, 7, 4)
        second = await store.list_chains(
            limit=3, labels={"tenant": "acme"}, cursor=first.next_cursor
        )
        assert _ids(second) == ["r003", "r002", "r001"]
        last = await store.list_chains(
            limit=3, labels={"tenant": "acme"}, cursor=second.next_cursor
        )
        assert _ids(last) == ["r000"] and last.next_cursor is None
        unlabeled = await store.list_chains(limit=5, cursor=first.next_cursor)
        assert _ids(unlabeled) == ["r003", "r002", "r001", "r000"]

    @requires(Capability.CONTINUE_AS_NEW)
    async def test_a_continued_chain_is_listed_once_with_its_latest_run(
        self, backend: Any, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("early", labels={"tenant": "acme"}))
        epoch, head = await _started(store, "r1")
        await store.commit(_continued("r1", epoch, head))
        claim = await store.claim_run("r1~1", owner="w1", lease_seconds=30)
        assert claim.outcome == "claimed" and claim.run is not None
        await store.commit(
            _continued("r1~1", claim.epoch, claim.run.head, chain="r1", generation=2)
        )
        await store.create_run(_new("late"))
        page = await store.list_chains(limit=10)
        assert _ids(page) == ["late", "r1", "early"]
        r1 = page.items[1]
        assert (r1.first.run_id, r1.first.status) == ("r1", "continued")
        assert (r1.current.run_id, r1.current.generation) == ("r1~2", 2)
        assert r1.current.input == b"next" and r1.first.input == b"in"
        latest = await store.latest_run("r1")
        assert latest is not None and r1.current == latest
        # A page boundary on the continued chain: the next page starts after its first run.
        top = await store.list_chains(limit=2)
        assert _ids(top) == ["late", "r1"]
        rest = await store.list_chains(limit=2, cursor=top.next_cursor)
        assert _ids(rest) == ["early"] and rest.next_cursor is None
        # A chain started again after its end: the restart is its current run.
        await store.request_cancel("r1~2")
        await store.create_run(_new("r1~3", chain_id="r1", generation=3, input=b"again"))
        (_, again, _) = (await store.list_chains()).items
        assert (again.first.run_id, again.current.run_id) == ("r1", "r1~3")
        # The later runs are in the run listing, not the chain listing.
        assert "r1~3" in _ids(await store.list_runs(limit=10))

    async def test_hooks_of_one_run_are_that_runs_active_hooks_in_slot_order(
        self, store: WorkflowStore
    ) -> None:
        epoch, head = await _started(store, "r1")
        head = (await store.commit(_commit("r1", epoch, head, _hook("h2", "t2", 3)))).head
        await store.commit(_commit("r1", epoch, head, _hook("h1", "t1", 4)))
        epoch2, head2 = await _started(store, "r2")
        await store.commit(_commit("r2", epoch2, head2, _hook("h3", "t3", 2)))
        await _started(store, "r3")
        assert [(h.token, h.slot) for h in await store.list_hooks("r1")] == [("t2", 3), ("t1", 4)]
        assert [h.token for h in await store.list_hooks("r2")] == ["t3"]
        assert await store.list_hooks("r3") == [] and await store.list_hooks("nobody") == []
        every = [(h.run_id, h.token) for h in await store.list_hooks()]
        assert every == [("r1", "t2"), ("r1", "t1"), ("r2", "t3")]
        # A run's end disposes of its hooks: they are no longer active.
        await store.release_run("r1", owner="w1", epoch=epoch)
        await store.request_cancel("r1")
        assert await store.list_hooks("r1") == []
        assert [h.token for h in await store.list_hooks()] == ["t3"]
