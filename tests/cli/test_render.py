"""How `tether sessions ... --follow` prints the events a person follows."""

from __future__ import annotations

import io

from tether.cli._sessions import render


def test_a_failed_dynamic_handler_is_printed_with_its_error() -> None:
    out = io.StringIO()
    data = {"handler": "rules", "on": "turn.started", "error": "it ran past its timeout of 2 s"}
    render({"type": "dynamic.failed", "data": data}, out)
    assert out.getvalue() == (
        "[dynamic.failed rules on turn.started: it ran past its timeout of 2 s]\n"
    )
    escaped = io.StringIO()
    render({"type": "dynamic.failed", "data": {**data, "error": "\x1b[31mred"}}, escaped)
    assert "\x1b" not in escaped.getvalue() and "\\x1b[31mred" in escaped.getvalue()
