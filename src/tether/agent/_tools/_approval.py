"""Approval policies: whether a tool call must wait for a human before it runs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ...errors import ConfigurationError

__all__ = ["ApprovalPolicy", "approval"]


@runtime_checkable
class ApprovalPolicy(Protocol):
    """Decides, from a call's validated arguments, whether a human must approve it.

    Use the ready-made policies of :data:`approval`, or any object with this method.
    """

    def requires_approval(self, arguments: Mapping[str, Any]) -> bool:
        """Return whether a call with these arguments must be approved before it runs.

        Args:
            arguments: The call's validated arguments, by parameter name.
        """
        ...


@dataclass(frozen=True, slots=True)
class _Always:
    def requires_approval(self, arguments: Mapping[str, Any]) -> bool:
        return True

    def __repr__(self) -> str:
        return "approval.always()"


@dataclass(frozen=True, slots=True)
class _Never:
    def requires_approval(self, arguments: Mapping[str, Any]) -> bool:
        return False

    def __repr__(self) -> str:
        return "approval.never()"


@dataclass(frozen=True, slots=True)
class _When:
    predicate: Callable[[Mapping[str, Any]], bool]

    def requires_approval(self, arguments: Mapping[str, Any]) -> bool:
        # Fail closed: a predicate that crashes must not let a dangerous call through
        # unapproved; asking a human is the safe answer.
        try:
            return bool(self.predicate(arguments))
        except Exception:
            return True

    def __repr__(self) -> str:
        name = getattr(self.predicate, "__qualname__", repr(self.predicate))
        return f"approval.when({name})"


_ALWAYS = _Always()
_NEVER = _Never()


class _Approvals:
    """The built-in approval policies: ``approval.always()``, ``.never()``, ``.when(fn)``."""

    __slots__ = ()

    @staticmethod
    def always() -> ApprovalPolicy:
        """Every call waits for a human's approval.

        Returns:
            The policy.
        """
        return _ALWAYS

    @staticmethod
    def never() -> ApprovalPolicy:
        """Calls run without approval (the default).

        Returns:
            The policy.
        """
        return _NEVER

    @staticmethod
    def when(predicate: Callable[[Mapping[str, Any]], bool]) -> ApprovalPolicy:
        """Calls wait for approval when ``predicate(arguments)`` is true.

        The predicate receives the validated arguments by parameter name. If it raises,
        the call requires approval (the policy fails closed).

        Args:
            predicate: A function of the validated arguments.

        Returns:
            The policy.
        """
        if not callable(predicate):
            raise ConfigurationError(
                f"approval.when() takes a function of the arguments, not {predicate!r}"
            )
        return _When(predicate)

    def __repr__(self) -> str:
        return "approval"


approval = _Approvals()
"""The built-in policies: ``approval.always()``, ``approval.never()``, ``approval.when(fn)``."""
