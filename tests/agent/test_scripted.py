from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

import pytest

from tether.agent.models import (
    AssistantMessage,
    Model,
    ModelRequest,
    ModelResponse,
    StreamEvent,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallComplete,
    ToolCallStart,
    ToolResultMessage,
    UserMessage,
    collect_response,
    resolve_model,
)
from tether.errors import ConfigurationError, ModelError
from tether.testing import Reply, ScriptedModel, forbid_network_models, tool_call


def ask(text: str = "Hi", *history: AssistantMessage | ToolResultMessage) -> ModelRequest:
    return ModelRequest(messages=(UserMessage(text=text), *history))


async def events_of(model: ScriptedModel, request: ModelRequest) -> list[StreamEvent]:
    return [event async for event in model.stream(request)]


async def test_text_streams_in_word_deltas_and_requests_are_recorded() -> None:
    model = ScriptedModel(["Hello there, world.", "Second."])
    assert isinstance(model, Model)
    assert model.name == "scripted:model"
    first = ask("one")
    events = await events_of(model, first)
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hello ", "there, ", "world."]
    response = await collect_response(model.stream(ask("two")))
    assert response.text == "Second."
    assert response.stop_reason == "end_turn"
    assert response.model == "scripted:model"
    assert model.calls == 2
    assert model.requests[0] is first


async def test_tool_calls_stream_and_get_stable_derived_ids() -> None:
    reply = Reply(
        text="Let me look.",
        tool_calls=(
            tool_call("get_weather", {"city": "Oslo"}),
            tool_call("get_time", call_id="fixed"),
        ),
    )
    model = ScriptedModel([reply, reply, reply])
    events = await events_of(model, ask())
    starts = [e for e in events if isinstance(e, ToolCallStart)]
    assert [(s.index, s.name) for s in starts] == [(0, "get_weather"), (1, "get_time")]
    assert starts[1].call_id == "fixed"
    args = "".join(e.delta for e in events if isinstance(e, ToolCallArgsDelta) and e.index == 0)
    assert args == '{"city":"Oslo"}'
    completes = [e for e in events if isinstance(e, ToolCallComplete)]
    assert dict(completes[0].call.arguments) == {"city": "Oslo"}
    response = events[-1].response  # type: ignore[union-attr]
    assert response.stop_reason == "tool_calls"

    same = await collect_response(model.stream(ask()))
    other = await collect_response(model.stream(ask("something else")))
    assert same.tool_calls[0].call_id == response.tool_calls[0].call_id
    assert other.tool_calls[0].call_id != response.tool_calls[0].call_id
    assert response.tool_calls[0].call_id.startswith("call_")


async def test_callable_script_and_callable_entries() -> None:
    def echo(request: ModelRequest) -> str:
        last = request.messages[-1]
        assert isinstance(last, UserMessage)
        return f"echo {last.text}"

    async def later(request: ModelRequest) -> Reply:
        return Reply(text=f"{len(request.messages)} messages")

    assert (await collect_response(ScriptedModel(echo).stream(ask("x")))).text == "echo x"
    model = ScriptedModel([later, ModelResponse(text="verbatim", stop_reason="max_tokens")])
    assert (await collect_response(model.stream(ask()))).text == "1 messages"
    final = await collect_response(model.stream(ask()))
    assert (final.text, final.stop_reason) == ("verbatim", "max_tokens")


async def test_exception_entries_and_fail_on() -> None:
    boom = ModelError("rate limited", provider="scripted", retryable=True, retry_after=1.0)
    model = ScriptedModel(
        ["first", boom, "third"],
        fail_on={3: ModelError("down", provider="scripted", status_code=503, retryable=True)},
    )
    assert (await collect_response(model.stream(ask()))).text == "first"
    with pytest.raises(ModelError) as caught:
        await collect_response(model.stream(ask()))
    assert caught.value is boom
    with pytest.raises(ModelError, match="down"):
        await collect_response(model.stream(ask()))
    assert model.calls == 3


async def test_stall_on_streams_one_delta_then_raises_retryable_stall() -> None:
    model = ScriptedModel(["partial answer here", "fine"], stall_on=[1], stall_timeout=0.05)
    seen: list[StreamEvent] = []
    with pytest.raises(ModelError) as caught:
        async for event in model.stream(ask()):
            seen.append(event)
    assert seen == [TextDelta(text="partial ")]
    assert caught.value.retryable is True
    assert "stalled" in str(caught.value)
    assert (await collect_response(model.stream(ask()))).text == "fine"


async def test_exhausted_script_is_a_non_retryable_error() -> None:
    model = ScriptedModel(["only"])
    await collect_response(model.stream(ask()))
    with pytest.raises(ModelError, match="the script has 1 entries and call 2") as caught:
        await collect_response(model.stream(ask()))
    assert caught.value.retryable is False


async def test_select_by_transcript_survives_a_fresh_model() -> None:
    script = [Reply(tool_calls=(tool_call("look"),)), "done"]
    first = await collect_response(ScriptedModel(script, select="transcript").stream(ask()))
    call = first.tool_calls[0]
    history = (
        first.to_message(),
        ToolResultMessage(call_id=call.call_id, name="look", content="ok"),
    )
    # A new process would build a new model: the transcript still picks entry 2.
    fresh = ScriptedModel(script, select="transcript")
    assert (await collect_response(fresh.stream(ask("Hi", *history)))).text == "done"


async def test_calls_file_counts_calls_across_processes(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    model = ScriptedModel(["a", "b", "c"], calls_file=log)
    await collect_response(model.stream(ask()))
    code = textwrap.dedent(
        f"""
        import asyncio
        from tether.agent.models import ModelRequest, UserMessage, collect_response
        from tether.testing import ScriptedModel

        async def main():
            model = ScriptedModel(
                ["x", "y"], calls_file={str(log)!r}, fail_on={{3: RuntimeError("3rd")}}
            )
            request = ModelRequest(messages=(UserMessage(text="q"),))
            print((await collect_response(model.stream(request))).text)
            try:
                await collect_response(model.stream(ModelRequest()))
            except RuntimeError as exc:
                print(exc)

        asyncio.run(main())
        """
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, stdout=asyncio.subprocess.PIPE
    )
    stdout, _ = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 0
    # The other process's calls were numbered 2 and 3: fail_on={3: ...} fired there.
    assert stdout.decode().split() == ["y", "3rd"]
    assert ScriptedModel.count_calls(log) == 3
    assert ScriptedModel.count_calls(tmp_path / "absent.log") == 0


async def test_collect_response_calls_on_event_and_closes_the_stream() -> None:
    seen: list[str] = []

    async def record(event: StreamEvent) -> None:
        seen.append(event.kind)

    model = ScriptedModel([Reply(text="hi you", tool_calls=(tool_call("t", {"a": 1}),))])
    await collect_response(model.stream(ask()), on_event=record)
    assert seen == [
        "text_delta",
        "text_delta",
        "tool_call_start",
        "tool_call_args_delta",
        "tool_call_args_delta",
        "tool_call_complete",
        "usage",
        "response_complete",
    ]


async def test_collect_response_requires_a_final_response() -> None:
    async def no_final() -> object:
        yield TextDelta(text="x")

    with pytest.raises(ModelError, match="without a final response"):
        await collect_response(no_final())  # type: ignore[arg-type]


async def test_network_guard_lets_scripted_models_through() -> None:
    model = ScriptedModel(["offline"])
    with forbid_network_models():
        assert resolve_model(model) is model
        assert (await collect_response(model.stream(ask()))).text == "offline"
        with pytest.raises(ConfigurationError, match="forbidden"):
            resolve_model("anthropic:claude-sonnet-4-5", env={"ANTHROPIC_API_KEY": "k"})
    resolve_model("anthropic:claude-sonnet-4-5", env={"ANTHROPIC_API_KEY": "k"})


def test_records_round_trip_through_json() -> None:
    import orjson
    from pydantic import TypeAdapter

    from tether.agent.models import ChatMessage, Usage, parse_tool_arguments

    call = parse_tool_arguments("c1", "t", '{"a": 1}')
    response = ModelResponse(text="hi", tool_calls=(call,), usage=Usage(input_tokens=3))
    assert TypeAdapter(ModelResponse).validate_json(orjson.dumps(response)) == response
    messages = (
        UserMessage(text="u"),
        response.to_message(),
        ToolResultMessage(call_id="c1", name="t", content="ok", is_error=True),
    )
    adapter = TypeAdapter(tuple[ChatMessage, ...])
    assert adapter.validate_json(orjson.dumps(messages)) == messages
