"""A guard against a PySide6 bug that crashes long sessions on CPython 3.11.

PySide6 6.12 (Shiboken) returns ``None`` from every *void* C++ method
without taking a new reference to it (and ``True`` from ``Signal.emit``).  From CPython 3.12 on ``None`` is
immortal and nothing happens; on 3.11 every call such as ``label.setText()``
or ``painter.drawLine()`` takes one reference away from ``None``, and after a
few thousand calls its count reaches zero and the interpreter aborts
("none_dealloc: deallocating None").  A card table repaints thousands of
times per game, so the program would die within a minute.

The fix is what CPython 3.12 does: make those singletons effectively immortal.
We detect the drain (void calls that take from ``None``'s reference count, ``emit``
calls that take from ``True``'s or ``False``'s) and, only then, add 2**40
references to each singleton drained — at a million void calls per second that
lasts twelve days.  The fix is applied on import: :mod:`client.app` and
:mod:`client.i18n.language` (which every screen imports for ``tr``) import this module before
they touch Qt, so it is in place before the first widget is drawn.
"""

from __future__ import annotations

import sys

_BOOST = 1 << 40
_installed = False


def _drained() -> list[object]:
    """The singletons this PySide6 takes references from (empty if it is sound)."""
    from PySide6.QtCore import QObject, QPoint, Signal

    class _Probe(QObject):
        ping = Signal()

    point, probe = QPoint(), _Probe()
    out: list[object] = []
    before = sys.getrefcount(None)
    for _ in range(64):
        point.setX(1)
    if sys.getrefcount(None) < before - 32:
        out.append(None)
    true_before, false_before = sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(64):
        probe.ping.emit()
    if sys.getrefcount(True) < true_before - 32 or sys.getrefcount(False) < false_before - 32:
        out += [True, False]
    return out


def install() -> bool:
    """Apply the fix if this PySide6 has the bug; True if applied (now or before)."""
    global _installed
    if _installed:
        return True
    if sys.version_info >= (3, 12):
        return False
    drained = _drained()
    if not drained:
        return False
    import ctypes

    for singleton in drained:
        # ob_refcnt is the first field of every PyObject in release builds.
        ctypes.c_ssize_t.from_address(id(singleton)).value += _BOOST
    _installed = True
    return True


install()
