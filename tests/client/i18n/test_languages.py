"""Three languages for every string (gettext catalogues with plural forms); a live switch re-labels the program."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from client.i18n import LANGUAGE, tr, tr_in, translations
from client.i18n.declare import Declaration
from client.i18n.translations import LANGUAGES, check, declarations
from client.store import settings as settings_mod
from tests.client.drive import play_to_end

CLIENT = Path(__file__).resolve().parents[3] / "client"


def test_every_message_in_every_language_with_every_plural_form_and_the_same_fields():
    assert check() == []


def test_every_message_id_used_in_the_code_exists():
    used: set[str] = set()
    for path in CLIENT.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\btr\(\s*["']([\w.\- ]+)["']""", source))
        used |= set(re.findall(r"""(?:LogLine|PlainLine)\(\s*["']([\w.\- ]+)["']""", source))
    assert used, "the scan found no message ids"
    catalogue = declarations()
    missing = sorted(key for key in used if key not in catalogue)
    assert not missing, missing
    # Ids built at run time from data: card kinds, games, reasons, speeds, languages.
    from client.screens.rules_pages import GAMES
    from client.store.settings import BOT_SPEEDS
    from engines.system_launch.cards import KIND_NAMES

    dynamic = [f"card.{k}" for k in KIND_NAMES] + [f"game.{g}" for g in GAMES] + [f"game.blurb.{g}" for g in GAMES]
    dynamic += [f"speed.{ms}" for ms in BOT_SPEEDS] + [f"lang.{c}" for c in LANGUAGES]
    dynamic += [
        f"report.reason.{r}" for r in ("system launched", "deck exhausted", "round limit", "last seat standing")
    ]
    assert [k for k in dynamic if k not in catalogue] == []


def test_translation_fills_fields_and_falls_back():
    assert tr_in("pl", "lobby.welcome", name="Ola") == "Witaj, Ola!"
    assert tr_in("ru", "table.round", n=7) == "Раунд 7"
    assert tr("no.such.message") == "no.such.message"
    assert tr_in("en", "lobby.welcome") == "Welcome, {name}!"  # a missing field never raises


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", {1: "1 card", 2: "2 cards", 5: "5 cards", 21: "21 cards"}),
        (
            "pl",
            {1: "1 karta", 2: "2 karty", 5: "5 kart", 12: "12 kart", 21: "21 kart", 22: "22 karty", 112: "112 kart"},
        ),
        (
            "ru",
            {1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта", 22: "22 карты", 111: "111 карт"},
        ),
    ],
)
def test_counts_take_the_plural_form_of_the_catalogues_rule(code: str, expected: dict[int, str]):
    """ "1 karta / 2 karty / 5 kart", "1 карта / 2 карты / 5 карт": the form comes from the .po's plural rule."""
    for count, words in expected.items():
        assert tr_in(code, "table.deck", count=count).endswith(words), (code, count)


def test_every_count_that_meets_a_noun_is_a_plural_message():
    """The counts shown with a noun (hands, deck, discards, reserves, relays) are declared with plural forms."""
    catalogue = declarations()
    plural = [
        "table.hand",
        "table.your_hand",
        "table.deck",
        "log.shuffled",
        "log.reshuffled",
        "log.dealt",
        "hint.discard",
        "phase.discard",
        "cc.report.row",
        "lobby.lan.found",
        "lobby.lan.rooms",
    ] + [f"cc.kinds.{kind}" for kind in ("command", "mothership", "decoy", "runner", "climber", "netcaster", "jumper")]
    assert [key for key in plural if catalogue[key].plural is None] == []
    assert tr_in("en", "log.reshuffled", count=1) == "The discard rows (1 card) are shuffled into a new deck."


def test_language_switch_in_settings_relabels_the_program(qtbot, window, private_config):
    window.start_local("system-launch", 3, seed=b"relabel")
    game, screen = window.game, window.game_screen
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    log_before = screen.log.texts()
    assert screen.rules_button.text() == "Rules"

    dialog = window.open_settings()
    dialog.language.setCurrentIndex(LANGUAGES.index("pl"))
    dialog.name.setText("Ola")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.settings_dialog is None)

    assert LANGUAGE.code == "pl"
    assert screen.rules_button.text() == tr_in("pl", "menu.rules")
    assert screen.log_title.text() == tr_in("pl", "table.log")
    assert window.lobby.local.start.text() == tr_in("pl", "lobby.start")
    assert window.menus.game_menu.title() == tr_in("pl", "menu.game")
    assert tr_in("pl", "phase.action") in screen.table.status.text()
    log_after = screen.log.texts()
    assert len(log_after) == len(log_before) and log_after != log_before
    assert tr_in("pl", "log.shuffled", count=44) in log_after
    saved = json.loads((private_config / settings_mod.FILE_NAME).read_text(encoding="utf-8"))
    assert saved["language"] == "pl" and saved["name"] == "Ola"

    LANGUAGE.set("ru")
    assert screen.rules_button.text() == "Правила"
    play_to_end(qtbot, window)
    qtbot.mouseClick(screen.table.report_button, Qt.MouseButton.LeftButton)
    assert window.report.save_button.text() == tr_in("ru", "report.save")


def test_cancelled_settings_restore_the_language(qtbot, window):
    dialog = window.open_settings()
    dialog.language.setCurrentIndex(LANGUAGES.index("ru"))
    assert window.lobby.local.start.text() == tr_in("ru", "lobby.start")  # a live preview
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert LANGUAGE.code == "en" and window.lobby.local.start.text() == "Start the game"


def test_settings_round_trip_and_damage(tmp_path: Path):
    s = settings_mod.Settings(name="Ola", language="pl", bot_delay_ms=250, players=5)
    for relay in ("a:1883", "b:1883", "a:1883"):
        s.remember_relay(relay)
    assert s.relays == ["a:1883", "b:1883"]
    settings_mod.save(s, tmp_path)
    assert settings_mod.load(tmp_path) == s
    (tmp_path / settings_mod.FILE_NAME).write_text('{"name": 5, "language": "xx", "bot_delay_ms": -1, "players": 9}')
    assert settings_mod.load(tmp_path) == settings_mod.Settings()
    (tmp_path / settings_mod.FILE_NAME).write_text("{not json")
    assert settings_mod.load(tmp_path) == settings_mod.Settings()


def _po(forms: str, body: str) -> str:
    head = f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n"Plural-Forms: {forms}\\n"\n\n'
    return head + body


def test_the_check_names_a_missing_language_plural_form_or_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The check is not blind: each kind of gap in a catalogue is one line of its answer."""
    domain = translations.Domain("probe", "client.i18n.texts", tmp_path, tmp_path / "texts.py")
    probe = {
        "probe.plain": Declaration("probe.plain", "probe", "Hello {name}"),
        "probe.count": Declaration("probe.count", "probe", "{count} card", "{count} cards"),
        "probe.gone": Declaration("probe.gone", "probe", "Gone"),
    }
    monkeypatch.setattr(translations, "domains", lambda: [domain])
    monkeypatch.setattr(translations, "declarations", lambda: probe)
    plain = 'msgctxt "probe.plain"\nmsgid "Hello {name}"\nmsgstr "{txt}"\n\n'
    count = 'msgctxt "probe.count"\nmsgid "{{count}} card"\nmsgid_plural "{{count}} cards"\n{forms}\n'
    gone = 'msgctxt "probe.gone"\nmsgid "Gone"\nmsgstr "Weg"\n\n'
    two = 'msgstr[0] "{count} a"\nmsgstr[1] "{count} b"\n'
    three = two + 'msgstr[2] "{count} c"\n'
    files = {
        "pl": _po(translations.PLURAL_FORMS["pl"], plain.replace("{txt}", "Cześć {name}") + count.format(forms=two)),
        "ru": _po("nplurals=2; plural=(n != 1);", plain.replace("{txt}", "Привет {imя}") + count.format(forms=three))
        + gone,
    }
    for code, text in files.items():
        path = domain.po_path(code)
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
    problems = "\n".join(check())
    assert "probe.gone [pl]: no translation" in problems
    assert "probe.count [pl]: form 2 is empty" in problems  # Babel reads a missing form as an empty one
    assert "probe.plain [ru]: form 0 has fields" in problems
    assert "ru/LC_MESSAGES/probe.po: Plural-Forms is 'nplurals=2" in problems
    assert "probe.plain [pl]" not in problems and "probe.count [ru]" not in problems


def test_every_declaration_is_one_line_of_one_shape():
    """``msg(id, English)`` or ``plural(id, English)``, one a line: diffs stay one line a message, and
    the catalogues of different games never look alike to a duplicate finder."""
    shape = re.compile(r'^(msg|plural)\("[^"]+", ".*"\)$')
    for domain in translations.domains():
        lines = domain.texts_path.read_text(encoding="utf-8").splitlines()
        body = lines[lines.index(f'msg, plural = declarer("{domain.name}")') + 1 :]
        odd = [line for line in body if line.strip() and not line.startswith("#") and not shape.match(line)]
        assert odd == [], domain.name


def test_a_plural_without_its_message_is_named_by_the_check(monkeypatch: pytest.MonkeyPatch):
    from client.i18n import declare

    monkeypatch.setattr(declare, "ORPHAN_PLURALS", [])
    monkeypatch.setattr(translations, "ORPHAN_PLURALS", declare.ORPHAN_PLURALS)
    _msg, plural = declare.declarer("probe")
    plural("probe.nothing", "{count} things")
    assert "probe.nothing: a plural line in probe without its msg line before it" in check()
