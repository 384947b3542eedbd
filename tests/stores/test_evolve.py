"""`evolve`: the cheap copy of a frozen record with some fields changed."""

from __future__ import annotations

import dataclasses

import pytest

from tether.stores import RunRecord
from tether.stores._records import evolve


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class One:
    value: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class NoSlots:
    a: int
    b: str = "b"


def test_evolve_copies_like_replace_whatever_the_record_holds() -> None:
    run = RunRecord(
        run_id="r", workflow_name="w", status="running", deployment="d", engine_version="e",
        queue="q", input=b"", output=None, error=None, head=3, parent_run_id=None,
        parent_slot=None, lease_owner="o", lease_epoch=1, lease_expires_at=1.0,
        created_at=1.0, updated_at=1.0, completed_at=None,
    )  # fmt: skip
    assert evolve(run, head=4, lease_owner=None) == dataclasses.replace(
        run, head=4, lease_owner=None
    )
    assert run.head == 3  # the original is untouched
    # A record of one field, and one without slots.
    assert evolve(One(value=1), value=2) == One(value=2)
    assert evolve(NoSlots(a=1), b="c") == NoSlots(a=1, b="c")


def test_evolve_refuses_a_field_the_record_lacks_and_keeps_it_frozen() -> None:
    with pytest.raises(TypeError, match=r"One has no field\(s\) \['other'\]"):
        evolve(One(value=1), other=2)
    copy = evolve(One(value=1), value=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.value = 3  # type: ignore[misc]
