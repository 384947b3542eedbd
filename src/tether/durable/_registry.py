"""Workflows registered by name, under one deployment version."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .._validate import check_identifier
from .._version import ENGINE_VERSION
from ..errors import ConfigurationError, UnknownWorkflowError

__all__ = ["Registry", "WorkflowDef", "queue_name"]

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def queue_name(engine_version: str, deployment: str) -> str:
    """The queue that carries activations of runs built by these versions."""
    return f"tether:{engine_version}:{deployment}"


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkflowDef:
    """A registered workflow: its durable name and its body."""

    name: str
    fn: Callable[..., Awaitable[Any]]


class Registry:
    """The workflows one deployment of an application can run.

    Args:
        deployment: The application's version. Runs record it, and only workers of
            the same deployment (and tether version) replay them.
    """

    def __init__(self, *, deployment: str = "default") -> None:
        if not isinstance(deployment, str) or not deployment or ":" in deployment:
            raise ConfigurationError(
                f"deployment must be a non-empty string without ':', not {deployment!r}"
            )
        check_identifier(deployment, what="deployment")
        self.deployment = deployment
        self.engine_version = ENGINE_VERSION
        self._workflows: dict[str, WorkflowDef] = {}

    @property
    def queue(self) -> str:
        """The queue this registry's workers consume."""
        return queue_name(self.engine_version, self.deployment)

    def workflow(self, *, name: str | None = None) -> Callable[[F], F]:
        """Register an async function `fn(ctx, *args, **kwargs)` as a workflow.

        Args:
            name: The durable name runs record; defaults to the function's qualified
                name. Keep it stable across deploys.

        Raises:
            InvalidInputError: The name is not an identifier every backend stores.
            ConfigurationError: The name is registered to another function.
        """

        def register(fn: F) -> F:
            wf_name = name or f"{fn.__module__}.{fn.__qualname__}"
            check_identifier(wf_name, what="workflow name")
            existing = self._workflows.get(wf_name)
            if existing is not None and existing.fn is not fn:
                raise ConfigurationError(
                    f"workflow name {wf_name!r} is already registered to another function"
                )
            self._workflows[wf_name] = WorkflowDef(name=wf_name, fn=fn)
            # Marks the function so Client.start(fn) knows its name and deployment;
            # bound methods take no attributes and are started by name instead.
            with contextlib.suppress(AttributeError):
                fn.__tether_workflow__ = wf_name  # type: ignore[attr-defined]
                fn.__tether_deployment__ = self.deployment  # type: ignore[attr-defined]
            return fn

        return register

    def get(self, name: str) -> WorkflowDef:
        """The workflow registered under `name`.

        Raises:
            UnknownWorkflowError: None is.
        """
        try:
            return self._workflows[name]
        except KeyError:
            raise UnknownWorkflowError(name, list(self._workflows)) from None

    def names(self) -> list[str]:
        """Every registered workflow name."""
        return sorted(self._workflows)


def workflow_name_of(target: Callable[..., Any] | str) -> str:
    """The durable name of a workflow given as a name or a registered function."""
    if isinstance(target, str):
        return target
    name = getattr(target, "__tether_workflow__", None)
    if not isinstance(name, str):
        raise ConfigurationError(
            f"{getattr(target, '__qualname__', target)!r} is not a registered workflow; "
            "decorate it with @registry.workflow()"
        )
    return name
