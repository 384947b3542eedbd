"""Workflows registered by name, under one deployment version."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from .._validate import check_identifier
from .._version import ENGINE_VERSION
from ..errors import ConfigurationError, FlowLimitError, UnknownWorkflowError
from ..stores import DEFAULT_AGING, FlowLimit, FlowPolicy
from ._flow import build_policy, check_limit_names, check_priority, make_limit
from ._prune import RunPruner
from ._schedule_spec import MissedPolicy, Schedule, make_schedule

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
        priority_aging: Seconds of waiting worth one priority level: a ready run that
            has waited that much longer than one of a priority one higher is taken
            first (see `limit` and the how-to "Flow control").
    """

    def __init__(
        self, *, deployment: str = "default", priority_aging: float = DEFAULT_AGING
    ) -> None:
        if not isinstance(deployment, str) or not deployment or ":" in deployment:
            raise ConfigurationError(
                f"deployment must be a non-empty string without ':', not {deployment!r}"
            )
        check_identifier(deployment, what="deployment")
        self.deployment = deployment
        self.engine_version = ENGINE_VERSION
        self._workflows: dict[str, WorkflowDef] = {}
        #: The schedules this deployment defines, by name (`schedule`).
        self.schedules: dict[str, Schedule] = {}
        #: What the retention sweep of this registry's workers does with an ended run
        #: of its workflows (an agent host's deletes sessions whole); None purges the
        #: run's own content (see `prune`).
        self.pruner: RunPruner | None = None
        if (
            isinstance(priority_aging, bool)
            or not isinstance(priority_aging, int | float)
            or not 0 < priority_aging < float("inf")
        ):
            raise FlowLimitError(
                f"priority_aging must be a positive number of seconds, not {priority_aging!r}"
            )
        self.priority_aging = float(priority_aging)
        #: The declared limits by name (`limit`).
        self.limits: dict[str, FlowLimit] = {}
        self._workflow_limits: dict[str, tuple[str, ...]] = {}
        self._priorities: dict[str, int] = {}

    @property
    def queue(self) -> str:
        """The queue this registry's workers consume."""
        return queue_name(self.engine_version, self.deployment)

    def workflow(
        self, *, name: str | None = None, limits: Iterable[str] = (), priority: int = 0
    ) -> Callable[[F], F]:
        """Register an async function `fn(ctx, *args, **kwargs)` as a workflow.

        Args:
            name: The durable name runs record; defaults to the function's qualified
                name. Keep it stable across deploys.
            limits: Names of limits (`limit`) every activation of its runs is under.
            priority: Its runs' priority in the queue (higher first, aged by
                `priority_aging`); a run's ``tether.priority`` label overrides it.

        Raises:
            InvalidInputError: The name is not an identifier every backend stores.
            ConfigurationError: The name is registered to another function.
            FlowLimitError: `limits` is not a list of limit names, or `priority` is not
                an integer within ±1000.
        """
        what = f"workflow {name!r}" if name else "workflow"
        limit_names = check_limit_names(limits, what=what)
        priority = check_priority(priority, what=what)

        def register(fn: F) -> F:
            wf_name = name or f"{fn.__module__}.{fn.__qualname__}"
            check_identifier(wf_name, what="workflow name")
            self._workflow_limits[wf_name] = limit_names
            self._priorities[wf_name] = priority
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

    def schedule(
        self,
        name: str,
        workflow: Callable[..., Any] | str,
        *,
        cron: str | None = None,
        every: float | timedelta | str | None = None,
        timezone: str = "UTC",
        missed: MissedPolicy = "run_once",
        grace: float | timedelta | str = 60.0,
        args: tuple[Any, ...] = (),
        kwargs: Mapping[str, Any] | None = None,
    ) -> Schedule:
        """Run `workflow` by itself, on a cron expression or at a fixed interval.

        Each tick starts one run, ``fn(ctx, *args, scheduled_at=ISO-8601, **kwargs)``,
        exactly once across every worker of this deployment (its id is the schedule's
        name and the tick's time). A worker of this registry starts the schedule's
        scheduler run when it starts; `Schedules` lists, pauses, resumes and
        triggers schedules.

        Args:
            name: The schedule's stable name.
            workflow: A workflow of this registry (its function or name).
            cron: A five-field cron expression (``"0 3 * * *"``), read in `timezone`.
            every: An interval instead (seconds, a timedelta or ``"5m"``): ticks at
                whole multiples of it since the Unix epoch.
            timezone: The IANA time zone of `cron` (``"Europe/Paris"``).
            missed: What a wake-up after missed ticks (every worker was down) runs:
                ``"run_once"`` the latest, ``"run_all"`` each one, ``"skip"`` none
                more than `grace` late.
            grace: How late a tick may start under ``missed="skip"``.
            args: Positional arguments of each run (JSON values).
            kwargs: Keyword arguments of each run (JSON values).

        Raises:
            ConfigurationError: Not exactly one of `cron` and `every`, a bad cron
                expression, time zone, interval or policy, a name already scheduled,
                or a workflow this registry does not define.
        """
        wf_name = workflow_name_of(workflow)
        if wf_name not in self._workflows:
            raise ConfigurationError(
                f"schedule {name!r}: {wf_name!r} is not a workflow of this registry; "
                "register it with @registry.workflow() first"
            )
        if name in self.schedules:
            raise ConfigurationError(f"a schedule named {name!r} is already defined")
        spec = make_schedule(
            name,
            wf_name,
            cron=cron,
            every=every,
            timezone=timezone,
            missed=missed,
            grace=grace,
            args=args,
            kwargs=kwargs or {},
        )
        self.schedules[name] = spec
        return spec

    def limit(
        self,
        name: str,
        *,
        concurrency: int | None = None,
        per_second: float | None = None,
        burst: int | None = None,
        key: str | None = None,
    ) -> FlowLimit:
        """Declare a limit that workflows name (``@registry.workflow(limits=[name])``).

        The store holds it across every worker of the deployment, on every host: at
        most `concurrency` activations of the runs under it execute at once, and at
        most `per_second` are taken per second (a token bucket of `burst` tokens).
        With `key`, a label key, each value of that label has its own places and
        bucket (``key="tenant"``: N per tenant); runs without the label share one.

        Args:
            name: The limit's name (1-64 letters, digits, ``_.:-``).
            concurrency: Activations executing at once, per key.
            per_second: Activations taken per second, per key.
            burst: Activations that may be taken at once after a quiet spell; default
                one second's worth of `per_second`.
            key: A label key whose values are limited apart.

        Returns:
            The limit as declared.

        Raises:
            FlowLimitError: A bad name or bound (see `make_limit`), or the name is
                declared already.
        """
        declared = make_limit(
            name, concurrency=concurrency, per_second=per_second, burst=burst, key=key
        )
        if name in self.limits:
            raise FlowLimitError(f"limit {name!r} is declared already", limit=name)
        self.limits[name] = declared
        return declared

    def flow_policy(self) -> FlowPolicy | None:
        """The limits and priorities workers claim under; None when there are none.

        Raises:
            FlowLimitError: A workflow names a limit that is not declared.
        """
        return build_policy(
            self.limits, self._workflow_limits, self._priorities, aging=self.priority_aging
        )

    def limited(self, workflow_name: str) -> bool:
        """Whether runs of `workflow_name` are under a limit (never started eagerly)."""
        return bool(self._workflow_limits.get(workflow_name))

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
