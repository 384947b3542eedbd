"""`tether usage`: token usage and cost across sessions, per tenant, agent and model.

Against a server (``--server URL`` with an operator's ``--token``) it reads
``GET /v1/inspect/usage``; with ``--db URL --app MODULE:ATTR`` it reads the store
through `AgentHost.usage`. A window's ends are ISO 8601 times (UTC unless they say
otherwise), Unix seconds, or a span back from now (``30m``, ``24h``, ``7d``).
"""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime
from typing import Any

from ..errors import ConfigurationError, MissingExtraError, TetherError
from ._terminal import show_table, spinner

__all__ = ["parse_when", "retried_note", "usage_command", "usage_lines"]

_SPAN = re.compile(r"([0-9]+(?:\.[0-9]+)?)([smhdw])")
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
#: What each ``--by`` shows, and the key of its column in the wire form.
_BY = {"tenant": "by_tenant", "agent": "by_agent", "model": "by_model"}


def parse_when(raw: str | None, name: str, now: float | None = None) -> float | None:
    """A window's end as Unix seconds: ISO 8601, Unix seconds, or a span back from now.

    Raises:
        ConfigurationError: None of those, with the forms it takes.
    """
    if raw is None:
        return None
    text = raw.strip()
    span = _SPAN.fullmatch(text)
    if span:
        back = float(span.group(1)) * _SECONDS[span.group(2)]
        return (time.time() if now is None else now) - back
    try:
        return float(text)
    except ValueError:
        pass
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise ConfigurationError(
            f"{name} {raw!r} is not a time: give an ISO 8601 time (2026-12-01 or "
            "2026-12-01T09:00+01:00; UTC unless it says), Unix seconds, or a span back "
            "from now (30m, 24h, 7d)"
        ) from None
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()


async def _from_server(url: str, token: str | None, params: dict[str, Any]) -> dict[str, Any]:
    try:
        import httpx
    except ImportError as exc:
        raise MissingExtraError("httpx", "server") from exc
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=url.rstrip("/"), headers=headers, timeout=120) as http:
        r = await http.get("/v1/inspect/usage", params=params)
    if r.status_code >= 400:
        try:
            detail = r.json().get("detail", r.text)
        except ValueError:
            detail = r.text
        raise TetherError(f"{r.status_code}: {detail}")
    out: dict[str, Any] = r.json()
    return out


def _cells(counts: dict[str, Any], priced: bool) -> list[str]:
    keys = ("calls", "input_tokens", "cached_tokens", "output_tokens")
    cost = counts.get("cost")
    shown = [f"{counts[k]:,}" for k in keys]
    return [*shown, f"{cost:.6f}" if cost is not None else ("-" if priced else "")]


def usage_lines(report: dict[str, Any], by: str | None) -> tuple[list[str], list[list[str]], str]:
    """The table (headers, rows; a last row sums them all) and the lines below it."""
    priced = report["cost"] is not None
    numbers = ["calls", "input", "cached", "output", "cost"]
    if by is None:
        headers = ["tenant", "agent", "model", *numbers]
        rows = [
            [r["tenant"] or "-", r["agent"], r["model"], *_cells(r, priced)] for r in report["rows"]
        ]
        blank = ["", ""]
    else:
        headers = [by, *numbers]
        rows = [[str(s[by] or "-"), *_cells(s, priced)] for s in report[_BY[by]]]
        blank = []
    rows.append(["all", *blank, *_cells({**report["total"], "cost": report["cost"]}, priced)])
    notes = [f"{report['sessions']} session(s) with calls in the window"]
    if report["unpriced"]:
        notes.append("no price for " + ", ".join(report["unpriced"]) + " (not in cost)")
    if report["unreadable"]:
        notes.append(f"{report['unreadable']} session(s) whose events are gone, not counted")
    retried = report.get("retried") or {}  # absent from a server of an earlier release
    if retried.get("calls"):
        notes.append(retried_note(retried))
    return headers, rows, "\n".join(notes)


def retried_note(retried: dict[str, Any]) -> str:
    """The line that says how many of the calls counted were retried."""
    tokens = retried["input_tokens"] + retried["output_tokens"]
    return (
        f"{retried['calls']:,} of the calls ({tokens:,} tokens) retried: their replies never "
        "committed and a later attempt called the model again (counted above)"
    )


async def usage_command(args: Any, host: Any | None, server: str | None = None) -> int:
    """Run `tether usage` against `server` (`host` None) or a store's `AgentHost`."""
    import os

    since = parse_when(args.since, "--since")
    until = parse_when(args.until, "--until")
    labels: dict[str, str] = {}
    for raw in args.label:
        key, sep, value = raw.partition("=")
        if not sep or not key:
            raise ConfigurationError(f"--label {raw!r}: write KEY=VALUE")
        labels[key] = value
    if host is None:
        params: dict[str, Any] = {
            k: v
            for k, v in (
                ("since", since),
                ("until", until),
                ("tenant", args.tenant),
                ("agent", args.agent),
            )
            if v is not None
        }
        if labels:
            params["label"] = [f"{k}={v}" for k, v in labels.items()]
        token = args.token or os.environ.get("TETHER_TOKEN")
        with spinner("summing usage across sessions"):
            report = await _from_server(str(server), token, params)
    else:
        with spinner("summing usage across sessions"):
            found = await host.usage(
                since=since, until=until, owner=args.tenant, agent=args.agent, labels=labels or None
            )
        report = found.to_json()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    headers, rows, notes = usage_lines(report, args.by)
    show_table(headers, rows)
    print(notes)
    return 0
