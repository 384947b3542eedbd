"""A session's default retention: decided by its audience and the environment at open.

A session whose retention neither its agent nor its opener set gets it from who it is
for (its audience) and where it runs (the environment):

| environment | public | private | unknown |
|---|---|---|---|
| development | ``"default"`` | ``"default"`` | ``"default"`` |
| production | ``"default"`` | ``0`` | ``0`` |

``"default"`` keeps the content for the store's retention period of ended runs
(`open_backend(retention=...)`; forever without one); ``0`` deletes it when the session
ends. The choice is made once, when the session opens, and recorded with it: a later
change of environment or audience does not change it, and it goes with the session
across hand-offs and compactions. The environment is `AgentHost(environment=...)`, else
``TETHER_ENV`` (``development`` or ``production``), else ``development``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from ...errors import ConfigurationError
from .._agent import Retention

__all__ = [
    "Audience",
    "Environment",
    "check_audience",
    "check_environment",
    "default_retention",
    "environment_from",
]

#: Who a session is for: anyone (``public``), one person or tenant (``private``), or
#: not said (``unknown``, treated as private in production).
Audience = Literal["public", "private", "unknown"]
#: Where the host runs: ``development`` keeps sessions for the store's period,
#: ``production`` deletes private and unknown sessions when they end.
Environment = Literal["development", "production"]


def check_audience(value: object) -> Audience:
    """Validate a session's audience.

    Raises:
        ConfigurationError: Not ``"public"``, ``"private"`` or ``"unknown"``.
    """
    if isinstance(value, str) and value in get_args(Audience):
        return value  # type: ignore[return-value]
    raise ConfigurationError(
        f"audience must be 'public' (anyone may read it), 'private' (one person or "
        f"tenant) or 'unknown', not {value!r}"
    )


def check_environment(value: object, *, what: str = "environment") -> Environment:
    """Validate an environment.

    Raises:
        ConfigurationError: Not ``"development"`` or ``"production"``.
    """
    if isinstance(value, str) and value in get_args(Environment):
        return value  # type: ignore[return-value]
    raise ConfigurationError(
        f"{what} must be 'development' or 'production', not {value!r} (production "
        "deletes the content of private and unknown sessions when they end)"
    )


def environment_from(env: Mapping[str, str]) -> Environment:
    """The environment ``TETHER_ENV`` names in `env`; unset or empty: ``development``.

    Raises:
        ConfigurationError: It names another.
    """
    raw = env.get("TETHER_ENV", "").strip()
    return check_environment(raw, what="TETHER_ENV") if raw else "development"


def default_retention(audience: Audience, environment: Environment) -> Retention:
    """The retention of a session that nobody set one for (see the module's table)."""
    if environment == "production" and audience in ("private", "unknown"):
        return 0
    return "default"
