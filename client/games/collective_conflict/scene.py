"""What the board shows for one view, as plain data (no Qt): the testable half of painting.

:func:`build_scene` turns an engine view into :class:`UnitShape` items (one per
unit layer, bottom first) plus the traps and Data Cores.  Everything the
painter draws about a unit comes from here, so a test can check what a seat
is *shown* — above all that a foreign command unit never carries a MotherShip
or Decoy marker (CC-8): identities come only from ``view["mine"]``, the seat's
own sealed values (or every value in a finished game's full replay view).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Hex = tuple[int, int]

#: Public kinds that are a command unit (the full game hides which; classic shows "mothership").
COMMAND_KINDS = ("command", "mothership", "decoy")


@dataclass(frozen=True)
class UnitShape:
    """One unit as drawn: where, how high, whose, which glyph, and its marks."""

    pid: int
    hex: Hex
    layer: int
    height: int
    owner: int
    #: The public kind ("command", "runner", "climber", "netcaster", "jumper", "wreck"; classic: "mothership").
    kind: str
    #: "mothership" / "decoy" only where this seat knows it (its own units); else None.
    identity: str | None = None
    #: Caught by an armed trap: cannot move during its owner's next turn.
    frozen: bool = False
    #: Cannot move this turn (a Virus was used on it or on a neighbour of its Network).
    blocked: bool = False
    #: Designated by a Virus: it and its own neighbours will be blocked on its owner's next turn.
    targeted: bool = False
    #: A Runner of a Network that holds the Virus.
    carrier: bool = False

    @property
    def top(self) -> bool:
        return self.layer == self.height - 1


@dataclass(frozen=True)
class TrapShape:
    hex: Hex
    owner: int
    #: True/False for the seat's own traps (armed or a bluff), None for foreign ones.
    armed: bool | None


@dataclass(frozen=True)
class Scene:
    units: tuple[UnitShape, ...]
    traps: tuple[TrapShape, ...]
    cores: tuple[Hex, ...]
    seat: int | None

    def stacks(self) -> dict[Hex, list[UnitShape]]:
        out: dict[Hex, list[UnitShape]] = {}
        for unit in self.units:
            out.setdefault(unit.hex, []).append(unit)
        return out

    def hexes(self) -> set[Hex]:
        return {u.hex for u in self.units} | set(self.cores) | {t.hex for t in self.traps}


def identities(view: dict[str, Any]) -> dict[int, str]:
    """``pid -> "mothership" | "decoy"`` for the command units whose sealed value this view holds."""
    mine = view.get("mine") or {}
    out: dict[int, str] = {}
    for pid, sid in view.get("command_units", ()):
        entry = mine.get(sid)
        if entry is not None and entry.get("what") == "command-unit" and entry.get("value") in ("mothership", "decoy"):
            out[pid] = entry["value"]
    return out


def build_scene(view: dict[str, Any]) -> Scene:
    """The units, traps and Data Cores of ``view``, in drawing order (stacks bottom first, rows top down)."""
    known = identities(view)
    frozen = set(view.get("frozen_next", ()))
    blocked = set(view.get("blocked", ()))
    targeted = {p for targets in view.get("virus_targets", ()) for p in targets}
    carriers = {seat for seat, has in enumerate(view.get("virus", ())) if has}
    units = []
    for q, r, stack in sorted(view["stacks"], key=lambda s: (s[1], s[0])):
        for layer, (pid, owner, kind) in enumerate(stack):
            units.append(
                UnitShape(
                    pid,
                    (q, r),
                    layer,
                    len(stack),
                    owner,
                    kind,
                    known.get(pid) if kind in COMMAND_KINDS else None,
                    pid in frozen,
                    pid in blocked,
                    pid in targeted,
                    kind == "runner" and owner in carriers,
                )
            )
    mine = view.get("mine") or {}
    traps = []
    for q, r, owner, sid in view.get("traps", ()):
        entry = mine.get(sid)
        traps.append(TrapShape((q, r), owner, bool(entry["value"]) if entry is not None else None))
    cores = tuple((q, r) for q, r in view.get("cores", ()))
    return Scene(tuple(units), tuple(traps), cores, view.get("seat"))


@dataclass(frozen=True)
class Changes:
    """What changed between two consecutive views: for the last-move arrow and the flashes."""

    moved: tuple[tuple[int, Hex, Hex], ...] = ()
    placed: tuple[tuple[int, Hex], ...] = ()
    wrecked: tuple[tuple[int, Hex], ...] = ()
    removed: tuple[tuple[int, Hex, str], ...] = ()
    collapsed: tuple[int, ...] = ()


def _pieces(view: dict[str, Any]) -> dict[int, tuple[Hex, int, str]]:
    return {pid: ((q, r), owner, kind) for q, r, stack in view["stacks"] for pid, owner, kind in stack}


def diff(before: dict[str, Any] | None, after: dict[str, Any]) -> Changes:
    """Units moved, placed, turned into Wrecks and removed; Networks that collapsed."""
    if before is None:
        return Changes()
    old, new = _pieces(before), _pieces(after)
    moved = tuple((pid, old[pid][0], h) for pid, (h, _, _) in sorted(new.items()) if pid in old and old[pid][0] != h)
    placed = tuple((pid, h) for pid, (h, _, _) in sorted(new.items()) if pid not in old)
    wrecked = tuple(
        (pid, h)
        for pid, (h, owner, kind) in sorted(new.items())
        if kind == "wreck" and pid in old and old[pid][2] != "wreck"
    )
    removed = tuple((pid, h, kind) for pid, (h, _, kind) in sorted(old.items()) if pid not in new)
    collapsed = tuple(
        seat for seat, (was, now) in enumerate(zip(before["active"], after["active"], strict=False)) if was and not now
    )
    return Changes(moved, placed, wrecked, removed, collapsed)
