"""The engine's wings import one way: no cycle, at most nine layers, the parser, the answers and the command line at the edge.

``adjudicator/`` is a handful of wings (``model/``, ``words/``, ``rules/``, ...) and a few
modules. Each wing imports only wings below it in :data:`LAYERS`; ``answers`` (the JSON documents of the
results, which the service, the phone and the command line all give) stands on top. The web layer and the
benchmarks stand above the engine and nothing of the engine imports them. Imports are read
from the source (``ast``), as a reader of the code sees them; an import made only for type
checking (``if TYPE_CHECKING:``) runs nothing and is left out.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "adjudicator"

# Bottom first; a wing may import the wings on lower lines only (one line: neither imports the other).
LAYERS = (
    ("model", "memo", "turns"),
    ("words",),
    ("variants",),
    ("rules",),
    ("options", "scoring", "predicates", "citefill", "replay"),
    ("compare", "input"),
    ("answers", "cost", "link"),
    ("cli",),
    ("__main__",),
)
MAX_DEPTH = 9  # six floors of engine, the answers' edge on them, the command line and ``python -m`` on top


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in ENGINE.rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports when it runs (absolute dotted names)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            modules = {f"{name}.{a.name}" for a in node.names if f"{name}.{a.name}" in MODULES}
            found.update(modules)
            if len(modules) < len(node.names):  # a name defined in ``name`` itself, not a submodule of it
                found.add(name)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _engine_target(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


GRAPH = {m: {t for t in map(_engine_target, _imports(p)) if t and t != m} for m, p in MODULES.items()}


def _wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None  # None: the package's façade, adjudicator/__init__.py


def test_every_wing_has_a_layer():
    wings = {_wing(m) for m in MODULES} - {None}
    placed = {w for layer in LAYERS for w in layer}
    assert wings == placed, f"wings without a layer: {sorted(wings - placed)}; layers naming no wing: {sorted(placed - wings)}"


def test_wings_import_only_wings_below_them():
    level = {w: i for i, layer in enumerate(LAYERS) for w in layer}
    upward = sorted(f"{m} -> {t}" for m, targets in GRAPH.items() for t in targets
                    if _wing(m) and _wing(t) and _wing(m) != _wing(t) and level[_wing(t)] >= level[_wing(m)])
    assert not upward, "imports that do not run downward:\n" + "\n".join(upward)


def test_no_import_cycle_and_at_most_seven_layers():
    depth: dict[str, int] = {}
    on_path: list[str] = []

    def layers_under(module: str) -> int:  # the module's floor: 1 + the highest floor it imports
        if module in on_path:
            pytest.fail("import cycle: " + " -> ".join(on_path[on_path.index(module):] + [module]))
        if module not in depth:
            on_path.append(module)
            depth[module] = 1 + max((layers_under(t) for t in GRAPH[module]), default=0)
            on_path.pop()
        return depth[module]

    for module in GRAPH:
        layers_under(module)
    wings = {}
    for module in GRAPH:
        wing = _wing(module)
        if wing:
            wings.setdefault(wing, set()).update(_wing(t) for t in GRAPH[module] if _wing(t) not in (None, wing))
    floors: dict[str, int] = {}

    def floor(wing: str) -> int:
        if wing not in floors:
            floors[wing] = 1 + max((floor(w) for w in wings[wing]), default=0)
        return floors[wing]

    assert max(floor(w) for w in wings) <= MAX_DEPTH, floors


def test_the_engine_imports_nothing_of_the_layers_above_it():
    above = ("web_api", "flask", "app", "bench", "tests", "werkzeug")
    found = sorted(f"{m} -> {name}" for m, p in MODULES.items() for name in _imports(p)
                   if name.split(".")[0] in above)
    assert not found, found


def test_only_the_input_wing_loads_marshmallow():
    found = sorted(m for m, p in MODULES.items() for name in _imports(p)
                   if name.split(".")[0] == "marshmallow" and _wing(m) != "input")
    assert not found, found


def test_the_web_layer_imports_nothing_above_it():
    found = sorted(f"{_module(p)} -> {name}" for p in (ROOT / "web_api").rglob("*.py") for name in _imports(p)
                   if name.split(".")[0] in ("app", "bench", "tests"))
    assert not found, found


@pytest.mark.parametrize("module", ["adjudicator.rules", "adjudicator.options.listing", "adjudicator.scoring",
                                    "adjudicator.compare.comparison", "adjudicator.predicates", "adjudicator.words.render"])
def test_the_engine_runs_without_the_parser(module):
    code = f"import sys, {module}; assert 'marshmallow' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_the_parser_is_loaded_when_asked_for():
    code = ("import sys, adjudicator; assert 'marshmallow' not in sys.modules; "
            "from adjudicator import ruling_request; assert 'marshmallow' in sys.modules")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def figures() -> dict:
    """The import graph's size and depth: files, import edges, the deepest chain of files, each wing's floor."""
    depth: dict[str, int] = {}

    def floor_of(module: str) -> int:
        if module not in depth:
            depth[module] = 1 + max((floor_of(t) for t in GRAPH[module]), default=0)
        return depth[module]

    wings: dict[str, set] = {}
    for module in GRAPH:
        wings.setdefault(_wing(module) or "__init__", set()).update(
            _wing(t) or "__init__" for t in GRAPH[module] if (_wing(t) or "__init__") != (_wing(module) or "__init__"))
    floors: dict[str, int] = {}

    def wing_floor(wing: str) -> int:
        if wing not in floors:
            floors[wing] = 1 + max((wing_floor(w) for w in wings[wing]), default=0)
        return floors[wing]

    return {"files": len(GRAPH), "edges": sum(len(t) for t in GRAPH.values()),
            "file_layers": max(map(floor_of, GRAPH)), "wing_edges": sum(len(w) for w in wings.values()),
            "wing_floors": {w: wing_floor(w) for w in sorted(wings, key=wing_floor)}}


if __name__ == "__main__":  # python tests/test_layering.py: the figures in notes/layout-19.md
    print(figures())
