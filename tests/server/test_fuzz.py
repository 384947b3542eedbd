"""Fuzzing every operation of the served OpenAPI document (schemathesis + hypothesis).

`test_fuzz_the_openapi_document`: no answer is a 5xx, every error is problem details,
and a rejected request commits nothing: the store's content (every table,
fingerprinted) is the same after it. The server runs without a worker so that only
requests change the store.

`test_the_document_is_exact`: schemathesis' own run (its examples, coverage and
fuzzing phases, positive and negative data) against a server with a worker finds no
request the document allows refused, none it refuses accepted, no method it does not
list answered with anything but 405 and ``Allow``, and every answer as documented.
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
from schemathesis import engine
from schemathesis.engine import events


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
    assert len(operations) == 54
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
            # Requests the document allows and requests it refuses (422 since the
            # document states every bound the handlers check).
            cases = st.one_of(
                operation.as_strategy(),
                operation.as_strategy(generation_mode=schemathesis.GenerationMode.NEGATIVE),
            )

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
            @given(case=cases, token=who)
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


# -- the document is exact --------------------------------------------------------------
#: Sessions the fuzzer is steered to, besides random ids (404).
KNOWN = ("s1", "s2", "parked")


def steered(raw: dict[str, Any], request_id: str) -> dict[str, Any]:
    """The served document, its ids steered to existing sessions (and the parked one's
    approval) about half the time."""
    doc = copy.deepcopy(raw)
    known = {"request_id": [request_id]} | {
        name: list(KNOWN) for name in ("session_id", "chat_id", "thread_id")
    }
    for path in doc["paths"].values():
        for op in path.values():
            for param in op.get("parameters", []):
                if param["name"] in known:
                    param["schema"] = {"anyOf": [{"enum": known[param["name"]]}, param["schema"]]}
    return doc


#: What a request the document allows may meet: success, or what the document cannot
#: know about the store (an unknown id, a conflict with a session's state, content
#: deleted: a session the fuzzer opened with retention 0 and closed answers its reads
#: 410 once its run has ended, sooner or later as the worker goes).
ACCEPTED = ["2xx", "404", "409", "410"]
#: What a request the document refuses gets: 422, 413 for a body over its limit (a
#: text longer than the document allows is), 415 for a body of no listed media type,
#: 401 without a token, 404 for a path that names nothing.
REFUSED = ["401", "404", "413", "415", "422"]


def fuzz_config(url: str, examples: int) -> Any:
    return schemathesis.Config.from_dict(
        {
            "base-url": url,
            "headers": {"Authorization": f"Bearer {TOKENS['ada'][0]}"},
            "request-timeout": 10,
            # A followed event stream ends with its session: every request reads what
            # is there (the parameter, fixed, is not fuzzed).
            "parameters": {"query.follow": "false"},
            "seed": 20260101,  # the same cases every run
            "generation": {
                "mode": "all",
                "max-examples": examples,
                "allow-x00": False,
                "deterministic": True,
            },
            "phases": {"stateful": {"enabled": False}},
            "checks": {
                "positive_data_acceptance": {"expected-statuses": ACCEPTED},
                "negative_data_rejection": {"expected-statuses": REFUSED},
            },
            "operations": [
                # The UI adapters' runs take bodies the document cannot tell from refused
                # ones (the last message must be the user's, or answer approvals): only
                # their refusals are held to the document.
                {
                    "include-operation-id": ["aisdkChat", "aguiRun"],
                    "generation": {"mode": "negative"},
                    "checks": {"positive_data_acceptance": {"enabled": False}},
                },
                # The OAuth callback's state is single-use and random: the document cannot
                # tell one pending from one spent, so only its refusals are held to it.
                {
                    "include-operation-id": "oauthCallback",
                    "checks": {"positive_data_acceptance": {"enabled": False}},
                },
                # Going on after an index waits for the thread's next run to end
                # (tests/server/test_agui.py covers it).
                {"include-operation-id": "aguiStream", "enabled": False},
            ],
        }
    )


def run_engine(schema: Any) -> tuple[list[str], dict[int, int], set[str]]:
    """Every failure schemathesis found (its phases: examples, coverage, fuzzing), the
    statuses seen, and the operations tested."""
    failures: list[str] = []
    statuses: dict[int, int] = {}
    tested: set[str] = set()
    for event in engine.from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            tested.add(event.recorder.label)
            for checks in event.recorder.checks.values():
                for check in checks:
                    if check.failure_info is not None:
                        failure = check.failure_info.failure
                        sample = check.failure_info.code_sample
                        failures.append(
                            f"[{event.phase.value}] {event.recorder.label}: {failure.title}\n"
                            f"{failure.message[:1000]}\n{sample[:1000]}"
                        )
            for interaction in event.recorder.interactions.values():
                if interaction.response is not None:
                    code = interaction.response.status_code
                    statuses[code] = statuses.get(code, 0) + 1
        elif isinstance(event, events.NonFatalError | events.FatalError):
            failures.append(f"error: {event!r}")
    return failures, statuses, tested


@pytest.fixture
async def sqlite_served(tmp_path: Any) -> AsyncIterator[Served]:
    # ada, whose token the engine sends, is an operator: the schedules' routes are tested
    # past their 403.
    async for s in start_served(f"sqlite:///{tmp_path}/tether.db", None, operators=("ada@acme",)):
        yield s


@pytest.mark.slow
async def test_the_document_is_exact(sqlite_served: Served) -> None:
    """Schemathesis finds no request the document allows refused (positive data
    acceptance), none it refuses accepted (negative data rejection, unsupported
    methods: 405 with Allow), no 5xx, and every answer as documented."""
    served = sqlite_served
    for session_id in KNOWN:
        await served.session(session_id)
    await served.send("s1", "hello")
    await served.send("parked", "restart api")
    request_id = (await served.events("parked", until="input.requested"))[-1]["data"]["request"][
        "request_id"
    ]
    raw = (await served.client().get("/v1/openapi.json")).json()
    schema = schemathesis.openapi.from_dict(
        steered(raw, request_id), config=fuzz_config(served.url, examples=10)
    )

    @schema.hook
    def filter_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> bool:
        # schemathesis sends a path value's "#" and "?" unescaped: the URL then ends
        # there, and the server (rightly) answers for the path that is left.
        return not any(c in str(v) for v in (path_parameters or {}).values() for c in "#?")

    failures, statuses, tested = await asyncio.to_thread(run_engine, schema)
    assert not failures, "\n\n".join(failures)
    # Every operation was tested (but one), and the cases reached past validation.
    assert len(tested) == len([op for path in raw["paths"].values() for op in path]) - 1, tested
    assert statuses.get(405) and statuses.get(422) and statuses.get(404), statuses
    assert sum(n for code, n in statuses.items() if 200 <= code < 300) > 50, statuses
