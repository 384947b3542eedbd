"""Durable agents: sessions, turns, tools, approvals and model providers."""

from __future__ import annotations

from ._approval import ApprovalPolicy, approval
from ._tools import Tool, ToolContext, tool, workflow_tool

__all__: list[str] = [
    "ApprovalPolicy",
    "Tool",
    "ToolContext",
    "approval",
    "tool",
    "workflow_tool",
]
