"""The standard library the phone's engine loads, found by running it, and every source made small.

Run by ``phone_engine/cut.mjs`` under the very Pyodide the phone runs (Node, at build time; see
``scripts/build-engine-archive``), with the whole standard library and the engine's files staged in
``REFEREE`` (the project's modules the engine imports, the libraries' and the data files). It

1. imports every module of the standard library that a staged source names in an import statement,
   at the top of a module or inside a function (so a lazy import on a path no question takes is
   still found), then the engine itself, and asks it :func:`wake.wake`'s questions in every
   language (so what a first answer loads on demand is found too); and unpacks a zip as
   ``pyodide.unpackArchive`` does (so the engine's archive can be loaded that way too);
2. lists the modules of the standard library that are then loaded from its zip: Pyodide's own
   start-up needs, and those of the engine, with everything they import in turn. Modules frozen into
   the interpreter are not listed (Python never reads their sources);
3. writes each listed module, and each staged source, without its docstrings and comments
   (``ast.unparse`` of its tree, the tree checked equal to the original's but for the docstrings), as
   the files the phone gets. Behaviour is Python's own ``-OO`` but for the asserts, which stay.

The engine's answers under the cut library are compared with the service's by the tests
(``tests/test_offline_engine_answers.py``), which is what proves nothing is missing.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import sys

STDLIB_ZIP = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (never run; their ``else`` is)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))


def imported_names(tree: ast.AST) -> set[str]:
    """Every absolute module name an import statement in ``tree`` names (``from a.b import c``: a.b and a.b.c),
    but under ``if TYPE_CHECKING:``."""
    names: set[str] = set()
    for node in runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def sources(folder: str):
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(root, name)


def load_everything(referee: str) -> dict:
    """Import what the staged sources name from the standard library, then the engine, and wake it."""
    sys.path.insert(0, referee)
    named: set[str] = set()
    for path in sources(referee):
        with open(path, encoding="utf-8") as fh:
            named |= imported_names(ast.parse(fh.read(), path))
    for name in sorted(named):
        if name.partition(".")[0] in sys.stdlib_module_names:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 -- another platform's module, or a name that is not a module
                pass
    import wake

    said = wake.wake()
    unpack_as_pyodide_does()
    return said


def unpack_as_pyodide_does() -> None:
    """Unpack a small zip the way Pyodide's own loader does (``pyodide.unpackArchive``: shutil and zipfile,
    the names read as cp437), so the built archive can still be loaded that way, as other tests and tools do;
    the page's worker writes its files itself."""
    import shutil
    import tempfile
    import zipfile

    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.zip")
        with zipfile.ZipFile(probe, "w") as zf:
            zf.writestr("probe.txt", "")
        shutil.unpack_archive(probe, os.path.join(tmp, "out"), "zip")


def loaded_from_stdlib() -> list[str]:
    """The standard library's files behind the modules loaded now (paths inside its zip)."""
    found = set()
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or getattr(module, "__file__", None)
        if isinstance(origin, str) and origin.startswith(STDLIB_ZIP):
            found.add(origin[len(STDLIB_ZIP):])
    return sorted(found)


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def without_docstrings(tree: ast.Module) -> ast.Module:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            if _is_docstring(node.body[0]):
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), node.body[0])]
    return tree


def small(source: str, name: str) -> str:
    """The source without docstrings and comments; refused (ValueError) unless it parses to the same tree."""
    tree = without_docstrings(ast.parse(source, name))
    out = ast.unparse(tree) + "\n"
    if ast.dump(ast.parse(out, name)) != ast.dump(tree):
        raise ValueError(f"{name}: its small form is not the same program")
    return out


def main(referee: str, out: str) -> dict:
    said = load_everything(referee)
    stdlib = loaded_from_stdlib()
    import zipfile

    with zipfile.ZipFile(STDLIB_ZIP.rstrip("/")) as zf:
        for rel in stdlib:
            target = os.path.join(out, "stdlib", rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(small(zf.read(rel).decode("utf-8"), rel))
    for path in sources(referee):
        rel = os.path.relpath(path, referee)
        target = os.path.join(out, "referee", rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(path, encoding="utf-8") as fh, open(target, "w", encoding="utf-8") as dst:
            dst.write(small(fh.read(), rel))
    report = {"stdlib": stdlib, "wake": said, "python": sys.version.split()[0]}
    with open(os.path.join(out, "cut.json"), "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=1)
    return report
