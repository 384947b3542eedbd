"""The inspector: time to the first screen of a 10,000-event session in headless Chromium.

    python bench/inspector.py [--events N] [--runs N] [--db URL] [--screenshot PATH]

Builds a session of at least N events (default 10,000) on a fresh SQLite store (or
--db): turns that call a tool and turns whose replies stream word by word (a delta
event per word), as a busy session's stream holds. Then serves it with `create_app`
(uvicorn, an operator's bearer token) and opens ``/inspector#/sessions/big`` in the
system's Chromium (playwright, no download) --runs times, each in a fresh tab with the
token already in the tab's sessionStorage (signing in is not timed).

The first screen is the page's ``tether.first-screen`` performance mark: the session's
summary, its runs and pending requests drawn, and the tail of its timeline (the last 200
events) rendered. It is measured from the navigation's start (``performance.timeOrigin``),
so it holds the HTML, the script, both reads and the rendering. Reported: the median and
the slowest run, and the server's answer times for the two reads the screen waits for.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from typing import Any

import httpx
import uvicorn

import tether
from tether.agent import Agent, AgentHost, Agents, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.server import BearerTokens, Principal, ServerOptions, create_app
from tether.testing import Reply, ScriptedModel, tool_call

CHROMIUM = "/usr/bin/chromium"
TOKEN = "tok-bench-operator-0123456789"
WORDS = 180  # words of a long reply: one delta event each


@tool
def lookup(key: str) -> str:
    """Look a key up."""
    return f"{key}: value"


def answer(request: ModelRequest) -> Any:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return "Found it."
    text = str(last.text) if isinstance(last, UserMessage) else ""
    if text.startswith("lookup"):
        return Reply(text="Looking.", tool_calls=(tool_call("lookup", {"key": text[7:]}),))
    return " ".join(f"word{i}" for i in range(WORDS))


agents = Agents(
    [Agent(name="ops", model=ScriptedModel(answer), instructions="bench", tools=[lookup])],
    deployment="bench",
)


async def build(host: AgentHost, events: int) -> int:
    session = await host.open_session("ops", session_id="big", owner="acme")
    tail = await session.read_events(-1)
    total = tail[-1].index + 1 if tail else 0  # a --db that holds it already
    n = total // 100 * 2
    while total < events:
        text = f"lookup k{n}" if n % 2 == 0 else f"tell me {n}"
        await session.send(text, principal="ops-bench")
        done = await session.wait_for("turn.completed", after=total - 1, timeout=60)
        total = done.index + 1
        n += 1
        if n % 20 == 0:
            print(f"  {total} events, {n} turns", flush=True)
    tail = await session.read_events(-1)
    return tail[-1].index + 1


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--db", default=None)
    parser.add_argument("--screenshot", default=None, help="save the first screen here")
    parser.add_argument("--verbose", action="store_true", help="print each run's reads")
    args = parser.parse_args()
    from playwright.async_api import async_playwright

    tmp = tempfile.mkdtemp(prefix="tether-inspector-bench-")
    url = args.db or f"sqlite:///{tmp}/bench.db"
    async with tether.open_backend(url) as backend:
        host = AgentHost(backend, agents)
        async with host.worker(poll_interval=0.05):
            started = time.perf_counter()
            count = await build(host, args.events)
            print(f"session 'big': {count} events, built in {time.perf_counter() - started:.1f} s")
        app = create_app(
            host,
            authenticator=BearerTokens({TOKEN: Principal(id="op", tenant="ops")}),
            options=ServerOptions(operators=("op@ops",)),
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:  # noqa: ASYNC110 - uvicorn sets a flag, not an event
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        try:
            await measure(base, args, async_playwright)
        finally:
            server.should_exit = True
            await serving


async def measure(base: str, args: argparse.Namespace, async_playwright: Any) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    reads: dict[str, list[float]] = {"summary": [], "tail": []}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
        for _ in range(args.runs):
            for name, path in (
                ("summary", "/v1/inspect/sessions/big"),
                ("tail", "/v1/inspect/sessions/big/events?start=-200&limit=200"),
            ):
                t0 = time.perf_counter()
                r = await client.get(path)
                reads[name].append((time.perf_counter() - t0) * 1000)
                r.raise_for_status()
    screens: list[float] = []
    states: list[float] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 900})
            await context.add_init_script(
                f"sessionStorage.setItem('tether.inspector.token', '{TOKEN}')"
            )
            for i in range(args.runs + 1):
                tab = await context.new_page()
                await tab.goto(f"{base}/inspector#/sessions/big")
                await tab.wait_for_selector("#timeline[data-ready]", timeout=30_000)
                mark = await tab.evaluate(
                    "performance.getEntriesByName('tether.first-screen')[0].startTime"
                )
                # Then the state and the usage, read after the first screen, before the
                # next tab: one tab's reads never overlap the next one's.
                await tab.wait_for_selector("#usage[data-ready]", timeout=30_000)
                drawn = await tab.evaluate(
                    "performance.getEntriesByName('tether.state-drawn')[0].startTime"
                )
                if i > 0:  # the first tab warms the browser's cache and the server's
                    screens.append(float(mark))
                    states.append(float(drawn))
                if args.verbose:
                    entries = await tab.evaluate(
                        "performance.getEntriesByType('resource').map(e => "
                        "[e.name.split('/').slice(3).join('/'), Math.round(e.startTime), "
                        "Math.round(e.responseEnd)])"
                    )
                    print(f"  first screen {mark:.0f} ms, state {drawn:.0f} ms; reads: {entries}")
                if i == args.runs and args.screenshot:
                    await tab.screenshot(path=args.screenshot)
                await tab.close()
        finally:
            await browser.close()
    for name, times in reads.items():
        print(f"GET {name}: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")
    print(
        f"first screen of a {args.events}-event session: median "
        f"{statistics.median(screens):.0f} ms, slowest {max(screens):.0f} ms "
        f"({len(screens)} runs)"
    )
    print(
        f"its state and pending requests drawn (read after the first screen): median "
        f"{statistics.median(states):.0f} ms, slowest {max(states):.0f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
