"""Where the program finds files it shows: the games' rules pages.

The rules pages are written by the engine engineers in the repository's
``docs/rules/<game>.md``.  From a source checkout (or an editable install)
that directory sits next to the packages; an installed copy may carry them as
package data inside ``client/rules/``.  Both are tried, and a missing page is
reported in words rather than as a crash.
"""

from __future__ import annotations

from pathlib import Path

from .registry import GAMES

__all__ = ["GAMES", "read_rules", "rules_dirs", "rules_path"]

_HERE = Path(__file__).resolve().parent


def rules_dirs() -> list[Path]:
    """Candidate directories for the rules pages, most specific first."""
    return [_HERE.parent / "docs" / "rules", _HERE / "rules"]


def rules_path(game: str) -> Path | None:
    """The rules page of ``game``, or None when no copy can be found."""
    for directory in rules_dirs():
        path = directory / f"{game}.md"
        if path.is_file():
            return path
    return None


def read_rules(game: str) -> str | None:
    """The Markdown text of ``game``'s rules page, or None if it is missing or unreadable."""
    path = rules_path(game)
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
