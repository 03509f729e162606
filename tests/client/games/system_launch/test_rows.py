"""System Launch's seat rows keep their room: a full System never overlaps, and no row grows as cards arrive.

An opponent's System row must not overlap its cards at 4 cards, and a row must not change
width as cards arrive (as it would if each row asked for room by its current count).  Every
table size from 3 to 6 players is checked at the window's usual 1280 × 820.
"""

from __future__ import annotations

import copy

import pytest

from engines.system_launch.cards import CARD_KIND, FIREWALL, HARD_DRIVE, PROCESSOR, RAM

GAME = "system-launch"


def one_of(kind: int, skip: int = 0) -> int:
    return [card for card, k in enumerate(CARD_KIND) if k == kind][skip]


def rows_of(table):  # type: ignore[no-untyped-def]
    return {
        (seat, name): getattr(panel, name)
        for seat, panel in table.seat_panels.items()
        for name in ("hand", "system", "discard")
    }


def settled(qtbot, table, view, knowledge):  # type: ignore[no-untyped-def]
    table.show_view(view, knowledge, ())
    qtbot.wait(20)
    return {key: row.geometry() for key, row in rows_of(table).items()}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_full_system_never_overlaps_and_rows_keep_their_width(qtbot, window, players):
    window.start_local(GAME, players, seed=b"rows/%d" % players)
    game, table = window.game, window.game_screen.table
    qtbot.waitUntil(game.human_to_move, timeout=10_000)
    empty = copy.deepcopy(game.view())
    for seat in range(players):
        empty["system"][seat], empty["discard"][seat], empty["hands"][seat] = [], [], 0
    full = copy.deepcopy(empty)
    system = [one_of(PROCESSOR), one_of(RAM), one_of(HARD_DRIVE), one_of(FIREWALL)]
    for seat in range(players):
        if seat != full["seat"]:
            full["system"][seat] = system
            full["discard"][seat] = [one_of(PROCESSOR, i + 1) for i in range(3)] + [
                one_of(RAM, i + 1) for i in range(3)
            ]
            full["hands"][seat] = 7

    before = settled(qtbot, table, empty, game.knowledge)
    after = settled(qtbot, table, full, game.knowledge)
    assert after == before, "a row changed its size as cards arrived"
    for (seat, name), row in rows_of(table).items():
        if name == "system":
            width, _ = row.card_size()
            assert len(row.faces) == 4 and row.step() >= width + 2, (seat, row.width(), row.step())
