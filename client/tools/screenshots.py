"""``python -m client.tools.screenshots OUTDIR``: every screen of the program as PNG files.

Renders offscreen at 1280×800 (no display needed) with a throw-away config directory, so
the user's own settings are never touched: the lobby (a relay error, a network search's answer), the settings,
then each game's showcase from its kit (``GameKit.showcase``): its table at moments worth
seeing and the shared screens (rules, report, replay) its game ends in.  ``--scale 2`` renders
at a device pixel ratio of 2, as on a high-DPI screen; ``--language pl|ru`` renders in another language.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

# Qt is imported once the environment is set (main): these names are for the annotations only.
if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QWidget

    from client.games.showcase import Shot
    from client.net.lan import LanRelay, LanRoom
    from client.screens.window.main import MainWindow


def example_search() -> tuple[list[LanRelay], list[LanRoom]]:
    """What a network search could find: two relays, one of them with an open room (counts in words)."""
    from client.net.address import RelayAddress
    from client.net.lan import LanRelay, LanRoom, ListedRoom
    from client.registry import GAMES

    home = LanRelay("sealed-table on ola-laptop", RelayAddress("192.168.1.20", 1883))
    club = LanRelay("sealed-table on club-pc", RelayAddress("192.168.1.31", 1883))
    listed = ListedRoom("ACDEFGHJKMNPQRTWXYACDEFGHJK", GAMES[0], 4, 1, "Ola", bytes(32), bytes(32), timeout_ms=60_000)
    room = LanRoom(home, listed, GAMES[0], "Ola", 1, 4, "ABCDEFGHJKMNPQRS", 60_000)
    return [home, club], [room]


def _settle(app: QApplication, rounds: int = 5) -> None:
    for _ in range(rounds):
        app.processEvents()


def _games_in_progress(window: MainWindow, config: Path, shot: Shot) -> None:
    """The lobby with kept network seats (one unreadable) and a room panel with its answer time; then as before."""
    import shutil

    from client.registry import GAMES
    from client.store import kept_seats

    names = [window.settings.name, "Bob", "Celina"]
    for room, turn in (("KXPRTA", 0), ("MWQZHN", 1)):
        seat = kept_seats.SavedSeat(
            room, 0, GAMES[0], "relay.example.org:1883", "p" + room.lower(), bytes(32), bytes(32), bytes(32)
        )
        seat.names, seat.turn, seat.turn_seat = names, names[turn], turn
        seat.timeout_ms, seat.last_activity = 86_400_000, 1_796_000_000.0
        kept_seats.save(seat, config)
    (kept_seats.games_dir(config) / "DAMAGED-p0").mkdir()
    lobby = window.lobby
    lobby.show_saved_games()
    panel = lobby.room_panel
    panel.title.setText("")
    panel.answer_ms = 86_400_000
    panel.set_seats(3, True, ["greedy"])
    panel.show_invitation("sealed://relay.example.org:1883/KXPRTA#HHGYGGMQPYDECDJK", "relay.example.org:1883, KXPRTA")
    panel.setVisible(True)
    shot("01b-lobby-games-in-progress")
    panel.setVisible(False)
    shutil.rmtree(kept_seats.games_dir(config))
    lobby.show_saved_games()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.tools.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--scale", type=float, default=1.0, help="device pixel ratio (2 = high-DPI)")
    parser.add_argument("--language", default="en", choices=("en", "pl", "ru"))
    parser.add_argument(
        "--check-text", action="store_true", help="list every label or button whose text is cut off; exit 1 if any"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.scale != 1.0:
        os.environ["QT_SCALE_FACTOR"] = str(args.scale)
    config = Path(tempfile.mkdtemp(prefix="sealed-table-shots-"))
    os.environ["SEALED_TABLE_CONFIG_DIR"] = str(config)
    args.outdir.mkdir(parents=True, exist_ok=True)

    from client.app import make_application

    app = make_application([])
    from client.games.kit import kit_for
    from client.i18n import LANGUAGE
    from client.registry import GAMES
    from client.screens.window.main import MainWindow
    from client.store.settings import Settings

    LANGUAGE.set(args.language)
    settings = Settings(name={"en": "Alex", "pl": "Ola", "ru": "Саша"}[args.language], language=args.language)
    settings.bot_delay_ms = 0
    from client.ui import motion, sound

    motion.clock().override = sound.player().override = False  # stills show boards at rest; a tool is silent
    settings.relays = ["relay.example.org:1883", "192.168.1.20:1883"]
    window = MainWindow(settings=settings, config=config)
    window.ask_before_abandoning = False  # it closes itself, mid-game
    window.resize(1280, 800)
    window.show()
    written: list[Path] = []

    from client.ui.clipping import clipped_texts

    clipped: list[str] = []

    def shot(name: str, widget: QWidget | None = None) -> None:
        _settle(app)
        path = args.outdir / f"{name}.png"
        (widget or window).grab().save(str(path))
        written.append(path)
        clipped.extend(f"{name}: {c}" for c in clipped_texts(widget or window))

    shot("01-lobby")
    _games_in_progress(window, config, shot)
    # A relay that does not answer: the lobby's message (a closed local port).
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    window.lobby.online.relay.setCurrentText(f"127.0.0.1:{port}")
    window.lobby.online.room.setText("KXPRTA")
    import asyncio

    import qasync

    loop = qasync.QSelectorEventLoop(app, already_running=True)
    executor = qasync.QThreadExecutor(1)
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    window.lobby.online.join.click()
    deadline = time.monotonic() + 8
    while "join" in window.lobby.busy and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    shot("02-lobby-relay-error")
    window.lobby.lan.show_found(example_search())
    shot("02b-lobby-network-search")

    settings_dialog = window.open_settings()
    shot("07-settings", settings_dialog)
    settings_dialog.reject()
    for game in GAMES:  # the registry's order: each game's table, and the shared screens it ends in
        showcase = kit_for(game).showcase
        if showcase is not None:
            showcase(window, shot, app)
    window.close()
    executor.shutdown(wait=True)
    asyncio.events._set_running_loop(None)  # the loop was borrowed from a running QApplication
    for path in written:
        print(path)
    if args.check_text:
        for line in clipped:
            print(f"clipped: {line}", file=sys.stderr)
        return 1 if clipped else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
