"""Attachments over HTTP: upload a file to a session, read it back, send it by reference.

``POST /v1/sessions/{id}/attachments`` takes the raw bytes (``Content-Type`` is the
file's media type; ``?filename=`` or a ``Content-Disposition`` filename names it;
``?id=`` makes the upload idempotent) up to `ServerOptions.max_attachment_bytes`, and
answers the reference a message then carries (``"attachments": [{"id": ...}]``).
``GET .../attachments/{attachment_id}`` answers the bytes to the session's tenant
only, as a download that a browser never renders in the API's origin. The AI SDK
adapter stores the ``data:`` URL file parts of a `useChat` message the same way.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..agent import Attachment, Session
from ..errors import AttachmentError
from ._http import endpoint, json_response
from ._models import FILENAME_PATTERN, is_id
from ._problems import ApiProblem

if TYPE_CHECKING:
    from ._api import _Api

__all__ = ["attachment_routes", "message_attachments"]

_FORMS = ("multipart/", "application/x-www-form-urlencoded")
_DATA_URL = re.compile(r"^data:(?P<mime>[^,;]*)(?P<params>(?:;[^,;]*)*?)(?P<b64>;base64)?,")
_DISPOSITION_STAR = re.compile(r"filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)")
_DISPOSITION = re.compile(r'filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))')


_FILENAME = re.compile(FILENAME_PATTERN)


def _filename(request: Request) -> str | None:
    named = request.query_params.get("filename")
    if named is not None:
        # Given, even empty: checked as given (the document's pattern refuses "").
        return named
    disposition = request.headers.get("content-disposition", "")
    star = _DISPOSITION_STAR.search(disposition)
    if star is not None:
        return unquote(star.group(1).strip())
    plain = _DISPOSITION.search(disposition)
    if plain is not None:
        return plain.group(1) if plain.group(1) is not None else plain.group(2)
    return None


async def _read_limited(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiProblem(413, "body_too_large", f"the attachment exceeds {limit} bytes")
    raw = bytearray()
    async for part in request.stream():
        raw += part
        if len(raw) > limit:
            raise ApiProblem(413, "body_too_large", f"the attachment exceeds {limit} bytes")
    return bytes(raw)


async def _attach(
    session: Session,
    data: bytes,
    mime_type: str,
    filename: str | None,
    attachment_id: str | None,
) -> Attachment:
    """`Session.attach`, with a type the model does not take answered 415."""
    try:
        return await session.attach(
            data, mime_type=mime_type, filename=filename, attachment_id=attachment_id
        )
    except AttachmentError as exc:
        if exc.reason == "unsupported":
            raise ApiProblem(415, "unsupported_media_type", exc.detail) from None
        raise


def _download_headers(ref: Attachment) -> dict[str, str]:
    name = ref.filename or ref.id
    fallback = re.sub(r"[^A-Za-z0-9._-]", "_", name) or "attachment"
    digest = base64.b64encode(bytes.fromhex(ref.sha256)).decode()
    return {
        # A download, never a page of the API's origin (an uploaded text/html, say).
        "Content-Disposition": f"attachment; filename=\"{fallback}\"; filename*=UTF-8''"
        + quote(name, safe=""),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": "private, no-store",
        "ETag": f'"{ref.sha256}"',
        "Repr-Digest": f"sha-256=:{digest}:",
    }


def attachment_routes(api: _Api) -> list[Route]:
    """The upload and download routes on the app's API object."""

    async def upload(request: Request) -> Response:
        session = await api.session(request.path_params["session_id"], await api.principal(request))
        mime_type = request.headers.get("content-type", "").strip()
        if not mime_type or mime_type.lower().startswith(_FORMS):
            raise ApiProblem(
                415,
                "unsupported_media_type",
                "send the file's bytes as the body, with its media type as Content-Type "
                "(not a form)",
            )
        attachment_id = request.query_params.get("id")
        if attachment_id is not None and not is_id(attachment_id):
            raise ApiProblem(422, "invalid_input", "id is 1 to 128 of [A-Za-z0-9._:-]")
        filename = _filename(request)
        if filename is not None and (len(filename) > 255 or not _FILENAME.match(filename)):
            # The request's own fault, answered as such whatever the session's state (a
            # closing session would otherwise answer 409 first).
            raise ApiProblem(
                422,
                "invalid_attachment",
                "a filename is 1 to 255 characters of text, with no control characters",
            )
        data = await _read_limited(request, api.options.max_attachment_bytes)
        if not data:
            raise ApiProblem(422, "invalid_input", "the attachment is empty")
        ref = await _attach(session, data, mime_type, filename, attachment_id)
        location = f"/v1/sessions/{session.session_id}/attachments/{ref.id}"
        return json_response(ref.to_json(), 201, headers={"Location": location})

    async def download(request: Request) -> Response:
        session = await api.session(request.path_params["session_id"], await api.principal(request))
        ref, data = await session.read_attachment(request.path_params["attachment_id"])
        return Response(data, media_type=ref.mime_type, headers=_download_headers(ref))

    return [
        Route("/v1/sessions/{session_id}/attachments", endpoint(upload), methods=["POST"]),
        Route(
            "/v1/sessions/{session_id}/attachments/{attachment_id}",
            endpoint(download),
            methods=["GET"],
        ),
    ]


async def message_attachments(
    api: _Api, session: Session, message: dict[str, Any], message_id: str | None
) -> list[Attachment | str]:
    """Store the ``data:`` URL file parts of a `useChat` user message; their references.

    A part's id derives from the message id and its position, so the same message sent
    again (a retry) stores nothing new and admits nothing new.

    Raises:
        ApiProblem: A part whose URL is not a base64 ``data:`` URL (422), or whose bytes
            are over `ServerOptions.max_attachment_bytes` (413).
    """
    out: list[Attachment | str] = []
    limit = api.options.max_attachment_bytes
    for index, part in enumerate(message.get("parts") or []):
        if not isinstance(part, dict) or part.get("type") != "file":
            continue
        url = part.get("url")
        match = _DATA_URL.match(url) if isinstance(url, str) else None
        if not isinstance(url, str) or match is None or match.group("b64") is None:
            raise ApiProblem(
                422,
                "invalid_input",
                "a file part's url must be a base64 data: URL (upload other files to "
                "POST /v1/sessions/{id}/attachments and send them by id)",
            )
        encoded = url[match.end() :]
        if len(encoded) > (limit + 2) // 3 * 4 + 4:
            raise ApiProblem(413, "body_too_large", f"a file part exceeds {limit} bytes")
        try:
            data = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise ApiProblem(422, "invalid_input", "a file part's data is not base64") from None
        if len(data) > limit:
            raise ApiProblem(413, "body_too_large", f"a file part exceeds {limit} bytes")
        mime_type = part.get("mediaType") or match.group("mime") or "application/octet-stream"
        attachment_id = None
        if message_id is not None:
            seed = f"{message_id}\x00{index}".encode()
            attachment_id = "att_" + hashlib.sha256(seed).hexdigest()[:32]
        filename = part.get("filename") if isinstance(part.get("filename"), str) else None
        out.append(await _attach(session, data, str(mime_type), filename, attachment_id))
    return out
