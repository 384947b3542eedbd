"""One model call of a turn step: stream the reply, watch for cancel and steering.

A message that may join the turn and arrives before any text streamed interrupts the
generation: it joins the turn (same turn id) and the model is called again. One that
arrives once text streams lets the reply finish (the streamed text is kept); it joins
at the next boundary. A cancel stops the generation.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from ... import durable
from ..._ids import new_ulid
from ...errors import FatalError, ModelError, RetryableError
from .._records._attachments import load_attachments
from .._records._entries import AssistantEntry, ToolCallEntry
from .._records._event_data import CallUsage, MessageCompleted, MessageDelta, ToolCallRef
from ..models import ModelRequest, ModelResponse, ModelSettings, ResponseComplete, TextDelta
from ._budget_call import settle_call
from ._dynamic_step import dynamic_instructions
from ._emitter import PART, model_part
from ._tracing import model_span
from ._watch import Watch
from ._work import StepWork

__all__ = ["call_model"]


async def _request(work: StepWork) -> ModelRequest:
    agent = work.agent
    runtime = work.runtime
    # The files' bytes are read now, from the attachment store: the transcript and the
    # journal hold references only.
    files = await load_attachments(
        runtime.stores, agent.name, work.cursor.session_id, work.entries, runtime.attachment_cache
    )
    instructions = agent.instructions
    if callable(instructions):
        # A function of the state as this call finds it (the step's tools' changes in).
        instructions = instructions(work.state_view(readonly=True))
        if not isinstance(instructions, str):
            raise FatalError(
                f"agent {agent.name!r}: its instructions function returned "
                f"{type(instructions).__name__}, not a string"
            )
    assert work.turn is not None
    # What the agent's handlers gave, after its own (`Dynamic`; recorded in the
    # transcript by their steps).
    given = dynamic_instructions(work.entries, work.turn.turn_id, agent.dynamic)
    if given:
        instructions = "\n\n".join(t for t in (instructions, *given) if t)
    return ModelRequest(
        instructions=instructions or None,
        messages=tuple(work.transcript.to_messages(work.entries, files)),
        tools=work.tools.definitions(),
        settings=ModelSettings(max_tokens=agent.max_tokens),
    )


async def _generate(work: StepWork, part: int, on_text: Callable[[], None]) -> ModelResponse | None:
    response: ModelResponse | None = None
    request = await _request(work)
    traced = model_span(work.runtime.model.name)
    stream = work.runtime.model.stream(request)
    index = 0
    try:
        async for event in stream:
            if isinstance(event, TextDelta):
                on_text()
                work.emitter.emit_live(MessageDelta(text=event.text), part, index)
                index += 1
            elif isinstance(event, ResponseComplete):
                response = event.response
    except BaseException as exc:
        if traced is not None:
            traced.failed(exc)
        raise
    else:
        if traced is not None:
            traced.finished(response)
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            with contextlib.suppress(Exception):
                await aclose()
    return response


async def _limited(work: StepWork, part: int, on_text: Callable[[], None]) -> ModelResponse | None:
    """`_generate` under the agent's `model_limit`: the permit is held while it runs."""
    name = work.agent.model_limit
    if name is None:
        return await _generate(work, part, on_text)
    async with durable.step_limit(name):
        return await _generate(work, part, on_text)


async def call_model(
    work: StepWork,
    call: int,
    watch: Watch,
    join: Callable[[], Any],
) -> AssistantEntry | None:
    """Call the model (the step's `call`-th call); None when the turn was cancelled.

    `join` joins the messages that steered the turn before any text streamed (an
    awaitable function); the model is then called again with them.

    Raises:
        RetryableError: The provider failed in a way a retry may fix.
        FatalError: It failed in a way a retry cannot fix.
    """
    assert work.turn is not None
    part = model_part(call)
    while True:
        streamed = False

        def on_text() -> None:
            nonlocal streamed
            streamed = True

        generation = asyncio.ensure_future(_limited(work, part, on_text))
        cancelled = asyncio.ensure_future(watch.cancelled.wait())
        steered: asyncio.Future[Any] | None = asyncio.ensure_future(watch.steered.wait())
        interrupted: str | None = None
        try:
            while True:
                waiting = {generation, cancelled} | ({steered} if steered is not None else set())
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if generation in done:
                    break
                if cancelled in done:
                    interrupted = "cancel"
                    break
                if steered is not None and steered in done:
                    if streamed:
                        # Too late to interrupt: it joins at the next boundary.
                        steered = None
                        continue
                    interrupted = "steer"
                    break
        finally:
            for waiter in (cancelled, steered):
                if waiter is not None:
                    waiter.cancel()
            if interrupted is not None:
                generation.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await generation
        if interrupted == "cancel":
            return None
        if interrupted == "steer":
            watch.steered.clear()
            await join()
            continue
        try:
            response = generation.result()
        except ModelError as exc:
            if exc.retryable:
                raise RetryableError(str(exc), retry_after=exc.retry_after) from exc
            raise FatalError(str(exc)) from exc
        if response is None:
            raise RetryableError("the model's stream ended without a complete response")
        usage = CallUsage(
            model=response.model or work.runtime.model.name,
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
            cached_tokens=response.usage.cached_tokens,
            details=dict(response.usage.details),
            attempt=durable.step_info().attempt,
        )
        # Counted before the reply is committed, its usage kept with the settle: a
        # step that completes has its calls counted, and so has an attempt cut short
        # after this point (see `_budget_call`).
        await settle_call(work, call, usage)
        entry = AssistantEntry(
            turn_id=work.turn.turn_id,
            step_index=work.turn.step_index,
            call=call,
            text=response.text,
            usage=usage,
            tool_calls=tuple(
                ToolCallEntry(
                    call_id=c.call_id or new_ulid("call_"),
                    name=c.name,
                    arguments=dict(c.arguments),
                    arguments_json=c.arguments_text(),
                    parse_error=c.parse_error,
                )
                for c in response.tool_calls
            ),
        )
        work.record(entry)
        work.emitter.emit(
            MessageCompleted(
                text=entry.text,
                tool_calls=tuple(
                    ToolCallRef(call_id=c.call_id, name=c.name) for c in entry.tool_calls
                ),
                usage=usage,
            ),
            part,
            PART - 1,
        )
        return entry
