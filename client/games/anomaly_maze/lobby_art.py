"""The maze's picture in the lobby: a few corridors, both pawns, a key and a chest."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter

from client.games.anomaly_maze import paint
from client.ui.art import Picture
from engines.anomaly_maze.board import E, N, S, W

# A 3 × 4 corner of a maze (open sides per tile), drawn row by row.
_TILES = (
    (E | S, E | W | S, W | S, S),
    (N | E | S, N | W, N | S | E, N | W | S),
    (N | E, E | W, N | W | E, N | W),
)


class MazeArt(Picture):
    def paint(self, p: QPainter) -> None:
        rows, cols = len(_TILES), len(_TILES[0])
        s = min(self.width() / (cols + 0.6), self.height() / (rows + 0.6))
        x0, y0 = (self.width() - cols * s) / 2, (self.height() - rows * s) / 2
        cell = [[QRectF(x0 + c * s, y0 + r * s, s, s) for c in range(cols)] for r in range(rows)]
        for r, row in enumerate(_TILES):
            for c, mask in enumerate(row):
                paint.paint_tile(p, cell[r][c], mask)
        inset = s * 0.2
        paint.paint_key(p, cell[0][2].adjusted(inset, inset, -inset, -inset), paint.seat_colour(0))
        paint.paint_chest(p, cell[2][3].adjusted(inset, inset, -inset, -inset), paint.seat_colour(0))
        paint.paint_pawn(p, cell[1][0], 0, 10, 10, False, True)
        paint.paint_pawn(p, cell[2][1], 1, 6, 10, False, False)
