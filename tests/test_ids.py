"""Ids: 26 Crockford base32 characters that sort by creation time, never repeated."""

from __future__ import annotations

import base64
import os
import time

from tether._ids import new_ulid

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def test_an_id_is_its_millisecond_then_random_bits_in_crockford_base32() -> None:
    before = time.time_ns() // 1_000_000
    ulid = new_ulid("run_")
    after = time.time_ns() // 1_000_000
    assert ulid.startswith("run_") and len(ulid) == 4 + 26
    body = ulid[4:]
    assert set(body) <= set(_CROCKFORD)
    # Decoded as RFC 4648 base32 (re-lettered), its first 48 bits are the milliseconds.
    rfc = body.translate(str.maketrans(_CROCKFORD, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"))
    raw = base64.b32decode(rfc + "======")
    assert before <= int.from_bytes(raw[:6], "big") <= after


def test_ids_sort_by_time_and_do_not_repeat() -> None:
    first = new_ulid()
    time.sleep(0.002)
    many = [new_ulid() for _ in range(5000)]
    assert all(first < other for other in many)
    assert len(set(many)) == len(many)


def test_a_forked_child_does_not_repeat_its_parents_random_bits() -> None:
    new_ulid()  # the parent has random bytes buffered
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.write(write, "".join(new_ulid()[10:] for _ in range(8)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    child = os.read(read, 4096).decode()
    os.close(read)
    parent = "".join(new_ulid()[10:] for _ in range(8))
    assert len(child) == len(parent) == 8 * 16
    assert child != parent
