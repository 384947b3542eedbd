"""Compaction: a long session goes on with a short transcript in a new run.

When a session's transcript passes a threshold (turns, or an estimate of its tokens),
the session compacts it at its next idle point: a compactor turns the transcript into
a text (a summary by the agent's model by default; `KeepLast` keeps the last messages
verbatim, deterministic, for tests), and the session moves to a new run on the same
deployment whose fresh transcript opens with that text, given to the model as history,
not instructions. The journal starts over with the new run, so neither a model call
nor a replay grows with the session's age.

Messages already waiting when the turn ends run on the current run first (the
session is not idle until they did); messages that arrive during the move wait in the
ledger and run once, on the new run. A compaction that fails (the model errs) logs
``session handoff failed`` and is tried again at the next idle point.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...errors import ConfigurationError
from .._records._attachments import files_note
from .._records._entries import (
    AssistantEntry,
    ContextEntry,
    ToolResultEntry,
    TurnEndEntry,
    UserEntry,
)
from ..models import Model, ModelRequest, UserMessage, collect_response

__all__ = ["Compaction", "Compactor", "KeepLast", "ModelSummary", "transcript_text"]

log = logging.getLogger("tether.agent")

#: Characters per token in the estimate `Compaction.max_tokens` is compared with.
CHARS_PER_TOKEN = 4


class Compactor(Protocol):
    """Turns a transcript into the text a compacted transcript opens with."""

    async def __call__(self, entries: Sequence[Any], model: Model) -> str:
        """The text (raise to fail this compaction; it is tried again later)."""
        ...


def transcript_text(entries: Sequence[Any]) -> list[str]:
    """The messages of a transcript as ``role: text`` lines (earlier context first)."""
    lines: list[str] = []
    for entry in entries:
        if isinstance(entry, ContextEntry):
            lines.append(f"earlier: {entry.text}")
        elif isinstance(entry, UserEntry):
            lines.append(f"user: {entry.text}{files_note(entry.attachments)}")
        elif isinstance(entry, AssistantEntry) and entry.text:
            lines.append(f"assistant: {entry.text}")
    return lines


@dataclass(frozen=True, slots=True)
class KeepLast:
    """A deterministic compactor: the last `messages` messages, verbatim."""

    messages: int = 10

    async def __call__(self, entries: Sequence[Any], model: Model) -> str:
        lines = transcript_text(entries)
        return "\n".join(lines[-self.messages :] if self.messages > 0 else [])


#: What `ModelSummary` asks the model.
SUMMARY_PROMPT = (
    "Summarize the conversation below for whoever continues it: the user's goals, the "
    "facts and decisions established, what was done and what is still open. Be concise; "
    "write only the summary."
)


@dataclass(frozen=True, slots=True)
class ModelSummary:
    """The default compactor: the agent's model summarizes the transcript."""

    prompt: str = SUMMARY_PROMPT

    async def __call__(self, entries: Sequence[Any], model: Model) -> str:
        conversation = "\n".join(transcript_text(entries))
        request = ModelRequest(
            instructions=self.prompt,
            messages=(UserMessage(text=conversation),),
        )
        response = await collect_response(model.stream(request))
        return response.text


@dataclass(frozen=True, slots=True, kw_only=True)
class Compaction:
    """When and how an agent's sessions compact their transcript.

    Args:
        max_turns: Compact once the transcript holds this many turns.
        max_tokens: Compact once the transcript's text passes this many tokens
            (estimated: characters / 4, tool results included).
        compactor: Makes the text the new transcript opens with; default
            `ModelSummary` (the agent's model).

    Raises:
        ConfigurationError: Neither threshold, or one below 1.
    """

    max_turns: int | None = None
    max_tokens: int | None = None
    compactor: Compactor | None = None

    def __post_init__(self) -> None:
        if self.max_turns is None and self.max_tokens is None:
            raise ConfigurationError("Compaction needs max_turns or max_tokens")
        for name in ("max_turns", "max_tokens"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ConfigurationError(f"Compaction {name} must be an int >= 1, not {value!r}")

    def due(self, entries: Sequence[Any]) -> bool:
        """Whether a transcript with these entries is to be compacted."""
        if self.max_turns is not None:
            turns = sum(isinstance(e, TurnEndEntry) for e in entries)
            if turns >= self.max_turns:
                return True
        if self.max_tokens is not None:
            chars = 0
            for e in entries:
                if isinstance(e, UserEntry | AssistantEntry | ContextEntry):
                    chars += len(e.text)
                elif isinstance(e, ToolResultEntry):
                    chars += len(e.content)
            if chars // CHARS_PER_TOKEN >= self.max_tokens:
                return True
        return False

    async def compact(self, entries: Sequence[Any], model: Model) -> str:
        """The text the compacted transcript opens with."""
        compactor = self.compactor if self.compactor is not None else ModelSummary()
        return await compactor(entries, model)
