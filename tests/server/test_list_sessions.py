"""``GET /v1/sessions`` lists the caller's tenant's sessions, page by page, over HTTP."""

from __future__ import annotations

from typing import Any

from _served import Served


async def _pages(served: Served, who: str, limit: int) -> tuple[list[str], int]:
    ids: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        params: dict[str, Any] = {"limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        r = await served.client(who).get("/v1/sessions", params=params)
        assert r.status_code == 200, r.text
        body = r.json()
        assert len(body["items"]) <= limit
        assert all(i["owner"] == ("acme" if who != "eve" else "evil") for i in body["items"])
        ids += [i["session_id"] for i in body["items"]]
        pages += 1
        cursor = body["next_cursor"]
        if cursor is None:
            return ids, pages


async def test_list_pages_through_the_tenants_sessions_only(served: Served) -> None:
    acme: list[str] = []
    evil: list[str] = []
    # Interleaved: the other tenant's sessions sit between this tenant's, newest first.
    for n in range(12):
        if n % 3 == 0:
            who = "ada" if n % 2 == 0 else "bob"  # both of tenant acme
            acme.append(f"a{n:02d}")
            await served.session(acme[-1], who=who)
        else:
            evil.append(f"e{n:02d}")
            await served.session(evil[-1], who="eve")
    ids, pages = await _pages(served, "ada", limit=2)
    assert ids == list(reversed(acme)) and pages == 2
    ids, pages = await _pages(served, "bob", limit=3)
    assert ids == list(reversed(acme)) and pages == 2
    ids, pages = await _pages(served, "eve", limit=3)
    assert ids == list(reversed(evil)) and pages == 3
    r = await served.client().get("/v1/sessions", params={"limit": 2, "agent": "ops"})
    assert [i["session_id"] for i in r.json()["items"]] == list(reversed(acme))[:2]


async def test_a_cursor_no_listing_gave_is_a_422_and_an_old_row_count_still_pages(
    served: Served,
) -> None:
    for n in range(4):
        await served.session(f"a{n}", who="ada")
    r = await served.client("ada").get("/v1/sessions", params={"cursor": "page-2"})
    assert r.status_code == 422, r.text
    assert "cursor" in r.text
    # A row count (the cursor of earlier releases) skips that many sessions.
    r = await served.client("ada").get("/v1/sessions", params={"cursor": "1", "limit": 2})
    assert r.status_code == 200, r.text
    assert [i["session_id"] for i in r.json()["items"]] == ["a2", "a1"]
    again = await served.client("ada").get(
        "/v1/sessions", params={"cursor": r.json()["next_cursor"], "limit": 2}
    )
    assert [i["session_id"] for i in again.json()["items"]] == ["a0"]
