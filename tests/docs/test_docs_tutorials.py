"""The tutorials, done as a reader does them: real processes, a real browser, SIGKILL.

The files a tutorial asks the reader to write are taken from its page (the blocks marked
``<!-- file: NAME -->``), and each step runs the commands the page gives: `tether
worker` processes, the page's own scripts, `tether runs show`, `tether check-deploy`.
The agent tutorial's page is driven in Chromium (the system's, through playwright),
clicking its buttons as the reader would.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from docs_pages import DOCS, blocks, files_of

pytestmark = [pytest.mark.crash, pytest.mark.slow]

BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"


@dataclass
class Reader:
    """A reader's terminal session in a directory of their own."""

    dir: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: int = 0

    @property
    def env(self) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("TETHER_", "PYTEST_"))}
        return {**keep, "PATH": f"{BIN}{os.pathsep}{keep.get('PATH', '')}"}

    def run(self, *command: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            command, cwd=self.dir, env=self.env, capture_output=True, text=True, timeout=120
        )
        if ok:
            assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
        return done

    def start(self, *command: str, **env: str) -> tuple[subprocess.Popen[bytes], Path]:
        """A process left running, as in a terminal of its own; its output to a file."""
        self.logs += 1
        log = self.dir / f"terminal-{self.logs}.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                command,
                cwd=self.dir,
                env={**self.env, "PYTHONUNBUFFERED": "1", **env},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.procs.append(proc)
        return proc, log

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[Reader]:
    you = Reader(tmp_path)
    try:
        yield you
    finally:
        you.stop_all()


async def until(check: Callable[[], object], what: str, timeout: float = 60) -> None:
    """Wait for what a reader would see appear (a line in a terminal)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"never saw {what}"
        await asyncio.sleep(0.05)


def shows(log: Path, text: str) -> Callable[[], bool]:
    return lambda: log.exists() and text in log.read_text()


def write_files(page: Path, into: Path) -> dict[str, str]:
    files = files_of(page)
    for name, code in files.items():
        (into / name).write_text(code)
    return files


async def test_the_workflow_tutorial(reader: Reader) -> None:
    page = DOCS / "tutorials" / "workflow.md"
    assert set(write_files(page, reader.dir)) == {"flows.py", "start.py", "wait.py"}
    reader.run("tether", "keys", "init")
    db = "sqlite:///shop.db"

    worker, log = reader.start("tether", "worker", "flows:registry", "--db", db)
    assert "started order-42" in reader.run("python", "start.py", "42").stdout
    await until(shows(log, "reserve 42: attempt 1, key order-42:1"), "the first attempt")
    reader.kill(worker)  # mid-step: `reserve` sleeps for five seconds
    shown = reader.run("tether", "runs", "show", "order-42", "--db", db).stdout
    assert re.search(r"status running", shown) and re.search(r"reserve\s+running\s+1", shown)

    _, log = reader.start("tether", "worker", "flows:registry", "--db", db)
    result = reader.run("python", "wait.py", "order-42").stdout
    assert "{'order': '42', 'parcel': 'parcel-42'}" in result
    assert "reserve 42: attempt 2, key order-42:1" in log.read_text()
    assert log.read_text().count("ship 42 from B-12") == 1
    shown = reader.run("tether", "runs", "show", "order-42", "--db", db).stdout
    assert re.search(r"reserve\s+completed\s+2", shown)
    assert re.search(r"ship\s+completed\s+1", shown)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _v2(app: str, page: Path) -> str:
    """`app.py` edited as the tutorial's "Deploy a new version" says."""
    text = page.read_text()
    section = text[: text.index("## Deploy a new version")].count("\n") + 1
    change = next(b.code for b in blocks(page) if "fragment" in b.marks and b.line > section)
    triage, _, deployment = change.partition("\n\n\nagents = ")
    start, end = app.index("def triage("), app.index("\n\n\nops = Agent(")
    edited = app[:start] + triage.rstrip() + app[end:]
    old = 'agents = Agents([ops], deployment="v1")'
    assert old in edited and deployment.strip() == 'Agents([ops], deployment="v2")'
    return edited.replace(old, "agents = " + deployment.strip())


async def test_the_agent_tutorial(reader: Reader) -> None:
    from playwright.async_api import async_playwright

    page_md = DOCS / "tutorials" / "agent.md"
    files = write_files(page_md, reader.dir)
    assert set(files) == {"app.py", "page.html", "web.py"}
    reader.run("tether", "keys", "init")
    db = "sqlite:///ops.db"
    port = str(_free_port())
    url = f"http://127.0.0.1:{port}/"

    v1_worker, v1_log = reader.start("tether", "worker", "app:agents", "--db", db)
    web, web_log = reader.start("python", "web.py", PORT=port)
    await until(shows(web_log, "Uvicorn running"), "the server start")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            tab = await browser.new_page()
            events = tab.locator("#log li")
            await tab.goto(url)
            await tab.click("text=Send")
            await events.filter(has_text="tool.call").first.wait_for(timeout=60_000)
            await until(shows(v1_log, "collect_metrics('api') key="), "the tool start")
            key = re.search(r"key=(\S+)", v1_log.read_text())
            assert key is not None
            reader.kill(v1_worker)  # mid-turn: the tool sleeps for five seconds

            v1_worker, v1_log = reader.start("tether", "worker", "app:agents", "--db", db)
            requested = events.filter(has_text="input.requested")
            await requested.locator("text=approve").wait_for(timeout=60_000)
            # The interrupted call ran again in the new worker, under the same key.
            assert f"collect_metrics('api') key={key[1]}" in v1_log.read_text()
            assert "restart_service" not in v1_log.read_text()  # it waits for a human
            await requested.locator("text=approve").click()
            done = events.filter(has_text="turn.completed")
            await done.wait_for(timeout=60_000)
            await until(shows(v1_log, "restart_service('api')"), "the approved restart")
            final = events.filter(has_text="message.completed").filter(has_text="Done: the api")
            assert await final.count() == 1

            # Deploy version 2: check, a v2 worker beside v1's, the server on the new code.
            (reader.dir / "app.py").write_text(_v2(files["app.py"], page_md))
            check = reader.run("tether", "check-deploy", "app:agents", "--db", db)
            assert "against deployment 'v2'" in check.stdout and "0 would fail" in check.stdout
            _, v2_log = reader.start("tether", "worker", "app:agents", "--db", db)
            await until(shows(v2_log, "deployment 'v2'"), "the v2 worker")
            web.send_signal(signal.SIGINT)  # Ctrl-C
            web.wait(30)
            web, web_log = reader.start("python", "web.py", PORT=port)
            await until(shows(web_log, "Uvicorn running"), "the server restart")
            await tab.reload()
            await tab.fill("#text", "status?")
            await tab.click("text=Send")
            moved = events.filter(has_text="session.moved")
            await moved.wait_for(timeout=60_000)
            assert '"reason":"deploy"' in (await moved.text_content() or "")
            assert '"deployment":"v2"' in (await moved.text_content() or "")
            answer = events.filter(has_text="v2: all quiet")
            await answer.first.wait_for(timeout=60_000)
        finally:
            await browser.close()
    assert v1_log.read_text().count("restart_service('api')") == 1  # approved once, ran once
