"""Cross-origin access: `ServerOptions.cors_origins` / `tether serve --cors-origin`.

Preflights and actual responses over HTTP, the options' checks, and a real browser
(headless Chromium) on a page of another origin calling `tether serve`: a preflighted
POST with JSON and a bearer token, credentials included, exposed headers read; and
the same page from an origin the server does not allow, refused.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from _served import Served, start_served
from served_process import HERE, TOKEN, free_port, tether_command, tether_serve

from tether.errors import ConfigurationError
from tether.server import ServerOptions

APP = "http://app.example.test:3000"
PAGE = Path(__file__).with_name("browser") / "cors.html"


@pytest.fixture
async def cors(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    async for s in start_served(*db, cors_origins=(APP, "https://admin.example.test")):
        yield s


def preflight(origin: str, method: str = "POST", headers: str = "authorization,content-type"):
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": headers,
    }


async def test_a_preflight_from_an_allowed_origin(cors: Served) -> None:
    c = httpx.AsyncClient(base_url=cors.url)
    async with c:
        for path in ("/v1/sessions", "/v1/sessions/s1/events", "/v1/ui/aisdk/chat"):
            r = await c.options(path, headers=preflight(APP, headers="authorization,last-event-id"))
            assert r.status_code == 200, r.text
            assert r.headers["access-control-allow-origin"] == APP
            assert r.headers["access-control-allow-credentials"] == "true"
            assert r.headers["access-control-allow-methods"] == "GET, POST"
            allowed = {
                h.strip().lower() for h in r.headers["access-control-allow-headers"].split(",")
            }
            assert {
                "authorization",
                "content-type",
                "last-event-id",
                "content-disposition",
            } <= allowed
            assert r.headers["access-control-max-age"] == "600"
            assert "Origin" in r.headers["vary"]
        # The other allowed origin gets its own origin back, never the list.
        r = await c.options("/v1/sessions", headers=preflight("https://admin.example.test"))
        assert r.headers["access-control-allow-origin"] == "https://admin.example.test"


async def test_a_refused_preflight_says_why(cors: Served) -> None:
    async with httpx.AsyncClient(base_url=cors.url) as c:
        cases = {
            "origin": preflight("https://evil.example.test"),
            "method": preflight(APP, method="DELETE"),
            "headers": preflight(APP, headers="authorization,x-forged"),
        }
        for what, headers in cases.items():
            r = await c.options("/v1/sessions", headers=headers)
            assert r.status_code == 403, (what, r.text)
            assert r.headers["content-type"] == "application/problem+json"
            problem = r.json()
            assert problem["code"] == "cors_refused" and what in problem["detail"], problem
            assert "--cors-origin" in problem["detail"]
            assert "access-control-allow-origin" not in r.headers
            assert "Origin" in r.headers["vary"]


async def test_actual_responses_carry_the_cors_headers(cors: Served) -> None:
    async with httpx.AsyncClient(base_url=cors.url, headers={"Origin": APP}) as anonymous:
        c = cors.client()
        created = await c.post("/v1/sessions", json={"session_id": "s1"}, headers={"Origin": APP})
        assert created.status_code == 201
        assert created.headers["access-control-allow-origin"] == APP
        assert created.headers["access-control-allow-credentials"] == "true"
        exposed = {h.strip() for h in created.headers["access-control-expose-headers"].split(",")}
        assert {
            "Stream-Next-Offset",
            "x-vercel-ai-ui-message-stream",
            "Location",
            "Retry-After",
            "WWW-Authenticate",
            "Allow",
            "ETag",
            "Content-Disposition",
        } <= exposed
        assert "Origin" in created.headers["vary"]
        # Errors too: a page reads why it was refused.
        refused = await anonymous.get("/v1/sessions")
        assert refused.status_code == 401
        assert refused.headers["access-control-allow-origin"] == APP
        wrong = await anonymous.delete("/v1/sessions")
        assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, HEAD, POST"
        assert wrong.headers["access-control-allow-origin"] == APP
        # Another origin gets its answer without them: its browser keeps it from the page.
        other = await c.get("/v1/sessions/s1", headers={"Origin": "https://evil.example.test"})
        assert other.status_code == 200
        assert "access-control-allow-origin" not in other.headers


async def test_without_cors_origins_there_is_no_cross_origin_access(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.url) as c:
        r = await c.options("/v1/sessions", headers=preflight(APP))
        assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD, POST"
        assert "access-control-allow-origin" not in r.headers
        r = await c.get("/v1/health", headers={"Origin": APP})
        assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


async def test_any_origin_without_credentials(db: tuple[str, str | None]) -> None:
    async for served in start_served(*db, cors_origins=["*"]):
        async with httpx.AsyncClient(base_url=served.url) as c:
            r = await c.options("/v1/sessions", headers=preflight("https://anywhere.test"))
            assert r.status_code == 200
            assert r.headers["access-control-allow-origin"] == "*"
            assert "access-control-allow-credentials" not in r.headers
            r = await c.get("/v1/health", headers={"Origin": "https://anywhere.test"})
            assert r.headers["access-control-allow-origin"] == "*"
            assert "access-control-allow-credentials" not in r.headers


def test_the_options_refuse_what_no_browser_sends() -> None:
    assert ServerOptions(cors_origins=[APP]).cors_origins == (APP,)
    assert ServerOptions(cors_origins=(APP,)).allows_credentials
    assert not ServerOptions(cors_origins=(APP,), cors_credentials=False).allows_credentials
    assert not ServerOptions(cors_origins=("*",)).allows_credentials
    assert not ServerOptions().allows_credentials
    ServerOptions(cors_origins=("http://[::1]:8080", "tauri://localhost"))
    bad = {
        "http://app.test/": "no path",
        "http://app.test/ui": "no path",
        "app.test": "scheme://host",
        "http://user@app.test": "scheme://host",
        "HTTP://App.test": "'http://app.test'",
        "https://app.test:443": "'https://app.test'",
        "http://app.test:80": "'http://app.test'",
        "http://app.test:99999": "scheme://host",
        "null": "sandboxed",
    }
    for origin, says in bad.items():
        with pytest.raises(ConfigurationError, match=says):
            ServerOptions(cors_origins=(origin,))
    with pytest.raises(ConfigurationError, match="sequence of origins"):
        ServerOptions(cors_origins=APP)
    with pytest.raises(ConfigurationError, match="stands alone"):
        ServerOptions(cors_origins=("*", APP))
    with pytest.raises(ConfigurationError, match="credentials cannot be allowed for every"):
        ServerOptions(cors_origins=("*",), cors_credentials=True)
    with pytest.raises(ConfigurationError, match="without cors_origins"):
        ServerOptions(cors_credentials=True)


# -- the CLI and a real browser -------------------------------------------------------------
class Pages:
    """A second local HTTP server: the front end's origin. It serves the test page and
    takes what the page reports."""

    def __init__(self) -> None:
        self.reports: dict[str, Any] = {}
        self.arrived = threading.Condition()
        pages = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = PAGE.read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                report = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with pages.arrived:
                    pages.reports[report["origin"]] = report
                    pages.arrived.notify_all()
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.port = free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def report(self, origin: str, timeout: float) -> dict[str, Any]:
        with self.arrived:
            self.arrived.wait_for(lambda: origin in self.reports, timeout)
        assert origin in self.reports, f"the page at {origin} reported nothing"
        return dict(self.reports[origin])

    @contextmanager
    def running(self) -> Iterator[Pages]:
        self.thread.start()
        try:
            yield self
        finally:
            self.server.shutdown()
            self.server.server_close()


def browse(url: str, profile: Path) -> subprocess.Popen[bytes]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "the browser test needs Chromium (apt-get install chromium)"
    return subprocess.Popen(
        [
            chromium,
            "--headless=new",
            "--no-sandbox",  # the tests may run as root
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-extensions",
            f"--user-data-dir={profile}",
            url,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def visit(pages: Pages, origin: str, query: str, profile: Path) -> dict[str, Any]:
    browser = browse(f"{origin}/cors.html?{query}", profile)
    try:
        return pages.report(origin, timeout=60)
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
            browser.wait()


@pytest.mark.slow
def test_a_page_of_another_origin_calls_tether_serve(tmp_path: Path) -> None:
    pages = Pages()
    # Two origins of the one page server: by address (allowed) and by name (not).
    allowed = f"http://127.0.0.1:{pages.port}"
    refused = f"http://localhost:{pages.port}"
    with (
        pages.running(),
        tether_serve(f"sqlite:///{tmp_path}/t.db", "--cors-origin", allowed) as process,
    ):
        query = f"api={process.url}&token={TOKEN}"
        page = visit(pages, allowed, f"{query}&session=browser-1", tmp_path / "profile-a")
        other = visit(pages, refused, f"{query}&session=refused-1", tmp_path / "profile-b")
        headers = {"Authorization": f"Bearer {TOKEN}"}
        never = httpx.get(f"{process.url}/v1/sessions/refused-1", headers=headers, timeout=10)
    assert page["create"]["status"] == 201, page
    assert page["create"]["location"] == "/v1/sessions/browser-1"
    assert page["create"]["body"]["owner"] == "acme"
    assert page["health"] == {"status": 200, "body": {"ok": True}}
    assert page["send"]["status"] == 202
    assert page["history"]["texts"] == ["You said: hello from the page"]
    assert page["history"]["nextOffset"] == str(page["history"]["last"] + 1)
    # Last-Event-ID (a header the preflight allowed) resumed after index 1.
    assert page["resume"]["status"] == 200 and page["resume"]["first"] == 2
    assert page["resume"]["nextOffset"] == page["history"]["nextOffset"]
    assert page["chat"]["status"] == 200 and page["chat"]["protocol"] == "v1"
    frames = [f.removeprefix("data: ") for f in page["chat"]["stream"].split("\n\n") if f]
    assert frames[-1] == "[DONE]"
    chunks = [json.loads(f) for f in frames[:-1]]
    text = "".join(c["delta"] for c in chunks if c["type"] == "text-delta")
    assert text == "You said: hi there" and chunks[-1]["type"] == "finish"
    assert page["unauthorized"] == {
        "status": 401,
        "challenge": 'Bearer realm="tether"',
        "code": "unauthenticated",
    }
    # From the origin the server does not name, the browser let the page read nothing,
    # and sent no POST: its preflight was refused.
    assert page["origin"] == allowed and other["origin"] == refused
    assert "TypeError" in other["create"]["error"], other
    assert "TypeError" in other["health"]["error"], other
    assert never.status_code == 404


def test_serve_refuses_an_origin_no_browser_sends(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            *tether_command(),
            *("serve", "server_app:agents", "--db", f"sqlite:///{tmp_path}/t.db"),
            *("--cors-origin", "http://app.example.test:3000/"),
        ],
        cwd=HERE,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "not an origin" in done.stderr and "trailing slash" in done.stderr
    assert not (tmp_path / "t.db").exists()  # refused before the store was opened
