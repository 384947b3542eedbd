"""A switch that makes network model providers refuse to run, for tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ...errors import ConfigurationError

__all__ = ["check_network_allowed", "forbid_network_models"]

_network_forbidden: ContextVar[bool] = ContextVar("tether_network_models_forbidden", default=False)


@contextmanager
def forbid_network_models() -> Iterator[None]:
    """Refuse network model providers inside this block (and tasks started in it).

    ``resolve_model`` then refuses provider strings, and an existing network model
    refuses to send a request. Scripted models still work.

    Example:
        ```python
        with forbid_network_models():
            await agent_under_test(model=ScriptedModel(["hi"]))
        ```
    """
    token = _network_forbidden.set(True)
    try:
        yield
    finally:
        _network_forbidden.reset(token)


def check_network_allowed(what: str) -> None:
    """Raise if network model calls are forbidden in the current context.

    Args:
        what: The model being used, e.g. ``"openai:gpt-4o-mini"``.

    Raises:
        ConfigurationError: Inside :func:`forbid_network_models`.
    """
    if _network_forbidden.get():
        raise ConfigurationError(
            f"network model {what!r} used while network models are forbidden "
            "(tether.testing.forbid_network_models is active); use a "
            "tether.testing.ScriptedModel in tests"
        )
