"""The table's animation clock: short tweens that drive the boards' existing paint code.

A board that wants a move to be *seen* (a unit sliding along its route, a row
sliding in, a card travelling to a hand) asks the program's clock (:func:`clock`)
to :meth:`~Motion.play` a tween: a progress value from 0 to 1 over 150-400 ms, handed to the board's own
callback on every frame (the board keeps the value and paints interpolated
positions; there is no separate scene graph).  Why it is built this way:

* **Never in the way.**  Input is never blocked: any mouse press or key press
  anywhere in the program finishes every running tween at once (an application
  event filter that lets the event through), and :meth:`Motion.finish_all` is
  called before an action is applied, so a fast player's next click both ends
  the animation and is taken as their action.
* **One tween per owner.**  A new tween for the same board finishes the running
  one first, so the board is always painted at the engine's final position once
  the tween ends or is cut short.
* **A switch.**  The settings switch animation off; the ``SEALED_TABLE_MOTION``
  environment variable (``off``) switches it off whatever the settings say (the
  test suite sets it, so no test waits for an animation unless it turns motion
  on through :attr:`Motion.override`).  Off, :meth:`Motion.play` calls the
  callback with 1.0 at once: nothing is delayed.

Shared code: it names no game.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QEasingCurve, QEvent, QObject, QVariantAnimation
from PySide6.QtWidgets import QApplication

ENV = "SEALED_TABLE_MOTION"
#: Durations (ms) the boards use: short enough never to hold a game up.
SHORT, MEDIUM, LONG = 160, 260, 380
_SKIP_EVENTS = (QEvent.Type.MouseButtonPress, QEvent.Type.KeyPress)

Frame = Callable[[float], None]


class Motion(QObject):
    """The program's one animation clock (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        #: What the player chose in the settings.
        self.wanted = True
        #: A test's (or a tool's) decision that beats both the settings and the environment.
        self.override: bool | None = None
        #: Every duration is multiplied by this (slow motion: tests on a loaded machine still see many frames).
        self.stretch = 1
        self._running: dict[int, tuple[QVariantAnimation, Frame, Callable[[], None] | None]] = {}
        self._filtering = False
        #: Per host widget (by id): the tweens drawing on it, dropped when it is destroyed.
        self._hosts: dict[int, set[int]] = {}

    def enabled(self) -> bool:
        if self.override is not None:
            return self.override
        if os.environ.get(ENV, "").strip().lower() in ("off", "0", "no", "false"):
            return False
        return self.wanted

    def play(
        self,
        owner: object,
        duration_ms: int,
        frame: Frame,
        done: Callable[[], None] | None = None,
        host: QObject | None = None,
    ) -> None:
        """Run ``frame(t)`` for t rising from 0 to 1 over ``duration_ms``; ``done()`` after the last frame.

        Off (or with no running application) the last frame is shown at once.  A tween still
        running for ``owner`` is finished first.  ``host`` (default: ``owner`` if it is a QObject)
        is the widget the frames draw on: when it is destroyed its tween is dropped without
        another frame (a table closed mid-move).
        """
        self.finish(owner)
        app = QApplication.instance()
        if not self.enabled() or duration_ms <= 0 or app is None:
            frame(1.0)
            if done is not None:
                done()
            return
        if not self._filtering:
            app.installEventFilter(self)
            self._filtering = True
        anim = QVariantAnimation(self)
        anim.setStartValue(0.0)
        anim.setEndValue(1.0)
        anim.setDuration(duration_ms * max(1, self.stretch))
        anim.setEasingCurve(QEasingCurve.Type.OutCubic)
        key = id(owner)
        self._running[key] = (anim, frame, done)
        host = host if host is not None else owner if isinstance(owner, QObject) else None
        if host is not None:
            hid = id(host)
            if hid not in self._hosts:
                self._hosts[hid] = set()
                host.destroyed.connect(lambda *_: self._host_gone(hid))
            self._hosts[hid].add(key)
        anim.valueChanged.connect(lambda value: frame(float(value)))
        anim.finished.connect(lambda: self._ended(key, anim))
        frame(0.0)
        anim.start()

    def _host_gone(self, host: int) -> None:
        for key in self._hosts.pop(host, set()):
            entry = self._running.pop(key, None)
            if entry is not None:
                entry[0].stop()
                entry[0].deleteLater()

    def _ended(self, key: int, anim: QVariantAnimation) -> None:
        entry = self._running.get(key)
        if entry is None or entry[0] is not anim:
            return
        del self._running[key]
        _, frame, done = entry
        frame(1.0)  # the final position, exactly (the easing's last value may be a hair short)
        if done is not None:
            done()
        anim.deleteLater()

    def finish(self, owner: object) -> None:
        """Jump ``owner``'s running tween to its end (its last frame and ``done`` run now)."""
        entry = self._running.get(id(owner))
        if entry is not None:
            anim = entry[0]
            anim.stop()
            self._ended(id(owner), anim)

    def finish_all(self) -> None:
        """End every running tween at once: a click, a key, or an action is on its way."""
        for key in list(self._running):
            entry = self._running.get(key)
            if entry is not None:
                entry[0].stop()
                self._ended(key, entry[0])

    def running(self, owner: object | None = None) -> bool:
        """Whether a tween runs (for ``owner``, or any)."""
        return id(owner) in self._running if owner is not None else bool(self._running)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._running and event.type() in _SKIP_EVENTS:
            self.finish_all()
        return False  # the click or key goes on to where it was meant: input is never blocked


_MOTION: Motion | None = None


def clock() -> Motion:
    """The program's clock (made on first use, after the application exists)."""
    global _MOTION
    if _MOTION is None:
        _MOTION = Motion()
    return _MOTION


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def along(points: list[tuple[float, float]], t: float) -> tuple[float, float]:
    """The point a fraction ``t`` of the way along a polyline (equal time per segment: a walk, step by step)."""
    if not points:
        return (0.0, 0.0)
    if len(points) == 1 or t >= 1.0:
        return points[-1]
    if t <= 0.0:
        return points[0]
    pos = t * (len(points) - 1)
    i = int(pos)
    f = pos - i
    (ax, ay), (bx, by) = points[i], points[i + 1]
    return (lerp(ax, bx, f), lerp(ay, by, f))
