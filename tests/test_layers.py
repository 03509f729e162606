"""The four packages import downwards only, and no module imports itself round a cycle.

engines <- protocol <- relay <- client: a module may import its own layer and the
layers below it, never one above.  Within and across the layers the module import
graph has no cycle, counting every import the code holds (at module level, inside
functions and under ``TYPE_CHECKING``): an import moved into a function to dodge a
cycle is still the cycle.  The graph is read from the source (AST), so the test
needs no import to work and sees every branch.

A package's ``__init__`` that a submodule's import runs on the way (``import a.b.c``
runs ``a`` and ``a.b``) is not an edge of its own: re-exporting submodules from an
``__init__`` is the usual layout and no cycle while the submodules do not import
the ``__init__`` itself, which an explicit ``from a.b import name`` does count.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Lowest first: a module may import from its own layer and the ones before it.
LAYERS = ("engines", "protocol", "relay", "client")
#: The project's other top-level code: no layer may import it.
OUTSIDE = ("tests", "benchmarks", "scripts")


def _modules(root: Path) -> dict[str, Path]:
    """Every module of the four layers under ``root`` by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(module: str, path: Path, known: set[str]) -> set[str]:
    """The names ``module`` imports anywhere in its code: the deepest known module each one names."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                # ``from pkg import submodule`` imports the submodule; ``from mod import name`` the module
                names.add(sub if sub in known or _outside(sub) else target)
    return {_deepest(name, known) for name in names}


def _outside(name: str) -> bool:
    return name.split(".")[0] in OUTSIDE


def _deepest(name: str, known: set[str]) -> str:
    """``name`` itself if it is a module of ours, else its longest known prefix (else ``name``)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return name


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the four layers (or the project's other code) it imports."""
    modules = _modules(root)
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        imported = _imported(module, path, known)
        graph[module] = {m for m in imported if (m in known or _outside(m)) and m != module}
    return graph


def _layer(module: str) -> int:
    top = module.split(".")[0]
    return LAYERS.index(top) if top in LAYERS else len(LAYERS)


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if _layer(target) > _layer(module)
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts with more than one module (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0

    def visit(root: str) -> None:
        nonlocal counter
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def _path_round(part: list[str], graph: dict[str, set[str]]) -> str:
    """One cycle inside the strongly connected ``part``, written out for the failure message."""
    members = set(part)
    start = part[0]
    path = [start]
    seen = {start}
    node = start
    while True:
        nxt = sorted(t for t in graph[node] if t in members)
        if start in nxt and len(path) > 1:
            return " -> ".join([*path, start])
        step = next((t for t in nxt if t not in seen), None)
        if step is None:
            return " -> ".join([*path, nxt[0]]) if nxt else " -> ".join(path)
        path.append(step)
        seen.add(step)
        node = step


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """The project's graph, read once for the tests below, in a fresh interpreter.

    CPython 3.11.7's ``ast.parse`` can raise "AST constructor recursion depth mismatch" late in a
    long test session (its recursion bookkeeping goes wrong after earlier tests; fixed in 3.11.8),
    so the source is read where no earlier test has run.
    """
    script = (
        "import json, runpy, sys; "
        f"g = runpy.run_path({str(Path(__file__))!r})['import_graph'](); "
        "json.dump({k: sorted(v) for k, v in g.items()}, sys.stdout)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    return {k: set(v) for k, v in json.loads(out.stdout).items()}


def test_each_layer_imports_only_its_own_and_the_layers_below(graph):
    assert upward_imports(graph) == []


def test_the_module_import_graph_has_no_cycle(graph):
    found = cycles(graph)
    assert [_path_round(part, graph) for part in found] == []


def test_the_graph_sees_imports_inside_functions_and_relative_ones(tmp_path):
    """The reader itself: a function-level relative import that closes a cycle, and an upward one."""
    pkg = tmp_path / "engines" / "toy"
    pkg.mkdir(parents=True)
    (tmp_path / "engines" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("from . import b\n\ndef f():\n    return b\n")
    (pkg / "b.py").write_text("def g():\n    from .a import f\n    from client import app\n    return f, app\n")
    for layer in LAYERS[1:]:
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text("")
    (tmp_path / "client" / "app.py").write_text("")
    graph = import_graph(tmp_path)
    assert graph["engines.toy"] == {"engines.toy.a"}
    assert graph["engines.toy.b"] == {"engines.toy.a", "client.app"}
    assert cycles(graph) == [["engines.toy.a", "engines.toy.b"]]
    assert upward_imports(graph) == ["engines.toy.b imports client.app"]
