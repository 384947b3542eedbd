"""Identifiers: time-ordered 128-bit ids and unguessable tokens."""

from __future__ import annotations

import base64
import os
import secrets
import time

__all__ = ["new_token", "new_ulid"]

# RFC 4648 base32 re-lettered with Crockford's alphabet, which sorts in ASCII order, so
# ids sort by their bytes: a 48-bit millisecond timestamp first, then 80 random bits.
_CROCKFORD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def new_ulid(prefix: str = "") -> str:
    """Return `prefix` + 26 characters: a ULID-like id that sorts by creation time."""
    raw = (time.time_ns() // 1_000_000).to_bytes(6, "big") + os.urandom(10)
    return prefix + base64.b32encode(raw)[:26].decode("ascii").translate(_CROCKFORD)


def new_token() -> str:
    """Return an unguessable URL-safe token carrying 192 random bits."""
    return secrets.token_urlsafe(24)
