"""Where the program finds files it shows: the games' rules pages and their pictures.

The players' pages are ``docs/rules/<game>.<language>.md`` (English, Polish,
Russian; the developers' record of each game is ``<game>-engine.md`` beside
them, never shown here), with their diagrams in ``docs/rules/img/``.  From a
source checkout (or an editable install) that directory sits next to the
packages; an installed copy may carry them as package data inside
``client/rules/``.  Both are tried; a page missing in the chosen language falls
back to English, and a game with no page at all is reported in words rather
than as a crash.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from client.registry import GAMES

__all__ = ["GAMES", "read_rules", "rules_dirs", "rules_path"]

#: The language whose page every game has; the others fall back to it.
FALLBACK_LANGUAGE = "en"

#: The client package's folder (the checkout's ``docs/`` is beside it).
_CLIENT = Path(__file__).resolve().parents[1]


class RulesPage(NamedTuple):
    """A rules page as read: its Markdown, the language it is in, and its file (pictures are relative to it)."""

    text: str
    language: str
    path: Path


def rules_dirs() -> list[Path]:
    """Candidate directories for the rules pages, most specific first."""
    return [_CLIENT.parent / "docs" / "rules", _CLIENT / "rules"]


def rules_path(game: str, language: str = FALLBACK_LANGUAGE) -> Path | None:
    """The page of ``game`` in ``language`` (English when that one is missing), or None."""
    for code in dict.fromkeys((language, FALLBACK_LANGUAGE)):
        for directory in rules_dirs():
            path = directory / f"{game}.{code}.md"
            if path.is_file():
                return path
    return None


def read_rules_page(game: str, language: str = FALLBACK_LANGUAGE) -> RulesPage | None:
    """``game``'s page in ``language`` or, failing that, in English; None if neither can be read."""
    for code in dict.fromkeys((language, FALLBACK_LANGUAGE)):
        path = rules_path(game, code)
        if path is None or not path.name.endswith(f".{code}.md"):
            continue
        try:
            return RulesPage(path.read_text(encoding="utf-8"), code, path)
        except (OSError, UnicodeDecodeError):
            continue
    return None


def read_rules(game: str, language: str = FALLBACK_LANGUAGE) -> str | None:
    """The Markdown text of ``game``'s page (see :func:`read_rules_page`), or None."""
    page = read_rules_page(game, language)
    return None if page is None else page.text
