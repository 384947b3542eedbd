"""Durable agents: sessions, turns, tools (MCP servers' too), approvals and model providers."""

from __future__ import annotations

from ._agent import Agent, Retention, TurnPolicy
from ._approval import ApprovalPolicy, approval
from ._attachments import Attachment
from ._budget import Budget, BudgetPolicy, BudgetScope, BudgetStatus
from ._compaction import Compaction, Compactor, KeepLast, ModelSummary
from ._entries import (
    ApprovalEntry,
    AssistantEntry,
    AuthorizationEntry,
    ContextEntry,
    McpToolsEntry,
    McpToolSpec,
    StateEntry,
    ToolCallEntry,
    ToolResultEntry,
    ToolStartedEntry,
    TranscriptEntry,
    TurnEndEntry,
    UserEntry,
)
from ._erasure import SessionErasure
from ._event_data import (
    EVENT_DATA,
    TERMINAL_EVENTS,
    AuthorizationRequested,
    CallUsage,
    EventData,
    InputRequested,
    InputResolved,
    MessageCompleted,
    MessageDelta,
    SessionClosed,
    SessionEventType,
    SessionFailed,
    SessionMoved,
    SessionStarted,
    SessionWaiting,
    StateChanged,
    TokenCounts,
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
from ._host import AgentHost, address_session_id
from ._labels import AGENT_LABEL, OWNER_LABEL, label_sessions
from ._line import Predecessor, SessionLine
from ._progress import ProgressState, SessionProgress, WaitingSubmission
from ._questions import DECLINE, Answer, AnswerStatus, Display, Option, OptionStyle
from ._registry import Agents
from ._requests import InputRequest, RequestKind, TaskRef
from ._session import Session
from ._sleep_tool import sleep_tool
from ._state import ParkedOn, SessionInfo, SessionState, SessionStatus
from ._sweep import InboxSweep
from ._tools import Tool, ToolContext, tool, workflow_tool
from ._usage import Price, SessionUsage
from ._values import MAX_STATE_VALUE_BYTES, State, StateValues
from ._workflow_tools import ToolWorkflowContext
from .mcp import McpServer, McpTool, mcp_server

__all__ = [
    "AGENT_LABEL",
    "DECLINE",
    "EVENTS_STREAM",
    "EVENT_DATA",
    "MAX_STATE_VALUE_BYTES",
    "OWNER_LABEL",
    "TERMINAL_EVENTS",
    "Agent",
    "AgentHost",
    "Agents",
    "Answer",
    "AnswerStatus",
    "ApprovalEntry",
    "ApprovalPolicy",
    "AssistantEntry",
    "Attachment",
    "AuthorizationEntry",
    "AuthorizationRequested",
    "Budget",
    "BudgetPolicy",
    "BudgetScope",
    "BudgetStatus",
    "CallUsage",
    "Compaction",
    "Compactor",
    "ContextEntry",
    "Display",
    "EventData",
    "EventMeta",
    "InboxSweep",
    "InputRequest",
    "InputRequested",
    "InputResolved",
    "KeepLast",
    "McpServer",
    "McpTool",
    "McpToolSpec",
    "McpToolsEntry",
    "MessageCompleted",
    "MessageDelta",
    "ModelSummary",
    "Option",
    "OptionStyle",
    "ParkedOn",
    "Predecessor",
    "Price",
    "ProgressState",
    "RequestKind",
    "Retention",
    "Session",
    "SessionClosed",
    "SessionErasure",
    "SessionEvent",
    "SessionEventType",
    "SessionFailed",
    "SessionInfo",
    "SessionLine",
    "SessionMoved",
    "SessionProgress",
    "SessionStarted",
    "SessionState",
    "SessionStatus",
    "SessionUsage",
    "SessionWaiting",
    "State",
    "StateChanged",
    "StateEntry",
    "StateValues",
    "TaskRef",
    "TokenCounts",
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
    "WaitingSubmission",
    "address_session_id",
    "approval",
    "decode_event",
    "label_sessions",
    "mcp_server",
    "sleep_tool",
    "tool",
    "workflow_tool",
]
