"""``python -m client.tools.check`` (a bundle: ``sealed-table check``): is everything the program needs here?

An installed program, a wheel's or a bundle's, can lack a file or a module that a checkout has:
a rules page, a catalogue, a sound, an image plugin, a module imported only by name.  This
command looks at each, from where the program is installed, and says what it found, one line
a part, exit status 0 when every part is there (1 otherwise):

- ``games``: each game's engine starts a game and each game's table code imports;
- ``translations``: every message in Polish and Russian, each catalogue read and compiled here;
- ``rules``: each game's page in English, Polish and Russian, and every diagram on it drawn by Qt;
- ``sound``: the cues' files, and Qt Multimedia with the audio outputs it sees (no output is not a
  failure: a server has none; no Qt Multimedia is, with ``--require-sound``);
- ``relay``: the embedded relay started on loopback, found by LAN discovery, reached over MQTT;
- ``mosquitto``: the operators' configuration and its ACL;
- ``folders``: where settings, kept games and caches go on this platform;
- ``lobby`` (only with ``--lobby``): the main window shown on the platform's own display (X11 or
  Wayland, Windows, macOS) until the system says it is on the screen.

Without ``--lobby`` it needs no display (Qt draws offscreen) and touches none of the player's files
(the lobby's settings go to a throw-away folder).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
LANGUAGES = ("en", "pl", "ru")


def check_games() -> str:
    from client.games.kit import kit_for
    from client.registry import GAMES
    from engines.core import registry

    for game in GAMES:
        spec = registry.get(game)
        spec.new_state(spec.min_players, {}).pending()
        kit_for(game)
    return ", ".join(GAMES)


def check_translations() -> str:
    from client.i18n.translations import TRANSLATED, check, declarations, domains, text

    problems = check()
    if problems:
        raise RuntimeError(f"{len(problems)} problems, the first: {problems[0]}")
    translated = sum(1 for msg_id in declarations() if text("pl", msg_id, {}) != text("en", msg_id, {}))
    if translated == 0:
        raise RuntimeError("no message differs from English")
    return f"{len(domains())} domains × {', '.join(TRANSLATED)}, {len(declarations())} messages"


def check_rules() -> str:
    from PySide6.QtGui import QImage

    from client.registry import GAMES
    from client.screens.rules_pages import read_rules_page

    drawn: set[Path] = set()
    for game in GAMES:
        for code in LANGUAGES:
            page = read_rules_page(game, code)
            if page is None or page.language != code:
                raise RuntimeError(f"no {code} page for {game}")
            for name in IMAGE.findall(page.text):
                path = page.path.parent / name
                if QImage(str(path)).isNull():
                    raise RuntimeError(f"{path} cannot be drawn")
                drawn.add(path)
    window = _rules_window()
    folder = {path.parent.parent if path.parent.name == "img" else path.parent for path in drawn}
    places = ", ".join(map(str, folder))
    return f"{len(GAMES)} games × {', '.join(LANGUAGES)}, {len(drawn)} diagrams, {window}, in {places}"


def _rules_window() -> str:
    """The Rules window itself, switched through the three languages: every tab shows its page in each."""
    from client.i18n import LANGUAGE
    from client.screens.rules_dialog import RulesDialog

    before = LANGUAGE.code
    dialog = RulesDialog(None)
    try:
        for code in LANGUAGES:
            LANGUAGE.set(code)
            for game, browser in dialog.browsers.items():
                if browser.property("missing") or browser.property("language") != code:
                    raise RuntimeError(f"the Rules window shows no {code} page for {game}")
                if len(browser.toPlainText()) < 500:
                    raise RuntimeError(f"the Rules window's {code} page for {game} is nearly empty")
    finally:
        LANGUAGE.set(before)
        dialog.deleteLater()
    return "the Rules window in each"


def check_sound(require: bool) -> Callable[[], str]:
    def run() -> str:
        from client.ui.sound import CUES, SOUNDS

        missing = [cue for cue in CUES if not (SOUNDS / f"{cue}.wav").is_file()]
        if missing:
            raise RuntimeError(f"no sound file for {', '.join(missing)} in {SOUNDS}")
        try:
            from PySide6.QtMultimedia import QMediaDevices
        except ImportError as exc:
            if require:
                raise RuntimeError(f"Qt Multimedia cannot be loaded ({exc})") from exc
            return f"{len(CUES)} cues; Qt Multimedia not installed: silent"
        outputs = [device.description() for device in QMediaDevices.audioOutputs()]
        if not outputs:
            return f"{len(CUES)} cues; Qt Multimedia loaded, no audio output here: silent"
        return f"{len(CUES)} cues; Qt Multimedia loaded, {_play_cues(SOUNDS, CUES)} on {outputs[0]}"

    return run


def _play_cues(folder: Path, cues: tuple[str, ...]) -> str:
    """Load every cue as the table does (``QSoundEffect``) and play the first one to its end."""
    from PySide6.QtCore import QDeadlineTimer, QUrl
    from PySide6.QtMultimedia import QSoundEffect
    from PySide6.QtWidgets import QApplication

    effects = []
    for cue in cues:
        effect = QSoundEffect()
        effect.setSource(QUrl.fromLocalFile(str(folder / f"{cue}.wav")))
        effects.append(effect)
    deadline = QDeadlineTimer(10_000)
    while any(e.status() == QSoundEffect.Status.Loading for e in effects) and not deadline.hasExpired():
        QApplication.processEvents()
    broken = [cue for cue, e in zip(cues, effects, strict=True) if e.status() != QSoundEffect.Status.Ready]
    if broken:
        raise RuntimeError(f"cannot load {', '.join(broken)}")
    first = effects[0]
    started = False
    first.play()
    while not deadline.hasExpired() and (first.isPlaying() or not started):
        started = started or first.isPlaying()
        QApplication.processEvents()
    if not started:
        raise RuntimeError(f"{cues[0]} did not play")
    return f"all loaded, {cues[0]!r} played"


def check_relay() -> str:
    from client.headless.smoke import relay_check

    return relay_check()


def check_mosquitto() -> str:
    from client.headless.smoke import mosquitto_files

    return mosquitto_files()


def check_folders() -> str:
    from client.store.paths import cache_dir, config_dir, data_dir

    return f"settings {config_dir()}; games {data_dir()}; cache {cache_dir()}"


def check_lobby() -> str:
    import tempfile

    from PySide6.QtCore import QDeadlineTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from client.screens.window.main import MainWindow

    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(config=Path(folder))
        window.show()
        deadline = QDeadlineTimer(30_000)
        handle = window.windowHandle()
        while not (handle is not None and handle.isExposed()) and not deadline.hasExpired():
            QApplication.processEvents()
            handle = window.windowHandle()
        shown = handle is not None and handle.isExposed()
        window.close()
        window.deleteLater()
        QApplication.processEvents()
    if not shown:
        raise RuntimeError("the lobby window was not shown within 30 s")
    return f"the lobby window was shown on {QGuiApplication.platformName()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sealed-table check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--require-sound", action="store_true", help="fail when Qt Multimedia cannot be loaded")
    parser.add_argument("--lobby", action="store_true", help="also show the lobby on this machine's display")
    args = parser.parse_args(argv)
    if not args.lobby:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from client.app import make_application

    app = make_application([sys.argv[0]])
    import client

    print(f"Sealed Table from {Path(client.__file__).resolve().parent.parent}")
    parts: dict[str, Callable[[], str]] = {
        "games": check_games,
        "translations": check_translations,
        "rules": check_rules,
        "sound": check_sound(args.require_sound),
        "relay": check_relay,
        "mosquitto": check_mosquitto,
        "folders": check_folders,
    }
    if args.lobby:
        parts["lobby"] = check_lobby
    failed = 0
    for name, part in parts.items():
        try:
            seen = part()
        except Exception as exc:  # every part is tried and reported, whatever the others did
            failed += 1
            print(f"FAILED {name}: {type(exc).__name__}: {exc}", flush=True)
        else:
            print(f"ok     {name}: {seen}", flush=True)
    del app
    print("Everything is here." if not failed else f"{failed} of {len(parts)} parts are missing or broken.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
