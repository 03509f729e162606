"""Many whole games in one process, deterministic by seed (``python -m engines selfplay``)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core.referee import Referee
from engines.core.registry import GameSpec, UnknownBot, players_text
from engines.core.registry import bot as bot_of


@dataclass
class SelfplaySummary:
    game: str
    players: int
    games: int
    bot: str
    wins: list[int]
    draws: int
    actions: int
    digest: str
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "bot": self.bot,
            "results": {"wins": self.wins, "draws": self.draws},
            "mean_actions": round(self.actions / self.games, 2) if self.games else 0,
            "actions": self.actions,
            "digest": self.digest,
            "seconds": round(self.seconds, 3),
        }


def game_seed(seed: int | str, index: int) -> bytes:
    return f"{seed}/{index}".encode()


def selfplay(
    spec: GameSpec,
    players: int,
    games: int,
    seed: int | str,
    bot: str,
    options: Mapping[str, Any] | None = None,
) -> SelfplaySummary:
    """Play ``games`` games with ``bot`` in every seat; digest over final hashes."""
    if not spec.min_players <= players <= spec.max_players:
        raise ValueError(f"{spec.title} is {players_text(spec)}, not {players}")
    try:
        make_bot = bot_of(spec, bot)
    except UnknownBot as exc:
        raise ValueError(str(exc)) from None
    digest = hashlib.sha256(b"sealed-table/selfplay\x00")
    wins = [0] * players
    draws = 0
    actions = 0
    started = time.perf_counter()
    for index in range(games):
        seed_bytes = game_seed(seed, index)
        state = spec.new_state(players, dict(options or {}))
        referee = Referee(state, seed_bytes)
        bots = [make_bot(seat, seed_bytes) for seat in range(players)]
        over = referee.play(bots)
        if over.draw:
            draws += 1
        else:
            wins[over.winners[0]] += 1
        actions += len(referee.history)
        digest.update(state.hash())
    return SelfplaySummary(
        spec.name, players, games, bot, wins, draws, actions, digest.hexdigest(), time.perf_counter() - started
    )
