"""Durable agents: sessions, turns, tools (MCP servers' too), approvals and model providers."""

from __future__ import annotations

from ._agent import Agent, Retention, TurnPolicy
from ._context._compaction import Compaction, Compactor, KeepLast, ModelSummary
from ._context._dynamic import (
    DEFAULT_DYNAMIC_TIMEOUT,
    DYNAMIC_EVENTS,
    PREDECESSOR_HISTORY,
    Dynamic,
    DynamicContext,
    DynamicEvent,
    Instructions,
    dynamic,
)
from ._context._values import MAX_STATE_VALUE_BYTES, State, StateValues
from ._records._attachments import Attachment
from ._records._budget import Budget, BudgetPolicy, BudgetScope, BudgetStatus
from ._records._entries import (
    ApprovalEntry,
    AssistantEntry,
    AuthorizationEntry,
    ContextEntry,
    InstructionsEntry,
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
from ._records._event_data import (
    EVENT_DATA,
    TERMINAL_EVENTS,
    AuthorizationRequested,
    CallUsage,
    DynamicFailed,
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
from ._records._events import EVENTS_STREAM, EventMeta, SessionEvent, decode_event
from ._records._questions import DECLINE, Answer, AnswerStatus, Display, Option, OptionStyle
from ._records._requests import InputRequest, RequestKind, TaskRef
from ._records._state import ParkedOn, SessionInfo, SessionState, SessionStatus
from ._records._usage import Price, SessionUsage
from ._records._usage_report import UsageReport, UsageRow
from ._registry import Agents
from ._session._audience import Audience, Environment, default_retention
from ._session._host import AgentHost, address_session_id
from ._session._session import Session
from ._stored._erasure import SessionErasure
from ._stored._labels import AGENT_LABEL, OWNER_LABEL, label_sessions
from ._stored._line import Predecessor, SessionLine
from ._stored._payloads import PAYLOAD_THRESHOLD, payload_id
from ._stored._progress import ProgressState, SessionProgress, WaitingSubmission
from ._stored._prune import SessionPruner
from ._stored._sweep import InboxSweep
from ._tools._approval import ApprovalPolicy, approval
from ._tools._oauth import OAuthProvider, OAuthToken
from ._tools._tools import Tool, ToolContext, tool, workflow_tool
from ._turn._sleep_tool import sleep_tool
from ._turn._workflow_tools import ToolWorkflowContext
from .mcp import McpServer, McpTool, mcp_server

__all__ = [
    "AGENT_LABEL",
    "DECLINE",
    "DEFAULT_DYNAMIC_TIMEOUT",
    "DYNAMIC_EVENTS",
    "EVENTS_STREAM",
    "EVENT_DATA",
    "MAX_STATE_VALUE_BYTES",
    "OWNER_LABEL",
    "PAYLOAD_THRESHOLD",
    "PREDECESSOR_HISTORY",
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
    "Audience",
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
    "Dynamic",
    "DynamicContext",
    "DynamicEvent",
    "DynamicFailed",
    "Environment",
    "EventData",
    "EventMeta",
    "InboxSweep",
    "InputRequest",
    "InputRequested",
    "InputResolved",
    "Instructions",
    "InstructionsEntry",
    "KeepLast",
    "McpServer",
    "McpTool",
    "McpToolSpec",
    "McpToolsEntry",
    "MessageCompleted",
    "MessageDelta",
    "ModelSummary",
    "OAuthProvider",
    "OAuthToken",
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
    "SessionPruner",
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
    "UsageReport",
    "UsageRow",
    "UserEntry",
    "WaitingSubmission",
    "address_session_id",
    "approval",
    "decode_event",
    "default_retention",
    "dynamic",
    "label_sessions",
    "mcp_server",
    "payload_id",
    "sleep_tool",
    "tool",
    "workflow_tool",
]
