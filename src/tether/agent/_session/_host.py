"""`AgentHost`: agents on a backend; opens, finds and lists sessions; makes workers."""

from __future__ import annotations

import hmac
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..._ids import new_ulid
from ..._validate import check_duration, check_labels
from ...durable import ChainInfo, Client, Worker
from ...errors import (
    ConfigurationError,
    ConflictError,
    ContentDeletedError,
    NotFoundError,
    SessionClosedError,
    SessionStrandedError,
    StateConflictError,
)
from ...stores import Backend, Page
from .._agent import Agent, Retention, TurnPolicy, check_retention
from .._context._values import declared_state
from .._records._attachments import Attachment
from .._records._budget import Budget, BudgetScope, BudgetStatus
from .._records._keys import messages_lane
from .._records._state import RUN_ENDINGS, SessionInfo, SessionState, SessionStatus
from .._records._usage import Price, RecordedCall
from .._records._usage_report import PAGE, UsageReport, check_window, usage_report
from .._registry import SESSION_WORKFLOW, Agents
from .._stored._erasure import ERASED_OWNER_LABEL, SessionErasure, erased_note, owner_digest
from .._stored._labels import label_sessions, session_labels, user_labels
from .._stored._progress import STUCK_AFTER, SessionProgress, read_progress
from .._stored._sweep import DEFAULT_SWEEP_INTERVAL, InboxSweep
from .._turn._parked_gauge import sample_parked_inputs
from ._audience import (
    Audience,
    Environment,
    check_audience,
    check_environment,
    default_retention,
    environment_from,
)
from ._budget_ops import Budgets
from ._inbox import Inbox
from ._session import Session, session_run_id

__all__ = ["AgentHost", "address_session_id"]

log = logging.getLogger("tether.agent")


def address_session_id(agent_name: str, address: str) -> str:
    """The id of the session that owns `address` for an agent."""
    return f"{agent_name}@{address}"


async def session_infos(host: AgentHost, chains: Sequence[ChainInfo]) -> list[SessionInfo]:
    """The `SessionInfo` of each session chain (chains that are not sessions left out).

    What each row needs came with its chain (the first run's input, the current run):
    what is left is whether each open session has a turn in progress or a message
    waiting, one read of the ledger for the whole page.
    """
    rows: list[tuple[str, str, Any, ChainInfo]] = []
    for chain in chains:
        args = chain.input.args
        if len(args) < 2:
            continue  # not a session, or one whose identity was erased
        rows.append((str(args[0]), str(args[1]), args[2] if len(args) > 2 else None, chain))
    # A session moved (or reset) goes on in its chain's current run.
    open_lanes = [
        messages_lane(agent, session)
        for agent, session, _, chain in rows
        if chain.current.status not in RUN_ENDINGS
    ]
    busy: set[str] = set()
    if open_lanes:
        unsettled = await host.backend.stores.submissions.list_unsettled_submissions(open_lanes)
        busy = {sub.session_key for sub in unsettled}
    infos: list[SessionInfo] = []
    for agent, session, owner, chain in rows:
        run = chain.current
        status = RUN_ENDINGS.get(run.status)
        if status is None:
            status = "running" if messages_lane(agent, session) in busy else "idle"
        infos.append(
            SessionInfo(
                session_id=session,
                agent_name=agent,
                owner=owner,
                status=status,
                created_at=run.created_at.timestamp(),
                updated_at=run.updated_at.timestamp(),
            )
        )
    return infos


class AgentHost:
    """Agents on a backend: the same object serves clients and workers.

    Args:
        backend: An open backend.
        agents: An `Agents` registry, or the agents themselves.
        deployment: The deployment version when `agents` is a plain list (default
            ``"agents"``); with an `Agents` object it must match its deployment or be
            left out.
        environment: ``"development"`` or ``"production"``: with a session's audience
            it decides the retention of sessions nobody set one for (`open_session`).
            Default ``TETHER_ENV`` from `env`, else ``"development"``.
        env: Where to read ``TETHER_ENV`` (default `os.environ`).

    Raises:
        ConfigurationError: No agent, a deployment that contradicts `agents`, or an
            environment (or ``TETHER_ENV``) that is neither.
    """

    def __init__(
        self,
        backend: Backend,
        agents: Agents | Iterable[Agent],
        *,
        deployment: str | None = None,
        environment: Environment | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.environment: Environment = (
            environment_from(os.environ if env is None else env)
            if environment is None
            else check_environment(environment)
        )
        if isinstance(agents, Agents):
            if deployment is not None and deployment != agents.deployment:
                raise ConfigurationError(
                    f"deployment {deployment!r} contradicts the Agents object's "
                    f"{agents.deployment!r}; leave it out or build Agents with it"
                )
            self.agents = agents
        else:
            self.agents = Agents(agents, deployment=deployment or "agents")
        self.backend = backend
        self.registry = self.agents.registry
        self.client = Client(backend, registry=self.registry)

    def worker(
        self, *, inbox_sweep: float | None = DEFAULT_SWEEP_INTERVAL, **options: Any
    ) -> Worker:
        """A worker that runs this host's sessions (options as for `tether.Worker`).

        While it runs, a message that wakes an idle session runs it on this worker at
        once, claimed in the message's own write, with no trip through the queue (when
        the worker has a free slot): this host's client is its `Worker.wake_client`.

        Args:
            inbox_sweep: Seconds between two sweeps of its sessions' inboxes (see
                `InboxSweep`): a message admitted that long ago that nothing would take
                is logged and its session's inbox rung. None: no sweep.
            **options: As for `tether.Worker`.
        """
        if inbox_sweep is not None:
            sweep = InboxSweep(
                self.backend.stores,
                self.agents.names(),
                self.session_progress,
                self._ring,
                interval=check_duration(inbox_sweep, what="inbox_sweep", positive=True),
            )
            options["background"] = (*options.get("background", ()), sweep.run)
        made: list[Worker] = []
        options["background"] = (
            *options.get("background", ()),
            lambda: sample_parked_inputs(made[0].wake_client),
        )
        worker = Worker(self.backend, self.registry, **options)
        made.append(worker)
        self.client = worker.wake_client
        return worker

    async def open_session(
        self,
        agent: str | Agent,
        *,
        session_id: str | None = None,
        owner: str | None = None,
        retention: Retention | None = None,
        audience: Audience = "unknown",
        labels: Mapping[str, str] | None = None,
    ) -> Session:
        """Open a session, or return the existing one with the same id.

        Args:
            agent: The agent (or its name).
            session_id: The session's id; default a new one. Opening the same id again
                returns that session.
            owner: Who the session belongs to (`list_sessions` filters by it). It is
                also the session run's ``tether.owner`` label, stored in clear.
            retention: Overrides the agent's `retention` for this session.
            audience: Who the session is for: ``"public"``, ``"private"`` or
                ``"unknown"`` (default). When neither `retention` nor the agent's is
                set, it decides with the host's `environment`: private and unknown
                sessions in production get ``0``, every other ``"default"``
                (`default_retention`). Recorded with the session when it opens; opening
                an existing session changes nothing.
            labels: More labels of the session's run (clear-text metadata that
                `Client.page_runs(labels=...)` filters on); keys starting ``tether.``
                are tether's own and refused.

        Raises:
            ConfigurationError: The agent is not served, or a bad retention or
                audience.
            InvalidInputError: An invalid label, a ``tether.`` key, or an owner that
                cannot be a label value (empty, a NUL character, over 512 bytes).
            ConflictError: The id names a session of another agent or another owner.
            StateConflictError: The agent's tools declare a state key differently
                (nothing is opened).
        """
        name = agent.name if isinstance(agent, Agent) else agent
        served = self.agents.get(name)
        audience = check_audience(audience)
        declared_state(served).require()
        extra = user_labels(labels)
        own = session_labels(name, owner)
        if session_id is not None and (not isinstance(session_id, str) or not session_id):
            raise ConfigurationError(f"session_id must be a non-empty string, not {session_id!r}")
        session_id = session_id or new_ulid("ses_")
        run_id = session_run_id(session_id)
        try:
            existing = await self.client.get(run_id)
        except NotFoundError:
            existing = None
        if existing is not None:
            found = await self._session_of(run_id, session_id)
            if found.agent_name != name or found.owner != owner:
                raise ConflictError(
                    f"session {session_id!r} exists for agent {found.agent_name!r} and owner "
                    f"{found.owner!r}, not agent {name!r} and owner {owner!r}"
                )
            return found
        # Decided once, here: the session's run records it in its input, which every
        # run of its chain (hand-offs, compactions, resets) takes from the first.
        chosen = check_retention(
            retention
            if retention is not None
            else served.retention
            if served.retention is not None
            else default_retention(audience, self.environment)
        )
        handle = await self.client.start(
            SESSION_WORKFLOW, name, session_id, owner, chosen, run_id=run_id, labels=extra | own
        )
        session = Session(self, name, session_id, handle.run_id, owner=owner)
        session.started(handle)
        return session

    async def send_to_address(
        self,
        agent: str | Agent,
        address: str,
        text: str,
        *,
        owner: str | None = None,
        principal: str | None = None,
        client_message_id: str | None = None,
        turn_policy: TurnPolicy | None = None,
        attachments: Sequence[Attachment | str] = (),
    ) -> tuple[Session, str]:
        """Send to the live session that owns a channel address, opening one if none does.

        An address (a Slack thread, a support case: any string) is owned by exactly one
        live session of the agent: its session id is the address's
        (`address_session_id`), so clients racing to start it open the same session and
        every message lands there, once, in arrival order. The address stays owned
        across the session's moves (a deploy, a compaction). When the session ended or
        is stranded, the message resets it: a new session opens at the same address and
        knows its predecessor (`Session.reset`, `Session.predecessor`). `attachments`
        are files attached to the address's session (`Session.attach`; they stay with
        its id across a reset).

        Returns:
            The session and the message's submission id.

        Raises:
            ConflictError: The address's session belongs to another owner.
            ConfigurationError: A bad argument (nothing is admitted).
        """
        if not isinstance(address, str) or not address:
            raise ConfigurationError(f"address must be a non-empty string, not {address!r}")
        name = agent.name if isinstance(agent, Agent) else agent
        session = await self.open_session(
            name, session_id=address_session_id(name, address), owner=owner
        )
        try:
            return session, await session.send(
                text,
                client_message_id=client_message_id,
                principal=principal,
                turn_policy=turn_policy,
                attachments=attachments,
            )
        except (SessionStrandedError, SessionClosedError):
            fresh = await session.reset(principal=principal)
            return fresh, await fresh.send(
                text,
                client_message_id=client_message_id,
                principal=principal,
                turn_policy=turn_policy,
                attachments=attachments,
            )

    async def session_progress(
        self,
        session_id: str,
        *,
        stuck_after: float = STUCK_AFTER,
        state: SessionState | None = None,
    ) -> SessionProgress:
        """Why the session is or is not moving, for an operator (see `SessionProgress`).

        Tells a slow turn (a worker holds the run: which, the step, for how long) from
        a wait for someone (an answer, a timer) and from a lost message (admitted, and
        nothing will wake the run to take it).

        Args:
            session_id: The session.
            stuck_after: Seconds a message may wait with nothing to wake its run
                before it counts as ``stuck`` (until then its ring may be on its way).
            state: The session's `Session.state`, when the caller has just read it:
                saves reading the session's events again.

        Raises:
            NotFoundError: No session has this id.
        """
        session = await self.get_session(session_id)
        if state is None:
            state = await session.state()
        return await read_progress(
            self.client,
            self.backend.stores,
            session.agent_name,
            session.session_id,
            session.run_id,
            state,
            stuck_after=stuck_after,
        )

    async def _ring(self, agent_name: str, session_id: str) -> None:
        """Ring a session's inbox: its run wakes and reads its ledger."""
        inbox = Inbox(self, agent_name, session_id, session_run_id(session_id))
        token = await inbox.token()
        if token is not None:
            try:
                await self.client.resume_hook(token, {"ring": True})
            except NotFoundError:
                pass  # the run ended (or moved on) meanwhile: nothing to wake

    async def get_session(self, session_id: str) -> Session:
        """The session with this id.

        Raises:
            NotFoundError: No session has this id.
        """
        return await self._session_of(session_run_id(session_id), session_id)

    async def _session_of(self, run_id: str, session_id: str) -> Session:
        handle = await self.client.get(run_id)
        args = (await handle.input()).args
        if len(args) < 2:
            erased = await erased_note(self.backend.stores, run_id)
            if erased is not None:
                raise ContentDeletedError(
                    f"session {session_id!r} was {erased}: who it belonged to is unreadable "
                    "too; its run's id, timestamps and status remain"
                )
            raise NotFoundError(f"no session {session_id!r}: run {run_id!r} is not a session")
        owner = args[2] if len(args) > 2 else None
        return Session(self, str(args[0]), session_id, run_id, owner=owner)

    async def erased_session_owned_by(self, session_id: str, owner: str | None) -> bool:
        """Whether session `session_id` was erased and belonged to `owner`.

        On an encrypted store erasure (and retention ``0``) destroys a session's
        identity, owner included (`get_session` raises `ContentDeletedError`); its run
        keeps a one-way digest of the owner, salted with the session's id, so the owner
        can still be told the session expired while the store does not say whose it was.
        """
        try:
            info = await (await self.client.get(session_run_id(session_id), follow=False)).info()
        except NotFoundError:
            return False
        kept = info.labels.get(ERASED_OWNER_LABEL)
        return kept is not None and hmac.compare_digest(kept, owner_digest(session_id, owner))

    async def list_sessions(
        self,
        *,
        owner: str | None = None,
        agent: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
        status: SessionStatus | None = None,
    ) -> Page[SessionInfo]:
        """Sessions, newest first, optionally of one owner or agent.

        The store finds them by their runs' labels (``tether.owner``, ``tether.agent``),
        so a page reads its own sessions only, never other owners'. Sessions opened
        before labels existed are listed by owner or agent once labeled (``tether
        migrate`` or `label_sessions`). An erased session of an encrypted store lost
        its labels with its identity and is not listed. A page takes the same few
        queries whatever its size or depth: its cursor is the key of the last session
        listed, and sessions opened meanwhile land before the first page.

        Args:
            owner: Only sessions opened with this owner.
            agent: Only sessions of this agent.
            limit: At most this many per page.
            cursor: The `next_cursor` of the previous page (a row count, the cursor of
                earlier releases, skips that many sessions).
            labels: Only sessions whose run carries every one of these labels (those
                `open_session` was given, say).
            status: Only sessions in this status (``idle``, ``running``, ``closed``,
                ``failed``, ``cancelled``). The store cannot filter on it: pages are
                read until this one is full or the sessions run out.

        Raises:
            ConfigurationError: `limit` is below 1.
            InvalidInputError: `owner` cannot be a label value, or `cursor` is not a
                cursor a listing returned.
        """
        if limit < 1:
            raise ConfigurationError(f"limit must be at least 1, not {limit}")
        wanted = {**session_labels(agent, owner), **check_labels(labels, what="session")}
        found: list[SessionInfo] = []
        # One page of chains (their current runs and inputs with them) and one read of
        # the ledger: a page's reads do not grow with its size. A chain that is not a
        # session is left out, and the next page fills the gap (rarely needed: labels
        # match sessions only).
        while len(found) < limit:
            page = await self.client.page_chains(
                workflow=SESSION_WORKFLOW,
                limit=limit - len(found),
                cursor=cursor,
                labels=wanted or None,
            )
            for info in await session_infos(self, page.items):
                if (
                    (owner is None or info.owner == owner)
                    and (agent is None or info.agent_name == agent)
                    and (status is None or info.status == status)
                ):
                    found.append(info)
            cursor = page.next_cursor
            if cursor is None:
                break
        return Page(items=tuple(found), next_cursor=cursor)

    async def usage(
        self,
        *,
        since: float | None = None,
        until: float | None = None,
        owner: str | None = None,
        agent: str | None = None,
        labels: Mapping[str, str] | None = None,
        prices: Mapping[str, Price] | None = None,
    ) -> UsageReport:
        """Token usage and cost across sessions, per tenant, agent and model.

        Sums the calls whose replies were recorded in ``[since, until)`` (Unix
        seconds; None leaves that end open) of the sessions `list_sessions` lists with
        `owner`, `agent` and `labels`, at `prices` (default `Agents.prices`). It reads
        those sessions' events: narrow it by owner or agent on a large deployment.

        Raises:
            InvalidInputError: `since` or `until` is not a time, or a filter
                `list_sessions` refuses.
        """
        start, end = check_window(since, until)

        async def page(cursor: str | None) -> Page[SessionInfo]:
            return await self.list_sessions(
                owner=owner, agent=agent, labels=labels, limit=PAGE, cursor=cursor
            )

        async def calls(info: SessionInfo) -> list[RecordedCall]:
            # Not `self.session`: a session of an agent this host no longer serves counts.
            run_id = session_run_id(info.session_id)
            return await Session(self, info.agent_name, info.session_id, run_id).calls()

        table = self.agents.prices if prices is None else prices
        return await usage_report(page, calls, since=start, until=end, prices=table)

    async def label_sessions(self) -> int:
        """Label the sessions opened before run labels existed (``tether migrate`` does).

        Reads each unlabeled session run's input (with the backend's keys) and gives
        it the ``tether.agent`` and ``tether.owner`` labels `list_sessions` filters
        on. Idempotent; erased sessions stay unlabeled.

        Returns:
            How many session runs it labeled.
        """
        return await label_sessions(self.backend)

    async def hand_off_sessions(self) -> list[str]:
        """Move every idle session built by other versions to this host's deployment now.

        What a session's next message would do (`Session.hand_off`), ahead of it: run
        it after starting the new code's workers. Busy sessions (a turn running or
        parked, sub-agents) stay; run it again later, or let their next message move
        them once idle.

        Returns:
            The ids of the sessions it moved.
        """
        moved: list[str] = []
        cursor: str | None = None
        while True:
            page = await self.list_sessions(limit=100, cursor=cursor)
            for info in page.items:
                if info.status in ("closed", "failed", "cancelled"):
                    continue
                session = await self.get_session(info.session_id)
                try:
                    if await session.hand_off():
                        moved.append(info.session_id)
                except StateConflictError as exc:
                    log.warning("session handoff failed: session %r: %s", info.session_id, exc)
            cursor = page.next_cursor
            if cursor is None:
                return moved

    def session(self, agent: str, session_id: str) -> Session:
        """A handle to a session (no I/O; the session need not exist yet)."""
        self.agents.get(agent)
        return Session(self, agent, session_id, session_run_id(session_id))

    async def budget(self, scope: BudgetScope | str) -> BudgetStatus | None:
        """The budget of `scope` (a `BudgetScope` or its key) as it stands; None: none."""
        return await self._budget_ops().get(scope)

    async def set_budget(self, scope: BudgetScope | str, budget: Budget) -> BudgetStatus:
        """Put the budget of `scope`: create it, or change its limits (usage stays).

        ``AgentHost.set_budget(BudgetScope.tenant("acme"), Budget(tokens=1_000_000))``
        limits every session opened with ``owner="acme"``. Turns waiting on it are
        woken (they check again).

        Raises:
            BudgetError: Not a `Budget`, or one with an ``estimate`` (an agent's).
        """
        return await self._budget_ops().set(scope, budget)

    async def raise_budget(
        self, scope: BudgetScope | str, *, tokens: int | None = None, cost: float | None = None
    ) -> BudgetStatus:
        """Raise the limits of `scope` to `tokens` and `cost` (None keeps one).

        Every turn parked on this budget is woken: it reserves again and goes on (or
        parks again, if there is still no room). The same raise again changes nothing.

        Raises:
            BudgetError: No such budget, no limit given, or one lower than it is.
        """
        return await self._budget_ops().raise_(scope, tokens=tokens, cost=cost)

    def _budget_ops(self) -> Budgets:
        async def answer(agent: str, session_id: str, request_id: str, value: object) -> None:
            inbox = Inbox(self, agent, session_id, session_run_id(session_id))
            await inbox.answer(request_id, value, None)

        return Budgets(self.backend.stores.budgets, self.agents, answer)

    async def erase_session(self, agent: str, session_id: str) -> SessionErasure:
        """Erase a session now: crypto-shred its content, then delete what can be deleted.

        With encryption on, the session's data keys are destroyed first, in one
        transaction: its transcript, events, step inputs and outputs, ledger messages,
        attachments and sub-agent runs become unreadable everywhere, backups of the data
        included (backups holding the keyring too once the next key epoch completed:
        `tether keys rotate --after-erasures`), and reading them raises
        `ContentDeletedError`. An erasure record in
        the keyring says what was erased and when. A session still running is
        cancelled first and waited for (up to 30 s), so nothing it writes lands after.
        Ids, timestamps, statuses and names remain; on an encrypted store the session's
        owner is erased too (`get_session` then raises `ContentDeletedError`,
        `list_sessions` leaves it out).

        Raises:
            ConfigurationError: The agent is not served.
            NotFoundError: No such session.
        """
        return await self.session(agent, session_id).erase()
