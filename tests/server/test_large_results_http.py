"""A large tool result, stored once by content, reaches HTTP clients whole.

Followed live (the feed's listener), read as history, and read as a stream page, the
``tool.result`` event carries the whole content, as `Session.read_events` gives it.
"""

from __future__ import annotations

from _served import Served
from server_app import report

from tether.agent import PAYLOAD_THRESHOLD

SIZE = PAYLOAD_THRESHOLD * 3


async def test_a_large_tool_result_reads_whole_over_http(served: Served) -> None:
    whole = report.fn(SIZE)
    await served.session("big")
    await served.send("big", f"report {SIZE}")
    live = await served.events("big", until="turn.completed")
    assert [e["data"]["content"] for e in live if e["type"] == "tool.result"] == [whole]
    late = await served.events("big", until="turn.completed")  # behind the feed's buffer
    assert [e["data"]["content"] for e in late if e["type"] == "tool.result"] == [whole]
    page = await served.client().get("/v1/sessions/big/history")
    assert page.status_code == 200, page.text
    results = [e for e in page.json()["events"] if e["type"] == "tool.result"]
    assert [e["data"]["content"] for e in results] == [whole]
    assert results[0]["data"]["content_ref"].startswith("payload-")
