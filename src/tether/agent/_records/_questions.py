"""What a workflow tool's question offers and what it gets back: options and answers.

``ctx.ask`` shows a prompt with `Option`s (or none, for free text) and a `Display`
hint, and returns an `Answer`. Answers travel as plain JSON in the inbox: a string
(an option's id, or the text of a free-text question) or `DECLINE`
(``{"cancelled": true}``: the person dismissed the question).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

from ..._codec import journaled
from ...errors import ConfigurationError

__all__ = [
    "DECLINE",
    "Answer",
    "AnswerStatus",
    "Display",
    "Option",
    "OptionStyle",
    "answer_of",
    "is_decline",
    "options_of",
    "read_options",
]

Display: TypeAlias = Literal["text", "choice", "confirmation"]
"""How a client should show a question.

``"text"``: a free-text field (no options). ``"choice"``: a list to pick one option
from. ``"confirmation"``: a dialog with one button per option (a yes/no, a go/abort).
"""

OptionStyle: TypeAlias = Literal["primary", "danger"]
"""How a client should style an option's button: ``"primary"`` (the suggested one) or
``"danger"`` (destructive); None is a plain one."""

AnswerStatus: TypeAlias = Literal["answered", "cancelled"]

DISPLAYS: tuple[str, ...] = get_args(Display)
STYLES: tuple[str, ...] = get_args(OptionStyle)

#: The answer that declines a question: ``ctx.ask`` returns ``status="cancelled"``.
DECLINE: Mapping[str, bool] = {"cancelled": True}


@journaled("agent.Option")
@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One allowed answer of a question.

    Attributes:
        id: What the answer is (``Session.answer(request_id, "p1")``) and what
            `Answer.option_id` is; unique within the question.
        label: What the person sees.
        style: ``"primary"``, ``"danger"`` or None (see `OptionStyle`).

    Raises:
        ConfigurationError: An empty id or label, or an unknown style.
    """

    id: str
    label: str
    style: OptionStyle | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ConfigurationError(f"an option's id is a non-empty string, not {self.id!r}")
        if not isinstance(self.label, str) or not self.label:
            raise ConfigurationError(
                f"option {self.id!r}: its label is a non-empty string, not {self.label!r}"
            )
        if self.style is not None and self.style not in STYLES:
            raise ConfigurationError(
                f"option {self.id!r}: style must be one of {list(STYLES)} or None, "
                f"not {self.style!r}"
            )


@journaled("agent.Answer")
@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """What ``ctx.ask`` returns.

    Attributes:
        status: ``"answered"``, or ``"cancelled"``: the person declined the question
            (answered `DECLINE`, or cancelled the interrupt in an AG-UI client).
        option_id: The chosen option's id; None for free text or a declined question.
        text: The free text, or the chosen option's label; None when declined.
        by: The principal who answered (None when the turn had none).
    """

    status: AnswerStatus
    option_id: str | None = None
    text: str | None = None
    by: str | None = None

    @property
    def answered(self) -> bool:
        """Whether the person answered (`status` is ``"answered"``)."""
        return self.status == "answered"


def options_of(value: Any) -> tuple[Option, ...] | None:
    """Options as a tuple of `Option` (a string ``s`` is ``Option(id=s, label=s)``).

    Records written before options had labels hold bare strings, so decoding them goes
    through here too. An empty list is None (free text).

    Raises:
        ConfigurationError: Not options, or two with the same id.
    """
    if value is None:
        return None
    if isinstance(value, str | bytes | Mapping):
        raise ConfigurationError(f"options is a list of Option or str, not {value!r}")
    out: list[Option] = []
    for item in value:
        if isinstance(item, str):
            out.append(Option(id=item, label=item))
        elif isinstance(item, Option):
            out.append(item)
        elif isinstance(item, Mapping):
            # The JSON form of an Option (a stored event, a journaled record).
            # Keys it does not know are left out; missing ones are refused by `Option`.
            key, label = item.get("id", ""), item.get("label", "")
            out.append(Option(id=key, label=label, style=item.get("style")))
        else:
            raise ConfigurationError(f"an option is an Option or a str, not {item!r}")
    ids = [o.id for o in out]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ConfigurationError(f"option ids must be unique; repeated: {twice}")
    return tuple(out) or None


def read_options(value: Any) -> tuple[Option, ...] | None:
    """`options_of` for pydantic: bad options are a `ValueError` (a validation error)."""
    try:
        return options_of(value)
    except ConfigurationError as exc:
        raise ValueError(str(exc)) from None


def is_decline(answer: Any) -> bool:
    """Whether an admitted answer declines the question (`DECLINE`)."""
    return isinstance(answer, Mapping) and dict(answer) == dict(DECLINE)


def answer_of(options: tuple[Option, ...] | None, answer: Any, by: str | None) -> Answer:
    """The `Answer` of an admitted answer to a question with `options`."""
    if is_decline(answer):
        return Answer(status="cancelled", by=by)
    for option in options or ():
        if option.id == answer:
            return Answer(status="answered", option_id=option.id, text=option.label, by=by)
    # Admission refuses anything else for a question with options, and anything but a
    # string for a free-text one (the `str` keeps an `Answer`'s text a string anyway).
    return Answer(status="answered", text=answer if isinstance(answer, str) else str(answer), by=by)
