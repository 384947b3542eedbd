"""The `tether` command: demo, worker, serve, sessions, usage, dev, runs, prune, and more."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any, get_args

from .. import __version__
from ..errors import TetherError
from ..stores import RunStatus
from ._format import printable
from ._runs_args import add_runs_parser

__all__ = ["main"]

DEFAULT_URL = "sqlite://"
RUN_STATUSES: tuple[str, ...] = get_args(RunStatus)


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
    worker.add_argument(
        "--cached-runs",
        type=int,
        default=None,
        metavar="N",
        help="parked runs kept warm in memory, to go on without a replay (default 256; 0: none)",
    )
    worker.add_argument(
        "--deployment",
        metavar="NAME",
        help="serve this deployment instead of the one the registry declares",
    )
    worker.add_argument(
        "--import-path",
        metavar="DIR",
        help="import MODULE from DIR, ahead of the current directory (tether dev's snapshots)",
    )
    dev = with_db(
        sub.add_parser(
            "dev",
            help="run MODULE:ATTR's workers, a new generation on every code change; runs "
            "in flight keep the code they started with",
        )
    )
    dev.add_argument("target", metavar="MODULE:ATTR")
    dev.add_argument(
        "--resume",
        action="store_true",
        help="recover the unfinished runs of earlier generations (default: leave them dormant)",
    )
    dev.add_argument(
        "--poll", type=float, default=0.3, help="seconds between looks at the code (default 0.3)"
    )
    dev.add_argument("--keep-minutes", type=float, default=30.0, help=argparse.SUPPRESS)
    dev.add_argument("--keep-last", type=int, default=5, help=argparse.SUPPRESS)
    check = with_db(
        sub.add_parser(
            "check-deploy",
            help="replay every unfinished run against MODULE:ATTR's code, writing nothing; "
            "exit 1 if the new code would fail any",
        )
    )
    check.add_argument("target", metavar="MODULE:ATTR")
    check.add_argument(
        "--deployment",
        action="append",
        metavar="NAME",
        help="only runs built by this deployment (repeatable; default every unfinished run)",
    )
    check.add_argument("--json", action="store_true")
    check.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        help="seconds one run's replay may take before it is reported as blocked",
    )
    add_runs_parser(sub, with_db, RUN_STATUSES)
    schedules = sub.add_parser("schedules", help="list, pause, resume or trigger schedules")
    s_verbs = schedules.add_subparsers(dest="schedules", required=True)
    s_ls = with_db(s_verbs.add_parser("list", help="every schedule, its last and next tick"))
    s_ls.add_argument("--json", action="store_true")
    for verb, what in (
        ("pause", "stop starting its ticks"),
        ("resume", "start its ticks again, from now"),
        ("trigger", "start a run of it now, once"),
    ):
        with_db(s_verbs.add_parser(verb, help=what)).add_argument("name")
    prune = with_db(
        sub.add_parser(
            "prune",
            help="delete now the content of runs and sessions that ended longer ago than "
            "the retention period",
        )
    )
    prune.add_argument(
        "--older-than",
        metavar="DURATION",
        help="the period, e.g. 30d, 12h or seconds (default: the store's, $TETHER_RETENTION)",
    )
    prune.add_argument(
        "--batch-size", type=int, default=100, metavar="N", help="runs per batch (default 100)"
    )
    prune.add_argument(
        "--max-batches", type=int, default=None, metavar="N", help="stop after N batches"
    )
    prune.add_argument(
        "--dry-run", action="store_true", help="delete nothing; list what would be deleted"
    )
    prune.add_argument("--json", action="store_true")
    migrate = sub.add_parser("migrate", help="create or upgrade a store's schema")
    migrate.add_argument("url")
    migrate.add_argument(
        "--runtime-role",
        metavar="ROLE",
        help="Postgres: grant ROLE the least privileges workers and servers need",
    )
    keys = sub.add_parser("keys", help="encryption keys").add_subparsers(dest="keys", required=True)
    init = keys.add_parser("init", help="create a key file (mode 0600)")
    init.add_argument("--key-file", default=None, help="default: $TETHER_KEY_FILE or .tether/key")
    keys.add_parser("generate", help="print a new random key for TETHER_KEY")
    rotate = with_db(keys.add_parser("rotate", help="re-wrap every data key under the current key"))
    rotate.add_argument("--key-file", default=None, help="default: $TETHER_KEY_FILE or .tether/key")
    rotate.add_argument(
        "--new-key", action="store_true", help="first add a new current key to the key file"
    )
    rotate.add_argument(
        "--retire",
        action="store_true",
        help="then drop from the key file the keys no data key of this store uses",
    )
    rotate.add_argument(
        "--after-erasures",
        action="store_true",
        help="if a session was erased since the last key epoch: a new key, every data key "
        "re-wrapped, the old keys dropped (erasures then hold against keyring backups); "
        "else nothing (run it on a schedule)",
    )
    serve = with_db(
        sub.add_parser(
            "serve", help="serve MODULE:ATTR's agents over HTTP (and run a worker in-process)"
        )
    )
    serve.add_argument("target", metavar="MODULE:ATTR")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--no-worker", action="store_true", help="serve the API only (workers run elsewhere)"
    )
    serve.add_argument("--concurrency", type=int, default=None, help="the worker's concurrency")
    serve.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let pages of ORIGIN (https://app.example.com; '*' for any, without "
        "credentials) call the API from a browser; repeatable",
    )
    serve.add_argument(
        "--operator",
        action="append",
        default=[],
        metavar="ID@TENANT",
        help="let this principal use the deployment's routes (/v1/schedules); repeatable, "
        "added to $TETHER_SERVER_OPERATORS",
    )
    serve.add_argument(
        "--trace-url",
        default=None,
        metavar="URL",
        help="the inspector links a run to its trace here: a tracing UI's URL with "
        "{trace_id} in it (http://jaeger:16686/trace/{trace_id})",
    )
    serve.add_argument(
        "--metrics",
        action="store_true",
        help="serve tether's metrics as Prometheus text on GET /metrics (authenticated; "
        "needs tether[otel])",
    )
    sessions = sub.add_parser("sessions", help="a client of sessions: a server or a store")
    verbs = sessions.add_subparsers(dest="sessions", required=True)

    def client(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--server", help="server URL (default: $TETHER_SERVER_URL)")
        p.add_argument("--token", help="bearer token (default: $TETHER_TOKEN)")
        p.add_argument("--db", help="read and write a store directly instead (with --app)")
        p.add_argument("--app", help="MODULE:ATTR of the agents, for --db")
        return p

    s_list = client(verbs.add_parser("list", help="the sessions, newest first"))
    s_list.add_argument("--json", action="store_true")
    s_show = client(verbs.add_parser("show", help="a session's state and pending requests"))
    s_show.add_argument("session_id")
    s_show.add_argument("--json", action="store_true")
    s_usage = client(verbs.add_parser("usage", help="a session's token usage and cost"))
    s_usage.add_argument("session_id")
    s_usage.add_argument("--json", action="store_true")
    s_budget = client(
        verbs.add_parser("budget", help="a session's budget; --raise-tokens/--raise-cost raise it")
    )
    s_budget.add_argument("session_id")
    s_budget.add_argument("--raise-tokens", type=int, default=None, metavar="N")
    s_budget.add_argument("--raise-cost", type=float, default=None, metavar="X")
    s_budget.add_argument("--json", action="store_true")
    s_state = client(verbs.add_parser("state", help="a session's declared state (its values)"))
    s_state.add_argument("session_id")
    s_state.add_argument("--json", action="store_true")
    s_fork = client(verbs.add_parser("fork", help="a new session with one's history to a turn"))
    s_fork.add_argument("session_id")
    point = s_fork.add_mutually_exclusive_group()
    point.add_argument("--at", type=int, default=None, help="ended turns kept (default all)")
    point.add_argument("--at-event", type=int, default=None, help="an event index (its turn)")
    s_fork.add_argument("--session-id", dest="new_id", default=None, help="the fork's id")
    s_fork.add_argument("--json", action="store_true")
    s_send = client(verbs.add_parser("send", help="send a message (opens the session)"))
    s_send.add_argument("session_id")
    s_send.add_argument("text")
    s_send.add_argument("--client-message-id", default=None)
    s_send.add_argument("--follow", action="store_true", help="render the turn until it ends")
    s_send.add_argument(
        "--file",
        action="append",
        default=[],
        metavar="PATH[:MIME]",
        help="attach a file (repeatable); its type is guessed from its name unless given",
    )
    s_answer = client(verbs.add_parser("answer", help="answer an input request"))
    s_answer.add_argument("session_id")
    s_answer.add_argument("request_id")
    s_answer.add_argument(
        "answer",
        help='e.g. approve, deny, p1, {"cancelled": true} or {"authorized": true}',
    )
    s_follow = client(verbs.add_parser("follow", help="render a session's events live"))
    s_follow.add_argument("session_id")
    s_follow.add_argument("--start", type=int, default=0, help="negative: from the tail")
    s_follow.add_argument("--no-follow", action="store_true", help="print what is there")
    usage = client(
        sub.add_parser(
            "usage",
            help="token usage and cost across sessions, per tenant, agent and model "
            "(an operator's, through a server)",
        )
    )
    when = "ISO 8601 (UTC unless it says), Unix seconds, or a span back from now (24h, 7d)"
    usage.add_argument("--since", metavar="WHEN", help=f"calls from then on: {when}")
    usage.add_argument("--until", metavar="WHEN", help=f"calls before then: {when}")
    usage.add_argument("--tenant", help="only this tenant's sessions (their owner)")
    usage.add_argument("--agent", help="only this agent's sessions")
    usage.add_argument("--label", action="append", default=[], metavar="KEY=VALUE")
    usage.add_argument(
        "--by",
        choices=("tenant", "agent", "model"),
        default=None,
        help="one line per tenant, agent or model (default: one per tenant, agent and model)",
    )
    usage.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tether` command."""
    args = _parser().parse_args(argv)
    try:
        return asyncio.run(_dispatch(args))
    except TetherError as exc:
        # One line, with whatever the message quotes from data escaped.
        print(f"tether: error: {printable(str(exc))}", file=sys.stderr)
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
        from ..agent import label_sessions
        from ._terminal import progress, spinner

        async with contextlib.AsyncExitStack() as stack:
            with spinner(f"migrating {args.url}"):
                backend = await stack.enter_async_context(open_backend(args.url))
            print(f"migrated {args.url}", flush=True)
            # Sessions opened before run labels existed get theirs (idempotent).
            with progress("session runs checked for labels") as done:
                labeled = await label_sessions(backend, on_progress=done)
            if labeled:
                print(f"labeled {labeled} session run(s) opened before run labels existed")
            if args.runtime_role:
                from ..stores.postgres import grant_runtime_role

                await grant_runtime_role(backend, args.runtime_role)
                print(f"granted role {args.runtime_role!r} the runtime privileges")
        return 0
    if args.command == "prune":
        from ._prune import prune_command

        # Migrated first (the sweep's index), as a worker of this version would.
        async with open_backend(_url(args)) as backend:
            return await prune_command(
                backend,
                older_than=args.older_than,
                batch_size=args.batch_size,
                max_batches=args.max_batches,
                dry_run=args.dry_run,
                as_json=args.json,
            )
    if args.command == "keys":
        from ._keys import keys_command

        return await keys_command(args, _url(args) if args.keys == "rotate" else "")
    if args.command == "worker":
        return await _worker(args)
    if args.command == "serve":
        from ._serve import serve

        return await serve(
            _load_agents(str(args.target)),
            _url(args),
            host=args.host,
            port=args.port,
            worker=not args.no_worker,
            concurrency=args.concurrency,
            cors_origins=tuple(args.cors_origin),
            metrics=args.metrics,
            operators=tuple(args.operator),
            trace_url=args.trace_url,
        )
    if args.command == "sessions":
        return await _sessions(args)
    if args.command == "usage":
        return await _usage(args)
    if args.command == "dev":
        from ._dev import DevOptions, run_dev

        registry, _, agents = _load_app(str(args.target))
        return await run_dev(
            DevOptions(
                agents=agents,
                target=str(args.target),
                url=_url(args),
                deployment=registry.deployment,
                resume=bool(args.resume),
                poll=float(args.poll),
                keep_seconds=float(args.keep_minutes) * 60.0,
                keep_last=int(args.keep_last),
            )
        )
    if args.command == "check-deploy":
        from ._check_deploy import check_deploy

        registry, _ = _load_registry(str(args.target))
        async with open_backend(_url(args), migrate=False) as backend:
            return await check_deploy(
                backend,
                registry,
                deployments=args.deployment,
                as_json=args.json,
                timeout=args.timeout,
            )
    if args.command == "schedules":
        from ._schedules import control_schedule, list_schedules

        async with open_backend(_url(args), migrate=False) as backend:
            if args.schedules == "list":
                return await list_schedules(backend, args.json)
            return await control_schedule(backend, args.schedules, args.name)
    registry = None if getattr(args, "app", None) is None else _load_registry(args.app)[0]
    async with open_backend(_url(args), migrate=False) as backend:
        from ._run_ops import run_op
        from ._runs import fork_run, list_runs, show_run

        if args.runs in ("step", "streams", "cancel"):
            return await run_op(backend, args)
        if args.runs == "list":
            return await list_runs(backend, args.status, args.limit, args.json)
        if args.runs in ("fork", "resume"):
            return await fork_run(backend, registry, args)
        return await show_run(backend, args.run_id, args.json)


def _import_failure(exc: Exception) -> str:
    """``Type: message (file, line N)`` for the frame of the user's module that failed."""
    where = ""
    if isinstance(exc, SyntaxError):
        where = f" ({exc.filename}, line {exc.lineno})"
        text = f"{type(exc).__name__}: {exc.msg}"
    else:
        frames = traceback.extract_tb(exc.__traceback__)
        own = [f for f in frames if "importlib" not in f.filename]
        if own:
            where = f" ({own[-1].filename}, line {own[-1].lineno})"
        try:
            text = f"{type(exc).__name__}: {exc}"
        except Exception:
            text = f"{type(exc).__name__} (its message cannot be printed)"
    return " ".join(text.split()) + where


async def _worker(args: argparse.Namespace) -> int:
    from ..durable import Registry, Worker
    from ..stores import open_backend
    from ._dev import die_with_parent

    die_with_parent()  # a `tether dev` generation's worker: it goes when its supervisor does

    registry, what = _load_registry(str(args.target), import_path=args.import_path)
    if args.deployment is not None:
        # This process serves another deployment of the same code (a dev generation).
        registry.deployment = Registry(deployment=args.deployment).deployment
    async with open_backend(_url(args)) as backend:
        print(
            f"tether worker: {what}, deployment {registry.deployment!r}, workflows "
            f"{registry.names()}, store {backend.url}",
            flush=True,
        )
        await Worker(
            backend, registry, concurrency=args.concurrency, cached_runs=args.cached_runs
        ).run_forever()
    return 0


async def _sessions(args: argparse.Namespace) -> int:
    from ..agent import AgentHost
    from ..stores import open_backend
    from ._sessions import sessions_client, sessions_command, store_sessions

    client, db = sessions_client(args, None)
    if client is not None:
        return await sessions_command(args, client)
    agents = _load_agents(str(args.app))
    async with open_backend(db or _url(args), migrate=False) as backend:
        return await sessions_command(args, store_sessions(AgentHost(backend, agents)))


async def _usage(args: argparse.Namespace) -> int:
    from ..agent import AgentHost
    from ..errors import ConfigurationError
    from ..stores import open_backend
    from ._usage import usage_command

    server = args.server or os.environ.get("TETHER_SERVER_URL")
    if server and not args.db:
        return await usage_command(args, None, server)
    if not args.app:
        raise ConfigurationError(
            "tether usage: give --server URL (or $TETHER_SERVER_URL) with an operator's "
            "--token, or --db URL with --app MODULE:ATTR (the agents)"
        )
    agents = _load_agents(str(args.app))
    async with open_backend(_url(args), migrate=False) as backend:
        return await usage_command(args, AgentHost(backend, agents))


def _load_agents(target: str) -> Any:
    """The `Agents` a `MODULE:ATTR` names (an `Agents` or an `AgentHost`)."""
    from ..agent import AgentHost, Agents
    from ..errors import ConfigurationError

    registry, _ = _load_registry(target)
    module_name, _, attr = target.partition(":")
    value = getattr(sys.modules[module_name], attr)
    if isinstance(value, AgentHost):
        value = value.agents
    if not isinstance(value, Agents):
        raise ConfigurationError(
            f"{target!r} is {type(value).__name__}, not a tether.agent.Agents or AgentHost"
        )
    assert value.registry is registry
    return value


def _load_registry(target: str, *, import_path: str | None = None) -> tuple[Any, str]:
    """The `Registry` a `MODULE:ATTR` names: a Registry, an `Agents`, or an `AgentHost`."""
    registry, what, _ = _load_app(target, import_path=import_path)
    return registry, what


def _load_app(target: str, *, import_path: str | None = None) -> tuple[Any, str, Any]:
    """`_load_registry`, and the `Agents` when the target is agents (else None)."""
    from ..agent import AgentHost, Agents
    from ..durable import Registry
    from ..errors import ConfigurationError

    module_name, _, attr = target.partition(":")
    if not attr:
        raise ConfigurationError(
            f"{target!r}: write MODULE:ATTR, e.g. app.flows:registry or app.agents:agents"
        )
    sys.path.insert(0, os.getcwd())
    if import_path is not None:
        sys.path.insert(0, os.path.abspath(import_path))
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        # The user's module failed, not tether: say where in one line, no traceback.
        raise ConfigurationError(f"cannot import {module_name!r}: {_import_failure(exc)}") from exc
    value: Any = getattr(module, attr, None)
    if isinstance(value, Registry):
        return value, "workflows", None
    if isinstance(value, Agents | AgentHost):
        agents = value if isinstance(value, Agents) else value.agents
        return agents.registry, f"agents {agents.names()}", agents
    raise ConfigurationError(
        f"{target!r} is {type(value).__name__}, not a tether.Registry, tether.agent.Agents "
        "or tether.agent.AgentHost"
    )
