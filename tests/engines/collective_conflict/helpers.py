"""Building Collective Conflict positions by hand for rule tests."""

from __future__ import annotations

from typing import Any

from engines.collective_conflict import CollectiveConflictState, GreedyBot
from engines.collective_conflict.rules import COMMAND, KIND_BY_NAME, WRECK
from engines.core import Decision, Knowledge, Referee
from engines.core.hexgrid import hex_id

CODES = {"R": "runner", "C": "climber", "N": "netcaster", "J": "jumper", "Q": "mothership"}


def build(
    units: dict[tuple[int, int], str | list[str]],
    players: int = 2,
    current: int = 0,
    moves: int = 5,
    **options: Any,
) -> tuple[CollectiveConflictState, Knowledge]:
    """A position from ``{(q, r): "0R"}`` or ``{(q, r): ["W", "1C"]}`` (bottom first).

    Codes: seat digit + kind letter (M MotherShip, D Decoy, R Runner, C Climber,
    N NetCaster, J Jumper, Q MotherShip in classic mode), or ``W`` for a Wreck.
    Returns the state and a full knowledge holding the sealed identities.
    """
    opts = {"first_player": 0, "data_cores": False, **options}
    state = CollectiveConflictState(players, opts)
    state.stacks.clear()
    state.p_owner.clear()
    state.p_kind.clear()
    state.p_pos.clear()
    truth = Knowledge(None)
    for (q, r), codes in sorted(units.items()):
        for code in [codes] if isinstance(codes, str) else codes:
            h = hex_id(q, r)
            if code == "W":
                state._new_piece(-1, WRECK, h)
                continue
            seat, letter = int(code[:-1]), code[-1]
            if letter in "MD" and not state.classic:
                pid = state._new_piece(seat, COMMAND, h)
                sid = state.next_sid
                state._seal(sid, seat, "command-unit", [q, r])
                state.commands[seat].append(sid)
                state.piece_sid[pid] = sid
                truth.sealed[sid] = "mothership" if letter == "M" else "decoy"
                state.reserve[seat][COMMAND] = max(0, state.reserve[seat].get(COMMAND, 0) - 1)
            else:
                kind = KIND_BY_NAME[CODES[letter]]
                state._new_piece(seat, kind, h)
                state.reserve[seat][kind] = max(0, state.reserve[seat].get(kind, 0) - 1)
            state.placed[seat] += 1
    state.moves = [moves] * players
    state.current = current
    state.blocked = set()
    state._legal = state._legal_set = None
    return state, truth


def seat_knowledge(truth: Knowledge, state: CollectiveConflictState, seat: int) -> Knowledge:
    """The part of ``truth`` that belongs to ``seat``."""
    k = Knowledge(seat)
    for sid, value in truth.sealed.items():
        if state.secrets[sid][0] == seat:
            k.sealed[sid] = value
    return k


def dests(state: CollectiveConflictState, src: tuple[int, int]) -> set[tuple[int, int]]:
    """Destinations of the unit on ``src`` among the public legal actions."""
    out = set()
    for action in state._public_legal():
        if action[0] in ("move", "cast") and action[1] == src:
            out.add(action[2])
        elif action[0] == "jump" and action[1] == src:
            out.add(action[3])
    return out


def reveal_all(state: CollectiveConflictState, truth: Knowledge) -> None:
    """Answer owed reveals with the true values."""
    from engines.core.pending import RevealOwed

    while isinstance(p := state.pending(), RevealOwed):
        state.push(p.seat, ("reveal", p.secret, truth.sealed[p.secret]), truth)


def _midgame(seed: bytes, plies: int) -> tuple[CollectiveConflictState, Referee]:
    """A real 2-player position: two greedy bots play ``plies`` decisions from the start."""
    state = CollectiveConflictState(2, {})
    referee = Referee(state, seed)
    bots = [GreedyBot(0, seed), GreedyBot(1, seed)]
    for _ in range(plies):
        pending = referee.run_table()
        assert isinstance(pending, Decision)
        k = referee.seats[pending.seat]
        referee.decide(pending.seat, bots[pending.seat].choose(state, k, state.legal_actions(pending.seat, k)))
    assert isinstance(referee.run_table(), Decision)
    return state, referee
