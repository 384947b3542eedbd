"""Durable agents: sessions, turns, tools, approvals and model providers."""

from __future__ import annotations

from ._agent import Agent, TurnPolicy
from ._approval import ApprovalPolicy, approval
from ._erasure import SessionErasure
from ._events import EventMeta, EventType, SessionEvent
from ._host import AgentHost, Session
from ._session import ToolWorkflowContext
from ._tools import Tool, ToolContext, tool, workflow_tool

__all__: list[str] = [
    "Agent",
    "AgentHost",
    "ApprovalPolicy",
    "EventMeta",
    "EventType",
    "Session",
    "SessionErasure",
    "SessionEvent",
    "Tool",
    "ToolContext",
    "ToolWorkflowContext",
    "TurnPolicy",
    "approval",
    "tool",
    "workflow_tool",
]
