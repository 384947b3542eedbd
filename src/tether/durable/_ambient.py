"""The backend a worker runs a workflow on, for workflows declared without one.

A `Worker` binds its backend to the tasks it starts, so a workflow (or a step) that
needs the stores its run lives in, such as an agent session, reads them from
`current_backend()` instead of capturing a connected backend when it is declared.
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING

from ..errors import ConfigurationError

if TYPE_CHECKING:
    from ..stores import Backend

__all__ = ["bind_backend", "current_backend", "unbind_backend"]

_BACKEND: contextvars.ContextVar[Backend | None] = contextvars.ContextVar(
    "tether_backend", default=None
)


def current_backend() -> Backend:
    """The backend of the worker running this workflow body or step.

    Raises:
        ConfigurationError: Called outside a run executed by a `Worker`.
    """
    backend = _BACKEND.get()
    if backend is None:
        raise ConfigurationError(
            "tether.durable.current_backend() is only available inside a run executed by a Worker"
        )
    return backend


def bind_backend(backend: Backend | None) -> contextvars.Token[Backend | None]:
    """Bind `backend` in the current context (the worker does, for its tasks)."""
    return _BACKEND.set(backend)


def unbind_backend(token: contextvars.Token[Backend | None]) -> None:
    """Undo `bind_backend`."""
    _BACKEND.reset(token)
