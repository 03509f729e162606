"""The current language and ``tr``: every user-visible string, by message id, in that language.

The words are gettext catalogues (:mod:`client.i18n.translations`: one domain for the shared screens,
one per game, English declared in each domain's ``texts.py``).  This module holds the current
language and a Qt signal so that open windows re-label themselves when the player switches
language in the settings.  Widgets never store translated text they cannot rebuild: each
implements ``retranslate()`` and connects it to :data:`LANGUAGE.changed`.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from client import qtguard  # noqa: F401  (first: guards against a PySide6 crash on CPython 3.11)
from client.i18n.translations import LANGUAGES, SOURCE_LANGUAGE, declarations, text

DEFAULT_LANGUAGE = SOURCE_LANGUAGE


class _Language(QObject):
    """The one current language of the program; emits ``changed`` on a switch."""

    changed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.code = DEFAULT_LANGUAGE

    def set(self, code: str) -> None:
        if code not in LANGUAGES:
            code = DEFAULT_LANGUAGE
        if code != self.code:
            self.code = code
            self.changed.emit(code)


LANGUAGE = _Language()


def tr(msg_id: str, /, **params: object) -> str:
    """The message ``msg_id`` in the current language, with ``{name}`` fields filled.

    A message declared with a plural (a ``plural`` line in its ``texts.py``) takes its form from ``count``:
    ``tr("table.hand", count=n)`` says "1 karta", "2 karty", "5 kart" by the catalogue's
    plural rule.  An unknown id is a programming error, but a player should never see a
    crash for it: the id itself is shown instead.
    """
    return text(LANGUAGE.code, msg_id, params)


def has(msg_id: str) -> bool:
    """Whether the catalogue holds ``msg_id`` (for optional variants such as a line's "You …" form)."""
    return msg_id in declarations()


def tr_in(code: str, msg_id: str, /, **params: object) -> str:
    """The message ``msg_id`` in language ``code`` (English where a translation is missing)."""
    return text(code, msg_id, params)


__all__ = ["DEFAULT_LANGUAGE", "LANGUAGE", "LANGUAGES", "has", "tr", "tr_in"]
