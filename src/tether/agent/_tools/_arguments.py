"""Tool arguments: a pydantic model from a function's signature, and its messages.

The model's fields get neutral names with the parameter names as aliases, so parameters
such as ``json``, ``schema`` or ``model_name`` do not clash with ``BaseModel``'s own
attributes. Validation problems are rendered as text for the model: which argument,
what was wrong and what the schema expects.
"""

from __future__ import annotations

import inspect
import re
import typing
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PydanticUserError,
    TypeAdapter,
    ValidationError,
    create_model,
)
from pydantic.fields import FieldInfo
from pydantic.json_schema import GenerateJsonSchema, PydanticJsonSchemaWarning

from ...errors import ConfigurationError, ToolArgumentsError

__all__ = [
    "Arguments",
    "ObjectArguments",
    "Param",
    "build_arguments",
    "is_async_callable",
    "json_object",
    "parse_docstring",
]

_MAX_PROBLEMS = 10
_MAX_EXPECTED_CHARS = 300
_MAX_INPUT_CHARS = 100

AnyFn = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a tool function, in declaration order."""

    name: str
    field: str  # the generated model's field name; ``name`` is its alias
    positional_only: bool
    is_context: bool


class _SchemaGenerator(GenerateJsonSchema):
    # Field titles ("Charge Id") only repeat the property name and cost the model tokens.
    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Arguments:
    """A tool's parameters, their pydantic model and JSON schema."""

    tool_name: str
    params: tuple[Param, ...]
    model: type[BaseModel]
    schema: dict[str, Any]

    def validate(self, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
        """Validate and coerce a model's arguments; see ``Tool.validate``."""
        arguments = json_object(self.tool_name, arguments)
        try:
            instance = self.model.model_validate(arguments)
        except ValidationError as exc:
            raise ToolArgumentsError(self.tool_name, self._problems(exc)) from None
        return {p.name: getattr(instance, p.field) for p in self.params if not p.is_context}

    def _problems(self, exc: ValidationError) -> list[str]:
        properties: Mapping[str, Any] = self.schema.get("properties", {})
        defs: Mapping[str, Any] = self.schema.get("$defs", {})
        explained: set[str] = set()
        problems: list[str] = []
        for error in exc.errors(include_url=False)[:_MAX_PROBLEMS]:
            loc = error["loc"]
            top = str(loc[0]) if loc else ""
            path = _render_loc(loc)
            kind = error["type"]
            if kind == "extra_forbidden" and len(loc) == 1:
                accepted = ", ".join(repr(name) for name in properties)
                hint = f"the arguments are: {accepted}" if accepted else "it takes none"
                problems.append(f"argument {path!r}: unexpected argument; {hint}")
                continue
            if kind == "missing":
                what = "missing required argument" if len(loc) == 1 else "missing required field"
            else:
                what = f"{error['msg']} (got {_clip(repr(error.get('input')))})"
            line = f"argument {path!r}: {what}"
            if top in properties and top not in explained:
                explained.add(top)
                expected = _clip(_compact_schema(properties[top], defs), _MAX_EXPECTED_CHARS)
                line += f"; {top!r} expects {expected}"
            problems.append(line)
        hidden = exc.error_count() - _MAX_PROBLEMS
        if hidden > 0:
            problems.append(f"... and {hidden} more problem(s)")
        return problems


@dataclass(frozen=True, slots=True)
class ObjectArguments:
    """Arguments described by a schema from elsewhere (an MCP server's), checked there.

    Here they are checked to be a JSON object only: the schema's owner validates them,
    and its refusal reaches the model as the tool's error.
    """

    tool_name: str
    schema: dict[str, Any]
    params: tuple[Param, ...] = ()

    def validate(self, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
        """The arguments as a dict; see ``Tool.validate``."""
        return json_object(self.tool_name, arguments)


def json_object(tool_name: str, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
    """A model's arguments (parsed, or JSON text: empty means none) as a dict.

    Raises:
        ToolArgumentsError: They are not a JSON object.
    """
    if isinstance(arguments, Mapping):
        return dict(arguments)
    if not isinstance(arguments, str):
        raise ToolArgumentsError(
            tool_name, [f"the arguments must be a JSON object, got {type(arguments).__name__}"]
        )
    if not arguments.strip():
        return {}
    try:
        value = orjson.loads(arguments)
    except orjson.JSONDecodeError as exc:
        raise ToolArgumentsError(
            tool_name, [f"the arguments are not valid JSON ({exc}): {_clip(arguments)!r}"]
        ) from None
    if not isinstance(value, dict):
        raise ToolArgumentsError(
            tool_name, [f"the arguments must be a JSON object, got {_json_type(value)}"]
        )
    return value


# -- signature analysis ---------------------------------------------------------------


def is_async_callable(fn: AnyFn) -> bool:
    """Whether calling ``fn`` returns a coroutine (async functions, async ``__call__``)."""
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    return call is not None and inspect.iscoroutinefunction(call)


def _type_hints(fn: AnyFn, tool_name: str, parameters: list[inspect.Parameter]) -> dict[str, Any]:
    # Resolve only the parameters' own hints: a workflow tool's context parameter and the
    # return type may name types that are not importable, and they do not matter here.
    raw = {p.name: p.annotation for p in parameters if p.annotation is not inspect.Parameter.empty}
    target: Any = inspect.unwrap(fn)
    if not (inspect.isfunction(target) or inspect.ismethod(target)):
        target = getattr(target, "__call__", target)  # noqa: B004 - callable objects
    shim: Callable[[], None] = lambda: None  # noqa: E731 - a carrier for the annotations
    shim.__annotations__ = raw
    try:
        return typing.get_type_hints(
            shim, globalns=getattr(target, "__globals__", {}), include_extras=True
        )
    except Exception as exc:
        raise ConfigurationError(
            f"tool {tool_name!r}: cannot resolve the type hints of {fn!r}: {exc}; types "
            "named in hints must be importable from the function's module"
        ) from exc


def _is_context(annotation: Any, context_type: type) -> bool:
    if typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation is context_type


def _accepts_none(annotation: Any) -> bool:
    try:
        TypeAdapter(annotation).validate_python(None)
    except Exception:
        return False
    return True


def _has_description(annotation: Any) -> bool:
    if typing.get_origin(annotation) is not Annotated:
        return False
    return any(isinstance(meta, FieldInfo) and meta.description for meta in annotation.__metadata__)


def build_arguments(
    fn: AnyFn,
    tool_name: str,
    *,
    arg_docs: Mapping[str, str],
    is_workflow: bool,
    context_type: type,
) -> Arguments:
    """Analyse ``fn``'s signature; raise ``ConfigurationError`` on what a tool cannot take.

    A parameter annotated ``context_type`` is injected at call time, not an argument;
    a workflow tool's first parameter (the workflow context) is left out entirely.
    """
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise ConfigurationError(f"tool {tool_name!r}: cannot read the signature: {exc}") from exc
    parameters = list(signature.parameters.values())
    if is_workflow:
        if not is_async_callable(fn):
            raise ConfigurationError(
                f"workflow tool {tool_name!r} must be an async function: its body runs "
                "in the durable workflow"
            )
        if not parameters or parameters[0].kind not in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        ):
            raise ConfigurationError(
                f"workflow tool {tool_name!r}: the first parameter must take the workflow "
                "context, e.g. async def fn(ctx, ...)"
            )
        parameters = parameters[1:]
    hints = _type_hints(fn, tool_name, parameters)
    params: list[Param] = []
    fields: dict[str, Any] = {}
    context_param: str | None = None
    for param in parameters:
        if param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            star = "*" if param.kind is inspect.Parameter.VAR_POSITIONAL else "**"
            raise ConfigurationError(
                f"tool {tool_name!r}: {star}{param.name} is not supported; declare each "
                "argument as a named, annotated parameter"
            )
        if param.name not in hints:
            raise ConfigurationError(
                f"tool {tool_name!r}: parameter {param.name!r} has no type hint; the "
                "argument schema is built from the hints"
            )
        annotation = hints[param.name]
        positional_only = param.kind is inspect.Parameter.POSITIONAL_ONLY
        if _is_context(annotation, context_type):
            if is_workflow:
                raise ConfigurationError(
                    f"workflow tool {tool_name!r}: parameter {param.name!r} asks for a "
                    "ToolContext; workflow tools get the workflow context as first parameter"
                )
            if context_param is not None:
                raise ConfigurationError(
                    f"tool {tool_name!r}: only one parameter may be a ToolContext "
                    f"({context_param!r} and {param.name!r} are)"
                )
            context_param = param.name
            params.append(Param(param.name, "", positional_only, is_context=True))
            continue
        field_name = f"arg{len(fields)}"
        info: dict[str, Any] = {"alias": param.name}
        doc = arg_docs.get(param.name)
        if doc and not _has_description(annotation):
            info["description"] = doc
        default = ... if param.default is inspect.Parameter.empty else param.default
        if default is None and not _accepts_none(annotation):
            # `x: str = None`: accept the null the default stands for, so validating
            # the validated arguments again (as the turn does) gives them back.
            annotation = annotation | None
        fields[field_name] = (annotation, Field(default, **info))
        params.append(Param(param.name, field_name, positional_only, is_context=False))
    try:
        model = create_model(
            f"{tool_name.replace('-', '_')}_arguments",
            __config__=ConfigDict(extra="forbid"),
            **fields,
        )
        schema = _json_schema(model)
    except PydanticUserError as exc:
        culprit = _unsupported_parameter(parameters, hints)
        where = f"parameter {culprit!r}" if culprit else "its parameters"
        raise ConfigurationError(
            f"tool {tool_name!r}: cannot build an argument schema for {where}: {exc}"
        ) from exc
    return Arguments(tool_name=tool_name, params=tuple(params), model=model, schema=schema)


def _unsupported_parameter(parameters: list[inspect.Parameter], hints: dict[str, Any]) -> str:
    for param in parameters:
        try:
            create_model("probe", x=(hints[param.name], ...)).model_json_schema()
        except PydanticUserError:
            return param.name
        except Exception:
            continue
    return ""


def _json_schema(model: type[BaseModel]) -> dict[str, Any]:
    with warnings.catch_warnings():
        # A default JSON cannot represent is left out of the schema; that is all we want.
        warnings.simplefilter("ignore", PydanticJsonSchemaWarning)
        schema = model.model_json_schema(by_alias=True, schema_generator=_SchemaGenerator)
    schema.pop("title", None)
    return schema


# -- docstrings -----------------------------------------------------------------------

_ARGS_HEADER = re.compile(r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments):$")
_SECTION_HEADER = re.compile(r"^[A-Z][A-Za-z ]*:$")
_ARG_ENTRY = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Return the first paragraph and the descriptions of a Google-style ``Args:`` section."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    summary: list[str] = []
    for line in lines:
        if not line.strip() or _SECTION_HEADER.match(line.strip()):
            break
        summary.append(line.strip())
    descriptions: dict[str, str] = {}
    section_indent: int | None = None
    entry_indent: int | None = None
    current: str | None = None
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if section_indent is None:
            if _ARGS_HEADER.match(stripped):
                section_indent = indent
            continue
        if not stripped:
            continue
        if indent <= section_indent:
            # The section ended; another Args section may follow (e.g. Keyword Args).
            section_indent = indent if _ARGS_HEADER.match(stripped) else None
            entry_indent = current = None
            continue
        if entry_indent is None:
            entry_indent = indent
        match = _ARG_ENTRY.match(stripped)
        if indent == entry_indent and match:
            current = match.group(1)
            descriptions[current] = match.group(2).strip()
        elif current is not None:
            descriptions[current] = f"{descriptions[current]} {stripped}".strip()
    return " ".join(summary), descriptions


# -- messages for the model -----------------------------------------------------------


def _render_loc(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(arguments)"


def _clip(text: str, limit: int = _MAX_INPUT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null"


_DATA_KEYWORDS = frozenset({"default", "const", "enum", "examples"})


def _inline(schema: Any, defs: Mapping[str, Any], depth: int) -> Any:
    if isinstance(schema, list):
        return [_inline(item, defs, depth) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and depth > 0:
        target = defs.get(ref.removeprefix("#/$defs/"))
        if target is not None:
            siblings = {key: value for key, value in schema.items() if key != "$ref"}
            return _inline({**target, **siblings}, defs, depth - 1)
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("title", "description"):
            continue
        if key in _DATA_KEYWORDS:
            out[key] = value
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: _inline(sub, defs, depth) for name, sub in value.items()}
        else:
            out[key] = _inline(value, defs, depth)
    return out


def _compact_schema(schema: Any, defs: Mapping[str, Any]) -> str:
    return orjson.dumps(_inline(schema, defs, 3)).decode()
