"""`SessionRuntime`: what the step bodies of one agent's sessions work with.

The turn's modules (`_lifecycle`, `_parked`, `_work` and the modules `_work` serves)
take a runtime, never `_steps.SessionSteps`: the façade of journaled steps sits above
them and they know nothing of it, so the imports of the turn point one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...durable import Client
from ...stores import Backend, Stores
from .._agent import Agent
from .._context._values import DeclaredState
from .._records._attachments import AttachmentCache
from .._records._usage import Price
from .._stored._transcript import TranscriptCache
from ..models import Model

__all__ = ["SessionRuntime"]


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class SessionRuntime:
    """One agent's sessions on one backend, as their step bodies see them.

    Attributes:
        backend: The backend the sessions live on.
        agent: The agent they run.
        model: The agent's model, resolved.
        declared: The session state the agent and its tools declare (a conflict
            refuses to open or move its sessions; see `declared_state`).
        client: The engine's client, on the agents' registry.
        prices: Model prices of the agents (for budgets).
        deployment: The deployment version session runs record.
        transcript_cache: Transcripts read before, by producer.
        attachment_cache: Attachments read before.
    """

    backend: Backend
    agent: Agent
    model: Model
    declared: DeclaredState
    client: Client
    prices: Mapping[str, Price]
    deployment: str
    transcript_cache: TranscriptCache
    attachment_cache: AttachmentCache

    @property
    def stores(self) -> Stores:
        """The backend's stores."""
        return self.backend.stores
