"""`tether serve`'s side: the admitting request's span, ``GET /metrics`` behind auth."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from _telemetry import Telemetry
from opentelemetry.propagate import inject
from opentelemetry.trace import SpanKind

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from _served import Served, start_served


@pytest.fixture
async def served(db: tuple[str, str | None], telemetry: Telemetry) -> AsyncIterator[Served]:
    async for s in start_served(*db, metrics=True):
        yield s


async def test_the_request_that_admits_a_message_is_the_parent_of_its_turn(
    served: Served, telemetry: Telemetry
) -> None:
    await served.session("t1")
    headers: dict[str, str] = {}
    with telemetry.tracer.start_as_current_span("browser", kind=SpanKind.CLIENT) as browser:
        inject(headers)  # the W3C traceparent header a traced client sends
    r = await served.client().post(
        "/v1/sessions/t1/messages", json={"text": "check db"}, headers=headers
    )
    assert r.status_code == 202, r.text
    (turn,) = await telemetry.wait_for("invoke_agent ops")
    (post,) = telemetry.spans("POST /v1/sessions/{id}/messages")
    origin = browser.get_span_context()
    assert post.kind is SpanKind.SERVER
    assert post.parent is not None and post.parent.span_id == origin.span_id
    assert post.attributes is not None and post.attributes["http.response.status_code"] == 202
    assert turn.context.trace_id == origin.trace_id
    assert turn.parent is not None and turn.parent.span_id == post.context.span_id
    (ran,) = telemetry.spans("execute_tool slow_check")
    assert ran.context.trace_id == origin.trace_id


async def test_metrics_are_prometheus_text_for_an_authenticated_caller(
    served: Served, telemetry: Telemetry
) -> None:
    await served.session("t2")
    await served.send("t2", "hello")
    await served.events("t2", until="turn.completed")
    await telemetry.wait_for("invoke_agent ops")
    anonymous = httpx.AsyncClient(base_url=served.url)
    try:
        refused = await anonymous.get("/metrics")
    finally:
        await anonymous.aclose()
    assert refused.status_code == 401
    r = await served.client().get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    samples = {
        line.split("{")[0].split(" ")[0]: line
        for line in r.text.splitlines()
        if line and not line.startswith("#")
    }
    assert "tether_steps_total" in samples
    assert "tether_turns_total" in samples
    assert "tether_step_duration_seconds_bucket" in samples
    assert "tether_turn_duration_seconds_count" in samples
    assert 'tether_turn_outcome="completed"' in r.text
    documented = (await served.client().get("/v1/openapi.json")).json()["paths"]["/metrics"]
    assert list(documented["get"]["responses"]["200"]["content"]) == ["text/plain"]


async def test_metrics_are_not_found_unless_asked_for(db: tuple[str, str | None]) -> None:
    async for served in start_served(*db):
        r = await served.client().get("/metrics")
        assert r.status_code == 404
        assert "ServerOptions(metrics=True)" in r.json()["detail"]


def test_asking_for_metrics_without_the_extra_says_what_to_install(tmp_path: Path) -> None:
    # A process where the Prometheus exporter cannot be imported, as without the extra.
    code = (
        "import sys, asyncio\n"
        "sys.modules['opentelemetry.exporter.prometheus'] = None\n"
        "import tether\n"
        "from tether.agent import Agent, Agents\n"
        "from tether.testing import ScriptedModel\n"
        "from tether.errors import MissingExtraError\n"
        "from tether.server import ServerOptions, create_app\n"
        "async def main():\n"
        f"    async with tether.open_backend('sqlite:///{tmp_path}/x.db') as b:\n"
        "        try:\n"
        "            agents = Agents([Agent(name='a', model=ScriptedModel([]))])\n"
        "            create_app(agents, backend=b, no_auth=True,\n"
        "                       options=ServerOptions(metrics=True))\n"
        "        except MissingExtraError as e:\n"
        "            print(e)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "pip install 'tether[otel]'" in done.stdout
    assert "opentelemetry-exporter-prometheus" in done.stdout


async def test_the_inspector_links_a_run_to_its_trace(
    db: tuple[str, str | None], telemetry: Telemetry
) -> None:
    template = "http://jaeger:16686/trace/{trace_id}?uiFind={span_id}"
    async for served in start_served(*db, operators=("ada@acme",), trace_url=template):
        with telemetry.tracer.start_as_current_span("caller") as caller:
            await served.host.open_session("ops", session_id="traced", owner="acme")
        origin = caller.get_span_context()
        trace_id, span_id = f"{origin.trace_id:032x}", f"{origin.span_id:016x}"
        r = await served.client().get("/v1/inspect/runs/session:traced")
        assert r.status_code == 200, r.text
        assert r.json()["run"]["trace"] == {
            "trace_id": trace_id,
            "span_id": span_id,
            "url": f"http://jaeger:16686/trace/{trace_id}?uiFind={span_id}",
        }
        listed = await served.client().get("/v1/inspect/sessions/traced")
        assert listed.json()["runs"][0]["trace"]["trace_id"] == trace_id
