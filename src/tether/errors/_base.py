"""The root of the error tree, configuration and input errors, and what user code raises."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

__all__ = [
    "ConfigurationError",
    "EncryptionKeyError",
    "FatalError",
    "FlowLimitError",
    "InvalidInputError",
    "MigrationPrivilegeError",
    "MissingExtraError",
    "RecordedError",
    "RetryableError",
    "SerializationError",
    "TetherError",
]


class TetherError(Exception):
    """Root of every error tether raises (user signals excepted)."""


class ConfigurationError(TetherError):
    """Misuse detected when something is defined, opened or started."""


class MissingExtraError(ConfigurationError, ImportError):
    """An optional dependency is missing; the message says which extra installs it."""

    def __init__(self, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package!r} is not installed; install it with: pip install 'tether[{extra}]'"
        )


class MigrationPrivilegeError(ConfigurationError):
    """The database user may not create or alter the schema a migration needs.

    Raised when a store is opened with ``migrate=True`` (or by ``tether migrate``) as a
    role without DDL rights, such as the least-privilege runtime role, and the schema is
    not current. Run ``tether migrate`` as the schema owner, then open the store as the
    runtime role (with ``migrate=False``, or ``migrate=True``, which then finds nothing
    to do).

    Args:
        message: What was refused and how to fix it.
        user: The database user that was refused.
        where: The namespace (or keyring schema) being migrated.
    """

    def __init__(self, message: str, *, user: str, where: str) -> None:
        self.user = user
        self.where = where
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_migration_privilege, (str(self), self.user, self.where))


def _rebuild_migration_privilege(message: str, user: str, where: str) -> MigrationPrivilegeError:
    return MigrationPrivilegeError(message, user=user, where=where)


class InvalidInputError(ConfigurationError, ValueError):
    """A value that not every backend can store: refused before anything is written.

    Raised at the public API (a run id, step name, hook token or workflow name with a
    NUL character, say) and by the stores themselves, the same on every backend. It is
    a refusal: trying again with the same value cannot succeed.

    Args:
        what: What the value is (e.g. ``"run_id"``).
        value: The value refused (None when the database refused a value unnamed).
        reason: What is wrong with it.
        hint: How to fix it.
    """

    def __init__(self, what: str, value: Any, reason: str, *, hint: str = "") -> None:
        self.what = what
        self.value = value
        self.reason = reason
        shown = "" if value is None else " " + repr(value)
        if len(shown) > 80:
            shown = shown[:60] + "..." + shown[-16:]
        suffix = f"; {hint}" if hint else ""
        super().__init__(f"{what}{shown} cannot be used: {reason}{suffix}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_invalid_input, (self.what, self.value, self.reason, str(self)))


def _rebuild_invalid_input(what: str, value: Any, reason: str, text: str) -> InvalidInputError:
    error = InvalidInputError.__new__(InvalidInputError)
    error.what, error.value, error.reason = what, value, reason
    error.args = (text,)
    return error


class FlowLimitError(ConfigurationError):
    """A flow-control declaration that cannot hold: a bad limit or priority.

    Raised by `Registry.limit` and `Registry.workflow` (a limit without a bound, a
    bound that is not a positive number, a name declared twice, a priority out of
    range), when a worker starts with a workflow naming a limit its registry does
    not declare, and when a step (``ctx.step(limit=)``, ``step_limit``), a tool or an
    agent's model calls name an undeclared limit.

    Attributes:
        limit: The limit's name (None for a priority).
    """

    def __init__(self, message: str, *, limit: str | None = None) -> None:
        super().__init__(message)
        self.limit = limit

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_flow_limit, (str(self), self.limit))


def _rebuild_flow_limit(text: str, limit: str | None) -> FlowLimitError:
    return FlowLimitError(text, limit=limit)


class EncryptionKeyError(ConfigurationError):
    """The store is encrypted and the configured key cannot open it (or none is configured).

    Raised when a backend is opened, before anything is read or written (``"rotated"``:
    by a process whose keys a rotation left behind).

    Args:
        message: What is wrong and how to fix it.
        reason: ``"missing"`` (the store is encrypted, no key is configured),
            ``"wrong"`` (the configured keys are not the ones the store's data keys are
            wrapped with), ``"keyring"`` (the store belongs to another keyring) or
            ``"rotated"`` (the keyring takes new data keys wrapped under another
            key-encryption key than this process's current one: a rotation began).
    """

    def __init__(self, message: str, *, reason: str) -> None:
        self.reason = reason
        super().__init__(message)


class SerializationError(TetherError):
    """A value cannot be encoded, or stored bytes cannot be decoded."""


class FatalError(Exception):
    """Raise inside a step to fail it now, without retrying."""


class RetryableError(Exception):
    """Raise inside a step to retry it, optionally not before ``retry_after``.

    Args:
        message: What went wrong.
        retry_after: Seconds (or a timedelta) to wait before the next attempt.

    Raises:
        ConfigurationError: `retry_after` is negative, NaN or infinite.
    """

    def __init__(self, message: str = "", *, retry_after: float | timedelta | None = None) -> None:
        super().__init__(message)
        if isinstance(retry_after, timedelta):
            retry_after = retry_after.total_seconds()
        if retry_after is not None:
            what = "RetryableError(retry_after=...)"
            usable = isinstance(retry_after, int | float) and not isinstance(retry_after, bool)
            if usable and math.isnan(retry_after):
                raise ConfigurationError(f"{what} is NaN, which is not a duration")
            if usable and math.isinf(retry_after):
                raise ConfigurationError(f"{what} is infinite: pass a finite number of seconds")
            if not usable or retry_after < 0:
                raise ConfigurationError(
                    f"{what} takes a non-negative number of seconds or a timedelta, "
                    f"not {retry_after!r}"
                )
            retry_after = float(retry_after)
        self.retry_after = retry_after


class RecordedError(Exception):
    """An error as it was recorded, standing in for one whose class cannot be rebuilt.

    The journal keeps every error's class name, text and traceback. When the class
    cannot be imported here, or its instances cannot be made without running its
    constructor (pydantic's ``ValidationError``), decoding gives this instead of
    failing, so ``except StepFailedError`` and ``RunFailedError.cause`` still work.

    Args:
        error_type: The qualified name of the original class, e.g.
            ``"pydantic_core._pydantic_core.ValidationError"``.
        error_message: The original error's text.
        error_traceback: The original traceback as text, when one was recorded.
        reason: Why the original class could not be rebuilt.
    """

    def __init__(
        self,
        error_type: str,
        error_message: str,
        error_traceback: str | None = None,
        reason: str = "",
    ) -> None:
        self.error_type = error_type
        self.error_message = error_message
        self.error_traceback = error_traceback
        self.reason = reason
        super().__init__(f"{error_type}: {error_message}")

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.error_type, self.error_message, self.error_traceback, self.reason)
        return (RecordedError, args)
