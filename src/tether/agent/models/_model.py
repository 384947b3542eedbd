"""The ``Model`` protocol and the helper that drains a stream into its response."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol, runtime_checkable

from ...errors import ModelError
from ._types import ModelRequest, ModelResponse, ResponseComplete, StreamEvent

__all__ = ["DEFAULT_STALL_TIMEOUT", "Model", "collect_response"]

DEFAULT_STALL_TIMEOUT = 600.0
"""Seconds a stream may go without a byte before it is abandoned as stalled."""


@runtime_checkable
class Model(Protocol):
    """A chat model that streams its answer.

    ``stream`` is an async generator: it yields text and tool-call events as they
    arrive and ends with one :class:`ResponseComplete`. Failures raise
    :class:`~tether.errors.ModelError` with ``retryable`` set; a model never retries
    by itself.
    """

    @property
    def name(self) -> str:
        """The model as ``"provider:model"``."""
        ...

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send ``request`` and yield the answer as it streams."""
        ...


async def collect_response(
    stream: AsyncIterator[StreamEvent],
    *,
    on_event: Callable[[StreamEvent], Awaitable[None] | None] | None = None,
) -> ModelResponse:
    """Consume a model stream and return its final response.

    The stream is closed when this returns or raises, so its HTTP connection is
    released even if ``on_event`` fails.

    Args:
        stream: What :meth:`Model.stream` returned.
        on_event: Called with every event, in order; may be async.

    Returns:
        The response carried by the stream's :class:`ResponseComplete`.

    Raises:
        ModelError: The stream failed, or ended without a final response.
    """
    response: ModelResponse | None = None
    try:
        async for event in stream:
            if on_event is not None:
                result = on_event(event)
                if result is not None:
                    await result
            if isinstance(event, ResponseComplete):
                response = event.response
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()
    if response is None:
        raise ModelError(
            "the model stream ended without a final response",
            provider="unknown",
            retryable=True,
        )
    return response
