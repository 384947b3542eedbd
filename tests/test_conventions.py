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


@pytest.mark.parametrize(
    "name", ["tether.stores._records", "tether.stores._agent_records", "tether.stores._events"]
)
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


def _module_graph() -> dict[str, set[str]]:
    """Each tether module and the tether modules it imports: at the top, under
    ``TYPE_CHECKING`` and inside functions alike (each means it knows the other)."""
    paths = {
        ".".join(p.relative_to(SRC.parent).with_suffix("").parts): p for p in SRC.rglob("*.py")
    }
    modules = {name.removesuffix(".__init__"): path for name, path in paths.items()}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(
                        [*parts[: len(parts) - node.level + 1], *([base] if base else [])]
                    )
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.add(sub if sub in modules else base)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[module] = {t for t in targets if t in modules and t != module}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_modules_import_each_other_in_a_circle() -> None:
    # A package's __init__ re-exports its modules: a module importing its own package's
    # face would be a circle through it, and is one here too.
    assert _circles(_module_graph()) == []


#: The agent wing's parts, lowest first: a part imports only itself and the parts
#: before it (`tether.agent` itself, the public face, imports them all).
AGENT_PARTS = [
    "models",
    "_records",
    "_context",
    "_tools",
    "mcp",
    "_agent",
    "_stored",
    "_turn",
    "_registry",
    "_session",
]


def test_the_agent_wings_parts_point_one_way() -> None:
    def part(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if parts[:2] == ["tether", "agent"] and len(parts) > 2 else None

    wrong = []
    for module, targets in _module_graph().items():
        own = part(module)
        if own is None:
            continue
        assert own in AGENT_PARTS, f"{module} is in no part of AGENT_PARTS"
        for target in targets:
            other = part(target)
            if other is not None and AGENT_PARTS.index(other) > AGENT_PARTS.index(own):
                wrong.append(f"{module} ({own}) imports {target} ({other})")
    assert wrong == []
