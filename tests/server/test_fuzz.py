"""Fuzzing every operation of the served OpenAPI document (schemathesis + hypothesis).

No answer is a 5xx, every error is problem details, and a rejected request commits
nothing: the store's content (every table, fingerprinted) is the same after it. The
server runs without a worker so that only requests change the store.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest
import schemathesis
from _served import TOKENS, Served, start_served
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st


@pytest.fixture
async def quiet(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    async for s in start_served(*db, worker=False):
        yield s


class Fingerprint:
    """A digest of every row of every table of the store (one connection, reused)."""

    def __init__(self, served: Served) -> None:
        self.namespace = served.namespace
        if served.namespace is None:
            path = served.db_url.removeprefix("sqlite:///")
            self.lite = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            names = self.lite.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
            self.queries = [f'SELECT * FROM "{n[0]}" ORDER BY 1' for n in names]
        else:
            self.pg = psycopg.connect(served.db_url, autocommit=True)
            names = self.pg.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
                "ORDER BY table_name",
                (served.namespace,),
            ).fetchall()
            self.queries = [
                f'SELECT t::text FROM "{served.namespace}"."{n[0]}" t ORDER BY 1' for n in names
            ]

    def __call__(self) -> str:
        digest = hashlib.sha256()
        for query in self.queries:
            if self.namespace is None:
                rows: Any = self.lite.execute(query)
            else:
                rows = self.pg.execute(query)  # type: ignore[arg-type]
            for row in rows:
                digest.update(repr(row).encode())
        return digest.hexdigest()

    def close(self) -> None:
        if self.namespace is None:
            self.lite.close()
        else:
            self.pg.close()


def fuzz_document(raw: dict[str, Any]) -> dict[str, Any]:
    """The served document, with examples that reach existing objects, and the event
    stream held to `follow=false` (a followed stream does not end by itself)."""
    doc = copy.deepcopy(raw)
    for path in doc["paths"].values():
        for op in path.values():
            for param in op.get("parameters", []):
                if param["name"] == "session_id":
                    param["examples"] = {"known": {"value": "s1"}}
                if param["name"] == "follow":
                    param["required"] = True
                    param["schema"] = {"enum": [False]}
    return doc


@pytest.mark.slow
async def test_fuzz_the_openapi_document(quiet: Served) -> None:
    served = quiet
    await served.session("s1")
    await served.send("s1", "hello", client_message_id="m1")
    raw = (await served.client().get("/v1/openapi.json")).json()
    schema = schemathesis.openapi.from_dict(fuzz_document(raw))
    operations = [op.ok() for op in schema.get_all_operations()]
    assert len(operations) == 20
    # The AI SDK and AG-UI routes stream a turn until it ends: without a worker they
    # would wait (tests/server/test_agui.py covers their refusals).
    operations = [
        op for op in operations if "/ui/aisdk/" not in op.path and "/agui/" not in op.path
    ]
    seen: dict[int, int] = {}
    fingerprint = Fingerprint(served)

    def run() -> None:
        who = st.sampled_from([TOKENS["ada"][0], TOKENS["eve"][0], "forged-token-000000"])
        for operation in operations:

            @settings(
                max_examples=20 if served.namespace is None else 8,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
                database=None,
                # The same examples every run: with 8 per operation on Postgres, a random
                # draw sometimes held no request that passes authentication but fails
                # validation, and the check below failed (seen in a full run).
                derandomize=True,
            )
            @given(case=operation.as_strategy(), token=who)
            def check(case: Any, token: str) -> None:
                before = fingerprint()
                response = case.call(
                    base_url=served.url, headers={"Authorization": f"Bearer {token}"}, timeout=10
                )
                seen[response.status_code] = seen.get(response.status_code, 0) + 1
                label = f"{case.method} {case.formatted_path} -> {response.status_code}"
                assert response.status_code < 500, label + response.text
                if response.status_code >= 400:
                    kind = response.headers.get("content-type")
                    kind = kind[0] if isinstance(kind, list) else kind
                    assert kind == "application/problem+json", label
                    assert response.json()["status"] == response.status_code
                    assert fingerprint() == before, "a rejected request wrote: " + label

            check()

    try:
        await asyncio.to_thread(run)
    finally:
        fingerprint.close()
    # The fuzzer reached past authentication and validation.
    assert seen.get(401) and seen.get(404) and seen.get(422)
    assert any(200 <= status < 300 for status in seen), seen
