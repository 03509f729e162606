"""``python -m client.screenshots OUTDIR``: every screen of the program as PNG files.

Renders offscreen at 1280×800 (no display needed) with a throw-away config directory, so
the user's own settings are never touched: the lobby (and a relay error), the
table mid-game, the Hacker Attack view, the rules window, the settings, the
"System launched!" moment, the report, the replay (public and full
view), and Anomaly Maze mid-game and mid-combat.  ``--scale 2`` renders at a device pixel ratio of 2, as on a high-DPI
screen; ``--language pl|ru`` renders in another language.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engines.core import Action, Knowledge
from engines.system_launch.bots import GreedyBot
from engines.system_launch.cards import CARD_KIND, FIREWALL, HACKER_ATTACK

PLAYERS = 4


def showcase_choice(state: Any, knowledge: Knowledge, legal: list[Action], bot: GreedyBot) -> Action:
    """The human seat's play in the screenshots: greedy, but eager to use a Hacker Attack."""
    for action in legal:
        if action[0] == "play" and CARD_KIND[action[2]] == HACKER_ATTACK:
            target = action[3]
            if state.hands[target] and not any(CARD_KIND[c] == FIREWALL for c in state.system[target]):
                return action
    return bot.choose(state, knowledge, legal)


def find_hacker_seed(tries: int = 400) -> bytes:
    """A seed in which the human seat gets to look at a hand with a Hacker Attack."""
    from .local_game import LocalGame

    for i in range(tries):
        seed = f"showcase/{i}".encode()
        game = LocalGame("system-launch", PLAYERS, seed, 0, ["A", "B", "C", "D"])
        bot = GreedyBot(0, seed)
        while game.over() is None:
            if game.human_to_move():
                if game.view()["stage"] == "hacker-take":
                    return seed
                game.act(showcase_choice(game.state, game.knowledge, game.legal(), bot))
            else:
                game.step()
    return b"showcase/0"


def _settle(app: Any, rounds: int = 5) -> None:
    for _ in range(rounds):
        app.processEvents()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.screenshots", description=__doc__.splitlines()[0])
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

    from .app import make_application

    app = make_application([])
    from .i18n import LANGUAGE
    from .main_window import MainWindow
    from .settings import Settings

    LANGUAGE.set(args.language)
    settings = Settings(name={"en": "Alex", "pl": "Ola", "ru": "Саша"}[args.language], language=args.language)
    settings.bot_delay_ms = 0
    from . import motion, sound

    motion.clock().override = sound.player().override = False  # stills show boards at rest; a tool is silent
    settings.relays = ["relay.example.org:1883", "192.168.1.20:1883"]
    window = MainWindow(settings=settings, config=config)
    window.ask_before_abandoning = False  # it closes itself, mid-game
    window.resize(1280, 800)
    window.show()
    written: list[Path] = []

    from .clipping import clipped_texts

    clipped: list[str] = []

    def shot(name: str, widget: Any = None) -> None:
        _settle(app)
        path = args.outdir / f"{name}.png"
        (widget or window).grab().save(str(path))
        written.append(path)
        clipped.extend(f"{name}: {c}" for c in clipped_texts(widget or window))

    shot("01-lobby")
    # A relay that does not answer: the lobby's message (a closed local port).
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    window.lobby.relay.setCurrentText(f"127.0.0.1:{port}")
    window.lobby.room.setText("KXPRTA")
    import asyncio

    import qasync

    loop = qasync.QEventLoop(app, already_running=True)
    executor = qasync.QThreadExecutor(1)
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    window.lobby.join.click()
    deadline = time.monotonic() + 8
    while "join" in window.lobby.busy and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    shot("02-lobby-relay-error")

    seed = find_hacker_seed()
    screen = window.start_local("system-launch", PLAYERS, seed=seed)
    bot = GreedyBot(0, seed)
    decisions = 0
    took_mid = took_hacker = False
    while window.game is not None and window.game.over() is None:
        app.processEvents()
        game = window.game
        if not game.human_to_move():
            continue
        view = game.view()
        if view["stage"] == "hacker-take" and not took_hacker:
            shot("04-hacker-attack-view")
            took_hacker = True
        action = showcase_choice(game.state, game.knowledge, game.legal(), bot)
        if action[0] in ("build", "upgrade", "play", "discard"):
            screen.table.select_slot(action[1])
        if decisions == 2 and not took_mid:
            shot("03-table-mid-game")
            took_mid = True
        button = screen.table.button_for(action)
        if button is None:  # pragma: no cover - the table offers every legal action
            screen.choose(action)
        else:
            button.click()
        decisions += 1
    _settle(app)
    shot("05-system-launched")
    rules = window.show_rules("system-launch")
    rules.resize(820, 700)
    shot("06-rules", rules)
    rules.close()
    _settle(app)
    settings_dialog = window.open_settings()
    shot("07-settings", settings_dialog)
    settings_dialog.reject()
    window.show_report()
    shot("08-report")
    replay = window.replay_current()
    if replay is not None:
        replay.show_frame(len(replay.frames) // 2)
        shot("09-replay-public")
        replay.show_frame(len(replay.frames) - 1)
        replay.full.setChecked(True)
        shot("10-replay-full-view")
    from .anomaly_maze.showcase import maze_shots

    maze_shots(window, shot, app)
    from .collective_conflict.showcase import cc_shots

    cc_shots(window, shot, app)
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
