"""A Qt object with its object name set, in one expression (the style sheets select widgets by it).

Qt takes ``QLabel(objectName="status")`` at run time, but PySide6's type stubs list only a
class's own properties as keywords, not those it inherits from ``QObject``; ``named(QLabel(),
"status")`` says the same and type-checks.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QObject

Q = TypeVar("Q", bound=QObject)


def named(obj: Q, name: str) -> Q:
    """``obj`` with its object name set to ``name``."""
    obj.setObjectName(name)
    return obj
