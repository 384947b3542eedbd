"""The arguments of `tether runs`: list, show, step, streams, cancel, fork and resume."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..stores import MAX_CANCEL_RUNS

__all__ = ["add_runs_parser"]


def add_runs_parser(
    sub: Any,
    with_db: Callable[[argparse.ArgumentParser], argparse.ArgumentParser],
    statuses: tuple[str, ...],
) -> None:
    """Add ``runs`` and its verbs to the subparsers `sub` of the `tether` command."""
    runs = sub.add_parser("runs", help="inspect runs").add_subparsers(dest="runs", required=True)
    ls = with_db(runs.add_parser("list", help="list runs, newest first"))
    ls.add_argument("--status", choices=statuses, help="only runs in this status")
    ls.add_argument("--limit", type=int, default=50)
    ls.add_argument("--json", action="store_true")
    show = with_db(runs.add_parser("show", help="a run and its decoded journal"))
    show.add_argument("run_id")
    show.add_argument("--json", action="store_true")
    one = with_db(runs.add_parser("step", help="one step of a run, and the events of its life"))
    one.add_argument("run_id")
    one.add_argument("step_id")
    one.add_argument("--json", action="store_true")
    streams = with_db(runs.add_parser("streams", help="a run's streams, their lengths"))
    streams.add_argument("run_id")
    streams.add_argument("--json", action="store_true")
    cancel = with_db(
        runs.add_parser(
            "cancel",
            help="cancel runs: those named, or every active run a filter selects",
        )
    )
    cancel.add_argument("run_ids", nargs="*", metavar="RUN_ID", help="runs to cancel")
    cancel.add_argument("--status", choices=("pending", "running"), help="only runs in this status")
    cancel.add_argument("--workflow", help="only runs of this workflow")
    cancel.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="only runs carrying this label (repeatable)",
    )
    cancel.add_argument("--reason", help="the reason each cancellation records")
    cancel.add_argument(
        "--limit",
        type=int,
        default=1000,
        help=f"the most runs a filter cancels (default 1000, at most {MAX_CANCEL_RUNS})",
    )
    cancel.add_argument(
        "--all", action="store_true", help="every active run (a filter or --all is required)"
    )
    cancel.add_argument("--json", action="store_true")
    for verb, what in (
        ("fork", "a new run from a run's journal up to a step (the run is only read)"),
        ("resume", "a failed or cancelled run taken up again from where it ended"),
    ):
        forking = with_db(runs.add_parser(verb, help=what))
        forking.add_argument("run_id")
        forking.add_argument(
            "--from-step",
            required=verb == "fork",
            metavar="SLOT|NAME",
            help="where it starts: a slot of the journal (1: the start) or a step name"
            + ("" if verb == "fork" else " (default: where the run ended)"),
        )
        forking.add_argument(
            "--run-id", dest="new_run_id", help="the new run's id (default: a new one)"
        )
        forking.add_argument("--args", metavar="JSON", help="a new input: a JSON array")
        forking.add_argument("--kwargs", metavar="JSON", help="a new input: a JSON object")
        forking.add_argument(
            "--app",
            metavar="MODULE:ATTR",
            help="the code the new run is for: its deployment (default: the run's own)",
        )
        forking.add_argument("--json", action="store_true")
