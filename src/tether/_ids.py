"""Identifiers: time-ordered 128-bit ids and unguessable tokens."""

from __future__ import annotations

import os
import secrets
import threading
import time

__all__ = ["new_token", "new_ulid"]

# Crockford's base32 alphabet, which sorts in ASCII order, so ids sort by their bits: a
# 48-bit millisecond timestamp first, then 80 random bits.
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# Two characters (10 bits) at a time: 13 lookups make the 26 characters of 130 bits.
_PAIRS = tuple(a + b for a in _CROCKFORD for b in _CROCKFORD)

#: Random bytes are read from the OS this many ids at a time: one system call per
#: id was a visible part of a step's cost (and of a thread's GIL hand-offs).
_BATCH = 64


class _Entropy:
    """OS randomness served 10 bytes at a time from a buffer refilled in batches.

    A forked child starts with an empty buffer: it must never hand out the bytes its
    parent will also hand out.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffer = b""
        self._at = 0

    def take(self) -> bytes:
        with self._lock:
            at = self._at
            if at + 10 > len(self._buffer):
                self._buffer, at = os.urandom(10 * _BATCH), 0
            self._at = at + 10
            return self._buffer[at : at + 10]

    def forget(self) -> None:
        self._lock = threading.Lock()
        self._buffer, self._at = b"", 0


_ENTROPY = _Entropy()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_ENTROPY.forget)


def new_ulid(prefix: str = "") -> str:
    """Return `prefix` + 26 characters: a ULID-like id that sorts by creation time."""
    value = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(_ENTROPY.take(), "big")
    value <<= 2  # 128 bits padded to 130, five per character (as base32 pads them)
    pairs = _PAIRS
    return prefix + "".join([pairs[(value >> shift) & 1023] for shift in range(120, -1, -10)])


def new_token() -> str:
    """Return an unguessable URL-safe token carrying 192 random bits."""
    return secrets.token_urlsafe(24)
