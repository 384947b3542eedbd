"""The event vocabulary is one table: every type has an entry, and its readers use it.

`tether.stores.EVENT_KINDS` holds one `EventKind` per `EventType`; the view fold, the
sealed places, the step rows' payload slots, the claim's replay columns and the
engine's journal and fork read their meaning there. These cases fail when a type has no
entry, when an entry says something its stored format does not (a sealed place, a step
slot), or when a module keeps a list of event types of its own.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from tether.stores import EVENT_KINDS, EventType, _events, _format_2, _rows, event_kind
from tether.stores._encrypted_runs import event_place

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "tether"
NAMES = frozenset(typing.get_args(EventType))

#: The modules that read the vocabulary's meaning from the table and name no type.
READERS = (
    "stores/_apply.py",
    "stores/_encrypted_runs.py",
    "stores/_rows.py",
    "durable/_journal.py",
    "durable/_fork.py",
)
#: Modules that may spell several types out: the table itself, a migration's index
#: predicate (stored schema text, fixed when its migration was written), and the
#: contract cases, which spell expected logs out.
SPELLED_OUT = ("stores/_events.py", "stores/_format_2.py", "testing/")

#: The place each payload-carrying event is sealed under, for run "r" and correlation
#: id "c": stored associated data, which must not change.
SEALED = {
    "run_created": ("run.input", "r"),
    "run_completed": ("run.output", "r"),
    "run_failed": ("run.error", "r"),
    "step_created": ("step.input", "r", "c"),
    "step_completed": ("step.output", "r", "c"),
    "step_failed": ("step.error", "r", "c"),
    "step_retrying": ("step.error", "r", "c"),
    "hook_received": ("hook.payload", "r", "c"),
}
#: The payload slot of a step's row each step event fills (journal format 2).
STEP_SLOTS = {
    "step_created": "input",
    "step_completed": "output",
    "step_failed": "error",
    "step_retrying": "error",
}


def test_every_event_type_has_one_entry_in_order() -> None:
    assert tuple(EVENT_KINDS) == typing.get_args(EventType)
    for name, kind in EVENT_KINDS.items():
        assert kind.name == name
        assert event_kind(name) is kind


def test_a_type_outside_the_vocabulary_is_a_log_entry_only() -> None:
    kind = event_kind("custom")
    assert (kind.name, kind.view, kind.payload, kind.step_slot) == ("custom", "log", None, None)
    assert not (kind.places or kind.creation or kind.external or kind.forked)
    assert event_place("r", "custom", "c", {}) == ("event", "r", "custom", "c")


@pytest.mark.parametrize("name", sorted(NAMES))
def test_the_sealed_places_are_the_tables(name: str) -> None:
    place = event_place("r", name, "c", {"status": "completed", "run_id": "child~1"})
    if name == "child_completed":
        # The output of the run that ended the child's chain, by its status.
        assert place == ("run.output", "child~1")
        assert event_place("r", name, "c", {"status": "failed"}) == ("run.error", "c")
        assert EVENT_KINDS[name].payload == "child.result"
    elif name in SEALED:
        assert place == SEALED[name]
        assert EVENT_KINDS[name].payload == SEALED[name][0]
    else:
        assert place == ("event", "r", name, "c")
        assert EVENT_KINDS[name].payload is None


def test_the_step_slots_are_the_tables() -> None:
    filled = {n: k.step_slot for n, k in EVENT_KINDS.items() if k.step_slot is not None}
    assert filled == STEP_SLOTS
    assert frozenset(n for n, s in STEP_SLOTS.items() if s == "error") == (
        _events.STEP_ERROR_EVENTS
    )
    for name, slot in STEP_SLOTS.items():
        # A step's payload slot holds the payload sealed under the step's place of it.
        assert EVENT_KINDS[name].payload == f"step.{slot}"


def test_entries_agree_with_themselves() -> None:
    for kind in EVENT_KINDS.values():
        if kind.view.startswith(("step_", "wait_", "hook_")):
            assert kind.subject == kind.view.partition("_")[0], kind.name
        if kind.step_status is not None or kind.step_slot is not None:
            assert kind.subject == "step", kind.name
        if kind.run_status is not None:
            assert kind.subject == "run", kind.name
        if kind.refusal:
            assert kind.places and kind.view == "log", kind.name
        if kind.places:
            # An operation of the journal: a fork copies it, and replay finds it.
            assert kind.forked and kind.subject != "run", kind.name
        if not kind.replayed_payload:
            assert kind.creation and kind.payload is not None, kind.name


def test_the_creation_index_keeps_the_creations_no_row_keeps() -> None:
    # A step's creation is unique by its row's primary key; the index keeps the rest.
    # A new creation event fails here until a migration gives the index its type.
    indexed = [n for n, k in EVENT_KINDS.items() if k.creation and k.subject != "step"]
    assert _format_2.CREATION_PREDICATE == "event_type IN ({})".format(
        ", ".join(f"'{n}'" for n in indexed)
    )


def test_a_claims_log_leaves_out_the_payloads_replay_never_reads() -> None:
    left_out = [n for n, k in EVENT_KINDS.items() if not k.replayed_payload]
    assert left_out == ["run_created", "step_created"]
    for name in left_out:
        assert f"'{name}'" in _rows.REPLAY_EVENT_COLS
        assert _rows.replay_values(("r", 1, name, None, "{}", b"x", 1.0))[5] is None
    assert _rows.replay_values(("r", 2, "step_completed", "c", "{}", b"x", 1.0))[5] == b"x"


def _sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _named(tree: ast.AST) -> list[tuple[int, str]]:
    """Event types named other than as the type of an event built (`event_type=`)."""
    built = {
        id(keyword.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg == "event_type"
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in NAMES and id(node) not in built
    ]


def _collections(tree: ast.AST) -> list[tuple[int, list[str]]]:
    """Literal collections of two or more event types (not `__all__`, whose names are
    functions' that happen to be spelled like events)."""
    exported = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in exported:
            continue
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            elements: list[ast.expr] = list(node.elts)
        elif isinstance(node, ast.Dict):
            elements = [k for k in node.keys if k is not None]
        else:
            continue
        names = [e.value for e in elements if isinstance(e, ast.Constant) and e.value in NAMES]
        if len(names) >= 2:
            found.append((node.lineno, names))
    return found


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_keeps_a_list_of_event_types_of_its_own(path: Path) -> None:
    relative = path.relative_to(SRC).as_posix()
    if relative.startswith(SPELLED_OUT):
        return
    found = _collections(ast.parse(path.read_text()))
    assert not found, f"{relative} lists event types {found}: derive them from EVENT_KINDS"


@pytest.mark.parametrize("relative", READERS)
def test_the_readers_name_no_event_type(relative: str) -> None:
    named = _named(ast.parse((SRC / relative).read_text()))
    # Building an event names its type (`NewEvent(event_type=...)`); reading one asks
    # the table what it means.
    assert not named, f"{relative} interprets event types by name: {named}"


def test_the_scan_sees_a_list_and_a_comparison() -> None:
    tree = ast.parse(
        'KINDS = ("step_created", "step_failed")\n'
        '__all__ = ["hook_received", "step_started"]\n'
        'done = kind == "run_failed"\n'
        'event = NewEvent(event_type="run_started")\n'
    )
    assert _collections(tree) == [(1, ["step_created", "step_failed"])]
    named = sorted(_named(tree))
    assert named[-1] == (3, "run_failed") and (4, "run_started") not in named


def test_the_storage_reference_has_the_tables_rows() -> None:
    text = (ROOT / "docs" / "reference" / "storage.md").read_text()
    section = text.split("### The event vocabulary", 1)[1]
    section = section.split("| type |", 1)[1].split("\n\n", 1)[0]  # its table
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| `")
    ]
    assert [row[0].strip("`") for row in rows] == list(EVENT_KINDS)
    for row in rows:
        kind = EVENT_KINDS[row[0].strip("`")]
        if kind.payload in SEALED.get(kind.name, ())[:1]:
            assert row[3] == f"`{kind.payload}`", row
        elif kind.payload is None:
            assert row[3] == "—", row
        assert row[4] == (f"`{kind.step_slot}_slot`" if kind.step_slot else "—"), row
