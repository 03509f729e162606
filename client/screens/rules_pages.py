"""Where the program finds files it shows: the games' rules pages and their pictures.

The players' pages are ``client/rules/<game>.<language>.md`` (English, Polish,
Russian), with their diagrams in ``client/rules/img/``: files of the package
itself, so that a wheel, a bundle and a checkout all read them beside this code
(the developers' record of each game, ``docs/rules/<game>-engine.md``, is never
shown here).  A page missing in the chosen language falls back to English, and
a game with no page at all is reported in words rather than as a crash.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from client.registry import GAMES

__all__ = ["GAMES", "read_rules", "rules_dirs", "rules_path"]

#: The language whose page every game has; the others fall back to it.
FALLBACK_LANGUAGE = "en"

#: The pages' folder, inside the ``client`` package (found beside this module wherever it is installed).
RULES_DIR = Path(__file__).resolve().parents[1] / "rules"


class RulesPage(NamedTuple):
    """A rules page as read: its Markdown, the language it is in, and its file (pictures are relative to it)."""

    text: str
    language: str
    path: Path


def rules_dirs() -> list[Path]:
    """The directories the rules pages are looked for in, first first (the package's own)."""
    return [RULES_DIR]


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
