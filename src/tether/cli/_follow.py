"""How `tether sessions follow` (and ``send --follow``) shows a session's events.

Three forms, chosen by where standard output goes:

- ``--json``: one event a line, as the server sends it (NDJSON), whatever the
  terminal: the form made for scripts.
- not a terminal (a pipe, a file, a CI log, ``TERM=dumb``): plain lines (`render`),
  the reply's text as it streams, no colours and no redrawing.
- a terminal: the same lines, kept above a live view of the turn in progress (drawn
  with `rich`): what it does now (the model answering or writing, a tool running, a
  wait for an answer), for how long, its step and tokens so far, and the reply's text
  as it streams; each finished reply, tool call and turn end is printed above it, and
  the view is gone once nothing runs.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import IO, Any

from ._format import printable
from ._terminal import is_terminal

__all__ = ["follow_events"]

#: Events after which no turn is in progress.
_ENDS = ("turn.completed", "turn.failed", "turn.cancelled", "turn.waiting")


async def follow_events(
    events: AsyncIterator[dict[str, Any]],
    *,
    render: Callable[[dict[str, Any], Any], None],
    as_json: bool = False,
    until: Callable[[dict[str, Any]], bool] | None = None,
) -> None:
    """Show `events` as they come, in the form standard output calls for.

    Args:
        events: The session's events (their JSON form), followed or not.
        render: Prints one event as plain lines (`_sessions.render`).
        as_json: One JSON object a line instead (``--json``).
        until: Stop after the first event it is true of (``send --follow``: its turn's end).
    """
    out = sys.stdout
    if as_json or not is_terminal(out):
        async for event in events:
            if as_json:
                out.write(json.dumps(event) + "\n")
                out.flush()
            else:
                render(event, out)
            if until is not None and until(event):
                break
        return
    from rich.console import Console
    from rich.live import Live

    console = Console(file=out, highlight=False)
    view = TurnView()
    above = _Above(console)
    # Transient: the live view is erased once it stops; what was printed above stays.
    with Live(view, console=console, transient=True, refresh_per_second=8) as live:
        async for event in events:
            view.see(event, above, render)
            live.refresh()
            if until is not None and until(event):
                break


class _Above:
    """A text stream whose finished lines are printed above the live view.

    `render` writes coloured lines to it (it is a terminal); each line is decoded back
    to styled text and printed by the live view's console, which redraws the view
    under it.
    """

    def __init__(self, console: Any) -> None:
        self.console = console
        self.partial = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        from rich.text import Text

        *lines, self.partial = (self.partial + text).split("\n")
        for line in lines:
            self.console.print(Text.from_ansi(line))
        return len(text)

    def flush(self) -> None:
        return None


class TurnView:
    """The live view of the turn in progress: a rich renderable, redrawn as it changes."""

    def __init__(self) -> None:
        #: What the turn does now; None: no turn is in progress (nothing is drawn).
        self.doing: str | None = None
        self.since = 0.0
        self.step: int | None = None
        self.tokens = 0
        #: The reply's text streamed so far (printed above once it completes).
        self.text = ""
        self._spinner: Any = None

    def see(self, event: dict[str, Any], above: IO[str] | Any, render: Callable[..., None]) -> None:
        """Take one event: print what is finished above, and note what runs now."""
        kind = event.get("type", "")
        data = event.get("data") or {}
        step = (event.get("meta") or {}).get("stepIndex")
        if step is not None:
            self.step = step
        if kind == "message.delta":
            if not self.text:
                self._now("the model is writing")
            self.text += str(data.get("text", ""))
            return
        if kind == "message.completed":
            usage = data.get("usage") or {}
            self.tokens += int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0))
            text, self.text = self.text or str(data.get("text", "")), ""
            if text:
                above.write(printable(text) + "\n")
            calls = data.get("tool_calls") or []
            self._now("calling tools" if calls else "the model had its say")
            return
        render(event, above)
        if kind == "turn.started":
            self.tokens, self.step = 0, None
            self._now("the model is answering")
        elif kind == "tool.call":
            self._now(f"running {printable(str(data.get('name', 'a tool')))}")
        elif kind == "tool.result":
            self._now("the model is answering")
        elif kind in ("input.requested", "authorization.required"):
            self._now("waiting for an answer")
        elif kind in _ENDS or kind in ("session.closed", "session.failed"):
            self.doing, self.text = None, ""

    def _now(self, doing: str) -> None:
        if doing != self.doing:
            self.doing, self.since = doing, time.monotonic()

    def __rich__(self) -> Any:
        from rich.console import Group
        from rich.spinner import Spinner
        from rich.text import Text

        if self.doing is None:
            return Text("")
        facts = [f"{time.monotonic() - self.since:.1f} s"]
        if self.step is not None:
            facts.append(f"step {self.step}")
        if self.tokens:
            facts.append(f"{self.tokens:,} tokens")
        line = Text(f"{self.doing} · {' · '.join(facts)}", style="cyan")
        # One spinner for the whole view: its frame follows the time since it was made.
        if self._spinner is None:
            self._spinner = Spinner("dots", line)
        else:
            self._spinner.update(text=line)
        status = self._spinner
        if not self.text:
            return status
        return Group(Text(printable(self.text)), status)
