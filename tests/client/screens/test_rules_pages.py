"""The players' rules pages: in the program's language, with their diagrams, in step, and free of developer words."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QPixmap, QTextDocument
from PySide6.QtWidgets import QTextBrowser

from client.i18n import LANGUAGE, tr
from client.screens import rules_pages
from client.screens.rules_dialog import RulesDialog
from client.screens.rules_pages import GAMES

LANGUAGES = ("en", "pl", "ru")
RULES = Path(__file__).resolve().parents[3] / "client" / "rules"
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")

#: What a player's page must never contain: the developers' record says these things.
DEVELOPER_WORDS = {
    "a ruling code": re.compile(r"\b[A-Z]{2}-\d+\b"),
    "a file path": re.compile(
        r"\b(?:docs|engines|client|tests|scripts|benchmarks|protocol|relay|shared)/|\.(?:py|md|txt)\b"
    ),
    "a command-line option": re.compile(r"(?<![\w-])--[a-z]"),
    "a code span": re.compile(r"`"),
    "a setting's name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a developers' word": re.compile(r"\b(?:engine|seed|perft|benchmark|self-play|option)\b", re.IGNORECASE),
}


def _page(game: str, language: str) -> str:
    return (RULES / f"{game}.{language}.md").read_text(encoding="utf-8")


def _images(browser: QTextBrowser) -> list[str]:
    """The image names of the document the browser shows, in order."""
    names = []
    block = browser.document().begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fmt = fragments.fragment().charFormat()
            if fmt.isImageFormat():
                names.append(fmt.toImageFormat().name())
            fragments += 1
        block = block.next()
    return names


def _loaded(browser: QTextBrowser, name: str) -> QPixmap | None:
    """The picture the document draws for ``name`` (None or a null pixmap: the broken-image icon)."""
    resource = browser.document().resource(QTextDocument.ResourceType.ImageResource.value, QUrl(name))
    return resource if isinstance(resource, QPixmap) else None


def test_the_dialog_shows_the_polish_page_after_switching_to_polish_and_back(qtbot):
    dialog = RulesDialog(None, "collective-conflict")
    qtbot.addWidget(dialog)
    browser = dialog.browsers["collective-conflict"]
    assert "The last active Network wins" in browser.toPlainText()
    LANGUAGE.set("pl")
    for game in GAMES:
        first_words = _page(game, "pl").split("\n\n")[1].split()[:4]
        assert " ".join(first_words) in " ".join(dialog.browsers[game].toPlainText().split()), game
    assert "Ostatnia aktywna Sieć wygrywa" in browser.toPlainText()
    assert tr("rules.english_only") not in dialog.paused.text()
    LANGUAGE.set("ru")
    assert "Побеждает последняя активная Сеть" in browser.toPlainText()
    LANGUAGE.set("en")
    assert "The last active Network wins" in browser.toPlainText()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_diagram_of_every_page_loads(qtbot, language):
    LANGUAGE.set(language)
    dialog = RulesDialog(None, GAMES[0])
    qtbot.addWidget(dialog)
    for game, browser in dialog.browsers.items():
        names = _images(browser)
        assert names == IMAGE.findall(_page(game, language)), game
        assert names, f"{game} has no diagram"
        for name in names:
            picture = _loaded(browser, name)
            assert picture is not None and not picture.isNull() and picture.width() > 50, (game, name)


def test_a_missing_diagram_is_detected(qtbot, monkeypatch, tmp_path):
    """The image check above can fail: pages copied without their pictures show broken images."""
    for page in RULES.glob("*.en.md"):
        shutil.copy(page, tmp_path / page.name)
    monkeypatch.setattr(rules_pages, "rules_dirs", lambda: [tmp_path])
    dialog = RulesDialog(None, "anomaly-maze")
    qtbot.addWidget(dialog)
    browser = dialog.browsers["anomaly-maze"]
    names = _images(browser)
    assert names and all(_loaded(browser, n) is None or _loaded(browser, n).isNull() for n in names)


def test_a_missing_translation_falls_back_to_english_and_says_so(qtbot, monkeypatch, tmp_path):
    for page in RULES.glob("*.en.md"):
        shutil.copy(page, tmp_path / page.name)
    monkeypatch.setattr(rules_pages, "rules_dirs", lambda: [tmp_path])
    LANGUAGE.set("ru")
    dialog = RulesDialog(None, "system-launch")
    qtbot.addWidget(dialog)
    assert "Processor" in dialog.browsers["system-launch"].toPlainText()
    assert tr("rules.english_only") in dialog.paused.text()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_player_pages_carry_no_developer_words(game, language):
    text = IMAGE.sub("", _page(game, language))
    found = [f"{what}: {m.group(0)!r}" for what, rx in DEVELOPER_WORDS.items() for m in rx.finditer(text)]
    assert not found, f"{game}.{language}.md: " + "; ".join(found)


def test_the_developer_word_check_finds_each_kind():
    sample = "See CC-14 in docs/rules/x.md, run --depth 3 with `round_limit` (the engine's seed)."
    for what, rx in DEVELOPER_WORDS.items():
        assert rx.search(sample), what


def _outline(text: str) -> tuple[list[int], list[str]]:
    """The heading levels in order, and the diagrams in order."""
    levels = [len(m.group(1)) for m in re.finditer(r"^(#+) ", text, re.MULTILINE)]
    return levels, IMAGE.findall(text)


@pytest.mark.parametrize("game", GAMES)
def test_the_three_languages_have_the_same_sections_and_diagrams(game):
    english = _outline(_page(game, "en"))
    for language in ("pl", "ru"):
        assert _outline(_page(game, language)) == english, f"{game}.{language}.md differs from English"
    for name in english[1]:
        assert (RULES / name).is_file(), name


def test_every_link_between_the_rules_pages_resolves():
    """The developers' records point at the players' pages and pictures; none of those links is dead."""
    links = 0
    for page in RULES.glob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text(encoding="utf-8")):
            links += 1
            assert (RULES / target).exists(), f"{page.name} links to a missing {target}"
    assert links >= len(GAMES) * 4
