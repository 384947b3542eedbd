"""Durable agents: sessions, turns, tools, approvals and model providers."""

from __future__ import annotations

__all__: list[str] = []
