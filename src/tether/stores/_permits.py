"""Step permits: limits on the steps inside runs (a tool's calls, a provider's model calls).

`WorkflowStore.acquire_permit` takes one permit of a key for one holder, in one
transaction serialized with every other acquisition of the key, alike on every backend,
so a limit holds across every worker of every host that shares the store:

- **Concurrency**: at most ``concurrency`` live permits of a key. A permit is a row
  with an expiry; its holder renews it (`acquire_permit` again, which spends nothing)
  while its step runs and releases it (`WorkflowStore.release_permit`) when done. A
  holder that died stops renewing, and its permit stops counting the moment it
  expires: nothing has to give it back.
- **Rate**: at most ``per_second`` permits of a key taken per second, by a token bucket
  kept beside the runs' buckets (`stores._flow`) under the key `permit_bucket` names, so
  a limit named on both runs and steps counts the two apart.

A refused acquisition writes nothing: a waiting step holds no place and spends no token.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._flow import Bucket, FlowLimit, refilled

__all__ = ["Permit", "PermitChoice", "decide_permit", "permit_bucket"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Permit:
    """The result of `WorkflowStore.acquire_permit`.

    Attributes:
        granted: Whether the holder holds the permit now (taken, or renewed).
        retry_after: When refused by the rate: seconds until the key has a token again;
            None when refused for a place (one frees when a holder releases or expires).
        expires_at: When granted under a concurrency bound: the store-clock time the
            permit lapses unless renewed; None otherwise.
    """

    granted: bool
    retry_after: float | None = None
    expires_at: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PermitChoice:
    """What `decide_permit` found: the verdict, and the bucket to write back (if any)."""

    permit: Permit
    bucket: Bucket | None


def permit_bucket(key: str) -> str:
    """The token bucket's key of step permits of `key` ('@' is in no limit's name)."""
    return f"step@{key}"


def decide_permit(
    limit: FlowLimit,
    *,
    live: int,
    renewing: bool,
    bucket: Bucket | None,
    now: float,
    lease_seconds: float,
) -> PermitChoice:
    """Grant or refuse one acquisition.

    `live` counts the key's unexpired permits of other holders; `renewing` says the
    holder holds an unexpired one already (a renewal spends no token and always holds).
    """
    until = now + lease_seconds if limit.concurrency is not None else None
    if renewing:
        return PermitChoice(permit=Permit(granted=True, expires_at=until), bucket=None)
    if limit.concurrency is not None and live >= limit.concurrency:
        return PermitChoice(permit=Permit(granted=False), bucket=None)
    written = None
    if limit.per_second is not None:
        tokens = refilled(bucket, limit, now)
        if tokens < 1.0:
            wait = (1.0 - tokens) / limit.per_second
            return PermitChoice(permit=Permit(granted=False, retry_after=wait), bucket=None)
        written = Bucket(tokens=tokens - 1.0, stamp=now)
    return PermitChoice(permit=Permit(granted=True, expires_at=until), bucket=written)
