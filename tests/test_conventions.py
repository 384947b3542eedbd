"""Meta-tests of the project's conventions: layering, exports, module size, records."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tether"
#: A layer may import only the layers after it in this list.
LAYERS = ["cli", "server", "agent", "durable", "stores"]
PUBLIC_PACKAGES = [
    "tether",
    "tether.stores",
    "tether.durable",
    "tether.agent",
    "tether.agent.mcp",
    "tether.agent.models",
    "tether.testing",
    "tether.testing.contract",
]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    package = ".".join(path.relative_to(SRC.parent).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                found.add(".".join([*base, node.module or ""]).rstrip("."))
            elif node.module:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "tether" and parts[1] in LAYERS:
        return parts[1]
    return None


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_layers_point_down_only(path: Path) -> None:
    own = _layer(".".join(path.relative_to(SRC.parent).with_suffix("").parts))
    if own is None:
        return
    allowed = set(LAYERS[LAYERS.index(own) :])
    for module in _imports(path):
        target = _layer(module)
        assert target is None or target in allowed, f"{path.name} ({own}) imports {module}"


BACKENDS = ["memory", "sqlite", "postgres"]


@pytest.mark.parametrize(
    "path",
    sorted(p for b in BACKENDS for p in (SRC / "stores" / b).rglob("*.py")),
    ids=lambda p: str(p.relative_to(SRC)),
)
def test_backends_never_import_each_other(path: Path) -> None:
    own = path.relative_to(SRC / "stores").parts[0]
    for module in _imports(path):
        parts = module.split(".")
        if parts[:2] == ["tether", "stores"] and len(parts) > 2 and parts[2] in BACKENDS:
            assert parts[2] == own, f"{path.name} ({own}) imports {module}: share it in stores/"


@pytest.mark.parametrize(
    "path", sorted((SRC / "stores" / "memory").rglob("*.py")), ids=lambda p: p.name
)
def test_the_memory_backend_is_built_on_the_backend_kit_alone(path: Path) -> None:
    # The worked example of `docs/how-to/backend.md`: what it uses, a third-party
    # backend can use too, so it reaches tether only through the public seam.
    allowed = {"tether.stores.kit", "tether.errors"}
    for module in _imports(path):
        if module.startswith("tether.stores.memory") or not module.startswith("tether"):
            continue
        assert module in allowed, f"{path.name} imports {module}: use tether.stores.kit"


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_modules_stay_small(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= 1000, f"{path} is over 1,000 lines"


def _isort_key(name: str) -> tuple[int, str]:
    # The order ruff (RUF022) keeps: CONSTANTS, then Classes, then functions.
    if name.isupper() or (name.replace("_", "").isupper()):
        return (0, name)
    return (1 if name[:1].isupper() else 2, name)


@pytest.mark.parametrize("name", PUBLIC_PACKAGES)
def test_all_is_sorted_and_resolves(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported, key=_isort_key), f"{name}.__all__ is not sorted"
    for attr in exported:
        assert hasattr(module, attr), f"{name}.__all__ names missing {attr!r}"


@pytest.mark.parametrize("name", ["tether.stores._records", "tether.stores._agent_records"])
def test_records_are_frozen_and_keyword_only(name: str) -> None:
    module = importlib.import_module(name)
    records = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == name
    ]
    assert records
    for record in records:
        params = record.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen, f"{record.__name__} is not frozen"
        assert all(f.kw_only for f in dataclasses.fields(record)), f"{record.__name__}"


@pytest.mark.parametrize(
    "path", sorted((SRC / "agent").rglob("*.py")), ids=lambda p: str(p.relative_to(SRC))
)
def test_the_agent_layer_uses_only_the_public_faces_below_it(path: Path) -> None:
    """`tether.agent` reaches the engine and the stores through their public modules.

    It never imports a private module of `tether.durable` or `tether.stores`, and never
    touches the engine's own store (`stores.workflow`): the run's event log, streams and
    rows are the engine's, reached through `tether.durable` (streams, hooks, purges,
    writes that ride on a step's commit).
    """
    for module in _imports(path):
        parts = module.split(".")
        if parts[:2] in (["tether", "durable"], ["tether", "stores"]) and len(parts) > 2:
            assert not parts[2].startswith("_"), f"{path.name} imports the private {module}"
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "workflow":
            owner = ast.unparse(node.value)
            assert "registry" in owner, (
                f"{path.name} reaches the engine's store through {owner}.workflow"
            )
