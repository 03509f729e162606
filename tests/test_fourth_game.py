"""A fourth game touches only its own folders, its docs and the two registries.

Each game owns ``engines/<game>/`` and ``client/games/<game>/``; the registries
(:mod:`engines.core.registry`, :mod:`client.registry`) are the only shared code that names it.
Imports are held by the contracts (``tests/test_architecture.py``); this scan holds the rest: no
shared module's code (its docstrings may speak of games) spells a game's name or package, so
nothing outside those places needs an edit when a game comes.
"""

from __future__ import annotations

import ast
from pathlib import Path

from client.registry import GAMES as SHOWN
from client.registry import KIT_MODULES, game_package
from engines.core.registry import engine_package, names

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engines", "protocol", "relay", "client")
REGISTRIES = {ROOT / "engines/core/registry.py", ROOT / "client/registry.py"}
#: The folders each game owns, one per layer that has game code.
GAME_FOLDERS = {ROOT.joinpath(*engine_package(g).split(".")) for g in names()} | {
    ROOT.joinpath(*game_package(g).split(".")) for g in SHOWN
}
#: What spells a game in code: its id ("system-launch") and its package's name ("system_launch").
WORDS = sorted(set(names()) | set(SHOWN) | {engine_package(g).rpartition(".")[2] for g in names()})


def shared_modules() -> list[Path]:
    return sorted(
        path
        for layer in LAYERS
        for path in (ROOT / layer).rglob("*.py")
        if path not in REGISTRIES and not any(folder in path.parents for folder in GAME_FOLDERS)
    )


def docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (of the module, a class or a function)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def game_words(tree: ast.AST) -> list[str]:
    """The code's string constants (not docstrings) and names that spell a game."""
    skip = docstrings(tree)
    found = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        and any(word in node.value for word in WORDS)
    ]  # fmt: skip
    found += [
        node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and any(w in node.id.lower() for w in WORDS)
    ]
    return found


def test_each_registered_game_has_its_folders():
    for game in names():
        assert ROOT.joinpath(*engine_package(game).split(".")).is_dir(), game
    for game, module in KIT_MODULES.items():
        folder = ROOT.joinpath(*game_package(game).split("."))
        assert (folder / "kit.py").is_file(), module


def test_no_shared_module_names_a_game():
    offenders = {}
    for path in shared_modules():
        words = game_words(ast.parse(path.read_text(encoding="utf-8")))
        if words:
            offenders[path.relative_to(ROOT).as_posix()] = sorted(set(words))
    assert offenders == {}


def test_the_scan_sees_what_it_forbids():
    """The scan is not blind: code spelling a game's id or package is caught, its docstring is not."""
    game = names()[0]
    package = engine_package(game).rpartition(".")[2]
    tree = ast.parse(f'"""About {game}."""\nG = "{game}"\nM = "client.games.{package}.kit"\n')
    assert game_words(tree) == [game, f"client.games.{package}.kit"]
    assert ROOT / "protocol/session/peer.py" in shared_modules(), "the scan reads the shared modules"
