"""A long session's model request is built from what was added since the last one.

`Transcript.to_messages` keeps what it made of the transcript's settled prefix (no
tool call in it without a result) with the cached transcript, without attachments'
bytes, and goes on from there; whatever the history (results recorded after a
steering message, calls never answered, a call answered twice, files), the messages
are exactly `to_messages` of the whole.
"""

from __future__ import annotations

import random
from typing import Any

from tether.agent._records._attachments import Attachment
from tether.agent._records._entries import (
    AssistantEntry,
    ContextEntry,
    ToolCallEntry,
    ToolResultEntry,
    UserEntry,
)
from tether.agent._stored._transcript import _convert, to_messages
from tether.agent.models import AttachmentData

FILE = Attachment(id="att_1", mime_type="image/png", size=3, sha256="0" * 64)
BYTES = {"att_1": AttachmentData(data=b"png", mime_type="image/png")}


def _history(seed: int, n: int) -> list[Any]:
    rng = random.Random(seed)
    entries: list[Any] = [ContextEntry(text="earlier", source="compaction")]
    waiting: list[str] = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.3:
            files = (FILE,) if rng.random() < 0.2 else ()
            entries.append(
                UserEntry(turn_id=f"t{i}", submission_id=f"m{i}", text=f"u{i}", attachments=files)
            )
        elif roll < 0.6:
            calls = tuple(
                ToolCallEntry(call_id=f"c{i}_{j}", name="f", arguments={"j": j})
                for j in range(rng.randint(0, 3))
            )
            waiting += [c.call_id for c in calls]
            entries.append(AssistantEntry(turn_id=f"t{i}", step_index=i, call=0, text=f"a{i}",
                                          tool_calls=calls))  # fmt: skip
        elif waiting:
            # Answered now, later (after other entries), never, or twice.
            call_id = waiting.pop(rng.randrange(len(waiting)))
            result = ToolResultEntry(turn_id="t", call_id=call_id, name="f", content=f"r{i}")
            entries.append(result)
            if rng.random() < 0.1:
                entries.append(ToolResultEntry(turn_id="t", call_id=call_id, name="f",
                                               content="again"))  # fmt: skip
        if rng.random() < 0.05:
            waiting.clear()  # calls left without a result for good
    return entries


def test_going_on_from_the_settled_prefix_gives_the_whole_conversion() -> None:
    went_on = total = 0
    for seed in range(40):
        entries = _history(seed, 120)
        before = None
        for k in range(1, len(entries) + 1):
            # The first k entries, the last 3 recorded by the step (not in the cache:
            # `limit`), so the settled prefix never covers them.
            total += 1
            went_on += before is not None
            out, before = _convert(entries[:k], BYTES, before, max(0, k - 3))
            assert out == to_messages(entries[:k], BYTES), (seed, k)
            if before is not None:
                assert before.upto <= max(0, k - 3)
                # The cached conversion never holds attachments' bytes.
                assert all(not getattr(m, "attachments", ()) for m in before.messages)
    assert went_on > total // 2  # most conversions went on from a settled prefix


def test_another_list_or_files_start_over() -> None:
    entries = _history(7, 60)
    out, before = _convert(entries, None, None, len(entries))
    assert before is not None and before.upto > 0
    copied = [e for e in entries]  # the same objects: goes on
    assert _convert(copied, None, before, len(copied))[0] == out
    reread = [type(e)(**{f: getattr(e, f) for f in e.__dataclass_fields__}) for e in entries]
    again, fresh = _convert(reread, None, before, len(reread))  # other objects: afresh
    assert again == out and fresh is not None and fresh.last is reread[fresh.upto - 1]
    with_files, _ = _convert(entries, BYTES, before, len(entries))
    assert with_files == to_messages(entries, BYTES)
