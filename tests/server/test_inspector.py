"""The inspector in headless Chromium (the system's, through playwright) on a real server.

One server and one browser for the module. Each test signs in through the page's form
and keeps screenshots in ``$TETHER_TEST_ARTIFACTS`` (default: a pytest temporary
directory), so CI can keep them.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from _served import TOKENS, Served, start_served

from tether.errors import RunFailedError

CHROMIUM = "/usr/bin/chromium"

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class Stage:
    served: Served
    context: Any  # one browser context: each tab keeps its own sessionStorage
    artifacts: Path
    errors: list[str] = field(default_factory=list)

    async def page(self, who: str, hash_: str = "#/sessions") -> Any:
        """A fresh tab signed in as `who` through the page's form, at `hash_`."""
        tab = await self.context.new_page()
        tab.on("pageerror", lambda exc: self.errors.append(f"{who}: {exc}"))
        await tab.goto(f"{self.served.url}/inspector{hash_}")
        await tab.fill("#token", TOKENS[who][0])
        await tab.click("#signin button[type=submit]")
        return tab

    async def shot(self, tab: Any, name: str) -> None:
        await tab.screenshot(path=str(self.artifacts / f"inspector-{name}.png"), full_page=True)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def stage(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stage]:
    from playwright.async_api import async_playwright

    where = os.environ.get("TETHER_TEST_ARTIFACTS")
    artifacts = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    artifacts.mkdir(parents=True, exist_ok=True)
    db = tmp_path_factory.mktemp("inspector") / "tether.db"
    # ada and lead are operators (lead is also the agent's approver); eve, of another
    # tenant, is one too; bob is not.
    operators = ("ada@acme", "lead@acme", "eve@evil")
    async for served in start_served(f"sqlite:///{db}", None, operators=operators):
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = await browser.new_context(viewport={"width": 1280, "height": 860})
            stage = Stage(served=served, context=context, artifacts=artifacts)
            try:
                yield stage
            finally:
                await browser.close()
        assert not stage.errors, stage.errors


async def _turn(served: Served, session_id: str, text: str, who: str = "ada") -> None:
    await served.send(session_id, text, who=who)
    await served.events(session_id, who=who, until="turn.completed")


async def test_the_sessions_of_every_tenant_and_a_filter(stage: Stage) -> None:
    served = stage.served
    await served.session("list-acme")
    await _turn(served, "list-acme", "hello")
    await served.session("list-evil", who="eve")
    tab = await stage.page("ada")
    await tab.wait_for_selector("#view[data-ready=sessions]")
    assert await tab.locator("tr[data-session=list-acme]").count() == 1
    assert await tab.locator("tr[data-session=list-evil]").count() == 1  # another tenant's
    await tab.fill("#filters input[name=tenant]", "evil")
    await tab.click("#filters button[type=submit]")
    await tab.wait_for_function("location.hash.includes('tenant=evil')")
    await tab.wait_for_selector("#view[data-ready=sessions]")
    assert await tab.locator("tr[data-session=list-evil]").count() == 1
    assert await tab.locator("tr[data-session=list-acme]").count() == 0
    await stage.shot(tab, "sessions")
    await tab.close()


async def test_a_timeline_with_a_tool_call_and_a_live_turn(stage: Stage) -> None:
    served = stage.served
    await served.session("live")
    await _turn(served, "live", "note milk")
    tab = await stage.page("ada", "#/sessions/live")
    await tab.wait_for_selector("#timeline[data-ready]")
    call = tab.locator("li[data-type='tool.call']")
    assert await call.count() == 1
    assert "note" in (await call.text_content() or "")
    assert '"text": "milk"' in (await call.locator("pre").text_content() or "")
    result = tab.locator("li[data-type='tool.result']")
    assert "1 notes" in (await result.text_content() or "")
    # A turn sent meanwhile appears without a reload: the page follows the stream.
    await tab.evaluate("window.notReloaded = true")
    await tab.wait_for_selector("#live:not([hidden])")
    await served.send("live", "note eggs")
    await tab.locator("li[data-type='tool.result']", has_text="2 notes").wait_for(timeout=20_000)
    await tab.locator("li[data-type='turn.completed']").nth(1).wait_for(timeout=20_000)
    assert await tab.evaluate("window.notReloaded") is True
    await stage.shot(tab, "live-turn")
    await tab.close()


async def test_a_session_forked_from_its_timeline(stage: Stage) -> None:
    served = stage.served
    await served.session("forkme")
    await _turn(served, "forkme", "note milk")
    await _turn(served, "forkme", "note eggs")
    tab = await stage.page("ada", "#/sessions/forkme")
    await tab.wait_for_selector("#timeline[data-ready]")
    await tab.locator("li[data-type='turn.completed'] button.fork").first.click()
    # The page goes to the fork: a session of its own, holding the first turn only.
    for _ in range(200):
        fork_id = (await tab.evaluate("location.hash")).rsplit("/", 1)[-1]
        if fork_id != "forkme":
            break
        await asyncio.sleep(0.05)
    assert fork_id != "forkme"
    await tab.wait_for_selector("#timeline[data-ready]")
    await tab.locator("li[data-type='session.started']").nth(1).wait_for(timeout=20_000)
    assert await tab.locator("li[data-type='turn.completed']").count() == 1
    entries = (await served.client().get(f"/v1/sessions/{fork_id}/transcript")).json()["entries"]
    assert [e["text"] for e in entries if e["kind"] == "user"] == ["note milk"]
    await stage.shot(tab, "forked")
    await tab.close()


async def test_an_approval_answered_from_the_page_and_a_wrong_principal_refused(
    stage: Stage,
) -> None:
    served = stage.served
    await served.session("approve")
    await served.send("approve", "restart api")  # ada's turn; lead is the approver
    await served.events("approve", until="input.requested")

    # eve is an operator: she sees the session, and may still not answer for it.
    eve = await stage.page("eve", "#/sessions/approve")
    card = eve.locator(".request")
    await card.wait_for()
    assert "restart_service" in (await card.text_content() or "")
    await eve.wait_for_selector("#summary[data-state]")
    await stage.shot(eve, "pending")
    await card.locator("button.approve").click()
    refused = card.locator(".answer-error")
    await refused.wait_for()
    assert "'eve' may not answer" in (await refused.text_content() or "")
    await stage.shot(eve, "answer-refused")
    await eve.close()

    lead = await stage.page("lead", "#/sessions/approve")
    card = lead.locator(".request")
    await card.wait_for()
    assert "asked" in (await card.locator(".age").text_content() or "")
    await card.locator("button.approve").click()
    await lead.locator("li[data-type='input.resolved']", has_text="lead").wait_for(timeout=20_000)
    await lead.locator("li[data-type='message.completed']", has_text="Restarted.").wait_for(
        timeout=20_000
    )
    await lead.wait_for_selector(".request", state="detached", timeout=20_000)
    await stage.shot(lead, "approval-answered")
    await lead.close()


async def test_a_question_answered_from_the_page(stage: Stage) -> None:
    served = stage.served
    await served.session("question")
    await served.send("question", "ask")  # ada's turn asks for a severity
    await served.events("question", until="input.requested")
    tab = await stage.page("ada", "#/sessions/question")
    card = tab.locator(".request")
    await card.wait_for()
    assert "Severity of inc-1?" in (await card.text_content() or "")
    await card.locator("button.option", has_text="P1 (revenue)").click()
    await tab.locator("li[data-type='tool.result']", has_text="inc-1 is p1").wait_for(
        timeout=20_000
    )
    await tab.wait_for_selector(".request", state="detached", timeout=20_000)
    await tab.close()


async def test_a_non_operator_is_refused(stage: Stage) -> None:
    tab = await stage.page("bob")
    refused = tab.locator("#refused")
    await refused.wait_for()
    assert "only an operator" in (await tab.locator("#refused-detail").text_content() or "")
    assert await tab.locator("#view").is_hidden()
    await stage.shot(tab, "refused")
    await tab.close()


async def test_a_run_journal(stage: Stage) -> None:
    served = stage.served
    await served.session("journal")
    await _turn(served, "journal", "note tea")
    tab = await stage.page("ada", "#/runs?workflow=tether.agent.session")
    await tab.wait_for_selector("#view[data-ready=runs]")
    await tab.click("tr[data-run='session:journal'] a")
    await tab.wait_for_selector("#view[data-ready=run]")
    rows = tab.locator("#journal tbody tr")
    assert await rows.count() >= 2
    assert "open_session" in (await rows.first.text_content() or "")
    assert '"session_id": "journal"' in (await tab.locator("#journal").text_content() or "")
    assert await tab.locator("dd a[href='#/sessions/journal']").count() == 1
    await stage.shot(tab, "journal")
    await tab.close()


async def test_deleted_content_is_shown_redacted_not_as_an_error(stage: Stage) -> None:
    host = stage.served.host
    session = await host.open_session("ops", session_id="expired", owner="acme", retention=0)
    await session.send("note gone", principal="ada")
    await session.wait_for("turn.completed")
    await session.close()
    await (await host.client.get(session.run_id)).result(timeout=20)
    tab = await stage.page("ada", "#/sessions/expired")
    await tab.wait_for_selector("#timeline[data-ready]")
    assert await tab.locator("#timeline .redacted-all").count() == 1
    assert await tab.locator("#view .error").count() == 0
    await tab.goto(f"{stage.served.url}/inspector#/runs/session:expired")
    await tab.wait_for_selector("#view[data-ready=run]")
    # The session's identity (the run's input) stays on a store without encryption; its
    # steps' contents are gone.
    assert "expired" in (await tab.locator("#run-input").text_content() or "")
    assert await tab.locator("#journal .redacted", has_text="redacted (deleted)").count() >= 2
    await stage.shot(tab, "redacted")
    await tab.close()


async def test_a_budget_shown_and_raised_from_the_page(stage: Stage) -> None:
    served = stage.served
    lead = served.client("lead")
    # Another tenant's sessions alone count against it: no other test's turn waits.
    r = await lead.put("/v1/budgets/tenant/evil", json={"tokens": 0})
    assert r.status_code == 200, r.text
    await served.session("budget-evil", who="eve")
    await served.send("budget-evil", "hello", who="eve")
    await served.events("budget-evil", who="eve", until="turn.waiting")
    tab = await stage.page("ada", "#/sessions/budget-evil")
    row = tab.locator("#budgets tr[data-scope='tenant:evil']")
    await row.wait_for(timeout=20_000)
    assert "/ 0" in (await row.text_content() or "")
    card = tab.locator(".request")
    await card.wait_for()
    assert "budget" in (await card.text_content() or "")
    await card.locator("input.budget-tokens").fill("1000000")
    await card.locator("button.raise").click()
    await tab.wait_for_selector(".request", state="detached", timeout=20_000)
    events = await served.events("budget-evil", who="eve", until="turn.completed")
    assert events[-1]["type"] == "turn.completed"
    assert (await lead.get("/v1/budgets/tenant/evil")).json()["tokens"] == 1_000_000
    await stage.shot(tab, "budget")
    await tab.close()


async def test_usage_across_sessions_per_tenant_agent_and_model(stage: Stage) -> None:
    served = stage.served
    since = time.time()  # the calls of this test's turns only
    await served.session("usage-1")
    await _turn(served, "usage-1", "note milk")
    await served.session("usage-2")
    await _turn(served, "usage-2", "hello")
    expected = (await served.client().get("/v1/inspect/usage", params={"since": since})).json()
    assert expected["sessions"] == 2
    tab = await stage.page("ada", f"#/usage?since={since}&tenant=acme")
    await tab.wait_for_selector("#view[data-ready=usage]")
    (row,) = expected["rows"]
    shown = tab.locator(f"#usage-rows tr[data-usage='acme/ops/{row['model']}'] td")
    assert (await shown.nth(3).text_content()) == str(row["calls"])
    total = tab.locator("#usage-rows tr.all td")
    assert (await total.nth(3).text_content()) == str(expected["total"]["calls"])
    assert await tab.locator("#usage-tenants tr[data-tenant=acme]").count() == 1
    assert "2 session(s)" in (await tab.locator("#view .note").text_content() or "")
    await stage.shot(tab, "usage")
    # A window before any call: nothing in it; a time the page cannot read: said so.
    await tab.goto(f"{served.url}/inspector#/usage?until=2000-01-01")
    await tab.locator("#usage-rows td.empty").wait_for()
    await tab.goto(f"{served.url}/inspector#/usage?since=yesterday")
    error = tab.locator("#view .error")
    await error.wait_for()
    assert "since yesterday is not a time" in (await error.text_content() or "")
    await tab.close()


async def test_a_run_resumed_and_forked_from_its_journal(stage: Stage) -> None:
    client = stage.served.host.client
    failed = await client.start("tally", [2, -1], run_id="tally-page")
    with pytest.raises(RunFailedError):
        await failed.result(timeout=20)
    tab = await stage.page("ada", "#/runs/tally-page")
    await tab.wait_for_selector("#view[data-ready=run]")
    await stage.shot(tab, "run-failed")
    # A new input that is not an array is refused on the page, before any request.
    await tab.fill("#new-args", '{"amounts": [2]}')
    await tab.click("#run-controls button.resume")
    await tab.locator(".run-error", has_text="a JSON array").wait_for()
    # Resumed from the failed step with a new input: the page goes to the new run.
    await tab.fill("#new-args", "[[2, 3]]")
    await tab.click("#run-controls button.resume")
    await tab.locator("#view[data-ready=run] h1", has_text="tally-page.resumed-2").wait_for()
    assert "tether.forked_from=tally-page" in (await tab.locator(".facts").text_content() or "")
    assert await (await client.get("tally-page.resumed-2")).result(timeout=20) == 5
    # The resumed run completed: it is not resumed again, and it forks from a step.
    await tab.reload()
    await tab.wait_for_selector("#view[data-ready=run]")
    assert await tab.locator("#run-controls button.resume").count() == 0
    await tab.locator("#journal tr[data-slot='2'] button.fork-step").click()
    await tab.locator("#view[data-ready=run] .facts", has_text="tether.fork_slot=2").wait_for()
    fork_id = (await tab.evaluate("location.hash")).removeprefix("#/runs/")
    forked = await client.get(fork_id)
    assert await forked.result(timeout=20) == 5  # slot 1 replayed, slot 2 ran again
    assert (await forked.info()).labels["tether.fork_slot"] == "2"
    await stage.shot(tab, "run-forked")
    # A session's run (tether's own workflow) has neither control.
    await stage.served.session("no-controls")
    await tab.goto(f"{stage.served.url}/inspector#/runs/session:no-controls")
    await tab.wait_for_selector("#view[data-ready=run]")
    assert await tab.locator("#run-controls, button.fork-step").count() == 0
    await tab.close()
