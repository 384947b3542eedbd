"""A large tool result is stored once, by content, and read back whole, on every backend.

Past `PAYLOAD_THRESHOLD` bytes a tool result goes to the session's attachment stream
under its digest; the transcript entry and the ``tool.result`` event hold only that
reference, and the same bytes in a later turn add nothing. The model, the transcript,
the events (read and followed), a fork and a sub-agent's result all see the content
whole; erasure deletes it with the session.
"""

from __future__ import annotations

import base64
import os

from _harness import hosted

from tether.agent import PAYLOAD_THRESHOLD, Agent, ToolResultEntry, payload_id, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.stores import OFFSET_START, Backend
from tether.testing import Reply, ScriptedModel, tool_call

BIG = base64.b64encode(os.urandom(150_000)).decode()  # 200 KB, incompressible
assert len(BIG) > PAYLOAD_THRESHOLD


@tool
def fetch_report(small: bool = False) -> str:
    """Fetch the report."""
    return "a short one" if small else BIG


def reader(seen: list[int]) -> Agent:
    def answer(request: ModelRequest) -> str | Reply:
        last = request.messages[-1]
        if isinstance(last, ToolResultMessage):
            seen.append(len(last.content))
            return f"read {len(last.content)}"
        small = isinstance(last, UserMessage) and "short" in last.text
        return Reply(tool_calls=(tool_call("fetch_report", {"small": small}),))

    return Agent(name="reader", model=ScriptedModel(answer), tools=[fetch_report])


def attachments_path(agent: str, session_id: str) -> str:
    return f"agents/{agent}/{session_id}#attachments"


async def _raw_records(backend: Backend, path: str) -> list[dict[str, object]]:
    page = await backend.stores.conversations.read(path, offset=OFFSET_START, limit=1000)
    return [r for b in page.batches for r in b.records if r.get("kind") == "tool_result"]


async def test_a_large_result_is_stored_once_and_read_whole(any_backend: Backend) -> None:
    seen: list[int] = []
    async with hosted(any_backend, reader(seen)) as host:
        session = await host.open_session("reader", session_id="big-1")
        last = -1
        for text in ("read it", "read it again", "a short one"):
            await session.send(text)
            last = (await session.wait_for("turn.completed", after=last)).index
        assert seen == [len(BIG), len(BIG), len("a short one")]  # the model saw it whole
        results = [e for e in await session.transcript() if isinstance(e, ToolResultEntry)]
        assert [r.content for r in results] == [BIG, BIG, "a short one"]
        ref = payload_id(BIG)
        assert [r.content_ref for r in results] == [ref, ref, None]
        # Stored: references only, the same one twice; a small result as before.
        raw = await _raw_records(any_backend, "agents/reader/big-1")
        assert [(r["content"], r.get("content_ref")) for r in raw] == [
            ("", ref),
            ("", ref),
            ("a short one", None),
        ]
        chunks = await host.client.stream(session.run_id, "events").read_all(0)
        assert sum(len(c.data) for c in chunks) < 100_000
        events = [e for e in await session.read_events() if e.type == "tool.result"]
        assert [e.data.content for e in events] == [BIG, BIG, "a short one"]
        followed = [
            e.data.content async for e in session.events(0, follow=False) if e.type == "tool.result"
        ]
        assert followed == [BIG, BIG, "a short one"]
        stored = await any_backend.stores.attachments.get(
            stream_path=attachments_path("reader", "big-1"),
            conversation_id="big-1",
            attachment_id=ref,
        )
        assert stored is not None and stored.data == BIG.encode()
        # A fork refers to its own copy: erasing the original leaves it readable.
        fork = await session.fork(session_id="big-1-fork")
        await session.close()
        await session.wait_for("session.closed")
        await session.erase()
        assert (
            await any_backend.stores.attachments.get(
                stream_path=attachments_path("reader", "big-1"),
                conversation_id="big-1",
                attachment_id=ref,
            )
            is None
        )
        copy = await any_backend.stores.attachments.get(
            stream_path=attachments_path("reader", "big-1-fork"),
            conversation_id="big-1-fork",
            attachment_id=ref,
        )
        assert copy is not None and copy.data == BIG.encode()
        forked = [e for e in await fork.transcript() if isinstance(e, ToolResultEntry)]
        assert [r.content for r in forked] == [BIG, BIG, "a short one"]


async def test_a_sub_agents_large_answer_is_stored_once(backend: Backend) -> None:
    researcher = Agent(name="researcher", model=ScriptedModel([BIG]))
    seen: list[int] = []

    def answer(request: ModelRequest) -> str | Reply:
        last = request.messages[-1]
        if isinstance(last, ToolResultMessage):
            seen.append(len(last.content))
            return "noted"
        return Reply(tool_calls=(tool_call("researcher", {"task": "write it all"}),))

    lead = Agent(name="lead", model=ScriptedModel(answer), tools=[researcher.as_tool()])
    async with hosted(backend, lead, researcher) as host:
        session = await host.open_session("lead", session_id="big-2")
        await session.send("delegate")
        await session.wait_for("turn.completed", timeout=30)
        assert seen == [len(BIG)]
        (result,) = [e for e in await session.transcript() if isinstance(e, ToolResultEntry)]
        assert (result.content, result.content_ref) == (BIG, payload_id(BIG))
        raw = await _raw_records(backend, "agents/lead/big-2")
        assert [r["content"] for r in raw] == [""]
