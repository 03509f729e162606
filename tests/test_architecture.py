"""The architecture holds: import-linter's contracts, and those drawn from the two game registries.

``pyproject.toml`` states the contracts that name no game (the four layers, the client's own
layers, who may speak to the relay layer, no cycle); ``scripts/test.sh`` runs ``lint-imports`` on
them.  The contracts that name the games are drawn here from the registries
(:mod:`engines.core.registry`, :mod:`client.registry`), so that adding a game never touches them:
the games never import each other, the trust and relay layers import none, and the client's shared
code imports none of a game's folder.  A toy tree with one planted breach per contract shows that
each of them is not blind.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from client.registry import GAMES as SHOWN
from client.registry import game_package
from engines.core.registry import engine_package, names

ROOT = Path(__file__).resolve().parents[1]


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def shared_client(root: Path, client_games: list[str]) -> list[str]:
    """Every module and package of ``client`` that is no game's folder (nor holds one)."""
    holders = {game.rpartition(".")[0] for game in client_games}
    found = []
    for path in sorted((root / "client").iterdir()):
        name = "client." + path.stem
        if path.name == "__pycache__" or not (path.suffix == ".py" or (path / "__init__.py").exists()):
            continue
        if name in holders:  # client.games: its modules that are no game's, one by one
            found += [f"{name}.{p.stem}" for p in sorted(path.iterdir()) if p.suffix == ".py" and p.stem != "__init__"]
        elif path.stem != "__init__":
            found.append(name)
    return found


def game_contracts(root: Path, engine_games: list[str], client_games: list[str]) -> str:
    """The contracts that name the games, as ``[[tool.importlinter.contracts]]`` tables."""
    shared = shared_client(root, client_games)
    return f"""
[[tool.importlinter.contracts]]
name = "The games' engines never import each other"
type = "independence"
modules = {_toml_list(engine_games)}

[[tool.importlinter.contracts]]
name = "The games' screens never import each other"
type = "independence"
modules = {_toml_list(client_games)}

[[tool.importlinter.contracts]]
name = "The trust layer and the relay import no game"
type = "forbidden"
source_modules = ["protocol", "relay"]
forbidden_modules = {_toml_list(engine_games)}

[[tool.importlinter.contracts]]
name = "The client's shared code imports no game's folder"
type = "forbidden"
source_modules = {_toml_list(shared)}
forbidden_modules = {_toml_list(client_games)}
allow_indirect_imports = true
"""


def lint_imports(root: Path, config: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the tree at ``root`` with ``config`` (written into ``folder``)."""
    path = folder / "importlinter.toml"
    path.write_text(config, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
         str(path), "--no-cache"],
        capture_output=True, text=True, cwd=root, timeout=120,
    )  # fmt: skip


def project_config() -> str:
    """``pyproject.toml``'s import contracts, as the file they are in."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    tomllib.loads(text)  # the file itself must parse
    return text[text.index("\n[tool.importlinter]\n") + 1 :]


def test_the_contracts_drawn_from_the_registries_hold(tmp_path: Path) -> None:
    engine_games = sorted(engine_package(game) for game in names())
    client_games = sorted(game_package(game) for game in SHOWN)
    config = project_config() + game_contracts(ROOT, engine_games, client_games)
    done = lint_imports(ROOT, config, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout


# -- a toy tree: every contract catches its planted breach -------------------------------------------------
TOY = {
    "engines/__init__.py": "",
    "engines/core/__init__.py": "",
    "engines/alpha/__init__.py": "import engines.core\n",
    "engines/beta/__init__.py": "import engines.core\n",
    "protocol/__init__.py": "import engines.core\n",
    "relay/__init__.py": "import protocol\n",
    "client/__init__.py": "",
    "client/__main__.py": "import client.app\n",
    "client/app.py": "import client.screens\n",
    "client/qtguard.py": "",
    "client/registry.py": "",
    **{f"client/{part}/__init__.py": "" for part in ("tools", "screens", "table", "games", "headless", "net", "play",
                                                     "store", "ui", "i18n")},
    "client/games/kit.py": "import client.registry\n",
    "client/games/alpha/__init__.py": "import client.games.kit\n",
    "client/games/beta/__init__.py": "import client.games.kit\n",
    "client/net/room.py": "import relay\n",
    "tests/__init__.py": "",
}
#: One breach per contract: (file, the import planted in it, the contract it breaks).
BREACHES = [
    ("engines/core/__init__.py", "import client\n", "The four layers import downwards only"),
    ("protocol/__init__.py", "import tests\n", "No layer imports the tests"),
    ("client/net/__init__.py", "import client.screens\n", "The client in layers"),
    ("client/screens/__init__.py", "import relay\n", "Only the client's network part and the headless peer"),
    ("client/play/a.py", "import client.play.b\n", "No package imports itself round a cycle"),
    ("engines/alpha/__init__.py", "import engines.beta\n", "The games' engines never import each other"),
    ("client/games/alpha/__init__.py", "import client.games.beta\n", "The games' screens never import each other"),
    ("relay/__init__.py", "import engines.alpha\n", "The trust layer and the relay import no game"),
    ("client/table/__init__.py", "import client.games.beta\n", "The client's shared code imports no game's folder"),
]


def _toy(root: Path) -> None:
    for name, text in TOY.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "client/play/a.py").write_text("", encoding="utf-8")
    (root / "client/play/b.py").write_text("import client.play.a\n", encoding="utf-8")


def _toy_config(root: Path) -> str:
    return project_config() + game_contracts(
        root, ["engines.alpha", "engines.beta"], ["client.games.alpha", "client.games.beta"]
    )


def test_the_toy_tree_keeps_every_contract(tmp_path: Path) -> None:
    _toy(tmp_path / "tree")
    done = lint_imports(tmp_path / "tree", _toy_config(tmp_path / "tree"), tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("where", "planted", "contract"), BREACHES, ids=[b[2] for b in BREACHES])
def test_each_contract_catches_its_breach(tmp_path: Path, where: str, planted: str, contract: str) -> None:
    _toy(tmp_path / "tree")
    path = tmp_path / "tree" / where
    path.write_text(path.read_text(encoding="utf-8") + planted, encoding="utf-8")
    done = lint_imports(tmp_path / "tree", _toy_config(tmp_path / "tree"), tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    broken = [line for line in done.stdout.splitlines() if line.endswith("BROKEN")]
    assert len(broken) == 1 and broken[0].startswith(contract), done.stdout
