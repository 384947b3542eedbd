"""Durable agents: sessions, turns, tools, approvals and model providers."""

from __future__ import annotations

from ._agent import Agent, Retention, TurnPolicy
from ._approval import ApprovalPolicy, approval
from ._entries import (
    ApprovalEntry,
    AssistantEntry,
    AuthorizationEntry,
    ToolCallEntry,
    ToolResultEntry,
    ToolStartedEntry,
    TranscriptEntry,
    TurnEndEntry,
    UserEntry,
)
from ._erasure import SessionErasure
from ._event_data import (
    TERMINAL_EVENTS,
    AuthorizationRequested,
    EventData,
    InputRequested,
    InputResolved,
    MessageCompleted,
    MessageDelta,
    SessionClosed,
    SessionEventType,
    SessionFailed,
    SessionStarted,
    SessionWaiting,
    ToolCalled,
    ToolCallRef,
    ToolReturned,
    TurnCancelled,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    TurnSteered,
    TurnWaiting,
)
from ._events import EVENTS_STREAM, EventMeta, SessionEvent, decode_event
from ._host import AgentHost
from ._registry import Agents
from ._requests import InputRequest, RequestKind, TaskRef
from ._session import Session
from ._state import ParkedOn, SessionInfo, SessionState, SessionStatus
from ._tools import Tool, ToolContext, tool, workflow_tool
from ._workflow_tools import ToolWorkflowContext

__all__ = [
    "EVENTS_STREAM",
    "TERMINAL_EVENTS",
    "Agent",
    "AgentHost",
    "Agents",
    "ApprovalEntry",
    "ApprovalPolicy",
    "AssistantEntry",
    "AuthorizationEntry",
    "AuthorizationRequested",
    "EventData",
    "EventMeta",
    "InputRequest",
    "InputRequested",
    "InputResolved",
    "MessageCompleted",
    "MessageDelta",
    "ParkedOn",
    "RequestKind",
    "Retention",
    "Session",
    "SessionClosed",
    "SessionErasure",
    "SessionEvent",
    "SessionEventType",
    "SessionFailed",
    "SessionInfo",
    "SessionStarted",
    "SessionState",
    "SessionStatus",
    "SessionWaiting",
    "TaskRef",
    "Tool",
    "ToolCallEntry",
    "ToolCallRef",
    "ToolCalled",
    "ToolContext",
    "ToolResultEntry",
    "ToolReturned",
    "ToolStartedEntry",
    "ToolWorkflowContext",
    "TranscriptEntry",
    "TurnCancelled",
    "TurnCompleted",
    "TurnEndEntry",
    "TurnFailed",
    "TurnPolicy",
    "TurnStarted",
    "TurnSteered",
    "TurnWaiting",
    "UserEntry",
    "approval",
    "decode_event",
    "tool",
    "workflow_tool",
]
