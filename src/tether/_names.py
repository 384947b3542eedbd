"""Stable names of journaled records: what the codec writes instead of module paths.

A step's result is stored with the type of each record in it. tether's own records are
written by a name that does not depend on the module that defines them (`journaled`),
so moving a module keeps replay, ``check-deploy`` and fork reading every journal.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TypeVar

from .errors import SerializationError

__all__ = ["FORMER_PATHS", "NAMED", "NAME_OF", "journaled", "named_type"]

_T = TypeVar("_T", bound=type)

#: tether's journaled records by stable name (see `journaled`), and the names by class.
NAMED: dict[str, type] = {}
NAME_OF: dict[type, str] = {}
#: What journals written by tether 0.1.0 call the types that now have a stable name (or
#: moved): their module paths of then. A journal keeps its paths forever, so an entry
#: here is never removed; moving a journaled type without a stable name adds one.
FORMER_PATHS: dict[str, str] = {
    **{
        f"tether.agent.{module}:{name}": f"agent.{name}"
        for module, names in {
            "_cursor": (
                "Producer",
                "TurnState",
                "Cursor",
                "ParkedCall",
                "ParkedResult",
                "StepResult",
            ),
            "_parked": ("Question", "Deadline", "Task", "Verdict"),
            "_requests": ("InputRequest", "TaskRef"),
            "_questions": ("Option", "Answer"),
            "_line": ("Predecessor", "SessionLine"),
        }.items()
        for name in names
    },
    "tether.agent._work:TranscriptLostError": "tether.errors:TranscriptLostError",
}


def journaled(name: str) -> Callable[[_T], _T]:
    """Give a record that steps take or return a stable name in the journal.

    The codec writes `name` where it would write the class's ``module:qualname``, so a
    module can move without stranding the journals that hold its records: replay,
    ``check-deploy`` and fork read them by name. A name is ``<wing>.<Type>``; decoding
    one imports ``tether.<wing>``, which registers every record of that wing.
    """
    wing, _, type_name = name.partition(".")
    if not wing or not type_name or ":" in name:
        raise ValueError(f"a journaled name is '<wing>.<Type>', not {name!r}")

    def register(cls: _T) -> _T:
        if NAMED.setdefault(name, cls) is not cls:
            raise ValueError(f"journaled name {name!r} is taken by {NAMED[name]!r}")
        NAME_OF[cls] = name
        return cls

    return register


def named_type(name: str) -> type:
    cls = NAMED.get(name)
    if cls is None:
        # The wing registers its records when it is imported.
        importlib.import_module(f"tether.{name.partition('.')[0]}")
        cls = NAMED.get(name)
    if cls is None:
        raise SerializationError(
            f"stored payload names the journaled type {name!r}, which this release of "
            "tether does not define"
        )
    return cls
