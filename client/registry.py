"""The games this program shows: the one place outside a game's folder that names it.

Each game is one folder of ``client/games/`` (``client/games/<package>/``: its kit, table, art or
paint, widgets, words and showcase).  The shared screens find a game only through this table: its kit
module (attribute ``KIT``, see :mod:`client.games.kit`), and from its package the catalogue of its
words.  Adding a game is one line here.  Imports nothing, so that every module may read it.
"""

from __future__ import annotations

#: The module holding each playable game's kit, in the order the lobby lists the games.
KIT_MODULES: dict[str, str] = {
    "system-launch": "client.games.system_launch.kit",
    "collective-conflict": "client.games.collective_conflict.kit",
    "anomaly-maze": "client.games.anomaly_maze.kit",
}

#: Every game the program knows, in the lobby's order.
GAMES: tuple[str, ...] = tuple(KIT_MODULES)


def game_package(game: str) -> str:
    """The package (``client.games.<name>``) that holds ``game``'s folder."""
    return KIT_MODULES[game].rsplit(".", 1)[0]
