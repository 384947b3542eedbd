"""`ServerOptions`: the tunables of the app (limits, stream timing)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ServerOptions"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerOptions:
    """Tunables of the app.

    Attributes:
        max_body_bytes: Request bodies over this size are refused with 413.
        max_attachment_bytes: Attachments (uploads, AI SDK file parts) over this size
            are refused with 413; the AI SDK chat route takes bodies up to
            ``max_body_bytes + 2 * max_attachment_bytes`` (files come as base64).
        keepalive: Seconds between keep-alive comments on a quiet event stream.
        feed_linger: Seconds a session's shared listener outlives its last follower.
        check_ttl: Seconds a follow's check of a session (not stranded, content not
            deleted) is reused by the next follow of the same session.
    """

    max_body_bytes: int = 1 << 20
    max_attachment_bytes: int = 20 << 20
    keepalive: float = 15.0
    feed_linger: float = 5.0
    check_ttl: float = 1.0
