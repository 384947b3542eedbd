"""The shell and TypeScript blocks of the README and docs/ say only what tether takes.

Most ``bash`` blocks are not run here (they start servers, or need a second terminal:
the tutorials' tests run those step by step), so each is held to what it can be
checked against without running it:

- every ``tether`` command line in them parses with the ``tether`` command's own parser
  (a renamed option or command fails here);
- every ``pip install`` of tether names extras the package declares;
- every request to ``localhost:8000`` (``curl`` in bash, URLs in the TypeScript blocks)
  names a route and method of the OpenAPI document the server serves, for the ``ops``
  agent the pages serve.

The AG-UI block itself runs in Node against ``tether serve``
(`tests/server/test_docs_front_ends.py`).
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from docs_pages import PAGES, ROOT, Block, blocks

SHELL = [b for page in PAGES for b in blocks(page) if b.lang in ("bash", "sh", "shell")]
#: Tokens that end one command of a shell line and begin the next.
_SEPARATORS = {"&&", "||", ";", "|", "(", ")", "&"}


def _lines(block: Block) -> list[str]:
    """The block's command lines, backslash continuations joined."""
    return block.code.replace("\\\n", " ").splitlines()


def _commands(line: str) -> list[list[str]]:
    """The simple commands of one shell line, each as its words (comments dropped), with
    the commands of each ``$(...)`` it holds."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out: list[list[str]] = [[]]
    substituted: list[list[str]] = []
    for token in lexer:
        if token in _SEPARATORS:
            out.append([])
            continue
        for inner in re.findall(r"\$\(([^()]*)\)", token):
            substituted.extend(_commands(inner))
        out[-1].append(token)
    return [words for words in out if words] + substituted


def _program(words: list[str]) -> tuple[str, list[str]]:
    """The program a command runs (its path's last part) and its arguments, after any
    ``NAME=value`` assignments and ``export``."""
    while words and (words[0] == "export" or re.match(r"^[A-Za-z_]\w*=", words[0])):
        words = words[1:]
    if not words:
        return "", []
    return words[0].rsplit("/", 1)[-1], words[1:]


def _all_commands() -> list[tuple[Block, str, list[str]]]:
    found = []
    for block in SHELL:
        for line in _lines(block):
            for words in _commands(line):
                program, args = _program(words)
                if program:
                    found.append((block, program, args))
    return found


COMMANDS = _all_commands()


def test_every_tether_command_in_the_docs_parses() -> None:
    from tether.cli import _parser

    parser = _parser()
    lines = [(b, args) for b, program, args in COMMANDS if program == "tether"]
    assert len(lines) > 40, "the pages give fewer tether commands than they did"
    refused = []
    for block, args in lines:
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                parser.parse_args(args)
        except SystemExit as exc:
            if exc.code != 0:  # --help and --version exit 0
                refused.append(f"{block.where}: tether {shlex.join(args)}\n{err.getvalue()}")
    assert refused == [], "\n".join(refused)


def test_a_command_the_cli_does_not_take_is_caught() -> None:
    """The check above can fail: a renamed option is refused."""
    from tether.cli import _parser

    [words] = _commands('tether serve app:agents --cors-origins "http://a.test"  # old')
    assert words[:2] == ["tether", "serve"] and words[-1] == "http://a.test"
    with pytest.raises(SystemExit) as refused, contextlib.redirect_stderr(io.StringIO()):
        _parser().parse_args(words[1:])
    assert refused.value.code == 2


def test_the_shell_lines_split_into_commands() -> None:
    line = 'export T="$(tether keys generate)" && .venv/bin/tether demo  # the demo'
    assert [_program(words) for words in _commands(line)] == [
        ("", []),
        ("tether", ["demo"]),
        ("tether", ["keys", "generate"]),
    ]
    assert _commands("curl -s localhost:8000/v1/health | jq .") == [
        ["curl", "-s", "localhost:8000/v1/health"],
        ["jq", "."],
    ]


def _extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return set(project["optional-dependencies"])


def test_every_pip_install_of_tether_names_extras_it_has() -> None:
    extras = _extras()
    installs = [
        (block, arg)
        for block, program, args in COMMANDS
        if program == "pip" and args[:1] == ["install"]
        for arg in args[1:]
        if not arg.startswith("-")
    ]
    assert installs, "the pages install nothing"
    wrong = []
    for block, arg in installs:
        match = re.fullmatch(r"(?:tether|\.|/path/to/tether)(?:\[([\w,-]+)\])?", arg)
        if match is None:
            wrong.append(f"{block.where}: installs {arg!r}, not tether")
            continue
        named = set(filter(None, (match[1] or "").split(",")))
        if named - extras:
            wrong.append(f"{block.where}: {arg!r}: no extra {sorted(named - extras)}")
    assert wrong == [], "\n".join(wrong)


# -- requests to the server ------------------------------------------------------------
_LOCAL = re.compile(r"(?:https?://)?localhost:8000(/v1/[^\s\"'`?]*)")


def _document() -> dict[str, Any]:
    from tether import __version__
    from tether.agent import Agent, Agents
    from tether.server._openapi import openapi_document
    from tether.testing import ScriptedModel

    ops = Agent(name="ops", model=ScriptedModel(lambda _: "", name="docs"))
    return openapi_document(Agents([ops], deployment="docs"), __version__)


def _route(document: dict[str, Any], method: str, path: str) -> str | None:
    """The document's path template `path` is an instance of, if it takes `method` there
    (each parameter's value checked against an ``enum`` it has)."""
    for template, operations in document["paths"].items():
        names = re.findall(r"\{(\w+)\}", template)
        pattern = re.sub(r"\\\{\w+\\\}", r"([^/]+)", re.escape(template))
        match = re.fullmatch(pattern, path)
        if match is None or method.lower() not in operations:
            continue
        params = {p["name"]: p for p in operations[method.lower()].get("parameters", [])}
        values = dict(zip(names, match.groups(), strict=True))
        if all(
            value in params.get(name, {}).get("schema", {}).get("enum", [value])
            for name, value in values.items()
        ):
            return template
    return None


def _requests() -> list[tuple[Block, str, str]]:
    """Every request the pages make to a local server: (block, method, path)."""
    found = []
    for block, program, args in COMMANDS:
        if program != "curl":
            continue
        data = {"-d", "--data", "--data-binary", "--data-raw", "-F", "--form"} & set(args)
        explicit = args[args.index("-X") + 1] if "-X" in args else None
        for arg in args:
            for path in _LOCAL.findall(arg):
                found.append((block, explicit or ("POST" if data else "GET"), path))
    for page in PAGES:
        for block in blocks(page):
            if block.lang in ("ts", "tsx", "js", "javascript"):
                # A front end's URL is the one its client POSTs a run or a chat to.
                found.extend((block, "POST", path) for path in _LOCAL.findall(block.code))
    return found


def test_every_request_in_the_docs_is_a_route_of_the_served_document() -> None:
    document = _document()
    requests = _requests()
    assert len(requests) >= 7, requests
    unknown = [
        f"{block.where}: {method} {path}"
        for block, method, path in requests
        if _route(document, method, path) is None
    ]
    assert unknown == [], "not in the OpenAPI document:\n" + "\n".join(unknown)
    # And the check can fail: a route the server does not have, or an agent it does
    # not serve, or a method the route does not take.
    assert _route(document, "GET", "/v1/sessions/incident-42/messages") is None
    assert _route(document, "POST", "/v1/agui/billing") is None
    assert _route(document, "POST", "/v1/agui/ops") == "/v1/agui/{agent}"
    assert _route(document, "GET", "/v1/session/incident-42") is None
