"""Attachments by reference through the public session API, on every backend.

A file is stored once with `Session.attach`; messages, the transcript, the events, the
ledger and the journal carry its reference; the model gets its bytes, read from the
attachment store for each request; retention and erasure delete it.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import TYPE_CHECKING, Any

import orjson
import pytest
from _harness import hosted

from tether.agent import Agent, Attachment, Session, UserEntry, address_session_id
from tether.agent._records._keys import messages_lane
from tether.agent.models import (
    AttachmentData,
    ModelRequest,
    OpenAIChatModel,
    UserMessage,
)
from tether.errors import (
    AttachmentError,
    ConflictError,
    ContentDeletedError,
    NotFoundError,
    SessionClosedError,
)
from tether.stores import Backend
from tether.testing import ScriptedModel

if TYPE_CHECKING:
    from _providers import ProviderServer

PNG = b"\x89PNG\r\n\x1a\n" + secrets.token_bytes(64)
MARKER = "file-only-marker-" + secrets.token_hex(6)
NOTES = f"# Notes\n{MARKER}\n".encode()


def _echo(request: ModelRequest) -> str:
    last = [m for m in request.messages if isinstance(m, UserMessage)][-1]
    return f"got {len(last.attachments)} file(s): {last.text}"


async def _content(backend: Backend, session: Session) -> bytes:
    """Everything of the session the journal, events, transcript and ledger hold."""
    host = session.host
    handle = await host.client.get(session.run_id)
    out = [orjson.dumps([s.input, s.output, s.error], default=str) for s in await handle.steps()]
    out += [c.data for c in await handle.stream("events").read_all()]
    batches = await backend.stores.conversations.read(f"agents/ops/{session.session_id}")
    out.append(orjson.dumps([b.records for b in batches.batches]))
    lanes = await backend.stores.submissions.list_unsettled_submissions([])
    out += [orjson.dumps(s.payload) for s in lanes]
    return b"\n".join(out)


async def test_a_message_carries_files_by_reference(backend: Backend) -> None:
    model = ScriptedModel(_echo)
    agent = Agent(name="ops", model=model)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="a1")
        image = await session.attach(PNG, mime_type="image/png", filename="chart.png")
        notes = await session.attach(
            NOTES, mime_type="Text/Markdown; charset=UTF-8", filename="C:\\docs\\notes.md"
        )
        assert image == Attachment(
            id=image.id,
            mime_type="image/png",
            size=len(PNG),
            sha256=hashlib.sha256(PNG).hexdigest(),
            filename="chart.png",
        )
        assert image.id.startswith("att_")
        assert (notes.mime_type, notes.filename) == ("text/markdown", "notes.md")
        # By reference or by id: both name what the session stores.
        sub = await session.send("what do these say?", attachments=[image, notes.id])
        started = await session.wait_for("turn.started")
        assert started.data.attachments == (image, notes)
        reply = await session.wait_for("message.completed")
        assert reply.data.text == "got 2 file(s): what do these say?"
        done = await session.wait_for("turn.completed")
        [request] = model.requests
        last = request.messages[-1]
        assert isinstance(last, UserMessage)
        assert last.attachments == (
            AttachmentData(data=PNG, mime_type="image/png", filename="chart.png"),
            AttachmentData(data=NOTES, mime_type="text/markdown", filename="notes.md"),
        )
        [user] = [e for e in await session.transcript() if isinstance(e, UserEntry)]
        assert user.attachments == (image, notes) and user.submission_id == sub
        wire = started.to_json()["data"]["attachments"]
        assert wire[0] == {
            "id": image.id,
            "mime_type": "image/png",
            "size": len(PNG),
            "sha256": image.sha256,
            "filename": "chart.png",
        }
        # The next request is built from the transcript again: the file's bytes are
        # read from the attachment store, not carried by the journal.
        await session.send("and now?")
        await session.wait_for("turn.completed", after=done.index)
        history = [m for m in model.requests[-1].messages if isinstance(m, UserMessage)]
        assert [len(m.attachments) for m in history] == [2, 0]
        assert history[0].attachments[1].data == NOTES
        ref, data = await session.read_attachment(notes.id)
        assert (ref, data) == (notes, NOTES)
        with pytest.raises(NotFoundError):
            await session.read_attachment("att_unknown")
        # Only references: the bytes are nowhere but in the attachment store.
        content = await _content(backend, session)
        assert MARKER.encode() not in content
        assert base64.b64encode(NOTES) not in content and notes.id.encode() in content


async def test_files_to_an_address_survive_its_reset(backend: Backend) -> None:
    model = ScriptedModel(_echo)
    agent = Agent(name="ops", model=model)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id=address_session_id("ops", "T1"))
        image = await session.attach(PNG, mime_type="image/png")
        await session.close()
        await (await host.client.get(session.run_id)).result(timeout=10)
        # The address's session ended: the message resets it; the file stays with its id.
        fresh, _ = await host.send_to_address("ops", "T1", "still there?", attachments=[image])
        reply = await fresh.wait_for("message.completed")
        assert reply.data.text == "got 1 file(s): still there?"
        last = model.requests[-1].messages[-1]
        assert isinstance(last, UserMessage) and last.attachments[0].data == PNG


async def test_attach_is_idempotent_by_id(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(_echo))
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="a2")
        first = await session.attach(PNG, mime_type="image/png", attachment_id="photo-1")
        again = await session.attach(PNG, mime_type="image/png", attachment_id="photo-1")
        assert first == again and first.id == "photo-1"
        with pytest.raises(ConflictError):
            await session.attach(b"other bytes", mime_type="image/png", attachment_id="photo-1")
        # The same message sent again with the same files admits nothing new.
        one = await session.send("look", client_message_id="m1", attachments=[first])
        two = await session.send("look", client_message_id="m1", attachments=["photo-1"])
        assert one == two
        with pytest.raises(ConflictError):
            await session.send("look", client_message_id="m1")


async def test_bad_files_are_refused_when_attached_or_sent(backend: Backend) -> None:
    images_only = Agent(name="ops", model=ScriptedModel(_echo, attachment_kinds=["image"]))
    local = Agent(name="local", model="openai-compatible:llama3.1")
    async with hosted(backend, images_only) as host:
        session = await host.open_session("ops", session_id="b1")
        other = await host.open_session("ops", session_id="b2")
        theirs = await other.attach(PNG, mime_type="image/png")

        async def refused(reason: str, **send: Any) -> AttachmentError:
            with pytest.raises(AttachmentError) as caught:
                await session.send("look", **send)
            assert caught.value.reason == reason, caught.value
            return caught.value

        unknown = await refused("unknown", attachments=[theirs.id])
        assert unknown.attachment_id == theirs.id and "upload it" in str(unknown)
        mine = await session.attach(PNG, mime_type="image/png")
        forged = Attachment(
            id=mine.id, mime_type="image/png", size=mine.size, sha256="0" * 64, filename=None
        )
        await refused("mismatch", attachments=[forged])
        await refused("invalid", attachments="not-a-list")
        await refused("invalid", attachments=[mine.id] * 33)
        for data, mime, reason in [
            (b"notes", "text/plain", "unsupported"),  # the model takes images only
            (b"x", "application/zip", "unsupported"),
            (b"x", "not a type", "invalid"),
            (b"x", "image/png; charset=latin-1", "invalid"),
        ]:
            with pytest.raises(AttachmentError) as caught:
                await session.attach(data, mime_type=mime)
            assert caught.value.reason == reason, (mime, caught.value)
        with pytest.raises(AttachmentError, match="control characters"):
            await session.attach(PNG, mime_type="image/png", filename="a\nb.png")
        with pytest.raises(AttachmentError, match="bytes"):
            await session.attach("text", mime_type="image/png")  # type: ignore[arg-type]
        # Nothing was admitted by any refused send.
        lane = await backend.stores.submissions.list_unsettled_submissions(
            [messages_lane("ops", "b1")]
        )
        assert lane == []
        assert not [e for e in await session.read_events() if e.type == "turn.started"]
    # A model named by a string is asked without resolving it (no key, no network).
    async with hosted(backend, local) as host:
        session = await host.open_session("local", session_id="c1")
        with pytest.raises(AttachmentError, match="does not take 'application/pdf'"):
            await session.attach(b"%PDF-1.7", mime_type="application/pdf")
    loose = Agent(name="ops2", model=ScriptedModel(_echo))
    async with hosted(backend, loose) as host:
        session = await host.open_session("ops2", session_id="d1")
        with pytest.raises(AttachmentError, match="UTF-8"):
            await session.attach(b"\xff\xfe bad", mime_type="text/plain")
        await session.close()
        await (await host.client.get(session.run_id)).result(timeout=10)
        with pytest.raises(SessionClosedError):
            await session.attach(PNG, mime_type="image/png")


async def test_retention_zero_deletes_the_files(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(_echo), retention=0)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="r1")
        notes = await session.attach(NOTES, mime_type="text/plain")
        await session.send("read this", attachments=[notes])
        await session.wait_for("turn.completed")
        await session.close()
        await (await host.client.get(session.run_id)).result(timeout=10)
        with pytest.raises(ContentDeletedError):
            await session.read_attachment(notes.id)
        # A send says the session is closed, not that its file is gone.
        with pytest.raises(SessionClosedError):
            await session.send("again", attachments=[notes])
    stored = await backend.stores.attachments.get(
        stream_path="agents/ops/r1#attachments", conversation_id="r1", attachment_id=notes.id
    )
    assert stored is None


async def test_erasing_a_session_deletes_its_files_only(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(_echo))
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="e1")
        kept = await host.open_session("ops", session_id="e2")
        image = await session.attach(PNG, mime_type="image/png")
        other = await kept.attach(PNG, mime_type="image/png")
        await session.send("see", attachments=[image])
        await session.wait_for("turn.completed")
        await host.erase_session("ops", "e1")
        # Unreadable (ContentDeletedError, a NotFoundError, when keys were shredded).
        with pytest.raises(NotFoundError):
            await session.read_attachment(image.id)
        assert (await kept.read_attachment(other.id))[1] == PNG
    stored = await backend.stores.attachments.get(
        stream_path="agents/ops/e1#attachments", conversation_id="e1", attachment_id=image.id
    )
    assert stored is None


async def test_openai_gets_the_image_of_a_session_message(
    backend: Backend, provider_server: ProviderServer
) -> None:
    chunk = {"id": "c", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"content": "A"}}]}
    end = {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    provider_server.sse(
        [f"data: {orjson.dumps(chunk).decode()}\n\n", f"data: {orjson.dumps(end).decode()}\n\n"]
    )
    model = OpenAIChatModel("gpt-4o", base_url=f"{provider_server.url}/v1", api_key="sk")
    agent = Agent(name="ops", model=model, instructions="Describe images.")
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="o1")
        image = await session.attach(PNG, mime_type="image/png", filename="chart.png")
        await session.send("What is this?", attachments=[image])
        reply = await session.wait_for("message.completed")
        assert reply.data.text == "A"
    body = provider_server.requests[0].json()
    assert body["messages"] == [
        {"role": "system", "content": "Describe images."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is this?"},
                {
                    "type": "image_url",
                    "image_url": {"url": "data:image/png;base64," + base64.b64encode(PNG).decode()},
                },
            ],
        },
    ]


def test_the_attachment_cache_keeps_to_its_budget() -> None:
    from tether.agent._records._attachments import AttachmentCache

    cache = AttachmentCache(budget=100)
    cache.put(("s", "a", "1"), b"a" * 40)
    cache.put(("s", "b", "2"), b"b" * 40)
    assert cache.get(("s", "a", "1")) == b"a" * 40  # now the most recent
    cache.put(("s", "c", "3"), b"c" * 40)  # over budget: the least recent (b) goes
    assert cache.get(("s", "b", "2")) is None
    assert cache.get(("s", "a", "1")) is not None and cache.get(("s", "c", "3")) is not None
    cache.put(("s", "d", "4"), b"d" * 51)  # over half the budget: never kept
    assert cache.get(("s", "d", "4")) is None
