"""Attachments by reference over HTTP, against a real uvicorn on SQLite and Postgres.

Upload a file to a session, send a message carrying it by id, see it as a reference in
the events, history and transcript, read its bytes back (its tenant only), and find
it gone after retention or erasure.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from _served import Served, start_served

PNG = b"\x89PNG\r\n\x1a\n" + secrets.token_bytes(48)
NOTES = "zwölf notes".encode()


@pytest.fixture
async def small(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    """A server whose attachments may be 1 KiB at most."""
    async for s in start_served(*db, max_attachment_bytes=1024):
        yield s


async def upload(
    client: httpx.AsyncClient, session_id: str, data: bytes, mime: str | None, **params: Any
) -> httpx.Response:
    headers = {"Content-Type": mime} if mime is not None else {}
    headers.update(params.pop("headers", {}))
    return await client.post(
        f"/v1/sessions/{session_id}/attachments", content=data, params=params, headers=headers
    )


async def lane(served: Served, session_id: str) -> list[Any]:
    from tether.agent._records._keys import messages_lane

    return await served.backend.stores.submissions.list_unsettled_submissions(
        [messages_lane("ops", session_id)]
    )


async def test_upload_send_follow_and_download(served: Served) -> None:
    await served.session("s1")
    c = served.client()
    r = await upload(c, "s1", PNG, "image/png", filename="chart.png")
    assert r.status_code == 201, r.text
    image = r.json()
    assert image == {
        "id": image["id"],
        "mime_type": "image/png",
        "size": len(PNG),
        "sha256": hashlib.sha256(PNG).hexdigest(),
        "filename": "chart.png",
    }
    assert r.headers["location"] == f"/v1/sessions/s1/attachments/{image['id']}"
    r = await upload(
        c,
        "s1",
        NOTES,
        "text/plain; charset=utf-8",
        headers={"Content-Disposition": "attachment; filename*=UTF-8''z%C3%B6lf.txt"},
    )
    assert r.status_code == 201, r.text
    notes = r.json()
    assert (notes["mime_type"], notes["filename"]) == ("text/plain", "zölf.txt")
    # By id, or by the whole reference the upload returned.
    await served.send("s1", "look", attachments=[{"id": image["id"]}, notes])
    events = await served.events("s1", until="turn.completed")
    started = next(e for e in events if e["type"] == "turn.started")
    assert started["data"]["attachments"] == [image, notes]
    reply = next(e for e in events if e["type"] == "message.completed")
    assert reply["data"]["text"] == (
        f"You said: look (files: chart.png:{len(PNG)}, zölf.txt:{len(NOTES)}=zwölf notes)"
    )
    history = (await c.get("/v1/sessions/s1/history")).json()["events"]
    assert [e["data"]["attachments"] for e in history if e["type"] == "turn.started"] == [
        [image, notes]
    ]
    entries = (await c.get("/v1/sessions/s1/transcript")).json()["entries"]
    assert [e["attachments"] for e in entries if e["kind"] == "user"] == [[image, notes]]
    r = await c.get(f"/v1/sessions/s1/attachments/{image['id']}")
    assert r.status_code == 200 and r.content == PNG
    assert r.headers["content-type"] == "image/png"
    assert r.headers["content-disposition"].startswith('attachment; filename="chart.png"')
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["etag"] == f'"{image["sha256"]}"'
    digest = base64.b64encode(hashlib.sha256(PNG).digest()).decode()
    assert r.headers["repr-digest"] == f"sha-256=:{digest}:"
    r = await c.get(f"/v1/sessions/s1/attachments/{notes['id']}")
    assert r.content == NOTES and r.headers["content-type"].startswith("text/plain")
    assert "filename*=UTF-8''z%C3%B6lf.txt" in r.headers["content-disposition"]
    # An idempotent upload by id: the same bytes again are the same reference.
    first = await upload(c, "s1", PNG, "image/png", id="photo-1")
    again = await upload(c, "s1", PNG, "image/png", id="photo-1")
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    other = await upload(c, "s1", b"other", "image/png", id="photo-1")
    assert other.status_code == 409 and other.json()["code"] == "conflict"


async def test_bad_uploads_and_sends_are_refused_and_admit_nothing(served: Served) -> None:
    await served.session("s1")
    await served.session("s2")
    c = served.client()
    theirs = (await upload(c, "s2", PNG, "image/png")).json()
    mine = (await upload(c, "s1", PNG, "image/png")).json()
    for data, mime, status, code in [
        (b"PK\x03\x04", "application/zip", 415, "unsupported_media_type"),
        (b"x", None, 415, "unsupported_media_type"),
        (b"--b\r\n", "multipart/form-data; boundary=b", 415, "unsupported_media_type"),
        (b"\xff\xfe", "text/plain", 422, "invalid_attachment"),
        (b"x", "text/plain; charset=latin-1", 422, "invalid_attachment"),
        (b"", "image/png", 422, "invalid_input"),
    ]:
        r = await upload(c, "s1", data, mime)
        assert (r.status_code, r.json()["code"]) == (status, code), (mime, r.text)
        assert r.headers["content-type"] == "application/problem+json"
    bad_id = await upload(c, "s1", PNG, "image/png", id="../x")
    assert bad_id.status_code == 422
    url = "/v1/sessions/s1/messages"
    for attachments, reason in [
        ([{"id": "att_never"}], "unknown"),
        ([{"id": theirs["id"]}], "unknown"),  # another session's, same tenant
        ([{**mine, "sha256": "0" * 64}], "mismatch"),
    ]:
        r = await c.post(url, json={"text": "look", "attachments": attachments})
        # A conflict with what the session holds (upload first), not a malformed body.
        assert r.status_code == 409, r.text
        problem = r.json()
        assert problem["code"] == "invalid_attachment" and problem["reason"] == reason
        assert problem["attachment_id"] == attachments[0]["id"]
    partial = await c.post(url, json={"text": "x", "attachments": [{"id": mine["id"], "size": 1}]})
    assert partial.status_code == 422 and partial.json()["code"] == "invalid_body"
    many = await c.post(url, json={"text": "x", "attachments": [{"id": mine["id"]}] * 33})
    assert many.status_code == 422
    assert await lane(served, "s1") == []
    # Unknown ids read 404; another tenant reads 404 for every attachment route.
    assert (await c.get("/v1/sessions/s1/attachments/att_never")).status_code == 404
    eve = served.client("eve")
    r = await eve.get(f"/v1/sessions/s1/attachments/{mine['id']}")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = await upload(eve, "s1", PNG, "image/png")
    assert r.status_code == 404
    assert (await upload(eve, "s1", PNG, "image/png", id="eve-1")).status_code == 404


async def test_uploads_over_the_limit_are_413(small: Served) -> None:
    await small.session("s1")
    c = small.client()
    r = await upload(c, "s1", b"\x89PNG" + b"0" * 1021, "image/png")
    assert r.status_code == 413 and r.json()["code"] == "body_too_large"

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(3):
            yield b"a" * 400  # no Content-Length: counted as it streams

    r = await c.post(
        "/v1/sessions/s1/attachments", content=chunks(), headers={"Content-Type": "text/plain"}
    )
    assert r.status_code == 413
    ok = await upload(c, "s1", b"a" * 1024, "text/plain")
    assert ok.status_code == 201, ok.text
    # The AI SDK adapter's file parts: base64 data: URLs, under the same limit.

    async def chat(url: str) -> httpx.Response:
        part = {"type": "file", "mediaType": "text/plain", "url": url}
        message = {"id": "u1", "role": "user", "parts": [part, {"type": "text", "text": "hi"}]}
        return await c.post("/v1/ui/aisdk/chat", json={"id": "s1", "messages": [message]})

    big = base64.b64encode(b"a" * 1025).decode()
    for url, status in [
        (f"data:text/plain;base64,{big}", 413),
        ("https://example.com/notes.txt", 422),
        ("data:text/plain,plain%20text", 422),
        ("data:text/plain;base64,@@@", 422),
    ]:
        r = await chat(url)
        assert r.status_code == status, (url, r.text)
        assert r.headers["content-type"] == "application/problem+json"
    assert await lane(small, "s1") == []


async def test_retention_zero_and_erasure_remove_the_files(served: Served) -> None:
    c = served.client()
    r = await c.post("/v1/sessions", json={"session_id": "r0", "retention": 0})
    assert r.status_code == 201, r.text
    kept = (await upload(c, "r0", NOTES, "text/plain")).json()
    await served.send("r0", "read", attachments=[{"id": kept["id"]}])
    await served.events("r0", until="turn.completed")
    assert (await c.post("/v1/sessions/r0/close")).status_code == 202
    session = await served.host.get_session("r0")
    await (await served.host.client.get(session.run_id)).result(timeout=20)
    r = await c.get(f"/v1/sessions/r0/attachments/{kept['id']}")
    assert r.status_code == 410 and r.json()["code"] == "session_expired"
    # Erased: the attachment rows are gone from the store too.
    await served.session("e1")
    gone = (await upload(c, "e1", PNG, "image/png")).json()
    await served.host.erase_session("ops", "e1")
    assert (await c.get(f"/v1/sessions/e1/attachments/{gone['id']}")).status_code in (404, 410)
    for session_id, attachment_id in (("r0", kept["id"]), ("e1", gone["id"])):
        stored = await served.backend.stores.attachments.get(
            stream_path=f"agents/ops/{session_id}#attachments",
            conversation_id=session_id,
            attachment_id=attachment_id,
        )
        assert stored is None
