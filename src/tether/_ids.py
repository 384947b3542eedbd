"""Identifiers: ULIDs (time-ordered, 128 bits) and unguessable tokens."""

from __future__ import annotations

import os
import secrets
import time

__all__ = ["new_token", "new_ulid"]

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_ulid(prefix: str = "") -> str:
    """Return `prefix` + a 26-character ULID (48-bit ms timestamp, 80 random bits)."""
    value = (int(time.time() * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return prefix + "".join(reversed(chars))


def new_token() -> str:
    """Return an unguessable URL-safe token carrying 192 random bits."""
    return secrets.token_urlsafe(24)
