"""A session's inbox as clients write it: messages, answers, cancel and close.

(Phase 1 transport: the ledger for messages, the session's inbox hook for commands.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import NotFoundError
from ..stores import SubmissionInput, make_session_key
from ._agent import TurnPolicy
from ._requests import InputRequest

if TYPE_CHECKING:
    from ._host import AgentHost

__all__ = ["Inbox"]


def inbox_token(session_id: str) -> str:
    """The hook token of a session's command inbox."""
    return f"tether-session-inbox:{session_id}"


class Inbox:
    """Writes into one session's inbox."""

    def __init__(self, host: AgentHost, agent_name: str, session_id: str) -> None:
        self._host = host
        self._agent = agent_name
        self._session = session_id

    @property
    def _stores(self) -> Any:
        return self._host.backend.stores

    async def _ring(self, command: dict[str, Any]) -> None:
        try:
            await self._host.client.resume_hook(inbox_token(self._session), command)
        except NotFoundError:
            # The session's run has not opened its inbox yet; it reads the ledger first.
            pass

    async def admit_message(
        self, submission_id: str, text: str, principal: str | None, policy: TurnPolicy | None
    ) -> None:
        payload: dict[str, Any] = {"text": text, "principal": principal}
        if policy is not None:
            payload["turn_policy"] = policy
        await self._stores.submissions.admit_direct(
            SubmissionInput(
                submission_id=submission_id,
                agent_name=self._agent,
                instance_id=self._session,
                payload=payload,
                canonical_ready=True,
            )
        )
        await self._ring(
            {"kind": "message", "submission_id": submission_id, "principal": principal}
        )

    async def answer(self, request: InputRequest, answer: Any, principal: str | None) -> None:
        await self._ring(
            {
                "kind": "answer",
                "request_id": request.request_id,
                "answer": answer,
                "principal": principal,
            }
        )

    async def cancel(self, principal: str | None) -> None:
        await self._stores.submissions.request_session_abort(
            make_session_key(self._agent, self._session)
        )
        await self._ring({"kind": "cancel"})

    async def close(self) -> None:
        await self._ring({"kind": "close"})

    async def closing(self) -> bool:
        return False

    async def busy(self) -> bool:
        key = make_session_key(self._agent, self._session)
        return any(
            s.session_key == key for s in await self._stores.submissions.list_running_submissions()
        )

    async def transcript_records(self) -> list[Any]:
        from ..stores import ProducerClaim
        from ._transcript import Transcript, conversation_path

        meta = await self._stores.conversations.get_meta(
            conversation_path(self._agent, self._session)
        )
        if meta is None:
            return []
        claim = ProducerClaim(
            path=meta.path,
            producer_id="",
            producer_epoch=0,
            incarnation=meta.incarnation,
            head_offset=meta.head_offset,
        )
        records, _ = await Transcript(self._stores, meta.path, claim).read()
        return records
