"""Test helpers shipped with tether: a scripted model and a network-model guard."""

from __future__ import annotations

from ..agent.models import forbid_network_models as forbid_network_models
from ._scripted import Reply as Reply
from ._scripted import ScriptedModel as ScriptedModel
from ._scripted import ScriptEntry as ScriptEntry
from ._scripted import tool_call as tool_call

__all__ = [
    "Reply",
    "ScriptEntry",
    "ScriptedModel",
    "forbid_network_models",
    "tool_call",
]
