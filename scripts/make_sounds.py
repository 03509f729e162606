"""Make the table's sound cues (client/ui/sounds/*.wav) from nothing but integer arithmetic.

``python3 scripts/make_sounds.py`` writes short 16-bit mono WAV files with the
standard library's :mod:`wave` module: no recorded samples, no licences to
track, and the same bytes on every machine (integer maths, a fixed-seed noise
generator), so the committed files can be checked by running the script again.

* ``turn``: a soft two-note chime (your turn has come);
* ``dice``: a few short rattling clicks;
* ``card``: a quick brushed swish (a card dealt or played);
* ``reveal``: a rising three-note figure (a hidden thing is shown).
"""

from __future__ import annotations

import sys
import wave
from pathlib import Path

RATE = 22_050
OUT = Path(__file__).resolve().parents[1] / "client" / "ui" / "sounds"
FULL = 32_767


def _sine(phase: int) -> int:
    """A sine-like wave from a 16-bit phase (a parabola per half period), -FULL..FULL."""
    half = phase & 0x7FFF
    y = (4 * half * (0x8000 - half)) >> 15  # 0..32768
    y = min(y, FULL)
    return y if phase & 0x8000 == 0 else -y


def _tone(freq: int, ms: int, volume: int, attack_ms: int = 6) -> list[int]:
    """A tone with a short attack and a linear fade to silence (volume out of 100)."""
    n = RATE * ms // 1000
    attack = max(1, RATE * attack_ms // 1000)
    step = freq * 65_536 // RATE
    out = []
    for i in range(n):
        env = min(i, attack) * (n - i) * 100 // (attack * n)
        out.append(_sine((i * step) & 0xFFFF) * env * volume // 10_000)
    return out


def _noise(ms: int, volume: int, seed: int) -> list[int]:
    """Filtered noise with an exponential-ish decay (a fixed-seed linear congruential generator)."""
    n = RATE * ms // 1000
    state = seed
    last = 0
    out = []
    for i in range(n):
        state = (state * 1_103_515_245 + 12_345) & 0x7FFF_FFFF
        raw = (state >> 15) - 0x8000
        last = (last * 3 + raw) // 4  # a gentle low-pass: a brush, not a hiss
        left = n - i
        env = left * left * 100 // (n * n)
        out.append(last * env * volume // 10_000)
    return out


def _mix(parts: list[tuple[int, list[int]]]) -> list[int]:
    """Lay ``(start_ms, samples)`` parts over silence."""
    length = max(RATE * start // 1000 + len(s) for start, s in parts)
    out = [0] * length
    for start, samples in parts:
        at = RATE * start // 1000
        for i, v in enumerate(samples):
            out[at + i] += v
    return [max(-FULL, min(FULL, v)) for v in out]


def cues() -> dict[str, list[int]]:
    return {
        "turn": _mix([(0, _tone(660, 160, 45)), (110, _tone(990, 260, 40))]),
        "dice": _mix([(t, _noise(28, 70, 7 + t)) for t in (0, 55, 95, 150, 230)]),
        "card": _mix([(0, _noise(110, 55, 3))]),
        "reveal": _mix([(0, _tone(523, 120, 35)), (90, _tone(659, 120, 35)), (180, _tone(784, 220, 40))]),
    }


def write(name: str, samples: list[int], directory: Path = OUT) -> Path:
    path = directory / f"{name}.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(v.to_bytes(2, "little", signed=True) for v in samples))
    return path


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, samples in cues().items():
        path = write(name, samples)
        print(f"{path.relative_to(OUT.parents[1])}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
