"""`AgentHost` runs agents' sessions on a backend; `Session` is a client's handle."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from typing import Any

from .._ids import new_ulid
from ..durable import Client, Registry, Worker, WorkflowContext
from ..errors import ConfigurationError, ContentDeletedError, InputRequestError, NotFoundError
from ..stores import Backend, SubmissionInput, data_scope, run_scope
from ._agent import Agent
from ._erasure import SessionErasure, erase_session_content
from ._events import EVENTS_STREAM, SessionEvent, decode_event
from ._session import SESSION_WORKFLOW, TASK_WORKFLOW, inbox_token, run_session, run_task
from ._steps import SessionSteps
from ._transcript import Transcript, conversation_path
from .models import Model, resolve_model

__all__ = ["AgentHost", "Session"]


def _with_subagents(agents: Iterable[Agent]) -> list[Agent]:
    """The agents and, recursively, those their tools delegate to (`Agent.as_tool`)."""
    found: dict[str, Agent] = {}
    todo = list(agents)
    while todo:
        agent = todo.pop()
        if agent.name in found:
            continue
        found[agent.name] = agent
        for tool in agent.tools:
            sub = getattr(tool.fn, "__tether_agent__", None)
            if isinstance(sub, Agent):
                todo.append(sub)
    return list(found.values())


class AgentHost:
    """Hosts agents on a backend: the same object serves clients and workers.

    Construct it the same way in every process that sends messages or runs workers
    (it is the registry of the session workflow and of the agents' tools).

    Args:
        backend: An open backend.
        agents: The agents served.
        deployment: The deployment version session runs record; workers of another
            deployment do not replay them.
    """

    def __init__(
        self, backend: Backend, agents: Iterable[Agent], *, deployment: str = "agents"
    ) -> None:
        self.backend = backend
        self.agents = {a.name: a for a in _with_subagents(agents)}
        if not self.agents:
            raise ConfigurationError("AgentHost needs at least one agent")
        self.registry = Registry(deployment=deployment)
        self.registry.workflow(name=SESSION_WORKFLOW)(self._session_workflow)
        self.registry.workflow(name=TASK_WORKFLOW)(self._task_workflow)
        self.client = Client(backend, registry=self.registry)
        self._steps: dict[str, SessionSteps] = {}

    def _agent(self, name: str) -> Agent:
        try:
            return self.agents[name]
        except KeyError:
            raise ConfigurationError(
                f"no agent named {name!r} is hosted; hosted: {sorted(self.agents)}"
            ) from None

    def steps(self, agent_name: str) -> SessionSteps:
        """The step bodies of one agent (models resolved on first use)."""
        steps = self._steps.get(agent_name)
        if steps is None:
            agent = self._agent(agent_name)
            model: Model = resolve_model(agent.model)
            steps = self._steps[agent_name] = SessionSteps(self.backend.stores, agent, model)
        return steps

    async def _session_workflow(
        self, ctx: WorkflowContext, agent_name: str, session_id: str
    ) -> dict[str, Any]:
        return await run_session(ctx, self.steps(agent_name), session_id)

    async def _task_workflow(
        self, ctx: WorkflowContext, agent_name: str, session_id: str, task: str
    ) -> str:
        return await run_task(ctx, self.steps(agent_name), session_id, task)

    def worker(self, **options: Any) -> Worker:
        """A worker that runs this host's sessions (options as for `tether.Worker`)."""
        return Worker(self.backend, self.registry, **options)

    async def open_session(self, agent: str | Agent, *, session_id: str | None = None) -> Session:
        """Start a session (or return the running one with the same id)."""
        name = agent.name if isinstance(agent, Agent) else agent
        self._agent(name)
        session_id = session_id or new_ulid("ses_")
        handle = await self.client.start(
            SESSION_WORKFLOW, name, session_id, run_id=f"session:{session_id}"
        )
        return Session(self, name, session_id, handle.run_id)

    def session(self, agent: str, session_id: str) -> Session:
        """A handle to an existing session."""
        self._agent(agent)
        return Session(self, agent, session_id, f"session:{session_id}")

    async def erase_session(self, agent: str, session_id: str) -> SessionErasure:
        """Erase a session now: crypto-shred its content, then delete what can be deleted.

        With encryption on, the session's data keys are destroyed first, in one
        transaction: its transcript, events, step inputs and outputs, ledger messages,
        attachments and sub-agent runs become unreadable everywhere, backups of the data
        included, and reading them raises `ContentDeletedError`. An erasure record in the
        keyring says what was erased and when. A session still running is cancelled
        first. Ids, timestamps, statuses and names remain.
        """
        return await self.session(agent, session_id).erase()


class Session:
    """A client's handle to one session: send, follow events, answer, cancel."""

    def __init__(self, host: AgentHost, agent_name: str, session_id: str, run_id: str) -> None:
        self.host = host
        self.agent_name = agent_name
        self.session_id = session_id
        self.run_id = run_id

    @property
    def _stores(self) -> Any:
        return self.host.backend.stores

    async def send(
        self, text: str, *, client_message_id: str | None = None, principal: str | None = None
    ) -> str:
        """Send a user message; returns its submission id.

        Idempotent by `client_message_id`: sending the same id again (after a timeout,
        say) admits nothing new. The same id with other text is a `ConflictError`.
        """
        submission_id = f"{self.session_id}:{client_message_id or new_ulid('msg_')}"
        # Under the session run's key, so erasing the session erases the message too.
        with data_scope(run_scope(self.run_id)):
            await self._stores.submissions.admit_direct(
                SubmissionInput(
                    submission_id=submission_id,
                    agent_name=self.agent_name,
                    instance_id=self.session_id,
                    payload={"text": text, "principal": principal},
                    canonical_ready=True,
                )
            )
        await self._ring(
            {"kind": "message", "submission_id": submission_id, "principal": principal}
        )
        return submission_id

    async def _ring(self, command: dict[str, Any]) -> None:
        try:
            await self.host.client.resume_hook(inbox_token(self.session_id), command)
        except NotFoundError:
            # The session's run has not opened its inbox yet; it reads the ledger first.
            pass

    async def answer(self, request_id: str, answer: Any, *, principal: str | None = None) -> None:
        """Answer a pending approval or question.

        Raises:
            InputRequestError: No such request is pending (unknown or already answered),
                or the answer is not one of a question's options. Nothing changes.
        """
        requests = {r["request_id"]: r for r in await self.pending_requests()}
        request = requests.get(request_id)
        if request is None:
            known = await self._all_requests()
            reason = "it was already answered" if request_id in known else "no such request"
            raise InputRequestError(self.session_id, request_id, reason)
        options = request.get("options")
        if options and answer not in options:
            raise InputRequestError(
                self.session_id, request_id, f"the answer must be one of {options}, not {answer!r}"
            )
        await self._ring(
            {"kind": "answer", "request_id": request_id, "answer": answer, "principal": principal}
        )

    async def close(self) -> None:
        """End the session once its current turn ends (a parked turn is cancelled).

        With the agent's ``retention=0`` its content (transcript, events, step inputs and
        outputs) is deleted then; ids, timestamps, statuses and step names remain, and
        reading the content raises `ContentDeletedError`.
        """
        await self._ring({"kind": "close"})

    async def erase(self) -> SessionErasure:
        """Erase this session (see `AgentHost.erase_session`)."""
        run = await self._stores.workflow.get_run(self.run_id)
        if run is not None and run.status not in ("completed", "failed", "cancelled"):
            await self._stores.workflow.request_cancel(self.run_id, reason="session erased")
        from ._transcript import conversation_path

        return await erase_session_content(
            self._stores,
            agent_name=self.agent_name,
            session_id=self.session_id,
            run_id=self.run_id,
            path=conversation_path(self.agent_name, self.session_id),
        )

    async def _ensure_readable(self) -> None:
        keys = self._stores.keys
        if keys is not None:
            erasure = await keys.erasure(run_scope(self.run_id))
            if erasure is not None:
                raise ContentDeletedError(
                    f"session {self.session_id!r} was erased at {erasure.erased_at:.3f} "
                    f"({erasure.note}); its content is unreadable, its records remain"
                )
        run = await self._stores.workflow.get_run(self.run_id)
        if run is not None and run.status == "completed" and run.output is not None:
            from .._codec import decode

            ended = decode(run.output)
            if isinstance(ended, dict) and ended.get("retention") == "deleted":
                raise ContentDeletedError(
                    f"session {self.session_id!r} ended under retention=0: its transcript, "
                    "events and step contents were deleted (ids, timestamps, statuses and "
                    "step names remain)"
                )

    async def cancel_turn(self) -> None:
        """Cancel the running turn (its submission settles as aborted)."""
        from ..stores import make_session_key

        await self._stores.submissions.request_session_abort(
            make_session_key(self.agent_name, self.session_id)
        )
        await self._ring({"kind": "cancel"})

    async def read_events(self, start: int = 0) -> list[SessionEvent]:
        """The events from index `start` (negative counts back from the tail).

        Raises:
            ContentDeletedError: The session ended under ``retention=0``.
        """
        await self._ensure_readable()
        out: list[SessionEvent] = []
        while True:
            chunks, _ = await self._stores.workflow.read_stream(
                self.run_id, EVENTS_STREAM, start=start
            )
            out.extend(decode_event(c.data, c.index) for c in chunks)
            if len(chunks) < 1000:
                return out
            start = chunks[-1].index + 1

    async def events(
        self, start: int = 0, *, poll_interval: float = 0.02
    ) -> AsyncIterator[SessionEvent]:
        """Follow the events live from index `start` (negative = from the tail)."""
        async for chunk in self._stores.workflow.follow_stream(
            self.run_id, EVENTS_STREAM, start=start, poll_interval=poll_interval
        ):
            yield decode_event(chunk.data, chunk.index)

    async def wait_for(
        self, event_type: str, *, after: int = -1, timeout: float = 30.0, **match: Any
    ) -> SessionEvent:
        """Wait for the first event of a type (and matching data) with index > `after`."""

        async def find() -> SessionEvent:
            async for event in self.events(max(after + 1, 0)):
                if event.type == event_type and all(
                    event.data.get(k) == v for k, v in match.items()
                ):
                    return event
            raise NotFoundError(f"the event stream of {self.session_id!r} ended")

        return await asyncio.wait_for(find(), timeout)

    async def _all_requests(self) -> set[str]:
        return {
            e.data["request_id"]
            for e in await self.read_events()
            if e.type in ("input.requested", "authorization.required")
        }

    async def pending_requests(self) -> list[dict[str, Any]]:
        """Input requests (approvals, questions) not answered yet."""
        requested: dict[str, dict[str, Any]] = {}
        for event in await self.read_events():
            if event.type in ("input.requested", "authorization.required"):
                requested[event.data["request_id"]] = dict(event.data)
            elif event.type == "input.resolved":
                requested.pop(event.data["request_id"], None)
        return list(requested.values())

    async def transcript(self) -> list[dict[str, Any]]:
        """The canonical transcript records.

        Raises:
            ContentDeletedError: The session ended under ``retention=0``.
        """
        await self._ensure_readable()
        meta = await self._stores.conversations.get_meta(
            conversation_path(self.agent_name, self.session_id)
        )
        if meta is None:
            return []
        from ..stores._agent_records import ProducerClaim

        claim = ProducerClaim(
            path=meta.path,
            producer_id="",
            producer_epoch=0,
            incarnation=meta.incarnation,
            head_offset=meta.head_offset,
        )
        records, _ = await Transcript(self._stores, meta.path, claim).read()
        return records
