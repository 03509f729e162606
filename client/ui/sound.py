"""The table's sound cues: "your turn", dice, cards, a reveal — quiet wherever sound cannot be played.

The cues are short WAV files made for the project by ``scripts/make_sounds.py``
(``client/ui/sounds/*.wav``) and played with Qt Multimedia's ``QSoundEffect``.
Why it degrades instead of failing: Qt Multimedia is an optional part
(PySide6-Addons, the ``sound`` extra, which ``scripts/play.sh`` installs for the
desktop program), it may fail to load (no PulseAudio library), and a machine
may have no audio output at all (servers, CI).  In each case the program's
player (:func:`player`) stays silent without an error, and keeps working as a
record: :attr:`Sound.played` lists the cues asked for while sound is on, which
is what a test observes.

Sound is on when the settings say so (:attr:`Sound.wanted`, the mute switch
in the settings and at the table); the ``SEALED_TABLE_SOUND`` environment
variable (``off``) silences it whatever the settings say (the test suite sets
it); :attr:`Sound.override` is a test's own decision.  Shared code: it names no game.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

ENV = "SEALED_TABLE_SOUND"
SOUNDS = Path(__file__).resolve().parent / "sounds"
CUES = ("turn", "dice", "card", "reveal")
#: How many cue names :attr:`Sound.played` keeps (a record for tests and diagnostics, not a log).
KEEP = 64
VOLUME = 0.55


class Effect(Protocol):
    """A loaded cue (Qt Multimedia's ``QSoundEffect``, which only an installed PySide6-Addons provides)."""

    def play(self) -> None: ...


class Sound:
    """The program's one player of cues (see the module docstring)."""

    def __init__(self) -> None:
        self.wanted = True
        self.override: bool | None = None
        #: The cues asked for while sound was on, oldest first (at most :data:`KEEP`).
        self.played: list[str] = []
        self._effects: dict[str, Effect] | None = None
        #: Why there is no sound output, once known ("" while effects exist or none were needed yet).
        self.silent_reason = ""

    def on(self) -> bool:
        if self.override is not None:
            return self.override
        if os.environ.get(ENV, "").strip().lower() in ("off", "0", "no", "false"):
            return False
        return self.wanted

    def play(self, cue: str) -> None:
        """Play ``cue`` (one of :data:`CUES`) if sound is on; never raises."""
        if cue not in CUES or not self.on():
            return
        self.played = [*self.played[-(KEEP - 1) :], cue]
        effect = self.effects().get(cue)
        if effect is not None:
            effect.play()

    def effects(self) -> dict[str, Effect]:
        """The loaded ``QSoundEffect`` per cue, made on first use; empty where sound cannot be played."""
        if self._effects is None:
            self._effects = self._load()
        return self._effects

    def _load(self) -> dict[str, Effect]:
        try:
            from PySide6.QtCore import QUrl
            from PySide6.QtMultimedia import QMediaDevices, QSoundEffect
        except Exception as exc:  # (not installed, or its libraries missing: silent, not broken)
            self.silent_reason = f"Qt Multimedia is not available ({exc})"
            return {}
        try:
            if not QMediaDevices.audioOutputs():
                self.silent_reason = "no audio output"
                return {}
            out: dict[str, Effect] = {}
            for cue in CUES:
                path = SOUNDS / f"{cue}.wav"
                if not path.is_file():
                    continue
                effect = QSoundEffect()
                effect.setSource(QUrl.fromLocalFile(str(path)))
                effect.setVolume(VOLUME)
                if effect.status() != QSoundEffect.Status.Error:
                    out[cue] = effect
            return out
        except Exception as exc:  # (a broken audio back end must not break the table)
            self.silent_reason = f"sound failed ({exc})"
            return {}


_SOUND: Sound | None = None


def player() -> Sound:
    """The program's player of cues."""
    global _SOUND
    if _SOUND is None:
        _SOUND = Sound()
    return _SOUND


def play(cue: str) -> None:
    """Play ``cue`` on the program's player (see :meth:`Sound.play`)."""
    player().play(cue)
