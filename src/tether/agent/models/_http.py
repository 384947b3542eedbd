"""HTTP plumbing shared by the providers: SSE decoding, error classification, stalls."""

from __future__ import annotations

import asyncio
import codecs
import math
import re
import time
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

import orjson

from ...errors import MissingExtraError, ModelError

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "SSEDecoder",
    "SSEEvent",
    "error_message_from_body",
    "is_quota_error",
    "parse_retry_after",
    "require_httpx",
    "status_of",
    "stream_sse",
]

DEFAULT_CONNECT_TIMEOUT = 30.0
"""Seconds to establish a connection to a provider."""

_RETRYABLE_STATUSES = frozenset({408, 409, 429})
_LINE_END = re.compile(r"\r\n|\r|\n")
_MAX_ERROR_BODY = 64 * 1024


def require_httpx(extra: str) -> None:
    """Raise :class:`MissingExtraError` naming ``extra`` when httpx is not installed."""
    try:
        import httpx  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError("httpx", extra) from exc


@dataclass(frozen=True, slots=True, kw_only=True)
class SSEEvent:
    """One server-sent event: its type (``"message"`` when absent) and its data."""

    event: str
    data: str


class SSEDecoder:
    """Incremental decoder of a ``text/event-stream`` body.

    Feed it bytes as they arrive; it returns the events completed so far. Lines may end
    in CR, LF or CRLF, and a chunk may split a line, a CRLF pair or a UTF-8 character.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._event = ""
        self._data: list[str] = []

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        """Decode ``chunk`` and return the events it completed."""
        self._buffer += self._decoder.decode(chunk)
        events: list[SSEEvent] = []
        position = 0
        while True:
            match = _LINE_END.search(self._buffer, position)
            if match is None:
                break
            # A lone CR at the end may be the first half of a CRLF split across chunks.
            if match.group() == "\r" and match.end() == len(self._buffer):
                break
            event = self._line(self._buffer[position : match.start()])
            if event is not None:
                events.append(event)
            position = match.end()
        self._buffer = self._buffer[position:]
        return events

    def _line(self, line: str) -> SSEEvent | None:
        if not line:
            if not self._data:
                self._event = ""
                return None
            event = SSEEvent(event=self._event or "message", data="\n".join(self._data))
            self._event = ""
            self._data = []
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        return None


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Return the delay a provider asked for, in seconds, or ``None``.

    Reads ``retry-after-ms`` first, then ``retry-after`` as seconds or as an HTTP date.
    """
    raw_ms = headers.get("retry-after-ms")
    if raw_ms is not None:
        try:
            millis = float(raw_ms)
        except ValueError:
            millis = -1.0
        if math.isfinite(millis) and millis >= 0:
            return millis / 1000.0
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
        return max(seconds, 0.0)
    # "inf" and "nan" parse as floats: a header no delay can honour is ignored.
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def error_message_from_body(body: bytes) -> str:
    """Extract the human message from a provider's error body (JSON or text)."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        value: Any = orjson.loads(body)
    except orjson.JSONDecodeError:
        return text[:500] or "(empty body)"
    if isinstance(value, dict):
        error = value.get("error", value)
        if isinstance(error, dict):
            message = error.get("message") or error.get("detail")
            if isinstance(message, str):
                kind = error.get("type")
                return f"{kind}: {message}" if isinstance(kind, str) and kind else message
        if isinstance(error, str):
            return error
        detail = value.get("detail") or value.get("message")
        if isinstance(detail, str):
            return detail
    return text[:500]


def status_of(code: Any) -> int | None:
    """An HTTP-status-like error code (an int or a numeric string such as ``"500"``)."""
    if isinstance(code, bool):
        return None
    if isinstance(code, int):
        return code
    if isinstance(code, str) and code.strip().isdigit():
        return int(code.strip())
    return None


def is_quota_error(error: Any) -> bool:
    """Whether an error object says the account is out of quota (no retry can help)."""
    if not isinstance(error, Mapping):
        return False
    return "insufficient_quota" in (str(error.get("code")), str(error.get("type")))


def _body_error(body: bytes) -> Any:
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return value.get("error") if isinstance(value, dict) else None


def _status_error(
    provider: str, status: int, headers: Mapping[str, str], body: bytes, hints: Mapping[int, str]
) -> ModelError:
    detail = error_message_from_body(body)
    # Out of quota is a 429 no wait cures: fail at once (the user must add credit).
    quota = status == 429 and is_quota_error(_body_error(body))
    retryable = not quota and (status in _RETRYABLE_STATUSES or status >= 500)
    if quota:
        what = "out of quota"
    elif status == 429:
        what = "rate limited"
    elif status == 529:
        what = "overloaded"
    elif status >= 500:
        what = "server error"
    else:
        what = "request refused"
    message = f"{provider}: {what} (HTTP {status}): {detail}"
    hint = hints.get(status)
    if hint is None and not retryable:
        hint = hints.get(0)
    if hint:
        message = f"{message}; {hint}"
    return ModelError(
        message,
        provider=provider,
        status_code=status,
        retryable=retryable,
        retry_after=parse_retry_after(headers) if retryable else None,
    )


def _transport_error(
    provider: str, url: str, exc: Exception, *, stall_timeout: float
) -> ModelError:
    import httpx

    if isinstance(exc, httpx.ConnectTimeout):
        message = f"{provider}: timed out connecting to {url!r}"
    elif isinstance(exc, httpx.ReadTimeout):
        message = f"{provider}: no answer from {url!r} within {stall_timeout} s (stalled)"
    elif isinstance(exc, httpx.TimeoutException):
        message = f"{provider}: request to {url!r} timed out ({type(exc).__name__})"
    elif isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return ModelError(
            f"{provider}: cannot send a request to {url!r} ({exc}); check the base URL",
            provider=provider,
            retryable=False,
        )
    elif isinstance(exc, httpx.DecodingError):
        return ModelError(
            f"{provider}: could not decode the answer from {url!r} ({exc})",
            provider=provider,
            retryable=False,
        )
    else:
        message = f"{provider}: connection to {url!r} failed ({type(exc).__name__}: {exc})"
    return ModelError(message, provider=provider, retryable=True)


async def stream_sse(
    *,
    provider: str,
    url: str,
    headers: Mapping[str, str],
    body: Mapping[str, Any],
    stall_timeout: float,
    connect_timeout: float,
    http_client: httpx.AsyncClient | None,
    hints: Mapping[int, str],
) -> AsyncGenerator[SSEEvent, None]:
    """POST ``body`` as JSON and yield the server-sent events of the answer.

    A non-2xx answer raises a classified :class:`ModelError`. So does a stream that
    sends no byte for ``stall_timeout`` seconds (retryable, "stalled").

    Args:
        provider: Provider name for error messages.
        url: The endpoint.
        headers: Request headers (auth, versions).
        body: The JSON body.
        stall_timeout: Longest silence tolerated, in seconds.
        connect_timeout: Seconds to establish the connection.
        http_client: A client to reuse; a private one is opened and closed otherwise.
        hints: What to tell the user per HTTP status; key ``0`` for other 4xx.
    """
    import httpx

    timeout = httpx.Timeout(
        connect=connect_timeout, read=stall_timeout, write=stall_timeout, pool=connect_timeout
    )
    content = orjson.dumps(body)
    all_headers = {"content-type": "application/json", "accept": "text/event-stream", **headers}
    client = http_client if http_client is not None else httpx.AsyncClient()
    try:
        try:
            async with client.stream(
                "POST", url, content=content, headers=all_headers, timeout=timeout
            ) as response:
                if response.status_code >= 300:
                    error_body = await _read_bounded(response, stall_timeout)
                    raise _status_error(
                        provider, response.status_code, response.headers, error_body, hints
                    )
                content_type = response.headers.get("content-type", "")
                if "json" in content_type or "html" in content_type:
                    error_body = await _read_bounded(response, stall_timeout)
                    raise ModelError(
                        f"{provider}: expected a text/event-stream answer from {url!r}, got "
                        f"{content_type!r}: {error_message_from_body(error_body)}; check "
                        "that the base URL points at the provider's API",
                        provider=provider,
                        status_code=response.status_code,
                        retryable=False,
                    )
                decoder = SSEDecoder()
                chunks = response.aiter_bytes().__aiter__()
                while True:
                    try:
                        async with asyncio.timeout(stall_timeout):
                            chunk = await anext(chunks)
                    except StopAsyncIteration:
                        break
                    except TimeoutError:
                        raise ModelError(
                            f"{provider}: the stream stalled: no data for {stall_timeout} s; "
                            "abandoned",
                            provider=provider,
                            retryable=True,
                        ) from None
                    for event in decoder.feed(chunk):
                        yield event
        except (httpx.TransportError, httpx.InvalidURL) as exc:
            raise _transport_error(provider, url, exc, stall_timeout=stall_timeout) from exc
    finally:
        if http_client is None:
            await client.aclose()


async def _read_bounded(response: httpx.Response, stall_timeout: float) -> bytes:
    body = bytearray()
    try:
        async with asyncio.timeout(stall_timeout):
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) >= _MAX_ERROR_BODY:
                    break
    except TimeoutError:
        pass
    return bytes(body)
