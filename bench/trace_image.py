"""A turn's trace as a picture: the spans tether emits, drawn as a timeline.

    python bench/trace_image.py [--out docs/images/trace.png] [--html PATH]

Runs one agent turn on a fresh SQLite store with the OpenTelemetry SDK as the
process's tracer provider (an in-memory exporter): the caller sends the message inside
a span of its own, the model calls a tool, then the sleep tool (a durable sleep of one
second: the turn parks), then answers. The spans of that trace are drawn as a
timeline (one row each, indented under its parent, a bar from its start to its end,
its name, duration and main attributes beside it) in a page of plain HTML, and the
page is screenshot in the system's headless Chromium (playwright, no download).

The picture in the observability guide (docs/images/trace.png) is this script's output.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import tempfile
from collections.abc import Sequence
from pathlib import Path

from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import tether
from tether.agent import Agent, AgentHost, Agents, sleep_tool, tool
from tether.agent.models import ModelRequest, ToolResultMessage, Usage
from tether.testing import Reply, ScriptedModel, tool_call

CHROMIUM = "/usr/bin/chromium"
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "trace.png"
#: Attributes shown beside a span's name, when it has them.
SHOWN = (
    "gen_ai.usage.input_tokens",
    "gen_ai.usage.output_tokens",
    "gen_ai.tool.name",
    "tether.step.attempt",
    "tether.wait.outcome",
    "tether.turn.outcome",
)


@tool
async def check_service(service: str) -> str:
    """Check a service's health."""
    await asyncio.sleep(0.05)
    return f"{service}: 3 of 3 instances healthy"


def answer(request: ModelRequest) -> Reply:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage) and last.name == "check_service":
        return Reply(
            tool_calls=(tool_call("sleep", {"seconds": 1.0}),),
            usage=Usage(input_tokens=1460, output_tokens=22),
        )
    if isinstance(last, ToolResultMessage):
        return Reply(text="The api is healthy.", usage=Usage(input_tokens=1510, output_tokens=9))
    return Reply(
        tool_calls=(tool_call("check_service", {"service": "api"}),),
        usage=Usage(input_tokens=1320, output_tokens=18),
    )


async def run_turn(exporter: InMemorySpanExporter) -> list[ReadableSpan]:
    """One traced turn; the spans of its trace, in the order they started."""
    model = ScriptedModel(answer, name="gpt-4.1-mini")
    ops = Agent(name="ops", model=model, tools=[check_service, sleep_tool(max_seconds=10)])
    tracer = trace.get_tracer("example.app")
    with tempfile.TemporaryDirectory() as tmp:
        async with tether.open_backend(f"sqlite:///{tmp}/trace.db") as backend:
            host = AgentHost(backend, Agents([ops], deployment="trace"))
            async with host.worker(poll_interval=0.01):
                session = await host.open_session("ops", session_id="incident-42")
                with tracer.start_as_current_span("POST /v1/sessions/incident-42/messages") as sent:
                    await session.send("Is the api healthy?")
                await session.wait_for("turn.completed", timeout=30)
                trace_id = sent.get_span_context().trace_id
                for _ in range(500):  # the turn's span is emitted as its last commit lands
                    if any(
                        s.name.startswith("invoke_agent") for s in exporter.get_finished_spans()
                    ):
                        break
                    await asyncio.sleep(0.01)
    spans = [s for s in exporter.get_finished_spans() if s.context.trace_id == trace_id]
    return sorted(spans, key=lambda s: s.start_time or 0)


def _kind(name: str) -> str:
    for prefix, kind in (
        ("invoke_agent", "turn"),
        ("chat", "model"),
        ("execute_tool", "tool"),
        ("wait", "wait"),
        ("step", "step"),
        ("run", "run"),
    ):
        if name.startswith(prefix):
            return kind
    return "caller"


def _ordered(spans: Sequence[ReadableSpan]) -> list[tuple[int, ReadableSpan]]:
    """(depth, span), each span after its parent and its earlier siblings' subtrees."""
    ids = {s.context.span_id for s in spans}
    children: dict[int | None, list[ReadableSpan]] = {}
    for span in spans:
        parent = span.parent.span_id if span.parent is not None else None
        children.setdefault(parent if parent in ids else None, []).append(span)
    out: list[tuple[int, ReadableSpan]] = []

    def walk(parent: int | None, depth: int) -> None:
        for span in sorted(children.get(parent, []), key=lambda s: s.start_time or 0):
            out.append((depth, span))
            walk(span.context.span_id, depth + 1)

    walk(None, 0)
    return out


def render(spans: Sequence[ReadableSpan]) -> str:
    """The trace as a page: a row per span, a bar on a shared time axis."""
    start = min(s.start_time or 0 for s in spans)
    end = max(s.end_time or 0 for s in spans)
    total = max(end - start, 1)
    rows = []
    for depth, span in _ordered(spans):
        left = 100 * ((span.start_time or 0) - start) / total
        width = max(100 * ((span.end_time or 0) - (span.start_time or 0)) / total, 0.3)
        took = ((span.end_time or 0) - (span.start_time or 0)) / 1e6
        attributes = {key: str(value) for key, value in (span.attributes or {}).items()}
        shown = " ".join(
            f"{key.rsplit('.', 1)[-1]}={attributes[key]}" for key in SHOWN if key in attributes
        )
        rows.append(
            f'<div class="row"><div class="name" style="padding-left:{depth * 14 + 8}px">'
            f'<span class="dot {_kind(span.name)}"></span>{html.escape(span.name)}'
            f'<span class="attrs">{html.escape(shown)}</span></div>'
            f'<div class="lane"><div class="bar {_kind(span.name)}" '
            f'style="left:{left:.3f}%;width:{width:.3f}%"></div>'
            f'<span class="took" style="left:calc({left + width:.3f}% + 6px)">'
            f"{took:,.1f} ms</span></div></div>"
        )
    ticks = "".join(
        f'<span class="tick" style="left:{100 * i / 4}%">{total * i / 4 / 1e6:,.0f} ms</span>'
        for i in range(5)
    )
    legend = "".join(
        f'<span><span class="dot {k}"></span>{label}</span>'
        for k, label in (
            ("caller", "the caller's span"),
            ("turn", "turn"),
            ("step", "step attempt"),
            ("model", "model call"),
            ("tool", "tool call"),
            ("wait", "wait"),
        )
    )
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ font: 13px/1.4 system-ui, sans-serif; margin: 0; padding: 18px 22px; color: #1d2330;
  background: #fff; width: 1240px; }}
h1 {{ font-size: 15px; margin: 0 0 4px; }}
.sub {{ color: #5f6b7a; margin-bottom: 12px; }}
.legend {{ display: flex; gap: 16px; color: #5f6b7a; margin-bottom: 10px; }}
.axis, .row {{ display: grid; grid-template-columns: 470px 1fr; }}
.axis .lane {{ height: 18px; border-bottom: 1px solid #dde2e8; }}
.row {{ border-bottom: 1px solid #f0f2f5; }}
.name {{ white-space: nowrap; overflow: hidden; text-overflow: ellipsis; padding: 3px 0; }}
.attrs {{ color: #5f6b7a; margin-left: 8px; font-size: 11px; }}
.lane {{ position: relative; margin-right: 90px; }}
.bar {{ position: absolute; top: 6px; height: 12px; border-radius: 3px; }}
.took {{ position: absolute; top: 3px; font-size: 11px; color: #5f6b7a; white-space: nowrap; }}
.tick {{ position: absolute; top: 0; font-size: 11px; color: #5f6b7a; white-space: nowrap;
  transform: translateX(-50%); }}
.dot {{ display: inline-block; width: 9px; height: 9px; border-radius: 2px; margin-right: 6px; }}
.caller {{ background: #9aa5b1; }} .run {{ background: #c3cad3; }} .turn {{ background: #3b6fd8; }}
.step {{ background: #8fb0ec; }} .model {{ background: #e08a2e; }} .tool {{ background: #2e9e6a; }}
.wait {{ background: repeating-linear-gradient(45deg, #d9a400 0 4px, #f3d671 4px 8px); }}
</style></head><body>
<h1>A turn's trace: model call, tool call, a durable sleep, the answer</h1>
<div class="sub">tether's spans of one turn (OpenTelemetry SDK, GenAI conventions), under the
span of the request that sent its message</div>
<div class="legend">{legend}</div>
<div class="axis"><div></div><div class="lane">{ticks}</div></div>
{"".join(rows)}
</body></html>"""


async def screenshot(page_html: str, out: Path) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            tab = await browser.new_page(viewport={"width": 1284, "height": 400})
            await tab.set_content(page_html)
            await tab.screenshot(path=str(out), full_page=True)
        finally:
            await browser.close()


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the PNG to write")
    parser.add_argument("--html", type=Path, default=None, help="also write the page here")
    args = parser.parse_args(argv)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    spans = await run_turn(exporter)
    page = render(spans)
    if args.html is not None:
        args.html.write_text(page)
    await screenshot(page, args.out)
    print(f"{len(spans)} spans of one trace drawn to {args.out}")


if __name__ == "__main__":
    asyncio.run(main())
