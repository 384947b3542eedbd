"""The durable steps of a session: open, begin a turn, a turn step, answers, turn end.

Each function here runs as one engine step (``ctx.step``), so its result is journaled
and a completed step never runs again. Their arguments are plain JSON (ids and small
dicts) because they are the steps' recorded input.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import durable
from .._ids import new_ulid
from ..errors import AuthorizationRequired, FatalError, ModelError, RetryableError
from ..stores import (
    AttemptRef,
    Lease,
    SettledRecord,
    Stores,
    SubmissionClaim,
    SubmissionInput,
    make_session_key,
)
from ..stores._agent_records import LEASE_DURATION, ProducerClaim
from ._agent import Agent
from ._transcript import EventWriter, Record, Transcript, to_messages
from .models import Model, ModelRequest, ModelSettings, TextDelta, resolve_model
from .models import ToolCallStart as _ToolCallStart

__all__ = ["SessionSteps", "TurnInfo"]

#: How often a running model call looks for steering messages and cancel requests.
STEER_POLL_SECONDS = 0.1


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnInfo:
    """A turn in progress (journaled as a plain dict)."""

    turn_id: str
    submission_id: str
    attempt_id: str
    principal: str | None

    @property
    def attempt(self) -> AttemptRef:
        return AttemptRef(submission_id=self.submission_id, attempt_id=self.attempt_id)

    def as_dict(self) -> dict[str, Any]:
        return {
            "turn_id": self.turn_id,
            "submission_id": self.submission_id,
            "attempt_id": self.attempt_id,
            "principal": self.principal,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TurnInfo:
        return cls(
            turn_id=d["turn_id"],
            submission_id=d["submission_id"],
            attempt_id=d["attempt_id"],
            principal=d.get("principal"),
        )


def _claim(d: Mapping[str, Any]) -> ProducerClaim:
    return ProducerClaim(
        path=d["path"],
        producer_id=d["producer_id"],
        producer_epoch=d["producer_epoch"],
        incarnation=d["incarnation"],
        head_offset=d["head_offset"],
    )


class SessionSteps:
    """The step bodies of one agent's sessions, bound to a backend's stores."""

    def __init__(self, stores: Stores, agent: Agent, agents: Any) -> None:
        self.stores = stores
        self.agent = agent
        self.agents = agents
        self.model: Model = resolve_model(agent.model)
        self._seen_slot: dict[str, int] = {}
        self._read_cache: dict[str, tuple[str, list[Record]]] = {}

    async def inbox_rang(self, run_id: str) -> bool:
        """Whether a command (message, answer, cancel) reached the inbox since the last look.

        A cheap read of the run's log that gates the ledger checks; a false "yes" only
        costs one check.
        """
        events = await self.stores.workflow.list_events(
            run_id, after=self._seen_slot.get(run_id, 0)
        )
        if not events:
            return False
        self._seen_slot[run_id] = events[-1].slot
        return any(e.event_type == "hook_received" for e in events)

    def _events(
        self, run_id: str, turn_id: str | None = None, step_index: int | None = None
    ) -> EventWriter:
        return EventWriter(self.stores, run_id, turn_id=turn_id, step_index=step_index)

    def _transcript(self, claim: Mapping[str, Any]) -> Transcript:
        return Transcript(self.stores, claim["path"], _claim(claim), self._read_cache)

    def session_key(self, session_id: str) -> str:
        """The ledger lane of a session."""
        return make_session_key(self.agent.name, session_id)

    # -- session ----------------------------------------------------------------------------
    async def open_session(self, run_id: str, session_id: str) -> dict[str, Any]:
        """Create the transcript, take its production, announce the session."""
        claim = await Transcript.open(self.stores, self.agent.name, session_id)
        events = self._events(run_id)
        events.emit("session.started", session_id=session_id, agent=self.agent.name)
        await events.close()
        return {
            "path": claim.path,
            "producer_id": claim.producer_id,
            "producer_epoch": claim.producer_epoch,
            "incarnation": claim.incarnation,
            "head_offset": claim.head_offset,
        }

    async def begin_turn(
        self, run_id: str, session_id: str, claim: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Claim the session's next message in the ledger and open a turn for it."""
        key = self.session_key(session_id)
        info = durable.step_info()
        owner = f"run:{run_id}"
        lease = time.time() + LEASE_DURATION
        ledger = self.stores.submissions
        running = [s for s in await ledger.list_running_submissions() if s.session_key == key]
        submission = None
        attempt_id = f"{info.idempotency_key}:{info.attempt}"
        if running:
            # An earlier attempt of this step claimed it and crashed: take it over.
            old = running[0]
            submission = await ledger.replace_submission_attempt(
                AttemptRef(submission_id=old.submission_id, attempt_id=str(old.attempt_id)),
                attempt_id,
                lease=Lease(owner_id=owner, expires_at=lease),
            )
        else:
            heads = [s for s in await ledger.list_runnable_submissions() if s.session_key == key]
            if heads:
                submission = await ledger.claim_submission(
                    SubmissionClaim(
                        submission_id=heads[0].submission_id,
                        attempt_id=attempt_id,
                        owner_id=owner,
                        lease_expires_at=lease,
                    )
                )
        if submission is None:
            return None
        payload = submission.payload if isinstance(submission.payload, dict) else {}
        turn = TurnInfo(
            turn_id=f"turn_{submission.submission_id}",
            submission_id=submission.submission_id,
            attempt_id=attempt_id,
            principal=payload.get("principal"),
        )
        await ledger.mark_input_applied(turn.attempt)
        transcript = self._transcript(claim)
        records, _ = await transcript.read()
        if not any(
            r.get("kind") == "user" and r.get("submission_id") == submission.submission_id
            for r in records
        ):
            await transcript.append([_user_record(turn.turn_id, submission.submission_id, payload)])
        events = self._events(run_id, turn.turn_id, 0)
        events.emit(
            "turn.started",
            submission_id=submission.submission_id,
            text=payload.get("text", ""),
            principal=turn.principal,
        )
        await events.close()
        return turn.as_dict()

    # -- one turn step ----------------------------------------------------------------------
    async def turn_step(
        self,
        run_id: str,
        session_id: str,
        claim: dict[str, Any],
        turn: dict[str, Any],
        step_index: int,
    ) -> dict[str, Any]:
        """One model call (or up to `model_calls_per_step`) and the tools it triggers."""
        info = TurnInfo.from_dict(turn)
        transcript = self._transcript(claim)
        events = self._events(run_id, info.turn_id, step_index)
        try:
            return await _TurnStep(
                self, run_id, session_id, transcript, events, info, step_index
            ).run()
        finally:
            await events.close()

    # -- input and endings ----------------------------------------------------------------
    async def record_approval(
        self,
        run_id: str,
        claim: dict[str, Any],
        turn: dict[str, Any],
        step_index: int,
        request: dict[str, Any],
        answer: Any,
        by: str | None,
    ) -> dict[str, Any]:
        """Record an approval decision (or a superseded request) in the transcript."""
        approved = _approved(answer)
        transcript = self._transcript(claim)
        records, _ = await transcript.read()
        if not any(
            r.get("kind") == "approval" and r.get("call_id") == request["call_id"] for r in records
        ):
            await transcript.append(
                [
                    {
                        "kind": "approval",
                        "turn_id": turn["turn_id"],
                        "call_id": request["call_id"],
                        "approved": approved,
                        "by": by,
                        "reason": answer.get("reason") if isinstance(answer, dict) else None,
                    }
                ]
            )
        events = self._events(run_id, turn["turn_id"], step_index)
        events.emit("input.resolved", request_id=request["request_id"], answer=answer, by=by)
        await events.close()
        return {"approved": approved}

    async def record_question(
        self,
        run_id: str,
        turn: dict[str, Any],
        step_index: int,
        request: dict[str, Any],
        answer: Any,
        by: str | None,
    ) -> Any:
        """Announce an answered question; the answer is the step's output."""
        events = self._events(run_id, turn["turn_id"], step_index)
        events.emit("input.resolved", request_id=request["request_id"], answer=answer, by=by)
        await events.close()
        return answer

    async def request_input(
        self,
        run_id: str,
        turn: dict[str, Any],
        step_index: int,
        requests: list[dict[str, Any]],
    ) -> None:
        """Announce input requests and that the turn waits for them."""
        events = self._events(run_id, turn["turn_id"], step_index)
        for request in requests:
            if request["kind"] == "authorization":
                events.emit("authorization.required", **request)
            else:
                events.emit("input.requested", **request)
        events.emit("turn.waiting", on="input", request_ids=[r["request_id"] for r in requests])
        await events.close()

    async def record_tool_result(
        self,
        run_id: str,
        claim: dict[str, Any],
        turn: dict[str, Any],
        step_index: int,
        call: dict[str, Any],
        content: str,
        is_error: bool,
    ) -> None:
        """Record a workflow tool's result."""
        transcript = self._transcript(claim)
        records, _ = await transcript.read()
        if not any(
            r.get("kind") == "tool_result" and r.get("call_id") == call["call_id"] for r in records
        ):
            await transcript.append([_result_record(turn["turn_id"], call, content, is_error)])
        events = self._events(run_id, turn["turn_id"], step_index)
        events.emit(
            "tool.result",
            call_id=call["call_id"],
            name=call["name"],
            content=content,
            is_error=is_error,
        )
        await events.close()

    async def end_turn(
        self,
        run_id: str,
        session_id: str,
        claim: dict[str, Any],
        turn: dict[str, Any],
        step_index: int,
        outcome: str,
        error: str | None,
    ) -> None:
        """Settle the turn's submission (reserve, record, finalize) and announce the end."""
        info = TurnInfo.from_dict(turn)
        ledger = self.stores.submissions
        settled = (
            "completed"
            if outcome == "completed"
            else ("aborted" if outcome == "cancelled" else "failed")
        )
        record = SettledRecord(outcome=settled, error=error)  # type: ignore[arg-type]
        record_id = f"settle:{info.turn_id}"
        await ledger.reserve_settlement(info.attempt, record_id=record_id, record=record)
        transcript = self._transcript(claim)
        records, _ = await transcript.read()
        if not any(
            r.get("kind") == "turn_end" and r.get("turn_id") == info.turn_id for r in records
        ):
            await transcript.append(
                [{"kind": "turn_end", "turn_id": info.turn_id, "outcome": outcome, "error": error}]
            )
        await ledger.finalize_settlement(info.attempt, record_id, error_message=error)
        events = self._events(run_id, info.turn_id, step_index)
        if outcome == "completed":
            events.emit("turn.completed", submission_id=info.submission_id)
        elif outcome == "cancelled":
            events.emit("turn.cancelled", submission_id=info.submission_id)
        else:
            events.emit(
                "turn.failed", submission_id=info.submission_id, error=error, terminal=False
            )
        events.emit("session.waiting")
        await events.close()

    async def admit_task(self, session_id: str, task: str) -> str:
        """Admit a sub-agent's task as its session's first message (idempotent)."""
        submission_id = f"{session_id}:task"
        await self.stores.submissions.admit_direct(
            SubmissionInput(
                submission_id=submission_id,
                agent_name=self.agent.name,
                instance_id=session_id,
                payload={"text": task, "principal": None},
                canonical_ready=True,
            )
        )
        return submission_id

    async def final_reply(self, claim: dict[str, Any], turn: dict[str, Any]) -> str:
        """The text of the turn's last assistant message."""
        records, _ = await self._transcript(claim).read()
        replies = [
            r
            for r in records
            if r.get("kind") == "assistant" and r.get("turn_id") == turn["turn_id"]
        ]
        return str(replies[-1]["text"]) if replies else ""

    async def announce_tasks(
        self, run_id: str, turn: dict[str, Any], step_index: int, tasks: list[dict[str, Any]]
    ) -> None:
        """Announce that the turn waits for sub-agent tasks."""
        events = self._events(run_id, turn["turn_id"], step_index)
        events.emit("turn.waiting", on="tasks", tasks=tasks)
        await events.close()

    async def close_session(
        self, run_id: str, session_id: str, claim: dict[str, Any], retention: Any = "default"
    ) -> None:
        """End the session; with ``retention=0`` delete its content, keeping records."""
        if retention == 0:
            await self.stores.conversations.purge(claim["path"])
            await self.stores.workflow.purge_run_content(run_id)
        else:
            events = self._events(run_id)
            events.emit("session.closed", session_id=session_id)
            await events.close()

    async def fail_session(self, run_id: str, turn: dict[str, Any] | None, error: str) -> None:
        """Announce that the session ended in failure (and its turn, terminally)."""
        if turn is not None:
            events = self._events(run_id, turn["turn_id"], None)
            events.emit(
                "turn.failed", submission_id=turn["submission_id"], error=error, terminal=True
            )
            await events.close()
        events = self._events(run_id)
        events.emit("session.failed", error=error)
        await events.close()

    async def check_principal(self, submission_id: str) -> str | None:
        """The principal of a queued message (None when it is no longer queued)."""
        submission = await self.stores.submissions.get_submission(submission_id)
        if submission is None or submission.status != "queued":
            return None
        payload = submission.payload if isinstance(submission.payload, dict) else {}
        return str(payload.get("principal") or "")

    async def join_messages(
        self, run_id: str, claim: dict[str, Any], turn: dict[str, Any], step_index: int
    ) -> int:
        """Merge queued messages of the session into the running turn (steering)."""
        info = TurnInfo.from_dict(turn)
        events = self._events(run_id, info.turn_id, step_index)
        try:
            return await join_into_turn(self, self._transcript(claim), events, info)
        finally:
            await events.close()


async def join_into_turn(
    steps: SessionSteps, transcript: Transcript, events: EventWriter, info: TurnInfo
) -> int:
    """Merge the session's queued messages into the turn; returns how many joined.

    Joins claimed by an earlier attempt that crashed before confirming them are still
    `joining` under the same host attempt; they are confirmed here too.
    """
    ledger = steps.stores.submissions
    await ledger.claim_joinable_submissions(info.attempt, steps.agent.name)
    joining = [
        s for s in await ledger.list_joined_submissions(info.submission_id) if s.status == "joining"
    ]
    if not joining:
        return 0
    records, _ = await transcript.read()
    present = {r.get("submission_id") for r in records if r.get("kind") == "user"}
    new = [s for s in joining if s.submission_id not in present]
    if new:
        await transcript.append(
            [
                _user_record(
                    info.turn_id, s.submission_id, s.payload if isinstance(s.payload, dict) else {}
                )
                for s in new
            ]
        )
    for s in joining:
        await ledger.finalize_joined_submission(info.attempt, s.submission_id)
        payload = s.payload if isinstance(s.payload, dict) else {}
        events.emit("turn.steered", submission_id=s.submission_id, text=payload.get("text", ""))
    return len(joining)


def _user_record(turn_id: str, submission_id: str, payload: Mapping[str, Any]) -> Record:
    return {
        "kind": "user",
        "turn_id": turn_id,
        "submission_id": submission_id,
        "text": payload.get("text", ""),
        "principal": payload.get("principal"),
    }


def _result_record(
    turn_id: str, call: Mapping[str, Any], content: str, is_error: bool, outcome: str | None = None
) -> Record:
    return {
        "kind": "tool_result",
        "turn_id": turn_id,
        "call_id": call["call_id"],
        "name": call["name"],
        "content": content,
        "is_error": is_error,
        "outcome": outcome or ("error" if is_error else "ok"),
    }


def _approved(answer: Any) -> bool:
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        return answer.lower() in ("approve", "approved", "yes", "y", "ok", "allow")
    if isinstance(answer, dict):
        return bool(answer.get("approved", answer.get("authorized", answer.get("approve", False))))
    return False


class _TurnStep:
    """The work of one turn step; see `SessionSteps.turn_step`."""

    def __init__(
        self,
        steps: SessionSteps,
        run_id: str,
        session_id: str,
        transcript: Transcript,
        events: EventWriter,
        turn: TurnInfo,
        step_index: int,
    ) -> None:
        self.s = steps
        self.agent = steps.agent
        self.run_id = run_id
        self.session_id = session_id
        self.transcript = transcript
        self.events = events
        self.turn = turn
        self.step_index = step_index

    async def run(self) -> dict[str, Any]:
        records, _ = await self.transcript.read()
        mine = [r for r in records if r.get("turn_id") == self.turn.turn_id]
        for call_index in range(self.agent.model_calls_per_step + 1):
            # Tools of the turn's last assistant message come first: approved ones after a
            # park, or those a crash interrupted.
            pending = self._open_calls(mine)
            if pending:
                outcome = await self._run_tools(pending, mine)
                if outcome is not None:
                    return outcome
                if await self._steer_at_boundary():
                    return {"action": "steered"}
                continue
            if call_index == self.agent.model_calls_per_step:
                break
            if self._last_assistant_is_final(mine):
                return {"action": "done"}
            assistant = await self._call_model(records, call_index)
            if isinstance(assistant, str):
                return {"action": assistant}
            records.append(assistant)
            mine.append(assistant)
            if not assistant["tool_calls"]:
                return {"action": "done"}
        return {"action": "continue"}

    # -- model --------------------------------------------------------------------------
    async def _call_model(self, records: list[Record], call_index: int) -> Record | str:
        tools = tuple(t.definition() for t in self.agent.tools)
        request = ModelRequest(
            instructions=self.agent.instructions or None,
            messages=tuple(to_messages(records)),
            tools=tools,
            settings=ModelSettings(max_tokens=self.agent.max_tokens),
        )
        streamed_text = False
        interrupt: str | None = None

        async def watch() -> None:
            nonlocal interrupt
            while True:
                await asyncio.sleep(STEER_POLL_SECONDS)
                state = await self._interrupt_state()
                if state == "cancel" or (state == "steer" and not streamed_text):
                    interrupt = state
                    return

        async def generate() -> Any:
            nonlocal streamed_text
            text: list[str] = []
            response = None
            stream = self.s.model.stream(request)
            try:
                async for event in stream:
                    if isinstance(event, TextDelta):
                        streamed_text = True
                        text.append(event.text)
                        self.events.emit("message.delta", text=event.text)
                    elif isinstance(event, _ToolCallStart):
                        pass
                    elif getattr(event, "kind", None) == "response_complete":
                        response = event.response  # type: ignore[union-attr]
            finally:
                aclose = getattr(stream, "aclose", None)
                if aclose is not None:
                    await aclose()
            return response

        watcher = asyncio.create_task(watch())
        generator = asyncio.create_task(generate())
        try:
            done, _ = await asyncio.wait({watcher, generator}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (watcher, generator):
                if not task.done():
                    task.cancel()
        if generator not in done:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await generator
            if interrupt == "cancel":
                return "cancelled"
            # Steered while the model was still thinking: drop this generation, merge the
            # new message, and call the model again within the same turn.
            await join_into_turn(self.s, self.transcript, self.events, self.turn)
            records[:] = (await self.transcript.read())[0]
            return await self._call_model(records, call_index)
        try:
            response = generator.result()
        except ModelError as exc:
            if exc.retryable:
                raise RetryableError(str(exc), retry_after=exc.retry_after) from exc
            raise FatalError(str(exc)) from exc
        if response is None:
            raise RetryableError("the model stream ended without a response")
        assistant: Record = {
            "kind": "assistant",
            "turn_id": self.turn.turn_id,
            "step_index": self.step_index,
            "call": call_index,
            "text": response.text,
            "tool_calls": [
                {
                    "call_id": c.call_id or new_ulid("call_"),
                    "name": c.name,
                    "arguments": dict(c.arguments),
                    "arguments_json": c.arguments_json,
                    "parse_error": c.parse_error,
                }
                for c in response.tool_calls
            ],
        }
        await self.transcript.append([assistant])
        self.events.emit(
            "message.completed",
            text=response.text,
            tool_calls=[
                {"call_id": c["call_id"], "name": c["name"]} for c in assistant["tool_calls"]
            ],
        )
        return assistant

    async def _interrupt_state(self) -> str | None:
        """Whether the turn must stop ("cancel") or take in new messages ("steer").

        Messages claimed to join wait as `joining` until `join_into_turn` merges them.
        """
        if not await self.s.inbox_rang(self.run_id):
            return None
        ledger = self.s.stores.submissions
        host = await ledger.get_submission(self.turn.submission_id)
        if host is not None and host.abort_requested_at is not None:
            return "cancel"
        if self.agent.turn_policy == "steer":
            await ledger.claim_joinable_submissions(self.turn.attempt, self.agent.name)
            if any(
                s.status == "joining"
                for s in await ledger.list_joined_submissions(self.turn.submission_id)
            ):
                return "steer"
        return None

    async def _steer_at_boundary(self) -> bool:
        if await self._interrupt_state() == "steer":
            return bool(await join_into_turn(self.s, self.transcript, self.events, self.turn))
        return False

    # -- tools ----------------------------------------------------------------------------
    @staticmethod
    def _last_assistant_is_final(mine: list[Record]) -> bool:
        last = next((r for r in reversed(mine) if r.get("kind") in ("assistant", "user")), None)
        return last is not None and last.get("kind") == "assistant" and not last["tool_calls"]

    @staticmethod
    def _open_calls(mine: list[Record]) -> list[dict[str, Any]]:
        last = next((r for r in reversed(mine) if r.get("kind") == "assistant"), None)
        if last is None:
            return []
        done = {r["call_id"] for r in mine if r.get("kind") == "tool_result"}
        return [c for c in last["tool_calls"] if c["call_id"] not in done]

    async def _run_tools(
        self, calls: list[dict[str, Any]], mine: list[Record]
    ) -> dict[str, Any] | None:
        from ._tools import ToolContext, format_tool_error, format_tool_result

        approvals = {r["call_id"]: r for r in mine if r.get("kind") == "approval"}
        # A call counts as started when its last marker is `tool_started`; a tool that
        # asked for authorization had not acted yet.
        markers = {
            r["call_id"]: r["kind"]
            for r in mine
            if r.get("kind") in ("tool_started", "authorization")
        }
        started = {call_id for call_id, kind in markers.items() if kind == "tool_started"}
        asked = sum(1 for r in mine if r.get("kind") == "authorization")
        held: list[dict[str, Any]] = []
        parked: list[dict[str, Any]] = []
        runnable: list[tuple[dict[str, Any], Any, dict[str, Any]]] = []
        results: list[Record] = []
        for call in calls:
            tool = self.agent.tool(call["name"])
            if tool is None:
                known = sorted(t.name for t in self.agent.tools)
                results.append(
                    _result_record(
                        self.turn.turn_id,
                        call,
                        f"ToolError: unknown tool {call['name']!r}; available: {known}",
                        True,
                    )
                )
                continue
            try:
                arguments = tool.validate(
                    call.get("arguments_json") or call["arguments"]
                    if call.get("parse_error")
                    else call["arguments"]
                )
            except Exception as exc:
                results.append(
                    _result_record(self.turn.turn_id, call, format_tool_error(exc), True)
                )
                continue
            decision = approvals.get(call["call_id"])
            if decision is not None and not decision["approved"]:
                reason = decision.get("reason") or "denied"
                results.append(
                    _result_record(
                        self.turn.turn_id,
                        call,
                        f"The user did not approve this call ({reason}).",
                        True,
                        "denied",
                    )
                )
                continue
            if decision is None and tool.requires_approval(arguments):
                held.append(
                    {
                        "request_id": f"approve:{call['call_id']}",
                        "kind": "approval",
                        "call_id": call["call_id"],
                        "tool": call["name"],
                        "arguments": call["arguments"],
                    }
                )
                continue
            if tool.is_workflow:
                parked.append(call)
                continue
            runnable.append((call, tool, arguments))

        async def run_one(call: dict[str, Any], tool: Any, arguments: dict[str, Any]) -> None:
            if not tool.idempotent and call["call_id"] in started:
                # It started in an attempt that crashed: it may or may not have acted.
                record = _result_record(
                    self.turn.turn_id,
                    call,
                    "Outcome unknown: the process running this tool stopped after it "
                    "started and before it returned; it was not run again.",
                    True,
                    "unknown",
                )
            else:
                if not tool.idempotent:
                    await self.transcript.append(
                        [
                            {
                                "kind": "tool_started",
                                "turn_id": self.turn.turn_id,
                                "call_id": call["call_id"],
                            }
                        ]
                    )
                self.events.emit(
                    "tool.call",
                    call_id=call["call_id"],
                    name=call["name"],
                    arguments=call["arguments"],
                )
                context = ToolContext(
                    session_id=self.session_id,
                    call_id=call["call_id"],
                    turn_id=self.turn.turn_id,
                    attempt=durable.step_info().attempt,
                )
                try:
                    value = await tool.invoke(arguments, context)
                    record = _result_record(
                        self.turn.turn_id, call, format_tool_result(value), False
                    )
                except AuthorizationRequired as auth:
                    request_id = f"authorize:{call['call_id']}:{asked + len(held)}"
                    await self.transcript.append(
                        [
                            {
                                "kind": "authorization",
                                "turn_id": self.turn.turn_id,
                                "call_id": call["call_id"],
                                "request_id": request_id,
                            }
                        ]
                    )
                    held.append(
                        {
                            "request_id": request_id,
                            "kind": "authorization",
                            "call_id": call["call_id"],
                            "tool": call["name"],
                            "provider": auth.provider,
                            "url": auth.url,
                            "message": str(auth),
                        }
                    )
                    return
                except Exception as exc:
                    record = _result_record(self.turn.turn_id, call, format_tool_error(exc), True)
            await self.transcript.append([record])
            mine.append(record)
            self.events.emit(
                "tool.result",
                call_id=call["call_id"],
                name=call["name"],
                content=record["content"],
                is_error=record["is_error"],
                outcome=record["outcome"],
            )

        if results:
            await self.transcript.append(results)
            mine.extend(results)
            for record in results:
                self.events.emit(
                    "tool.result",
                    call_id=record["call_id"],
                    name=record["name"],
                    content=record["content"],
                    is_error=True,
                    outcome=record["outcome"],
                )
        await asyncio.gather(*(run_one(c, t, a) for c, t, a in runnable))
        if held:
            return {"action": "held", "hold": "request", "requests": held}
        if parked:
            for call in parked:
                self.events.emit(
                    "tool.call",
                    call_id=call["call_id"],
                    name=call["name"],
                    arguments=call["arguments"],
                    workflow=True,
                )
            return {"action": "park", "calls": parked}
        return None
