"""Draw the small diagrams of the players' rules pages (client/rules/img/*.svg) from the engines' own rules.

Run ``python scripts/rules_diagrams.py`` after a rule change; ``--check`` only
compares (a test runs it, so a picture can never drift from the engine).
Every marked destination is asked of the engine: a Collective Conflict unit is
put on a small hand-built board and ``unit_moves`` says where it may go; an
Anomaly Maze shift is the engine's ``shift_tiles`` and a move is its ``paths``.
The pictures carry no words (letters, arrows and marks only), so one picture
serves the pages of all three languages.  Output is plain SVG text, the same
on every machine.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines.anomaly_maze import board as maze  # noqa: E402
from engines.collective_conflict import CollectiveConflictState  # noqa: E402
from engines.collective_conflict.rules import COMMAND, KIND_BY_NAME  # noqa: E402
from engines.core.hexgrid import hex_id, hex_qr  # noqa: E402

OUT = ROOT / "client" / "rules" / "img"

# Colours shared by all pictures: your units, the others', the marks.
OWN, OWN_EDGE = "#cfe0ff", "#3b6fd8"
OTHER, OTHER_EDGE = "#f4d6d0", "#b5533f"
MOVER, MOVER_EDGE = "#3b6fd8", "#1d3f8c"
EMPTY_EDGE = "#d9d4c7"
MARK = "#1f8a4c"
INK = "#2b2b2b"


def _svg(width: float, height: float, body: Iterable[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">\n'
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fffdf8"/>\n'
    )
    return head + "\n".join(body) + "\n</svg>\n"


def _text(x: float, y: float, text: str, size: int = 15, colour: str = INK, weight: str = "bold") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" font-weight="{weight}" '
        f'fill="{colour}" text-anchor="middle" dominant-baseline="central">{text}</text>'
    )


# -- Collective Conflict ---------------------------------------------------------------

#: The small board every unit diagram shares: a ring of six units around an empty hex (1, 0).
#: ``(q, r): [codes, bottom first]``; a code is a seat digit and a kind letter.
RING = {(1, -1): ["1R"], (2, -1): ["1J"], (2, 0): ["0M"], (1, 1): ["1N"], (0, 1): ["0R"]}
LETTERS = {"M": "mothership", "R": "runner", "C": "climber", "N": "netcaster", "J": "jumper"}
HEX = 24.0


def _cc_position(units: dict[tuple[int, int], list[str]]) -> CollectiveConflictState:
    """A two-player position built by hand, seat 0 to move with its Network activated."""
    state = CollectiveConflictState(2, {"first_player": 0, "data_cores": False})
    for (q, r), codes in sorted(units.items()):
        for code in codes:
            seat, letter = int(code[0]), code[1]
            h = hex_id(q, r)
            if letter == "M":
                pid = state._new_piece(seat, COMMAND, h)
                sid = state.next_sid
                state._seal(sid, seat, "command-unit", [q, r])
                state.commands[seat].append(sid)
                state.piece_sid[pid] = sid
            else:
                state._new_piece(seat, KIND_BY_NAME[LETTERS[letter]], h)
            state.placed[seat] += 1
    state.moves = [5, 5]
    state.current = 0
    return state


def _cc_moves(units: dict[tuple[int, int], list[str]], src: tuple[int, int]) -> tuple[set, set]:
    """The engine's destinations of the unit on ``src``: (single moves, second jumps)."""
    state = _cc_position(units)
    h = hex_id(*src)
    first, second = set(), set()
    for s, d, extra in state.unit_moves(0):
        if s != h:
            continue
        is_jump = extra is not None and state.p_kind[state.stacks[h][-1]] == KIND_BY_NAME["jumper"]
        (second if is_jump else first).add(hex_qr(d))
    return first, second


def _hex_corners(cx: float, cy: float, size: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{cx + size * math.cos(a):.1f},{cy + size * math.sin(a):.1f}")
    return " ".join(pts)


def cc_diagram(units: dict[tuple[int, int], list[str]], src: tuple[int, int]) -> str:
    """The board with the moving unit (dark, lettered) and a mark on every hex it may reach."""
    first, second = _cc_moves(units, src)
    cells = set(units) | first | second
    frame = set()
    for q, r in cells:
        frame.update((q + dq, r + dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)))
    frame |= cells

    def centre(q: int, r: int) -> tuple[float, float]:
        return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r

    xs = [centre(*c)[0] for c in frame]
    ys = [centre(*c)[1] for c in frame]
    ox, oy = -min(xs) + HEX * 1.2, -min(ys) + HEX * 1.2
    body = []
    for q, r in sorted(frame, key=lambda c: (c[1], c[0])):
        x, y = centre(q, r)
        x, y = x + ox, y + oy
        stack = units.get((q, r))
        if stack is None:
            body.append(f'<polygon points="{_hex_corners(x, y, HEX - 1)}" fill="none" stroke="{EMPTY_EDGE}"/>')
        else:
            top = stack[-1]
            moving = (q, r) == src
            fill, edge = (MOVER, MOVER_EDGE) if moving else (OWN, OWN_EDGE) if top[0] == "0" else (OTHER, OTHER_EDGE)
            body.append(
                f'<polygon points="{_hex_corners(x, y, HEX - 1.5)}" fill="{fill}" stroke="{edge}" stroke-width="2"/>'
            )
            if moving:
                body.append(_text(x, y, top[1], 17, "#ffffff"))
            if len(stack) > 1:
                body.append(
                    f'<polygon points="{_hex_corners(x, y, HEX - 6)}" fill="none" stroke="{edge}" stroke-width="1.5"/>'
                )
        if (q, r) in first and stack is not None:
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{HEX * 0.55:.1f}" fill="none" stroke="{MARK}" '
                        f'stroke-width="3.5"/>')
        elif (q, r) in first:
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{HEX * 0.3:.1f}" fill="{MARK}"/>')
        if (q, r) in second and (q, r) not in first:
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{HEX * 0.3:.1f}" fill="none" stroke="{MARK}" '
                        f'stroke-width="3"/>')
    width = max(xs) + ox + HEX * 1.2
    height = max(ys) + oy + HEX * 1.2
    return _svg(width, height, body)


def _with(unit: str, at: tuple[int, int], below: list[str] | None = None) -> dict[tuple[int, int], list[str]]:
    units = {k: list(v) for k, v in RING.items()}
    units[at] = (below or []) + [unit]
    return units


#: name -> (board, hex of the unit shown).
CC_DIAGRAMS = {
    "cc-mothership": (_with("0M", (0, 0)) | {(2, 0): ["0R"]}, (0, 0)),
    "cc-runner": (_with("0R", (0, 0)), (0, 0)),
    "cc-netcaster": (_with("0N", (0, 0)), (0, 0)),
    "cc-jumper": (_with("0J", (0, 0)), (0, 0)),
    "cc-climber": (_with("0C", (0, 0)), (0, 0)),
    "cc-climber-top": (_with("0C", (0, 1), ["0R"]) | {(0, 0): ["1R"]}, (0, 1)),
}


# -- Anomaly Maze ----------------------------------------------------------------------

CELL = 46.0


def _tile(x: float, y: float, mask: int, fill: str = "#f3ead2", size: float = CELL) -> list[str]:
    """A tile: walls drawn as the square, corridors as a light band from the centre to each open side."""
    s = size
    c = s / 2
    w = s * 0.34
    out = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{s:.1f}" height="{s:.1f}" fill="#6f6a5e" stroke="#4a463e"/>']
    out.append(
        f'<rect x="{x + c - w / 2:.1f}" y="{y + c - w / 2:.1f}" width="{w:.1f}" height="{w:.1f}" fill="{fill}"/>'
    )
    for side in maze.SIDES:
        if not mask & side:
            continue
        if side == maze.N:
            rx, ry, rw, rh = x + c - w / 2, y, w, c
        elif side == maze.S:
            rx, ry, rw, rh = x + c - w / 2, y + c, w, c
        elif side == maze.E:
            rx, ry, rw, rh = x + c, y + c - w / 2, c, w
        else:
            rx, ry, rw, rh = x, y + c - w / 2, c, w
        out.append(f'<rect x="{rx:.1f}" y="{ry:.1f}" width="{rw:.1f}" height="{rh:.1f}" fill="{fill}"/>')
    return out


def _arrow(x1: float, y1: float, x2: float, y2: float, colour: str = INK) -> str:
    ang = math.atan2(y2 - y1, x2 - x1)
    hx1, hy1 = x2 - 10 * math.cos(ang - 0.45), y2 - 10 * math.sin(ang - 0.45)
    hx2, hy2 = x2 - 10 * math.cos(ang + 0.45), y2 - 10 * math.sin(ang + 0.45)
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" stroke-width="2.5"/>'
        f'<polygon points="{x2:.1f},{y2:.1f} {hx1:.1f},{hy1:.1f} {hx2:.1f},{hy2:.1f}" fill="{colour}"/>'
    )


def am_tiles() -> str:
    """The three corridor kinds, then a corner turned by 90° (the engine's ``rotate``)."""
    straight, corner, tee = maze.SHAPES[0], maze.SHAPES[2], maze.SHAPES[6]
    body: list[str] = []
    gap = 28.0
    x = 16.0
    for mask in (straight, corner, tee):
        body += _tile(x, 16, mask)
        x += CELL + gap
    x += 10
    body += _tile(x, 16, corner)
    body.append(_arrow(x + CELL + 6, 16 + CELL / 2, x + CELL + 52, 16 + CELL / 2))
    body.append(_text(x + CELL + 29, 16 + CELL / 2 - 14, "90°", 13, INK, "normal"))
    body += _tile(x + CELL + 58, 16, maze.rotate(corner, 1))
    return _svg(x + 2 * CELL + 58 + 16, CELL + 32, body)


#: A fixed row G for the shift picture (G1 is player 1's Respawn).
SHIFT_ROW = (maze.RESPAWN_TILES[maze.RESPAWNS[0]], maze.SHAPES[1], maze.SHAPES[4], maze.SHAPES[1],
             maze.SHAPES[8], maze.SHAPES[3], maze.SHAPES[1])


def am_shift() -> str:
    """Row G before and after one shift east: the tile pushed off comes back at the west end, over the Respawn."""
    row = maze.line_cells("row", 6)
    tiles = [0] * maze.CELLS
    for c, mask in zip(row, SHIFT_ROW, strict=True):
        tiles[c] = mask
    after = maze.shift_tiles(tiles, "row", 6, 1)
    mapping, source, target = maze.SHIFTS[("row", 6, 1)]
    labels = {c: "abcdef"[i] for i, c in enumerate(c for c in row if c not in maze.RESPAWN_TILES)}
    labels_after = {mapping[c]: name for c, name in labels.items()}
    body: list[str] = []
    left, top = 20.0, 20.0
    for line, (tl, lab) in enumerate(((tiles, labels), (after, labels_after))):
        y = top + line * (CELL + 56)
        for i, c in enumerate(row):
            x = left + i * CELL
            respawn = c in maze.RESPAWN_TILES
            body += _tile(x, y, tl[c], "#cfe0ff" if respawn else "#f3ead2")
            body.append(_text(x + CELL / 2, y + CELL / 2, "R" if respawn else lab[c], 13,
                              MOVER_EDGE if respawn else INK))
    y_mid = top + CELL + 28
    body.append(_arrow(left + 1.5 * CELL, y_mid, left + 6.5 * CELL, y_mid))
    sx = left + row.index(source) * CELL + CELL / 2
    tx = left + row.index(target) * CELL + CELL / 2
    y2 = top + 2 * CELL + 56
    body.append(
        f'<path d="M {sx:.1f} {top + CELL:.1f} C {sx + 40:.1f} {y_mid:.1f}, {tx - 40:.1f} {y_mid + 10:.1f}, '
        f'{tx:.1f} {y2 - 56 + CELL + 2:.1f}" fill="none" stroke="{MARK}" stroke-width="2.5" stroke-dasharray="6 4"/>'
    )
    return _svg(left * 2 + 7 * CELL, top * 2 + 2 * CELL + 56, body)


def _maze_layout() -> list[int]:
    """A fixed, varied 7×7 layout for the move picture (not a dealt game)."""
    tiles = [maze.SHAPES[(c * 9 + (c // 7) * 7) % 10] for c in range(maze.CELLS)]
    for c, mask in maze.RESPAWN_TILES.items():
        tiles[c] = mask
    return tiles


MOVE_FROM, OPPONENT = maze.parse("D4"), maze.parse("B4")


def am_move() -> str:
    """The board: your pawn (blue), the opponent (red), a dot where a move of 0–3 steps ends, a dashed attack line."""
    tiles = _maze_layout()
    reach = {p[-1] for p in maze.paths(tiles, MOVE_FROM, OPPONENT, 3) if p}
    body: list[str] = []
    left = top = 30.0
    for c in range(maze.CELLS):
        r, k = maze.row_col(c)
        x, y = left + k * CELL, top + r * CELL
        body += _tile(x, y, tiles[c], "#cfe0ff" if c in maze.RESPAWN_TILES else "#f3ead2")
        if c in reach:
            body.append(f'<circle cx="{x + CELL / 2:.1f}" cy="{y + CELL / 2:.1f}" r="7" fill="{MARK}"/>')
    if maze.line_of_sight(tiles, MOVE_FROM, OPPONENT):  # an open corridor: an attack is possible
        (r1, k1), (r2, k2) = maze.row_col(MOVE_FROM), maze.row_col(OPPONENT)
        body.append(
            f'<line x1="{left + k1 * CELL + CELL / 2:.1f}" y1="{top + r1 * CELL + CELL / 2:.1f}" '
            f'x2="{left + k2 * CELL + CELL / 2:.1f}" y2="{top + r2 * CELL + CELL / 2:.1f}" '
            'stroke="#c4492c" stroke-width="3" stroke-dasharray="5 4"/>'
        )
    for c, fill, edge in ((MOVE_FROM, MOVER, MOVER_EDGE), (OPPONENT, "#d8624a", "#8c2f1d")):
        r, k = maze.row_col(c)
        body.append(f'<circle cx="{left + k * CELL + CELL / 2:.1f}" cy="{top + r * CELL + CELL / 2:.1f}" r="13" '
                    f'fill="{fill}" stroke="{edge}" stroke-width="2"/>')
    for k in range(maze.SIZE):
        body.append(_text(left + k * CELL + CELL / 2, top / 2, str(k + 1), 13, INK, "normal"))
    for r in range(maze.SIZE):
        body.append(_text(left / 2, top + r * CELL + CELL / 2, "ABCDEFG"[r], 13, INK, "normal"))
    return _svg(left + 7 * CELL + 12, top + 7 * CELL + 12, body)


# -- System Launch -----------------------------------------------------------------------

CARD_COLOURS = {"part": ("#d8e6ff", "#3b6fd8"), "protection": ("#d6f2dd", "#1f8a4c"), "event": ("#fde0d6", "#c4492c")}


def _card(x: float, y: float, kind: str, mark: str, back: bool = False) -> list[str]:
    if back:
        return [f'<rect x="{x:.1f}" y="{y:.1f}" width="40" height="56" rx="5" fill="#5b4a8a" stroke="#3a2f5c" '
                f'stroke-width="2"/>',
                f'<rect x="{x + 6:.1f}" y="{y + 6:.1f}" width="28" height="44" rx="3" fill="none" stroke="#a597d1"/>']
    fill, edge = CARD_COLOURS[kind]
    return [f'<rect x="{x:.1f}" y="{y:.1f}" width="40" height="56" rx="5" fill="{fill}" stroke="{edge}" '
            f'stroke-width="2"/>', _text(x + 20, y + 28, mark, 16, edge)]


def sl_win() -> str:
    """A launched System: three different Parts (1, 2, 3) and one Protection (shield), then the check mark."""
    body: list[str] = []
    x = 16.0
    for mark in ("1", "2", "3"):
        body += _card(x, 14, "part", mark)
        x += 48
    x += 12
    body += _card(x, 14, "protection", "◆")
    x += 60
    body.append(f'<path d="M {x:.1f} 42 l 12 12 l 22 -26" fill="none" stroke="{MARK}" stroke-width="5"/>')
    return _svg(x + 50, 84, body)


def sl_turn() -> str:
    """A turn: (1) draw from the deck, (2) one action from the hand to the System row, (3) discard down to five."""
    body: list[str] = []
    body += _card(16, 20, "", "", back=True)
    body += _card(20, 16, "", "", back=True)
    hand_x = 140.0
    for i, kind in enumerate(("part", "protection", "event", "part", "part", "event")):
        body += _card(hand_x + i * 22, 16, kind, "")
    body.append(_arrow(68, 44, 132, 44))
    body.append(_text(100, 28, "1", 15))
    body.append(_arrow(hand_x + 40, 80, hand_x + 10, 130))
    body.append(_text(hand_x + 12, 100, "2", 15))
    body.append(_arrow(hand_x + 120, 80, hand_x + 170, 130))
    body.append(_text(hand_x + 162, 100, "3", 15))
    for i, kind in enumerate(("part", "part", "protection")):
        body += _card(hand_x - 70 + i * 46, 136, kind, "")
    body += _card(hand_x + 150, 136, "event", "")
    return _svg(hand_x + 230, 206, body)


def diagrams() -> dict[str, str]:
    """Every picture, by file name."""
    out = {f"{name}.svg": cc_diagram(units, src) for name, (units, src) in CC_DIAGRAMS.items()}
    out["am-tiles.svg"] = am_tiles()
    out["am-shift.svg"] = am_shift()
    out["am-move.svg"] = am_move()
    out["sl-turn.svg"] = sl_turn()
    out["sl-win.svg"] = sl_win()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report pictures that differ from the engines")
    parser.add_argument("--out", type=Path, default=OUT, help="directory of the pictures")
    args = parser.parse_args(argv)
    stale = []
    for name, text in diagrams().items():
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if stale:
        print("out of date (run python scripts/rules_diagrams.py):", ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
