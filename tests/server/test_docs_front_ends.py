"""The front-end how-to's TypeScript blocks, run in Node against `tether serve`.

Each block is taken from docs/how-to/front-ends.md as it stands, its server address
pointed at the test's `tether serve`, its ``token`` given, and run with the real npm
packages (`ai`, `@ag-ui/client`) on the ``restart the api`` turn of the test agent,
which parks for an approval:

- the AG-UI block runs as written (it is plain JavaScript too): its first run ends with
  the approval's interrupt, its resume approves it, and the turn completes;
- the `useChat` block runs with `useChat` as a function that makes the AI SDK's own
  chat engine (`AbstractChat`, which `@ai-sdk/react`'s hook keeps in React state) from
  the block's options, resuming once as the hook does when it mounts with ``resume:
  true``; the block's transport, URL, headers and ``sendAutomaticallyWhen`` are used as
  they are, and the approval is answered with the block's `addToolApprovalResponse`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from served_process import TOKEN, tether_serve

sys.path.insert(0, str(Path(__file__).parents[1] / "docs"))
from docs_pages import DOCS, blocks

HERE = Path(__file__).parent
PAGE = DOCS / "how-to" / "front-ends.md"
DOCUMENTED = "http://localhost:8000"

pytestmark = pytest.mark.slow


def _block(lang: str) -> str:
    [block] = [b for b in blocks(PAGE) if b.lang == lang]
    assert DOCUMENTED in block.code, f"the {lang} block no longer calls {DOCUMENTED}"
    return block.code


def _node(package: str) -> str:
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "node and npm are needed for the front-end blocks"
    if not (HERE / package / "node_modules").exists():
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=HERE / package,
            check=True,
            timeout=300,
        )
    return node


def _run(node: str, package: str, script: str, tmp_path: Path, url: str) -> dict[str, Any]:
    """Run `script` as an ES module beside `package`'s node_modules; its last line's JSON."""
    (tmp_path / "node_modules").symlink_to(HERE / package / "node_modules")
    path = tmp_path / "block.mjs"
    path.write_text(script.replace(DOCUMENTED, url))
    done = subprocess.run(
        [node, str(path), TOKEN], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _history(url: str, session_id: str) -> list[dict[str, Any]]:
    r = httpx.get(
        f"{url}/v1/sessions/{session_id}/history",
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


def _turn_done(events: list[dict[str, Any]]) -> list[str]:
    """The types of the session's events, checking its turn ran the approved restart."""
    types = [e["type"] for e in events]
    [returned] = [e for e in events if e["type"] == "tool.result"]
    assert returned["data"]["name"] == "restart_service", returned
    assert returned["data"]["outcome"] == "ok", returned
    assert types.count("input.requested") == 1 and types.count("input.resolved") == 1
    assert types[-1] in ("turn.completed", "session.waiting"), types
    assert "turn.completed" in types
    return types


AGUI_HARNESS = """
const token = process.argv[2];
{block}
console.log(JSON.stringify({{ messages: agent.messages, open: agent.pendingInterrupts }}));
"""


def test_the_ag_ui_block_runs(tmp_path: Path) -> None:
    node = _node("agui")
    with tether_serve(f"sqlite:///{tmp_path}/t.db") as served:
        out = _run(node, "agui", AGUI_HARNESS.format(block=_block("ts")), tmp_path, served.url)
        events = _history(served.url, "incident-42")
    _turn_done(events)
    assert out["open"] == []
    said = [m.get("content") for m in out["messages"] if m["role"] == "assistant"]
    assert said[-1] == "Restarted.", out["messages"]


USECHAT_HARNESS = """
import {{ AbstractChat }} from "ai";
{imports}

const token = process.argv[2];
const errors = [];

// What @ai-sdk/react's Chat keeps in React state, kept in plain fields.
class State {{
  constructor() {{ this.status = "ready"; this.error = undefined; this.messages = []; }}
  pushMessage = (m) => {{ this.messages = this.messages.concat(m); }};
  popMessage = () => {{ this.messages = this.messages.slice(0, -1); }};
  replaceMessage = (i, m) => {{
    this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)];
  }};
  snapshot = (thing) => structuredClone(thing);
}}

let chat;
// useChat makes one Chat from its options and, mounted with `resume: true`, resumes.
function useChat(options) {{
  chat = new (class extends AbstractChat {{}})({{
    ...options,
    state: new State(),
    onError: (e) => errors.push(String(e)),
  }});
  if (options.resume) resuming = chat.resumeStream();
  return chat;
}}
let resuming = Promise.resolve();

{body}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function idle() {{
  for (let i = 0; i < 800 && (chat.status === "submitted" || chat.status === "streaming"); i++) {{
    await sleep(25);
  }}
}}
await resuming;
const resumed = structuredClone(chat.messages);
await sendMessage({{ text: "restart the api" }});
await idle();
const last = () => chat.messages[chat.messages.length - 1];
const asked = last().parts.find((p) => p.approval && p.state === "approval-requested");
if (asked) await addToolApprovalResponse({{ id: asked.approval.id, approved: true }});
await sleep(50);
await idle();
console.log(JSON.stringify({{ resumed, messages: chat.messages, errors, status: chat.status }}));
"""


def test_the_use_chat_block_runs(tmp_path: Path) -> None:
    node = _node("aisdk")
    code = _block("tsx")
    lines = code.splitlines()
    imports = [line for line in lines if line.startswith("import ")]
    assert imports[0] == 'import { useChat } from "@ai-sdk/react";', imports
    body = "\n".join(line for line in lines if not line.startswith("import "))
    script = USECHAT_HARNESS.format(imports="\n".join(imports[1:]), body=body)
    with tether_serve(f"sqlite:///{tmp_path}/t.db") as served:
        out = _run(node, "aisdk", script, tmp_path, served.url)
        events = _history(served.url, "incident-42")
    _turn_done(events)
    assert out["errors"] == [] and out["status"] == "ready", out
    assert out["resumed"] == []  # no turn in progress when the page mounted
    [user, assistant] = out["messages"]
    assert user["role"] == "user" and assistant["role"] == "assistant"
    tool = next(p for p in assistant["parts"] if p.get("toolName") == "restart_service")
    assert tool["state"] == "output-available"
    assert json.loads(tool["output"]) == {"restarted": "api"}
    texts = [p["text"] for p in assistant["parts"] if p["type"] == "text"]
    assert texts[-1] == "Restarted.", assistant["parts"]
