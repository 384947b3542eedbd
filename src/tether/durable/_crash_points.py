"""Crash points: a worker process that SIGKILLs itself at its k-th commit.

The crash kit (`tether.testing.kill_at_each_commit`) runs a user's worker with
``TETHER_CRASH_AT_COMMIT=before:k`` or ``after:k``: the process kills itself with
SIGKILL just before its k-th commit of a run's progress is sent (what the steps did
since the last commit is lost, and runs again) or the moment it has landed (nothing is
lost), so each commit boundary of a workflow or a turn can be crashed at in turn.
Unset (always, in production) it costs one test of a module global per commit.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping

from ..errors import ConfigurationError

__all__ = ["CRASH_ENV", "commit_landed", "commit_sending", "configure"]

#: The environment variable: ``before:k`` or ``after:k`` (k counts commits from 1).
CRASH_ENV = "TETHER_CRASH_AT_COMMIT"

_at: tuple[str, int] | None = None
#: Commits sent ("before") and landed ("after") so far in this process.
_counts = {"before": 0, "after": 0}


def configure(env: Mapping[str, str]) -> None:
    """Read `CRASH_ENV` from `env` (a worker does, when it is made).

    Raises:
        ConfigurationError: The variable is set to something other than ``before:k``
            or ``after:k`` with k a positive integer.
    """
    global _at
    raw = env.get(CRASH_ENV)
    if raw is None or raw == "":
        _at = None
        return
    when, _, count = raw.partition(":")
    k = int(count) if count.isdigit() else 0
    if when not in ("before", "after") or k < 1:
        raise ConfigurationError(
            f"{CRASH_ENV} must be 'before:k' or 'after:k' with k a positive integer, not {raw!r}"
        )
    _at = (when, k)


def commit_sending() -> None:
    """Count a commit about to be sent; ``before:k`` kills this process at the k-th."""
    _count("before")


def commit_landed() -> None:
    """Count a landed commit; ``after:k`` kills this process at the k-th."""
    _count("after")


def _count(when: str) -> None:
    if _at is None:
        return
    _counts[when] += 1
    if _at == (when, _counts[when]):
        os.kill(os.getpid(), signal.SIGKILL)
