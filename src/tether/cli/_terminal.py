"""What the CLI shows people on a terminal: coloured tables and live progress.

On a terminal (standard output for tables, standard error for progress) the CLI draws
with `rich`; anywhere else (a pipe, a file, a CI log) it writes the plain text of
`_format.table` and no progress at all, so scripts read the same bytes whatever the
terminal (``--json`` is the form made for them). ``NO_COLOR`` turns colours off and
keeps the layout; ``TERM=dumb`` counts as no terminal.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from ._format import printable, table

__all__ = ["is_terminal", "paint", "progress", "show_table", "spinner", "status_style"]

#: A status cell's colour, by the status it names (runs, steps, sessions, checks).
_STATUS_STYLE = {
    "completed": "green",
    "ok": "green",
    "idle": "green",
    "running": "cyan",
    "pending": "cyan",
    "busy": "cyan",
    "parked": "yellow",
    "waiting": "yellow",
    "retrying": "yellow",
    "sleeping": "yellow",
    "paused": "yellow",
    "cancelled": "magenta",
    "closed": "magenta",
    "failed": "bold red",
    "nondeterministic": "bold red",
    "error": "bold red",
    "stranded": "bold red",
}


def is_terminal(stream: IO[str]) -> bool:
    """Whether `stream` is an interactive terminal that can draw (not ``TERM=dumb``)."""
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return interactive and os.environ.get("TERM") != "dumb"


def status_style(status: str) -> str:
    """The style a status cell is shown in (empty: none); its last word known wins.

    ``running (stranded)`` is shown as stranded.
    """
    for word in reversed(re.findall(r"[a-z_]+", status)):
        if word in _STATUS_STYLE:
            return _STATUS_STYLE[word]
    return ""


def paint(text: str, style: str, stream: IO[str]) -> str:
    """`text` in `style` (``"bold red"``) when `stream` is a terminal with colours on."""
    if not style or not is_terminal(stream) or os.environ.get("NO_COLOR"):
        return text
    from rich.color import ColorSystem
    from rich.style import Style

    return Style.parse(style).render(text, color_system=ColorSystem.STANDARD)


def _console(stream: IO[str]) -> Any:
    from rich.console import Console

    # highlight=False: cells are data, not Python; rich would colour numbers and
    # strings inside them otherwise.
    return Console(file=stream, highlight=False, soft_wrap=False)


def show_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, status: str | None = None
) -> None:
    """Print a table to standard output; the column named `status` coloured by value.

    Cells are escaped with `printable` in both forms: a cell's text never drives the
    terminal.
    """
    out = sys.stdout
    if not is_terminal(out):
        print(table(headers, rows))
        return
    from rich import box
    from rich.table import Table
    from rich.text import Text

    grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
    for header in headers:
        grid.add_column(header, overflow="fold")
    column = list(headers).index(status) if status is not None and status in headers else None
    for row in rows:
        cells = [Text(printable(cell)) for cell in row]
        if column is not None:
            cells[column].stylize(status_style(row[column]))
        grid.add_row(*cells)
    _console(out).print(grid)


@contextlib.contextmanager
def progress(what: str) -> Iterator[Callable[..., None]]:
    """A live progress bar on standard error while the block runs.

    Yields ``done(count, total=None)``: how much is done, and out of how much once that
    is known (a bar then; a count before). Off a terminal it draws nothing and
    ``done`` does nothing.
    """
    err = sys.stderr
    if not is_terminal(err):
        yield lambda count, total=None: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=_console(err), transient=True) as bar:
        task = bar.add_task(printable(what), total=None)

        def done(count: int, total: int | None = None) -> None:
            bar.update(task, completed=count, total=total)

        yield done


@contextlib.contextmanager
def spinner(what: str) -> Iterator[None]:
    """A spinner with `what` on standard error while the block runs (a terminal only)."""
    err = sys.stderr
    if not is_terminal(err):
        yield
        return
    with _console(err).status(printable(what)):
        yield
