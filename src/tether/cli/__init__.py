"""The `tether` command: demo, worker, runs list/show, migrate."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..errors import TetherError

__all__ = ["main"]

DEFAULT_URL = "sqlite://"


def _url(args: argparse.Namespace) -> str:
    return str(args.db or os.environ.get("TETHER_URL") or DEFAULT_URL)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tether", description="Durable AI agents.")
    parser.add_argument("--version", action="version", version=f"tether {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo", help="an incident agent's turn survives its worker being killed while parked"
    )
    demo.add_argument(
        "--engine",
        action="store_true",
        help="the engine-only demo: a workflow's worker killed mid-step",
    )

    def with_db(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument(
            "--db", help="backend URL (default: $TETHER_URL or sqlite://, i.e. .tether/tether.db)"
        )
        return p

    worker = with_db(
        sub.add_parser(
            "worker", help="run a worker for MODULE:ATTR (a Registry, an Agents or an AgentHost)"
        )
    )
    worker.add_argument("target", metavar="MODULE:ATTR")
    worker.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="runs executed at once (default: $TETHER_WORKER_CONCURRENCY or 16)",
    )
    runs = sub.add_parser("runs", help="inspect runs").add_subparsers(dest="runs", required=True)
    ls = with_db(runs.add_parser("list", help="list runs, newest first"))
    ls.add_argument("--status")
    ls.add_argument("--limit", type=int, default=50)
    ls.add_argument("--json", action="store_true")
    show = with_db(runs.add_parser("show", help="a run and its decoded journal"))
    show.add_argument("run_id")
    show.add_argument("--json", action="store_true")
    migrate = sub.add_parser("migrate", help="create or upgrade a store's schema")
    migrate.add_argument("url")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tether` command."""
    args = _parser().parse_args(argv)
    try:
        return asyncio.run(_dispatch(args))
    except TetherError as exc:
        print(f"tether: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


async def _dispatch(args: argparse.Namespace) -> int:
    from ..stores import open_backend

    if args.command == "demo":
        if args.engine:
            from ._demo_engine import run_engine_demo

            return await run_engine_demo()
        from ._demo import run_demo

        return await run_demo()
    if args.command == "migrate":
        async with open_backend(args.url):
            print(f"migrated {args.url}")
        return 0
    if args.command == "worker":
        return await _worker(args)
    async with open_backend(_url(args), migrate=False) as backend:
        from ._runs import list_runs, show_run

        if args.runs == "list":
            return await list_runs(backend, args.status, args.limit, args.json)
        return await show_run(backend, args.run_id, args.json)


async def _worker(args: argparse.Namespace) -> int:
    from ..durable import Worker
    from ..stores import open_backend

    registry, what = _load_registry(str(args.target))
    async with open_backend(_url(args)) as backend:
        print(
            f"tether worker: {what}, deployment {registry.deployment!r}, workflows "
            f"{registry.names()}, store {backend.url}",
            flush=True,
        )
        await Worker(backend, registry, concurrency=args.concurrency).run_forever()
    return 0


def _load_registry(target: str) -> tuple[Any, str]:
    """The `Registry` a `MODULE:ATTR` names: a Registry, an `Agents`, or an `AgentHost`."""
    from ..agent import AgentHost, Agents
    from ..durable import Registry
    from ..errors import ConfigurationError

    module_name, _, attr = target.partition(":")
    if not attr:
        raise ConfigurationError(
            f"{target!r}: write MODULE:ATTR, e.g. app.flows:registry or app.agents:agents"
        )
    sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigurationError(f"cannot import {module_name!r}: {exc}") from exc
    value: Any = getattr(module, attr, None)
    if isinstance(value, Registry):
        return value, "workflows"
    if isinstance(value, Agents | AgentHost):
        agents = value if isinstance(value, Agents) else value.agents
        return agents.registry, f"agents {agents.names()}"
    raise ConfigurationError(
        f"{target!r} is {type(value).__name__}, not a tether.Registry, tether.agent.Agents "
        "or tether.agent.AgentHost"
    )
