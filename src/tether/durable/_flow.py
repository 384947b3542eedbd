"""Flow-control declarations of a registry: limits, workflow priorities, the policy.

A `Registry` declares limits (`Registry.limit`) and names them on workflows
(``@registry.workflow(limits=[...], priority=...)``); its workers hand the store the
resulting `FlowPolicy` with every claim, and the store holds the limits across every
worker sharing it (`WorkflowStore.claim_flow`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

from ..errors import FlowLimitError
from ..stores import DEFAULT_AGING, PRIORITY_LABEL, FlowLimit, FlowPolicy

__all__ = [
    "MAX_PRIORITY",
    "build_policy",
    "check_limit_names",
    "check_priority",
    "make_limit",
    "permit_key",
    "priority_labels",
    "resolve_limit",
]

#: Priorities run from ``-MAX_PRIORITY`` to ``MAX_PRIORITY`` (higher first).
MAX_PRIORITY = 1000
# A limit's name is part of its keys ("name" or "name=value"): no "=" in it.
_NAME = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


def make_limit(
    name: str,
    *,
    concurrency: int | None,
    per_second: float | None,
    burst: int | None,
    key: str | None,
) -> FlowLimit:
    """A checked `FlowLimit`.

    Raises:
        FlowLimitError: The name is not 1-64 letters, digits, ``_.:-``; neither bound is
            given; a bound is not a positive number; `burst` without `per_second`; or
            `key` is not a non-empty string.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise FlowLimitError(
            f"limit name {name!r} must be 1-64 letters, digits, '_', '.', ':' or '-'",
            limit=name if isinstance(name, str) else None,
        )
    if concurrency is None and per_second is None:
        raise FlowLimitError(
            f"limit {name!r} bounds nothing: give concurrency=N (activations at once), "
            "per_second=R (activations taken per second), or both",
            limit=name,
        )
    if concurrency is not None and (
        isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1
    ):
        raise FlowLimitError(
            f"limit {name!r}: concurrency must be an integer of at least 1, not {concurrency!r}",
            limit=name,
        )
    if per_second is not None and (
        isinstance(per_second, bool)
        or not isinstance(per_second, int | float)
        or not math.isfinite(per_second)
        or per_second <= 0
    ):
        raise FlowLimitError(
            f"limit {name!r}: per_second must be a positive number, not {per_second!r}",
            limit=name,
        )
    if burst is not None:
        if per_second is None:
            raise FlowLimitError(
                f"limit {name!r}: burst sizes a rate; give per_second as well", limit=name
            )
        if isinstance(burst, bool) or not isinstance(burst, int) or burst < 1:
            raise FlowLimitError(
                f"limit {name!r}: burst must be an integer of at least 1, not {burst!r}",
                limit=name,
            )
    if key is not None and (not isinstance(key, str) or not key):
        raise FlowLimitError(
            f"limit {name!r}: key is the label key whose values are limited apart "
            f"(e.g. 'tenant'), not {key!r}",
            limit=name,
        )
    if burst is None and per_second is not None:
        burst = max(1, math.ceil(per_second))
    return FlowLimit(
        name=name,
        concurrency=concurrency,
        per_second=None if per_second is None else float(per_second),
        burst=burst or 1,
        key=key,
    )


def check_priority(priority: object, *, what: str) -> int:
    """`priority` if it is an integer within ``±MAX_PRIORITY``.

    Raises:
        FlowLimitError: It is not.
    """
    if (
        isinstance(priority, bool)
        or not isinstance(priority, int)
        or not -MAX_PRIORITY <= priority <= MAX_PRIORITY
    ):
        raise FlowLimitError(
            f"{what}: priority must be an integer from {-MAX_PRIORITY} to {MAX_PRIORITY} "
            f"(higher is taken first), not {priority!r}"
        )
    return priority


def check_limit_names(limits: Iterable[str] | str, *, what: str) -> tuple[str, ...]:
    """The limit names a workflow declares, checked for form and duplicates.

    Raises:
        FlowLimitError: `limits` is a lone string, or a name is not a limit's name.
    """
    if isinstance(limits, str):
        raise FlowLimitError(f"{what}: limits is a list of limit names, e.g. [{limits!r}]")
    names = tuple(limits)
    for name in names:
        if not isinstance(name, str) or not _NAME.match(name):
            raise FlowLimitError(f"{what}: {name!r} is not a limit's name")
    if len(set(names)) != len(names):
        raise FlowLimitError(f"{what}: a limit is named twice in {list(names)!r}")
    return names


def build_policy(
    limits: Mapping[str, FlowLimit],
    workflows: Mapping[str, Sequence[str]],
    priorities: Mapping[str, int],
    *,
    aging: float = DEFAULT_AGING,
) -> FlowPolicy | None:
    """The policy a registry's workers claim under; None when it declares no flow control.

    Raises:
        FlowLimitError: A workflow names a limit that is not declared.
    """
    for workflow, names in workflows.items():
        for name in names:
            if name not in limits:
                raise FlowLimitError(
                    f"workflow {workflow!r} names limit {name!r}, which this registry does "
                    f"not declare: add registry.limit({name!r}, concurrency=..., "
                    "per_second=...)",
                    limit=name,
                )
    if not any(workflows.values()) and not any(priorities.values()):
        return None
    return FlowPolicy(
        limits=dict(limits),
        workflows={w: tuple(n) for w, n in workflows.items() if n},
        priorities={w: p for w, p in priorities.items() if p},
        aging=aging,
    )


def priority_labels(priority: int) -> dict[str, str]:
    """The labels that give one run `priority` (``Client.start(labels=...)``).

    Raises:
        FlowLimitError: The priority is not an integer within ``±MAX_PRIORITY``.
    """
    return {PRIORITY_LABEL: str(check_priority(priority, what="run"))}


def permit_key(limit: FlowLimit, labels: Mapping[str, str]) -> str:
    """The key a run's steps take permits of: as for runs (`stores._flow.run_keys`)."""
    return limit.name if limit.key is None else f"{limit.name}={labels.get(limit.key, '')}"


def resolve_limit(limits: Mapping[str, FlowLimit], name: object, *, what: str) -> FlowLimit:
    """The declared limit `name` that `what` names.

    Raises:
        FlowLimitError: No such limit is declared.
    """
    found = limits.get(name) if isinstance(name, str) else None
    if found is None:
        raise FlowLimitError(
            f"{what} names limit {name!r}, which this registry does not declare: add "
            f"registry.limit({name!r}, concurrency=..., per_second=...)",
            limit=name if isinstance(name, str) else None,
        )
    return found
