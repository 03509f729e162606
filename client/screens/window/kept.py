"""Kept seats in the window: what the lobby lists about a seat as it plays, and taking a seat again.

A networked seat is kept on disk (:mod:`client.store.kept_seats`) so that the player can come
back to it: from the lobby's "Games in progress", or at the next start when the program did not
close properly while at a network table.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QMessageBox

from client.i18n import tr
from client.net import tasks
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.resume import resume_online
from client.screens.rules_pages import GAMES
from client.screens.window.playing import Window
from client.store import kept_seats
from client.store.settings import Settings


def keep_relay_password(game: NetGame, settings: Settings) -> bool:
    """A kept seat names its relay without the password: the password goes where saved passwords go.

    Whether the settings changed (and are to be saved).
    """
    relay, password = game.relay, game.relay_password
    if game.saved is None or not password or settings.passwords.get(str(relay)) == password:
        return False
    settings.passwords[str(relay)] = password
    return True


def note_progress(game: NetGame, config: Path | None, current: bool) -> None:
    """Keep what the lobby lists about the seat (players, whose turn, last activity, over or given up).

    ``current``: the game is the one the window plays (a seat over for good is then no longer
    the one to offer after a crash).
    """
    kept = game.saved
    if kept is None:
        return
    table = game.session.table
    head = table.head if table is not None else -1
    # Over for this seat once its last entries are on the relay too: until then a resume still sends them.
    finished = bool(game.session.finished) and game.delivered
    verdict = game.verdict
    label = verdict.label if verdict is not None else ""  # as the headless peer keeps it: "fair", or what was found
    facts = (
        head,
        game.turn_name(),
        tuple(game.names),
        finished,
        game.human_left,
        label,
        game.turn_seat(),
        str(game.relay),
    )
    if game.kept_facts == facts:
        return
    if game.kept_facts is not None and head != game.kept_facts[0]:
        kept.last_activity = time.time()
    game.kept_facts = facts
    kept.turn, kept.turn_seat = game.turn_name(), game.turn_seat()
    kept.finished, kept.left, kept.verdict = finished, game.human_left, label
    if game.names:
        kept.names = list(game.names)
    if game.relay is not None:
        kept.relay = str(game.relay)  # where the game is now, if it moved to another relay
    if table is not None and not kept.timeout_ms:
        kept.timeout_ms = table.timeout_ms
    try:
        kept_seats.write_public(kept)
    except OSError:
        return
    if (finished or game.human_left) and current:
        kept_seats.clear_playing(config)


class ResumingWindow(Window, Protocol):
    """What taking a seat again needs of the window."""

    def confirm_abandon(self) -> bool: ...

    def to_lobby(self) -> None: ...

    def start_network(self, game: NetGame) -> NetGame: ...

    def resume_saved(self, seat: kept_seats.SavedSeat) -> None: ...


def resume_saved(window: ResumingWindow, seat: kept_seats.SavedSeat) -> None:
    """Take a kept seat again: read the room's log back from its relay and carry on."""
    if window.playing is not None and not window.confirm_abandon():
        return

    def resumed(game: NetGame) -> None:
        window.lobby.resuming_done()
        window.start_network(game)

    def failed(exc: BaseException) -> None:
        window.lobby.resuming_done()
        text = exc.message() if isinstance(exc, NetError) else f"{tr('common.error')}: {exc}"
        window.show_message(tr("common.error"), tr("resume.failed", room=seat.room, reason=text))

    if window.playing is not None:
        window.to_lobby()
    window.lobby.resuming(seat)
    tasks.spawn(resume_online(seat, window.settings.name, window.settings.bot_delay_ms), resumed, failed)


def offer_resume(window: ResumingWindow) -> kept_seats.SavedSeat | None:
    """At start: if the program did not close properly while at a network table, offer to go back there."""
    seat = kept_seats.crashed_in(window.config)
    kept_seats.clear_playing(window.config)
    if seat is None:
        return None
    game = tr(f"game.{seat.game}") if seat.game in GAMES else seat.game
    answer = QMessageBox.question(
        window.window(), tr("resume.offer_title"), tr("resume.offer", game=game, room=seat.room)
    )
    if answer != QMessageBox.StandardButton.Yes:
        return None
    window.resume_saved(seat)
    return seat
