"""The engine version and the step-name tag it stamps on every step record."""

from __future__ import annotations

__all__ = ["ENGINE_VERSION", "step_name_tag"]

ENGINE_VERSION = "0.1.0"


def step_name_tag(name: str, *, version: str = ENGINE_VERSION) -> str:
    """Return the journal name of a step: ``step//tether@<version>//<name>``."""
    return f"step//tether@{version}//{name}"
