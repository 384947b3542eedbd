from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import enum
import pickle
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

import tether.agent
from tether.agent import ApprovalPolicy, Tool, ToolContext, approval, tool, workflow_tool
from tether.agent._tools._tools import format_tool_error, format_tool_result
from tether.agent.models import ToolDefinition
from tether.errors import AgentError, ConfigurationError, ToolArgumentsError

CTX = ToolContext(session_id="sess-1", call_id="call-7", turn_id="turn-3", attempt=1)


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Address(BaseModel):
    street: str
    zip: int = Field(description="Postal code.")


@dataclasses.dataclass
class Point:
    x: float
    y: float


@tool
async def create_ticket(
    ctx: ToolContext,
    title: str,
    priority: Priority = Priority.LOW,
    tags: list[str] | None = None,
    labels: dict[str, int] | None = None,
    kind: Literal["bug", "task"] = "task",
    address: Address | None = None,
    points: list[Point] = [],  # noqa: B006 - a default the schema must show
    due: datetime | None = None,
) -> dict[str, Any]:
    """Create a ticket in the tracker.

    Tickets are visible to the whole team.

    Args:
        title: A one-line summary
            of the problem.
        priority (Priority): How urgent it is.
        tags: Free-form tags.

    Returns:
        The created ticket.
    """
    return {"key": ctx.idempotency_key, "title": title}


def test_public_names() -> None:
    # Ordered as ruff's RUF022 keeps it (constants, then classes, then functions), each
    # name once and each one importable.
    assert len(set(tether.agent.__all__)) == len(tether.agent.__all__)
    assert all(hasattr(tether.agent, name) for name in tether.agent.__all__)
    for name in ("ApprovalPolicy", "Tool", "ToolContext", "approval", "tool", "workflow_tool"):
        assert name in tether.agent.__all__


# -- schema ---------------------------------------------------------------------------


def test_schema_required_optional_defaults_and_descriptions() -> None:
    schema = create_ticket.parameters
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["title"]
    props = schema["properties"]
    assert list(props) == [
        "title",
        "priority",
        "tags",
        "labels",
        "kind",
        "address",
        "points",
        "due",
    ]
    assert "ctx" not in props
    assert props["title"] == {"type": "string", "description": "A one-line summary of the problem."}
    assert props["priority"]["description"] == "How urgent it is."
    assert props["priority"]["default"] == "low"
    assert schema["$defs"]["Priority"]["enum"] == ["low", "high"]
    assert props["tags"]["description"] == "Free-form tags."
    assert props["tags"]["default"] is None
    assert {"type": "array", "items": {"type": "string"}} in props["tags"]["anyOf"]
    assert {"type": "object", "additionalProperties": {"type": "integer"}} in props["labels"][
        "anyOf"
    ]
    assert props["kind"] == {"enum": ["bug", "task"], "type": "string", "default": "task"}
    assert props["points"]["default"] == []
    assert props["points"]["items"] == {"$ref": "#/$defs/Point"}
    assert {"type": "string", "format": "date-time"} in props["due"]["anyOf"]
    assert "title" not in schema  # no generated model name
    assert all("title" not in prop for prop in props.values())  # no "Title"-style noise


def test_schema_nested_model() -> None:
    schema = create_ticket.parameters
    assert {"$ref": "#/$defs/Address"} in schema["properties"]["address"]["anyOf"]
    address = schema["$defs"]["Address"]
    assert address["required"] == ["street", "zip"]
    assert address["properties"]["zip"] == {"type": "integer", "description": "Postal code."}
    assert schema["$defs"]["Point"]["required"] == ["x", "y"]


def test_name_description_and_definition() -> None:
    assert create_ticket.name == "create_ticket"
    assert create_ticket.description == "Create a ticket in the tracker."
    assert create_ticket.approval.requires_approval({}) is False
    assert create_ticket.idempotent is True
    assert create_ticket.is_workflow is False
    assert create_ticket.definition() == ToolDefinition(
        name="create_ticket",
        description="Create a ticket in the tracker.",
        parameters=create_ticket.parameters,
    )
    assert repr(create_ticket) == "<tool 'create_ticket'>"


def test_options_override_name_and_description() -> None:
    @tool(name="lookup-user", description="Find a user.", idempotent=False)
    def lookup(user_id: int) -> str:
        """Ignored docstring."""
        return str(user_id)

    assert isinstance(lookup, Tool)
    assert lookup.name == "lookup-user"
    assert lookup.description == "Find a user."
    assert lookup.idempotent is False
    assert lookup.fn(5) == "5"


def test_docstring_edge_cases() -> None:
    @tool
    def multi(a: int, b: str, c: bool = False) -> None:
        """Summary spans
        two lines.

        Args:
            a (int): First.

                Still about a.
            b: Second.
            c: Third.

        Raises:
            ValueError: not an argument.
        """

    @tool
    def undocumented(a: int) -> None:
        pass

    assert multi.description == "Summary spans two lines."
    props = multi.parameters["properties"]
    assert props["a"]["description"] == "First. Still about a."
    assert props["b"]["description"] == "Second."
    assert props["c"]["description"] == "Third."
    assert "ValueError" not in props
    assert undocumented.description == ""
    assert "description" not in undocumented.parameters["properties"]["a"]


def test_annotated_field_description_wins_over_docstring() -> None:
    @tool
    def f(a: Annotated[int, Field(description="From Field.", ge=0)]) -> None:
        """Do f.

        Args:
            a: From the docstring.
        """

    assert f.parameters["properties"]["a"] == {
        "type": "integer",
        "minimum": 0,
        "description": "From Field.",
    }


def test_parameter_names_that_clash_with_basemodel_attributes() -> None:
    @tool
    def f(json: str, schema: str, model_name: str, copy: bool = False) -> None:
        pass

    assert list(f.parameters["properties"]) == ["json", "schema", "model_name", "copy"]
    assert f.validate({"json": "j", "schema": "s", "model_name": "m"}) == {
        "json": "j",
        "schema": "s",
        "model_name": "m",
        "copy": False,
    }


def test_no_arguments() -> None:
    @tool
    def ping() -> str:
        return "pong"

    assert ping.parameters == {"type": "object", "properties": {}, "additionalProperties": False}
    assert ping.validate("") == {}
    assert ping.validate("  ") == {}
    assert ping.validate({}) == {}


# -- decoration errors ----------------------------------------------------------------


def test_unannotated_parameter_is_refused() -> None:
    def f(a, b: int) -> None:  # type: ignore[no-untyped-def]
        pass

    with pytest.raises(ConfigurationError, match=r"parameter 'a' has no type hint"):
        tool(f)


@pytest.mark.parametrize("star", ["args", "kwargs"])
def test_star_parameters_are_refused(star: str) -> None:
    def with_args(*args: int) -> None:
        pass

    def with_kwargs(**kwargs: int) -> None:
        pass

    fn = with_args if star == "args" else with_kwargs
    with pytest.raises(ConfigurationError, match=rf"\*{star} is not supported"):
        tool(fn)


@pytest.mark.parametrize("name", ["has space", "", "a" * 65, "dots.not.ok", "ünïcode"])
def test_invalid_names_are_refused(name: str) -> None:
    def f() -> None:
        pass

    with pytest.raises(ConfigurationError, match="is not a valid tool name"):
        tool(name=name)(f)


def test_lambda_needs_a_name() -> None:
    with pytest.raises(ConfigurationError, match=r"'<lambda>' is not a valid tool name"):
        tool(lambda: None)
    assert tool(name="noop")(lambda: None).name == "noop"
    assert tool(name="a" * 64)(lambda: None).name == "a" * 64


def test_unsupported_type_is_refused() -> None:
    class Opaque:
        pass

    def f(a: int, thing: Opaque) -> None:
        pass

    f.__annotations__ = {"a": int, "thing": Opaque, "return": None}
    with pytest.raises(ConfigurationError, match=r"tool 'f'.*parameter 'thing'"):
        tool(f)


def test_unresolvable_hint_is_refused() -> None:
    def f(a: NotDefinedAnywhere) -> None:  # type: ignore[name-defined]  # noqa: F821
        pass

    with pytest.raises(ConfigurationError, match="cannot resolve the type hints"):
        tool(f)


def test_two_context_parameters_are_refused() -> None:
    def f(a: ToolContext, b: ToolContext) -> None:
        pass

    with pytest.raises(ConfigurationError, match="only one parameter may be a ToolContext"):
        tool(f)


def test_approval_must_be_a_policy() -> None:
    def f() -> None:
        pass

    with pytest.raises(ConfigurationError, match="approval must be an ApprovalPolicy"):
        tool(approval=True)(f)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="takes a function of the arguments"):
        approval.when(True)  # type: ignore[arg-type]


# -- validation -----------------------------------------------------------------------


def test_validate_coerces_and_fills_defaults() -> None:
    validated = create_ticket.validate(
        {
            "title": "Disk full",
            "priority": "high",
            "address": {"street": "Main", "zip": "1234"},
            "points": [{"x": 1, "y": "2.5"}],
            "due": "2026-01-02T03:04:05Z",
        }
    )
    assert validated == {
        "title": "Disk full",
        "priority": Priority.HIGH,
        "tags": None,
        "labels": None,
        "kind": "task",
        "address": Address(street="Main", zip=1234),
        "points": [Point(x=1.0, y=2.5)],
        "due": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
    }
    # The turn validates again before approval and invocation: that must be a no-op.
    assert create_ticket.validate(validated) == validated


def test_validate_accepts_raw_json() -> None:
    assert create_ticket.validate('{"title": "t", "tags": ["a"]}')["tags"] == ["a"]


def test_none_default_on_a_non_optional_type_revalidates() -> None:
    @tool
    def f(a: str = None) -> str:  # type: ignore[assignment]  # noqa: RUF013 - on purpose
        return a

    assert f.validate({}) == {"a": None}
    assert f.validate(f.validate({})) == {"a": None}


def _problems(tool_: Tool, arguments: Mapping[str, Any] | str) -> tuple[str, ...]:
    with pytest.raises(ToolArgumentsError) as info:
        tool_.validate(arguments)
    assert info.value.tool_name == tool_.name
    return info.value.problems


def test_invalid_json_is_reported() -> None:
    (problem,) = _problems(create_ticket, '{"title": ')
    assert problem.startswith("the arguments are not valid JSON (")
    assert problem.endswith("""'{"title": '""")


def test_json_that_is_not_an_object_is_reported() -> None:
    assert _problems(create_ticket, "[1, 2]") == (
        "the arguments must be a JSON object, got an array",
    )
    assert _problems(create_ticket, '"x"') == ("the arguments must be a JSON object, got a string",)
    assert _problems(create_ticket, ["x"]) == (  # type: ignore[arg-type]
        "the arguments must be a JSON object, got list",
    )


def test_missing_argument_is_reported() -> None:
    assert _problems(create_ticket, {}) == (
        """argument 'title': missing required argument; 'title' expects {"type":"string"}""",
    )


def test_unexpected_argument_is_reported() -> None:
    (problem,) = _problems(create_ticket, {"title": "t", "colour": "red"})
    assert problem == (
        "argument 'colour': unexpected argument; the arguments are: 'title', 'priority', "
        "'tags', 'labels', 'kind', 'address', 'points', 'due'"
    )

    @tool
    def ping() -> None:
        pass

    assert _problems(ping, {"x": 1}) == ("argument 'x': unexpected argument; it takes none",)


def test_context_parameter_is_not_an_argument() -> None:
    (problem,) = _problems(create_ticket, {"title": "t", "ctx": {}})
    assert problem.startswith("argument 'ctx': unexpected argument")


def test_wrong_type_is_reported_with_the_value_and_expected_schema() -> None:
    problems = _problems(create_ticket, {"title": 5, "kind": "epic", "priority": "urgent"})
    assert problems == (
        """argument 'title': Input should be a valid string (got 5); """
        """'title' expects {"type":"string"}""",
        """argument 'priority': Input should be 'low' or 'high' (got 'urgent'); """
        """'priority' expects {"enum":["low","high"],"type":"string","default":"low"}""",
        """argument 'kind': Input should be 'bug' or 'task' (got 'epic'); """
        """'kind' expects {"default":"task","enum":["bug","task"],"type":"string"}""",
    )


def test_nested_errors_name_the_path() -> None:
    problems = _problems(
        create_ticket,
        {"title": "t", "address": {"street": "s"}, "points": [{"x": 1, "y": 2}, {"x": "a"}]},
    )
    assert problems[0].startswith("argument 'address.zip': missing required field; 'address'")
    assert '"zip":{"type":"integer"}' in problems[0]  # the $ref is resolved for the model
    assert problems[1].startswith(
        "argument 'points[1].x': Input should be a valid number, unable to parse string as a "
        "number (got 'a'); 'points' expects"
    )
    assert problems[2] == "argument 'points[1].y': missing required field"  # explained once


def test_error_message_is_written_for_the_model() -> None:
    with pytest.raises(ToolArgumentsError) as info:
        create_ticket.validate({"titel": "t"})
    assert isinstance(info.value, AgentError)
    assert str(info.value) == (
        "invalid arguments for tool 'create_ticket':\n"
        """- argument 'title': missing required argument; 'title' expects {"type":"string"}\n"""
        "- argument 'titel': unexpected argument; the arguments are: 'title', 'priority', "
        "'tags', 'labels', 'kind', 'address', 'points', 'due'\n"
        "Call the tool again with arguments that match its schema."
    )
    copy = pickle.loads(pickle.dumps(info.value))
    assert (copy.tool_name, copy.problems, str(copy)) == (
        info.value.tool_name,
        info.value.problems,
        str(info.value),
    )


def test_many_problems_are_capped() -> None:
    @tool
    def many(xs: list[int]) -> None:
        pass

    problems = _problems(many, {"xs": [str(i) + "x" for i in range(15)]})
    assert len(problems) == 11
    assert problems[-1] == "... and 5 more problem(s)"


# -- invocation -----------------------------------------------------------------------


async def test_context_is_injected_in_any_position() -> None:
    seen: list[tuple[Any, ...]] = []

    @tool
    async def middle(a: int, context: ToolContext, b: str = "x") -> str:
        seen.append((a, context, b))
        return "ok"

    @tool
    def positional(a: int, /, ctx: Annotated[ToolContext, "injected"]) -> int:
        seen.append((a, ctx))
        return a * 2

    assert middle.parameters["required"] == ["a"]
    assert await middle.invoke({"a": "3"}, CTX) == "ok"
    assert await positional.invoke({"a": 4}, CTX) == 8
    assert seen == [(3, CTX, "x"), (4, CTX)]


async def test_idempotency_key_is_stable_across_attempts() -> None:
    retry = dataclasses.replace(CTX, attempt=2)
    assert CTX.idempotency_key == retry.idempotency_key == "sess-1:call-7"
    assert await create_ticket.invoke({"title": "t"}, retry) == {
        "key": "sess-1:call-7",
        "title": "t",
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        CTX.attempt = 3  # type: ignore[misc]


async def test_invoke_validates_first() -> None:
    calls: list[int] = []

    @tool
    def f(a: int) -> None:
        calls.append(a)

    with pytest.raises(ToolArgumentsError):
        await f.invoke({"a": "nope"}, CTX)
    assert calls == []


async def test_sync_tool_runs_in_a_thread_without_blocking_the_loop() -> None:
    request = contextvars.ContextVar("request", default="unset")
    request.set("req-42")
    release = threading.Event()

    @tool
    def blocking(ctx: ToolContext) -> tuple[int, str, bool]:
        # Returns only once the event loop (still running) sets the event.
        released = release.wait(timeout=2)
        return threading.get_ident(), request.get(), released

    task = asyncio.ensure_future(blocking.invoke({}, CTX))
    await asyncio.sleep(0.01)
    assert not task.done()
    release.set()
    ident, seen_request, released = await task
    assert released
    assert ident != threading.get_ident()
    assert seen_request == "req-42"


async def test_async_tool_runs_on_the_loop() -> None:
    @tool
    async def where() -> int:
        await asyncio.sleep(0)
        return threading.get_ident()

    assert await where.invoke({}, CTX) == threading.get_ident()


async def test_callable_object_with_async_call() -> None:
    class Adder:
        __name__ = "adder"

        async def __call__(self, a: int, b: int) -> int:
            return a + b

    adder = tool(Adder())
    assert adder.parameters["required"] == ["a", "b"]
    assert await adder.invoke({"a": 1, "b": "2"}, CTX) == 3


async def test_tool_exceptions_propagate_raw() -> None:
    @tool
    async def broken() -> None:
        raise RuntimeError("database is down")

    with pytest.raises(RuntimeError, match="database is down"):
        await broken.invoke({}, CTX)


# -- approval -------------------------------------------------------------------------


def test_approval_policies() -> None:
    @tool(approval=approval.always())
    def restart(service: str) -> None:
        pass

    @tool(approval=approval.never())
    def status(service: str) -> None:
        pass

    assert restart.requires_approval({"service": "db"}) is True
    assert status.requires_approval({"service": "db"}) is False
    assert repr(approval.always()) == "approval.always()"
    assert repr(approval.never()) == "approval.never()"


def test_approval_when_sees_validated_arguments() -> None:
    seen: list[Mapping[str, Any]] = []

    def large(arguments: Mapping[str, Any]) -> bool:
        seen.append(arguments)
        return bool(arguments["amount"] > 100)

    @tool(approval=approval.when(large))
    def refund(charge_id: str, amount: int, reason: str = "") -> None:
        pass

    assert refund.requires_approval({"charge_id": "ch_1", "amount": "150"}) is True
    assert refund.requires_approval('{"charge_id": "ch_1", "amount": 50}') is False
    assert seen[0] == {"charge_id": "ch_1", "amount": 150, "reason": ""}
    with pytest.raises(ToolArgumentsError):
        refund.requires_approval({"amount": 1})
    assert repr(refund.approval).startswith("approval.when(")


def test_approval_when_fails_closed() -> None:
    policy = approval.when(lambda arguments: arguments["missing"])
    assert policy.requires_approval({}) is True


def test_custom_approval_policy() -> None:
    class BusinessHours:
        def requires_approval(self, arguments: Mapping[str, Any]) -> bool:
            return arguments["env"] == "prod"

    assert isinstance(BusinessHours(), ApprovalPolicy)

    @tool(approval=BusinessHours())
    def deploy(env: Literal["dev", "prod"]) -> None:
        pass

    assert deploy.requires_approval({"env": "prod"}) is True
    assert deploy.requires_approval({"env": "dev"}) is False


# -- workflow tools -------------------------------------------------------------------


@workflow_tool
async def handle_incident(ctx, incident_id: str, service: str = "api") -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Handle an incident end to end.

    Args:
        incident_id: The incident.
    """
    return {"incident": incident_id, "service": service, "ctx": ctx}


def test_workflow_tool_metadata() -> None:
    assert handle_incident.is_workflow is True
    assert handle_incident.idempotent is True
    assert handle_incident.name == "handle_incident"
    assert handle_incident.description == "Handle an incident end to end."
    assert handle_incident.parameters["required"] == ["incident_id"]
    assert list(handle_incident.parameters["properties"]) == ["incident_id", "service"]
    assert handle_incident.parameters["properties"]["incident_id"]["description"] == "The incident."
    assert handle_incident.validate({"incident_id": "INC-1"}) == {
        "incident_id": "INC-1",
        "service": "api",
    }
    assert repr(handle_incident) == "<workflow_tool 'handle_incident'>"


async def test_workflow_tool_body_is_called_with_the_workflow_context() -> None:
    # How the turn runs it: validated arguments after the workflow context.
    arguments = handle_incident.validate({"incident_id": "INC-1"})
    result = await handle_incident.fn("wf-ctx", **arguments)
    assert result == {"incident": "INC-1", "service": "api", "ctx": "wf-ctx"}


async def test_workflow_tool_invoke_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="is a workflow tool"):
        await handle_incident.invoke({"incident_id": "INC-1"}, CTX)


def test_workflow_tool_options_and_misuse() -> None:
    class Ctx:
        pass

    @workflow_tool(name="escalate", approval=approval.always(), description="Escalate.")
    async def esc(ctx: Ctx, level: int) -> None:
        pass

    assert (esc.name, esc.description, esc.is_workflow) == ("escalate", "Escalate.", True)
    assert esc.requires_approval({"level": 1}) is True
    assert list(esc.parameters["properties"]) == ["level"]

    def sync_body(ctx: Any) -> None:
        pass

    async def no_context() -> None:
        pass

    async def tool_context(ctx: Any, tc: ToolContext) -> None:
        pass

    async def untyped_argument(ctx, a) -> None:  # type: ignore[no-untyped-def]
        pass

    with pytest.raises(ConfigurationError, match="must be an async function"):
        workflow_tool(sync_body)
    with pytest.raises(ConfigurationError, match="first parameter must take the workflow context"):
        workflow_tool(no_context)
    with pytest.raises(ConfigurationError, match="asks for a ToolContext"):
        workflow_tool(tool_context)
    with pytest.raises(ConfigurationError, match="parameter 'a' has no type hint"):
        workflow_tool(untyped_argument)


# -- results and errors for the model -------------------------------------------------


class Shape(enum.Enum):
    ROUND = "round"


class Reading(BaseModel):
    value: float
    at: datetime


class Opaque:
    def __repr__(self) -> str:
        return "<Opaque>"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("plain text, not JSON", "plain text, not JSON"),
        ("", ""),
        ({"ok": True, "n": 3, "items": [1, 2.5, None]}, '{"ok":true,"n":3,"items":[1,2.5,null]}'),
        ([1, "a"], '[1,"a"]'),
        ((1, 2), "[1,2]"),
        (None, "null"),
        (42, "42"),
        (Point(x=1, y=2), '{"x":1,"y":2}'),
        (
            Reading(value=1.5, at=datetime(2026, 1, 2, tzinfo=UTC)),
            '{"value":1.5,"at":"2026-01-02T00:00:00Z"}',
        ),
        (datetime(2026, 1, 2, 3, 4, 5), '"2026-01-02T03:04:05"'),
        (Shape.ROUND, '"round"'),
        ({"tags": {"b", "c", "a"}}, '{"tags":["a","b","c"]}'),
        ({1: "int key"}, '{"1":"int key"}'),
        (Opaque(), "<Opaque>"),
        ({"nested": Opaque()}, "{'nested': <Opaque>}"),
    ],
)
def test_format_tool_result(value: Any, text: str) -> None:
    assert format_tool_result(value) == text


def test_format_tool_error() -> None:
    assert format_tool_error(ValueError("amount must be positive")) == (
        "ToolError: ValueError: amount must be positive"
    )
    assert format_tool_error(TimeoutError()) == "ToolError: TimeoutError"
    error = ToolArgumentsError("refund", ["argument 'amount': missing required argument"])
    assert format_tool_error(error).startswith(
        "ToolError: ToolArgumentsError: invalid arguments for tool 'refund':\n- argument"
    )
