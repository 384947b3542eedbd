"""Declared session state: typed values a session keeps, that its tools read and change.

An agent declares each key once with `State` (``Agent(state=[...])``, or a tool's
``@tool(state=[...])`` for the keys it brings along). A tool reads and changes them
through ``ctx.state`` (`StateValues`); `Session.state_values` reads them from outside.

The values live in the session's transcript as `StateEntry` records in their JSON
form: a tool call's changes land in the same write as its result (a checkpoint of the
turn step, or its completion), so a call whose result is durable changed the state
exactly once, and an attempt that crashed or failed before its result landed changed
nothing. A clear or a compaction carries the values to the fresh transcript; a deploy
hand-off keeps the transcript, and the new code reads it under its own declarations:
a key it no longer declares is dropped (logged ``dropping unknown context key during
deserialization``), a value that no longer fits its declaration falls back to the
default (logged).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, overload

import orjson
from pydantic import TypeAdapter, ValidationError

from ...errors import ConfigurationError, StateConflictError, StateValueError, UnknownStateError
from .._records._entries import StateEntry

__all__ = [
    "DROPPED_KEY",
    "MAX_STATE_VALUE_BYTES",
    "DeclaredState",
    "State",
    "StateValues",
    "declared_state",
    "empty_values",
    "fold_state",
    "read_values",
    "settle_state",
    "state_keys",
]

log = logging.getLogger("tether.agent")

T = TypeVar("T")

#: What the log line of a dropped key says (the seed's wording, which operators grep).
DROPPED_KEY = "dropping unknown context key during deserialization"

_KEY = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$")

#: The most bytes one value may take in its JSON form. A value is written whole with
#: each change, carried by every clear and compaction, and read by every fold of the
#: state: keep large data in an attachment (`Session.attach`) or a store of your own,
#: and its reference in the state.
MAX_STATE_VALUE_BYTES = 64 * 1024


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()


@dataclass(frozen=True, slots=True, kw_only=True)
class State(Generic[T]):
    """One key of a session's state: its name, its type and its default.

    Declare it once, module-level, and hand it to ``Agent(state=[...])`` (or to the
    tools that use it, ``@tool(state=[...])``); tools read it as ``ctx.state[key]``.
    Values are validated with pydantic against `type` (a Python type, a pydantic
    model, a dataclass, ``list[str]``...) and stored in their JSON form.

    Args:
        name: The key (1-64 letters, digits, ``_``, ``.`` or ``-``; not starting with
            a digit). Stored with the values: renaming it drops the stored value.
        type: What values it takes.
        default: Its value until a tool sets one (validated now).
        default_factory: Makes the default (a fresh one each time), instead of
            `default`.
        description: What it is for (documentation only).

    Raises:
        ConfigurationError: A bad name, no default (or both kinds), or a default that
            does not fit `type` or has no JSON form.
    """

    name: str
    type: Any
    default: T = _MISSING
    default_factory: Callable[[], T] | None = None
    description: str = field(default="", compare=False)
    _adapter: TypeAdapter[T] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _KEY.match(self.name):
            raise ConfigurationError(
                f"state name {self.name!r} must be 1-64 letters, digits, '_', '.' or '-', "
                "not starting with a digit"
            )
        has_default = self.default is not _MISSING
        if has_default == (self.default_factory is not None):
            raise ConfigurationError(
                f"state {self.name!r} needs exactly one of default= and default_factory="
            )
        try:
            adapter: TypeAdapter[T] = TypeAdapter(self.type)
        except Exception as exc:
            raise ConfigurationError(
                f"state {self.name!r}: pydantic cannot validate values of {self.type!r}: {exc}"
            ) from None
        object.__setattr__(self, "_adapter", adapter)
        try:
            self.dump(self.initial())
        except StateValueError as exc:
            raise ConfigurationError(f"state {self.name!r}: bad default: {exc.detail}") from None

    def initial(self) -> T:
        """The default value (a new one from `default_factory` each time)."""
        if self.default_factory is not None:
            return self.default_factory()
        return self.default

    def dump(self, value: Any) -> Any:
        """`value`, validated, in its JSON form.

        Raises:
            StateValueError: It does not fit `type`, has no JSON form, or takes more
                than `MAX_STATE_VALUE_BYTES` in it.
        """
        try:
            checked = self._adapter.validate_python(value)
            out = self._adapter.dump_python(checked, mode="json")
            size = len(orjson.dumps(out))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'value'}: {e['msg']}" for e in exc.errors()
            )
            kind = _type_name(self.type)
            raise StateValueError(self.name, f"{value!r} does not fit {kind}: {problems}") from None
        except Exception as exc:
            raise StateValueError(self.name, f"{value!r} has no JSON form ({exc})") from None
        if size > MAX_STATE_VALUE_BYTES:
            raise StateValueError(
                self.name,
                f"its JSON form is {size:,} bytes, over the {MAX_STATE_VALUE_BYTES:,} a state "
                "value may take; keep large data in an attachment and its reference here",
            )
        return out

    def load(self, raw: Any) -> T:
        """A stored (JSON) value as a `type` value.

        Raises:
            StateValueError: It no longer fits `type`.
        """
        try:
            return self._adapter.validate_python(raw)
        except ValidationError as exc:
            raise StateValueError(self.name, f"stored {raw!r} no longer fits: {exc}") from None


def _type_name(kind: Any) -> str:
    return getattr(kind, "__name__", None) or repr(kind)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclaredState:
    """The state keys an agent declares (its own and its tools'), or why it cannot.

    Attributes:
        keys: The declarations by name.
        conflict: Two declarations of a key differ: no session opens or moves.
    """

    keys: Mapping[str, State[Any]]
    conflict: StateConflictError | None = None

    def require(self) -> Mapping[str, State[Any]]:
        """The keys.

        Raises:
            StateConflictError: Two declarations of a key differ.
        """
        if self.conflict is not None:
            raise self.conflict
        return self.keys


class _Declaring(Protocol):
    """What `declared_state` reads of an `Agent`."""

    @property
    def name(self) -> str: ...
    @property
    def state(self) -> Sequence[State[Any]]: ...
    @property
    def tools(self) -> Sequence[Any]: ...


def declared_state(agent: _Declaring) -> DeclaredState:
    """The state `agent` declares: ``Agent.state``, then each tool's ``state``.

    The same declaration twice (one `State` object shared, or equal ones) is one key;
    two that differ are a conflict.
    """
    keys: dict[str, State[Any]] = {}
    conflict: StateConflictError | None = None
    sources: list[tuple[str, Iterable[State[Any]]]] = [("the agent", agent.state)]
    for each in agent.tools:
        own = getattr(each, "state", ())
        if own:
            sources.append((f"tool {each.name!r}", own))
    owners: dict[str, str] = {}
    for owner, declarations in sources:
        for declaration in declarations:
            found = keys.get(declaration.name)
            if found is None:
                keys[declaration.name] = declaration
                owners[declaration.name] = owner
            elif found != declaration and conflict is None:
                conflict = StateConflictError(
                    agent.name,
                    declaration.name,
                    [f"{owners[declaration.name]}: {found!r}", f"{owner}: {declaration!r}"],
                )
    return DeclaredState(keys=keys, conflict=conflict)


def fold_state(entries: Iterable[Any]) -> dict[str, Any]:
    """The stored (JSON) values of a transcript's state entries, all keys."""
    raw: dict[str, Any] = {}
    for entry in entries:
        if isinstance(entry, StateEntry):
            for key in entry.removed:
                raw.pop(key, None)
            raw.update(entry.values)
    return raw


def settle_state(
    raw: Mapping[str, Any], keys: Mapping[str, State[Any]], session_id: str
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """What of `raw` this code keeps, and the keys it drops (each logged).

    A key it does not declare is dropped (``dropping unknown context key during
    deserialization``); so is a value that no longer fits its declaration (the key
    goes back to its default).
    """
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for key, value in raw.items():
        declaration = keys.get(key)
        if declaration is None:
            log.warning("%s: session %r: state key %r", DROPPED_KEY, session_id, key)
            dropped.append(key)
            continue
        try:
            declaration.load(value)
        except StateValueError as exc:
            log.warning(
                "session %r: state %r goes back to its default: %s", session_id, key, exc.detail
            )
            dropped.append(key)
            continue
        kept[key] = value
    return kept, tuple(dropped)


class StateValues:
    """A session's declared state as a tool (or a reader) sees it: ``ctx.state``.

    Index it by the `State` declaration (typed) or by its name::

        visits = State(name="visits", type=int, default=0)

        @tool(state=[visits])
        def greet(ctx: ToolContext) -> str:
            ctx.state[visits] += 1
            return f"visit {ctx.state[visits]}"

    Reads return validated copies (change a model in place, then set it back).
    A tool's changes are kept when it returns, in the same write as its result; a tool
    that raises changes nothing. Outside a tool (`Session.state_values`) it is
    read-only.
    """

    __slots__ = ("_base", "_changes", "_keys", "_readonly", "_removed")

    def __init__(
        self,
        keys: Mapping[str, State[Any]],
        base: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
        *,
        readonly: bool = False,
    ) -> None:
        self._keys = keys
        # The stored values under these changes (read lazily, at the first access).
        self._base = base
        self._changes: dict[str, Any] = {}
        self._removed: set[str] = set()
        self._readonly = readonly

    def _declaration(self, key: State[Any] | str) -> State[Any]:
        name = key.name if isinstance(key, State) else key
        found = self._keys.get(name) if isinstance(name, str) else None
        if found is None:
            raise UnknownStateError(str(name), sorted(self._keys))
        if isinstance(key, State) and key != found:
            raise UnknownStateError(f"{name} (declared differently: {found!r})", sorted(self._keys))
        return found

    def _stored(self) -> Mapping[str, Any]:
        if callable(self._base):
            self._base = self._base()
        return self._base

    def _raw(self, name: str) -> Any:
        if name in self._changes:
            return self._changes[name]
        if name in self._removed:
            return _MISSING
        return self._stored().get(name, _MISSING)

    @overload
    def get(self, key: State[T]) -> T: ...
    @overload
    def get(self, key: str) -> Any: ...
    def get(self, key: State[Any] | str) -> Any:
        """The key's value (its default when none was set).

        Raises:
            UnknownStateError: The agent does not declare it.
        """
        declaration = self._declaration(key)
        raw = self._raw(declaration.name)
        if raw is _MISSING:
            return declaration.initial()
        try:
            return declaration.load(raw)
        except StateValueError:
            return declaration.initial()

    __getitem__ = get

    def set(self, key: State[T] | str, value: T) -> None:
        """Set the key's value (validated now).

        Raises:
            UnknownStateError: The agent does not declare it.
            StateValueError: The value does not fit, or has no JSON form (nothing
                changed).
            TypeError: A read-only view.
        """
        if self._readonly:
            raise TypeError("this view of the session's state is read-only")
        declaration = self._declaration(key)
        self._changes[declaration.name] = declaration.dump(value)
        self._removed.discard(declaration.name)

    __setitem__ = set

    def reset(self, key: State[Any] | str) -> None:
        """Put the key back to its default."""
        if self._readonly:
            raise TypeError("this view of the session's state is read-only")
        declaration = self._declaration(key)
        self._changes.pop(declaration.name, None)
        self._removed.add(declaration.name)

    def __contains__(self, key: object) -> bool:
        name = key.name if isinstance(key, State) else key
        return name in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._keys))

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return f"StateValues({self.to_json()!r})"

    def to_json(self) -> dict[str, Any]:
        """Every declared key's value in its JSON form (defaults included)."""
        out: dict[str, Any] = {}
        for name in sorted(self._keys):
            raw = self._raw(name)
            declaration = self._keys[name]
            if raw is not _MISSING:
                try:
                    declaration.load(raw)
                except StateValueError:
                    raw = _MISSING
            out[name] = declaration.dump(declaration.initial()) if raw is _MISSING else raw
        return out

    def pending(self) -> StateEntry | None:
        """The changes made through this view, as an entry (None: none)."""
        if not self._changes and not self._removed:
            return None
        return StateEntry(values=dict(self._changes), removed=tuple(sorted(self._removed)))


def read_values(agent: _Declaring, entries: Iterable[Any]) -> StateValues:
    """The state a transcript holds, as `agent` declares it (read-only)."""
    keys = declared_state(agent).keys
    stored = {k: v for k, v in fold_state(entries).items() if k in keys}
    return StateValues(keys, stored, readonly=True)


def empty_values() -> StateValues:
    """A view of no keys (a tool called outside a session's turn)."""
    return StateValues({}, {}, readonly=True)


def state_keys(declarations: Sequence[State[Any]], what: str) -> tuple[State[Any], ...]:
    """Check a ``state=[...]`` argument: `State` objects, no name twice.

    Raises:
        ConfigurationError: Something else than a `State`, or a name twice.
    """
    out = tuple(declarations)
    for each in out:
        if not isinstance(each, State):
            raise ConfigurationError(f"{what}: state takes State(...) declarations, not {each!r}")
    names = [s.name for s in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigurationError(f"{what} declares state {twice} more than once")
    return out
