"""Translation of every user-visible string, keyed by message id.

The catalogue lives in :mod:`client.messages`; this module holds the current
language and a Qt signal so that open windows re-label themselves when the
player switches language in the settings.  Widgets never store translated text
they cannot rebuild: each implements ``retranslate()`` and connects it to
:data:`LANGUAGE.changed`.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from . import qtguard  # noqa: F401  (first: guards against a PySide6 crash on CPython 3.11)
from .messages import CATALOGUE, LANGUAGES

DEFAULT_LANGUAGE = "en"


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

    An unknown id is a programming error, but a player should never see a
    crash for it: the id itself is shown instead.
    """
    return tr_in(LANGUAGE.code, msg_id, **params)


def has(msg_id: str) -> bool:
    """Whether the catalogue holds ``msg_id`` (for optional variants such as a line's "You …" form)."""
    return msg_id in CATALOGUE


def tr_in(code: str, msg_id: str, /, **params: object) -> str:
    """The message ``msg_id`` in language ``code`` (English where missing)."""
    entry = CATALOGUE.get(msg_id)
    if entry is None:
        return msg_id
    text = entry.get(code) or entry[DEFAULT_LANGUAGE]
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text
