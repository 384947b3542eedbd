"""MkDocs hook: reference pages generated from tether itself at build time.

A page that holds one of these markers gets it replaced by markdown made from the code,
so the page can never drift from what tether does:

- ``<!-- tether:cli -->``: every command of the ``tether`` CLI, from its argparse parser;
- ``<!-- tether:http -->``: the HTTP API, from the OpenAPI document the server serves;
- ``<!-- tether:events -->``: every session event type and the fields of its data;
- ``<!-- tether:errors -->``: the tree of tether's exceptions.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import os
import typing
from collections.abc import Callable, Iterator
from typing import Any

MARKERS: dict[str, Callable[[], str]] = {}


def _marker(name: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    def register(fn: Callable[[], str]) -> Callable[[], str]:
        MARKERS[f"<!-- tether:{name} -->"] = fn
        return fn

    return register


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace the markers a page holds with their generated markdown."""
    for marker, render in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, render())
    return markdown


def _cell(text: object) -> str:
    """Text safe inside one cell of a markdown table."""
    return " ".join(str(text).split()).replace("|", "\\|")


# --- the CLI ---------------------------------------------------------------------


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield (*path, name), sub, helps.get(name, "")
                yield from _commands(sub, (*path, name))


def _argument_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            name = ", ".join(f"`{o}`" for o in action.option_strings)
            if action.nargs != 0:
                name += f" `{action.metavar or action.dest.upper()}`"
        else:
            name = f"`{action.metavar or action.dest}`"
        notes = action.help or ""
        if action.choices and not isinstance(action.choices, dict):
            notes += f" (one of {', '.join(f'`{c}`' for c in action.choices)})"
        if isinstance(action, argparse._AppendAction):
            notes += " (repeatable)"
        default = action.default
        if (
            action.option_strings
            and default not in (None, False, [], argparse.SUPPRESS)
            and "default" not in notes
        ):
            notes += f" (default `{default}`)"
        rows.append(f"| {name} | {_cell(notes) or ' '} |")
    return rows


@_marker("cli")
def cli_reference() -> str:
    """Every ``tether`` command: its purpose, usage and arguments."""
    os.environ["COLUMNS"] = "100"  # argparse wraps usage lines to the terminal's width
    from tether.cli import _parser

    root = _parser()
    out = [
        "```text",
        root.format_usage().strip(),
        "```",
        "",
        "`tether --version` prints the version.",
        "",
    ]
    for path, parser, help_text in _commands(root, ("tether",)):
        if any(isinstance(a, argparse._SubParsersAction) for a in parser._actions):
            continue  # a group (`runs`, `keys`, `sessions`): its commands follow
        out += [f"## `{' '.join(path)}`", "", (help_text[:1].upper() + help_text[1:]) + ".", ""]
        out += ["```text", parser.format_usage().strip().removeprefix("usage: "), "```", ""]
        rows = _argument_rows(parser)
        if rows:
            out += ["| argument | meaning |", "|---|---|", *rows, ""]
    return "\n".join(out)


# --- the HTTP API ----------------------------------------------------------------


def _type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#schema-{name.lower()})"
    if "anyOf" in schema:
        kinds = [_type(s) for s in schema["anyOf"]]
        return " or ".join(k for k in kinds if k != "null") + (
            " or null" if "null" in kinds else ""
        )
    if "enum" in schema:
        return "one of " + ", ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}))}"
    if kind is None:
        return "any JSON"
    extras = []
    if "pattern" in schema:
        extras.append(f"matching `{schema['pattern']}`")
    if "maxLength" in schema:
        extras.append(f"at most {schema['maxLength']} characters")
    if "minimum" in schema:
        extras.append(f">= {schema['minimum']}")
    return str(kind) + (f" ({', '.join(extras)})" if extras else "")


def _properties(schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = ["| field | type | required | meaning |", "|---|---|---|---|"]
    for name, prop in schema.get("properties", {}).items():
        meaning = prop.get("description", "")
        if "default" in prop and prop["default"] is not None:
            meaning += f" (default `{json.dumps(prop['default'])}`)"
        rows.append(
            f"| `{name}` | {_cell(_type(prop))} | {'yes' if name in required else 'no'} "
            f"| {_cell(meaning) or ' '} |"
        )
    return rows


def _body(content: dict[str, Any]) -> list[str]:
    out = []
    for media, spec in content.items():
        schema = spec.get("schema", {})
        if "$ref" in schema or schema.get("type") != "object":
            out.append(f"- `{media}`: {_type(schema)}")
        else:
            out += [f"- `{media}`, an object:", "", *("    " + r for r in _properties(schema))]
    return out


@_marker("http")
def http_reference() -> str:
    """Every route of the server's OpenAPI document, then its schemas."""
    from tether import __version__
    from tether.agent import Agent, Agents
    from tether.server._openapi import openapi_document
    from tether.testing import ScriptedModel

    # One stand-in agent: the document lists the served agents' names where they go.
    agent = Agent(name="AGENT", model=ScriptedModel(lambda _: "", name="stand-in"))
    document = openapi_document(Agents([agent], deployment="docs"), __version__)
    out = [
        f"Generated from the OpenAPI {document['openapi']} document that `tether serve` "
        f'serves at `GET /v1/openapi.json` ("{document["info"]["title"]}", version '
        f"{document['info']['version']}). Each agent name is filled in where the "
        "document lists the served agents; `AGENT` stands for them here.",
        "",
    ]
    schemes = document.get("components", {}).get("securitySchemes", {})
    for name, scheme in schemes.items():
        out.append(
            f"Security scheme `{name}`: {scheme.get('type')} {scheme.get('scheme', '')}"
            f" {scheme.get('description', '')}".rstrip()
        )
    out.append("")
    for path, item in document["paths"].items():
        for method, op in item.items():
            out += [f"### `{method.upper()} {path}`", "", op.get("summary", ""), ""]
            if op.get("description"):
                out += [op["description"], ""]
            if op.get("security") == []:
                out += ["No authentication: the path itself is the authority.", ""]
            params = op.get("parameters", [])
            if params:
                out += ["| parameter | in | type | required | meaning |", "|---|---|---|---|---|"]
                for p in params:
                    out.append(
                        f"| `{p['name']}` | {p['in']} | {_cell(_type(p.get('schema', {})))} "
                        f"| {'yes' if p.get('required') else 'no'} "
                        f"| {_cell(p.get('description', '')) or ' '} |"
                    )
                out.append("")
            body = op.get("requestBody")
            if body:
                out += ["Request body:", "", *_body(body.get("content", {})), ""]
            out += ["| status | meaning | body |", "|---|---|---|"]
            for status, response in op.get("responses", {}).items():
                content = response.get("content", {})
                kinds = ", ".join(
                    f"`{media}` {_type(spec.get('schema', {}))}" for media, spec in content.items()
                )
                out.append(
                    f"| {status} | {_cell(response.get('description', ''))} | "
                    f"{_cell(kinds) or ' '} |"
                )
            out.append("")
    out += ["## Schemas", ""]
    for name, schema in document.get("components", {}).get("schemas", {}).items():
        out += [f"### {name} {{#schema-{name.lower()}}}", ""]
        if schema.get("description"):
            out += [" ".join(schema["description"].split()), ""]
        out += [*_properties(schema), ""]
    return "\n".join(out)


# --- session events --------------------------------------------------------------


def _annotation(hint: object) -> str:
    text = str(hint) if not isinstance(hint, type) else hint.__name__
    for prefix in (
        "typing.",
        "collections.abc.",
        "tether.agent._records._requests.",
        "tether.agent.",
    ):
        text = text.replace(prefix, "")
    return text


@_marker("events")
def events_reference() -> str:
    """Every session event type with the record its `data` holds."""
    from tether.agent._records import _event_data

    out = []
    for event_type, record in _event_data.EVENT_DATA.items():
        doc = inspect.getdoc(record) or ""
        summary = " ".join(doc.split("\n\n", 1)[0].split(":", 1)[-1].split())
        summary = summary[:1].upper() + summary[1:]
        out += [
            f"### `{event_type}`",
            "",
            f"`data`: [`{record.__name__}`][tether.agent.{record.__name__}]. {summary}",
            "",
        ]
        hints = typing.get_type_hints(record)
        fields = dataclasses.fields(record)
        if fields:
            out += ["| field | type |", "|---|---|"]
            # Inside a code span a table's pipe needs no escape (and an escape would show).
            types = [" ".join(_annotation(hints[f.name]).split()) for f in fields]
            out += [f"| `{f.name}` | `{t}` |" for f, t in zip(fields, types, strict=True)]
            out.append("")
    return "\n".join(out)


# --- errors ----------------------------------------------------------------------


@_marker("errors")
def errors_reference() -> str:
    """The tree of tether's exceptions, each linked to its reference entry."""
    from tether import errors

    def first_line(cls: type) -> str:
        return (inspect.getdoc(cls) or "").split("\n", 1)[0]

    def link(cls: type) -> str:
        return f"[`{cls.__name__}`][tether.errors.{cls.__name__}]"

    def bases(cls: type) -> str:
        others = [
            b.__name__
            for b in cls.__bases__
            if b.__module__ != "tether.errors" and b is not Exception
        ]
        return f" (also `{'`, `'.join(others)}`)" if others else ""

    lines: list[str] = []

    def walk(cls: type, depth: int) -> None:
        lines.append(f"{'    ' * depth}- {link(cls)}{bases(cls)}: {first_line(cls)}")
        for sub in cls.__subclasses__():
            if sub.__module__ == "tether.errors" and sub.__bases__[0] is cls:
                walk(sub, depth + 1)

    walk(errors.TetherError, 0)
    outside = [
        getattr(errors, name)
        for name in errors.__all__
        if isinstance(getattr(errors, name), type)
        and not issubclass(getattr(errors, name), errors.TetherError)
    ]
    lines += ["", "Raised by your own code, or carried for it (not `TetherError`s):", ""]
    lines += [f"- {link(cls)}{bases(cls)}: {first_line(cls)}" for cls in outside]
    return "\n".join(lines)
