"""Each game is one folder of ``client/``: the shared client names no game and imports none.

The shared modules (``client/*.py``) reach a game only through the registry
(``client/registry.py``: kit module per game id), so adding a game touches one line
outside its folder.  This scan is what keeps it so: a shared module that imports
``client.<game>`` (absolutely or relatively) or spells a game's id in its code fails here.
Docstrings may speak of games (they are documentation); code may not.
"""

from __future__ import annotations

import ast
from pathlib import Path

from client.registry import GAMES, KIT_MODULES, game_package

CLIENT = Path(__file__).resolve().parents[2] / "client"
REGISTRY = CLIENT / "registry.py"
GAME_PACKAGES = {game_package(game).split(".")[1] for game in GAMES}


def shared_modules() -> list[Path]:
    return sorted(path for path in CLIENT.glob("*.py") if path != REGISTRY)


def imported_modules(tree: ast.AST) -> list[str]:
    """Every module an import names, relative ones spelled as ``client.<name>``."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1:  # from .x import y / from . import x
                base = f"client.{node.module}" if node.module else "client"
                names += [base] if node.module else [f"client.{alias.name}" for alias in node.names]
            elif node.level == 0 and node.module:
                names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


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
    """The code's string constants (not docstrings) that name a game's id or package."""
    skip = docstrings(tree)
    words = list(GAMES) + sorted(GAME_PACKAGES)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and any(word in node.value for word in words)
    ]


def test_the_registry_names_every_game_folder():
    for game, module in KIT_MODULES.items():
        package = game_package(game).split(".")[1]
        assert (CLIENT / package).is_dir(), game
        assert (CLIENT / package / "kit.py").is_file(), module


def test_shared_modules_import_no_games_module():
    offenders = {}
    for path in shared_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bad = [m for m in imported_modules(tree) if m.split(".")[:2][-1] in GAME_PACKAGES and m.startswith("client.")]
        if bad:
            offenders[path.name] = bad
    assert offenders == {}


def test_shared_modules_name_no_game():
    offenders = {}
    for path in shared_modules():
        words = game_words(ast.parse(path.read_text(encoding="utf-8")))
        if words:
            offenders[path.name] = words
    assert offenders == {}


def test_the_scan_sees_what_it_forbids():
    """The scan is not blind: a module importing a game and spelling its id is caught."""
    game = GAMES[0]
    package = game_package(game).split(".")[1]
    tree = ast.parse(
        f'"""About {game}."""\nfrom .{package}.table import X\nfrom client import {package}\nG = "{game}"\n'
    )
    assert {f"client.{package}.table", f"client.{package}"} <= set(imported_modules(tree))
    assert game_words(tree) == [game]
